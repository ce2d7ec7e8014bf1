#ifndef AMPPROF_SRC_PIPELINE_TRACE_INPUTS_H_
#define AMPPROF_SRC_PIPELINE_TRACE_INPUTS_H_

// What the user named as traces, as the files to read: a directory stands for the trace files in it.
//
//   ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandTraceInputs({"traces/", "extra.ampt"}));

#include <string>
#include <vector>

#include "src/base/status.h"

namespace ampprof::pipeline {

// Directories become the trace files directly in them (sorted by name; files of no known format are
// skipped); files stay as they are. A directory with no trace in it is an error.
base::StatusOr<std::vector<std::string>> ExpandTraceInputs(const std::vector<std::string>& paths);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_TRACE_INPUTS_H_
