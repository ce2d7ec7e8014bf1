#ifndef AMPPROF_SRC_CLI_OUTPUT_DIRECTORY_H_
#define AMPPROF_SRC_CLI_OUTPUT_DIRECTORY_H_

// The directory a traced run writes its traces into, checked before the workload starts: a run that
// could not write its trace should fail in a second, not after an hour of training.
//
//   ASSIGN_OR_RETURN(std::string dir, PrepareOutputDirectory("ampprof-out", /*replace=*/false));
//
// The directory is created when missing (with its parents), must be writable and its device must have
// space left. Traces of an earlier
// run in it (*.ampt) are never silently mixed with or overwritten by the new ones: that is an error,
// unless `replace`, which deletes them first. Returns the absolute path (the workload may chdir).

#include <string>
#include <vector>

#include "src/base/status.h"

namespace ampprof::cli {

base::StatusOr<std::string> PrepareOutputDirectory(const std::string& path, bool replace);

// The traces (*.ampt) directly in `dir`, sorted by name.
base::StatusOr<std::vector<std::string>> AmptTracesIn(const std::string& dir);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_OUTPUT_DIRECTORY_H_
