#ifndef AMPPROF_REPORTS_EXPORT_CHROME_TRACE_EXPORTER_H_
#define AMPPROF_REPORTS_EXPORT_CHROME_TRACE_EXPORTER_H_

// Chrome trace export: the whole trace with ampprof's diagnosis drawn on it, as Trace Event Format
// JSON that the Perfetto UI (ui.perfetto.dev) and chrome://tracing open.
//
//   std::ofstream file("run.json");
//   RETURN_IF_ERROR(WriteChromeTrace(input, file));
//
// Tracks (pid and tid are what both viewers group rows by; docs/formats/chrome-trace.md has every
// mapping):
//   ampprof diagnosis  pid 1000000000, listed first: tid 1 the training steps, then one tid per
//                      finding, with a slice at each of its locations (the gaps, syncs, kernels or
//                      steps it is about); a finding without locations is one range over the
//                      analysed window with its verdict and evidence. Overlapping locations take
//                      extra tids after all findings'.
//   each CPU thread    the trace's own pid and tid: CUDA API calls, NVTX ranges, framework ops,
//   marks each GPU           pid 1000000001 + n ("GPU 0: NVIDIA H100 ..."), tid = the CUDA stream
//   id:
//                      kernels, memcpys, memsets
//   launch -> work     a flow arrow from each launching API call to its kernel, memcpy or memset
// Linux pids stay below 2^22, so the made-up pids never collide with a real process.
// Event categories and argument names are Kineto's where Kineto has the event ("kernel",
// "cuda_runtime", "gpu_memcpy"; "device", "stream", "correlation", "grid", "block"), so that tools
// that read PyTorch profiler traces, ampprof included, read the export back.
//
// Timestamps are the trace's own clock, in microseconds with three decimals (nanosecond precision).
// The file is written as it goes, through a buffer of about 1 MiB: memory does not grow with the
// trace.

#include <cstdint>
#include <ostream>

#include "reports/export/export_input.h"
#include "src/base/status.h"

namespace ampprof::reports {

inline constexpr uint32_t kChromeDiagnosisPid = 1'000'000'000;
inline constexpr uint32_t kChromeFirstGpuPid =
    kChromeDiagnosisPid + 1;  // + the device's row in the model
inline constexpr uint32_t kChromeStepsTid = 1;
inline constexpr uint32_t kChromeFirstFindingTid = 2;  // + the finding's index in report order

// Writes the JSON document to `out`; an error when `out` fails (it stops at the first failed
// write).
base::Status WriteChromeTrace(const ExportInput& input, std::ostream& out);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_EXPORT_CHROME_TRACE_EXPORTER_H_
