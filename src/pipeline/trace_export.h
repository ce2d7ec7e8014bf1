#ifndef AMPPROF_SRC_PIPELINE_TRACE_EXPORT_H_
#define AMPPROF_SRC_PIPELINE_TRACE_EXPORT_H_

// load -> build -> analyze -> export: one trace file to a file another tool opens, with ampprof's
// diagnosis (training steps, findings) drawn on it.
//
//   ASSIGN_OR_RETURN(ExportSummary summary, ExportTrace("run.ampt", ExportFormat::kChromeTrace,
//   "run.json"));
//
// The output is opened before the trace is read, so an unwritable path fails at once; a failed
// export removes what it had written.

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
};

base::StatusOr<ExportSummary> ExportTrace(const std::string& trace_path, ExportFormat format,
                                          const std::string& output_path);

}  // namespace ampprof::pipeline

#endif  // AMPPROF_SRC_PIPELINE_TRACE_EXPORT_H_
