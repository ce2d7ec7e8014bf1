#ifndef AMPPROF_SRC_PIPELINE_TRACE_EXPORT_H_
#define AMPPROF_SRC_PIPELINE_TRACE_EXPORT_H_

// load -> build -> analyze -> export: one trace file to a file another tool opens, with ampprof's
// diagnosis (training steps, findings) drawn on it.
//
//   ASSIGN_OR_RETURN(ExportSummary summary, ExportTrace("run.ampt", ExportFormat::kChromeTrace,
//   "run.json"));
//
// The output is checked before the trace is read (base::OutputTarget), so an unwritable path fails at
// once, and an output that is the trace itself (through any link) is refused. A regular file is written
// beside its target and renamed into place when complete (base::OutputFile): a failed export leaves the
// target as it was. "-" is standard output, and a trace of "-" is read from standard input. The first
// failed write stops the export (the file and the system's reason in the error).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace ampprof::pipeline {

enum class ExportFormat {
  kChromeTrace,  // Trace Event Format JSON for the Perfetto UI and chrome://tracing
  kNvtxt,        // NVTX ranges as text, for Nsight Systems' ImportNvtxt
};

// "chrome" and "nvtxt"; nullopt for any other name.
std::optional<ExportFormat> ExportFormatNamed(std::string_view name);

struct ExportSummary {
  size_t kernels = 0;  // in the trace (the NVTXT export draws only the diagnosis)
  size_t steps = 0;
  size_t findings = 0;
  bool nsys_timebase = false;  // NVTXT: timestamps relative to the Nsight Systems report's start
  std::string output;               // how messages name the output: its path, or "standard output"
  bool to_standard_output = false;  // then a summary for the user goes to stderr, not into the output
};

base::StatusOr<ExportSummary> ExportTrace(const std::string& trace_path, ExportFormat format,
                                          const std::string& output_path);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_TRACE_EXPORT_H_
