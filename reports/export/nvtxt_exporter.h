#ifndef AMPPROF_REPORTS_EXPORT_NVTXT_EXPORTER_H_
#define AMPPROF_REPORTS_EXPORT_NVTXT_EXPORTER_H_

// NVTXT export: ampprof's diagnosis as NVTX ranges in NVTXT, the text form of NVTX that Nsight
// Systems' ImportNvtxt tool turns into a report or merges into an existing one, so that someone who
// lives in Nsight Systems sees the training steps and the findings on their own timeline:
//
//   ampprof export report.sqlite --format nvtxt -o diagnosis.nvtxt
//   ImportNvtxt --cmd merge -i report.nsys-rep -n diagnosis.nvtxt -o report-ampprof.nsys-rep
//
// What is written (docs/formats/nvtxt.md has the grammar, its sources, and what could not be
// checked without Nsight Systems):
//   SetFileDisplayName, ampprof
//   @RangeStartEnd, Start, End, ThreadId, Message       the order of the explicit arguments
//   ProcessId = 4242                                     the implicit ones, as variables
//   CategoryId = 1
//   Color = Blue
//   TimeBase = Relative
//   RangeStartEnd, 1200000, 2018000, 4243, "ampprof step 1"
//   CategoryId = 2
//   # warning gpu.launch_bound: GPU 0 is idle ... (16 of 7624 places, the longest)
//   RangeStartEnd, 1310000, 1318000, 4243, "ampprof warning gpu.launch_bound: waiting for the host ..."
//   RangeStartEnd, 1200000, 82900000, 4243, "ampprof info tensor_cores.unavailable: ..."
// Steps are category 1, findings category 2; all on the thread that launched the most GPU work. A
// finding is drawn at its locations (finding_locations.h), one range each, in time order; one with
// none (about the run as a whole) over the analysed window.
// Only the diagnosis is written: the trace's own kernels and ranges are in the report already.

#include <ostream>

#include "reports/export/export_input.h"
#include "src/base/status.h"

namespace ampprof::reports {

// How ImportNvtxt places the file's timestamps (its TimeBase).
enum class NvtxtTimeBase {
  // Nanoseconds from the start of the report merged with: what Nsight Systems' SQLite export holds,
  // so the ranges line up with the report the trace was exported from.
  kRelative,
  // Absolute values, used as they are: for traces from other profilers, whose clock an Nsight
  // Systems
  // report does not share (ImportNvtxt --cmd create, or merge with a --mode lin/lerp mapping).
  kManual,
};

struct NvtxtOptions {
  NvtxtTimeBase time_base = NvtxtTimeBase::kManual;
};

// Writes the NVTXT file to `out`; an error when `out` fails.
base::Status WriteNvtxt(const ExportInput& input, const NvtxtOptions& options, std::ostream& out);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_EXPORT_NVTXT_EXPORTER_H_
