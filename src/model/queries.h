#ifndef AMPPROF_SRC_MODEL_QUERIES_H_
#define AMPPROF_SRC_MODEL_QUERIES_H_

// Questions analyzers ask of a TraceModel, answered once here so that every analyzer means the same
// thing by "busy" or "the op that launched this kernel".
//
//   std::vector<Interval> busy = BusyIntervals(model, device, GpuWork::kKernels);
//   DurationNs busy_time = TotalDuration(busy);
//   ApiCallRow launch = LaunchingCall(model, kernel);
//   RangeRow op = InnermostRangeAt(model, model.api_calls().thread[launch], model.api_calls().start[launch]);

#include <optional>
#include <span>
#include <vector>

#include "src/model/trace_model.h"

namespace ampprof::model {

enum class GpuWork {
  kKernels,          // kernels only (compute; HTA and the fixtures' "busy" mean this)
  kKernelsAndCopies  // kernels, memcpys and memsets
};

// The union of the intervals during which `device` executed work, sorted and disjoint. Kernels that
// overlap (concurrent streams) count once.
std::vector<base::Interval> BusyIntervals(const TraceModel& model, DeviceRow device, GpuWork work);

// TotalDuration(BusyIntervals(...)) without materialising the intervals (for kernels only, which are
// already in start order: a launch-bound trace has about one interval per kernel).
DurationNs BusyTime(const TraceModel& model, DeviceRow device, GpuWork work);

// Sum of the durations of disjoint intervals.
// The highest sum of device-memory allocations minus frees on `device`, counted from the trace's start
// (memory held before tracing began is not seen); nullopt when the trace recorded none for it.
std::optional<uint64_t> PeakDeviceAllocated(const TraceModel& model, DeviceRow device);

DurationNs TotalDuration(std::span<const base::Interval> intervals);

// The API call that launched `kernel` (cudaLaunchKernel, cuLaunchKernelEx, cudaGraphLaunch, ...), or
// an invalid row when it was not recorded.
inline ApiCallRow LaunchingCall(const TraceModel& model, KernelRow kernel) {
  return model.kernels().launch[kernel];
}

// The training steps the trace marks, in start order: PyTorch profiler "ProfilerStep#N" ranges (what
// torch.profiler.schedule records each profiler.step()). Empty when the trace marks none.
std::vector<RangeRow> StepRanges(const TraceModel& model);

// The innermost range open on `thread` at time `t` (start <= t < end), or an invalid row.
RangeRow InnermostRangeAt(const TraceModel& model, ThreadRow thread, TimeNs t);

}  // namespace ampprof::model

#endif  // AMPPROF_SRC_MODEL_QUERIES_H_
