#ifndef AMPPROF_ANALYZERS_FACTS_DEVICE_MEMORY_H_
#define AMPPROF_ANALYZERS_FACTS_DEVICE_MEMORY_H_

// Device memory over the trace: the peak each GPU's memory reached, when, and in which training step.
// What AMP saves besides time (activations in FP16/BF16 take half the bytes), so the FP32-vs-AMP
// comparison shows it too.
//
// Two layers record memory, and a trace has one of them:
//   the framework's allocator   PyTorch profiler [memory] events (profile_memory=True): each tensor
//                               allocation and free, with what the caching allocator holds after it
//                               ("Total Allocated": tensors; "Total Reserved": segments it got from CUDA);
//   the driver                  cudaMalloc/cuMemAlloc and their frees (CUPTI, Nsight Systems): for
//                               PyTorch, the caching allocator's segments, i.e. its reserved memory.
// Allocated is the highest "Total Allocated" when the events carry it, else the highest running sum of
// allocations minus frees, counted from the trace's start (memory held before tracing began is not
// seen). Reserved is the highest "Total Reserved" (the allocator's events only).
//
//   for (const DeviceMemory& gpu : DescribeDeviceMemory(input))
//     if (gpu.allocated) fmt::print("{} in step {}\n", gpu.allocated->bytes, gpu.allocated->step);

#include <cstdint>
#include <optional>
#include <vector>

#include "collectors/records/records.h"
#include "src/base/time.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

class AnalysisInput;

struct MemoryPeak {
  uint64_t bytes = 0;
  base::TimeNs at = 0;  // the first time the peak was reached
  int32_t step = -1;    // the training step holding `at` (an index into Steps::intervals), -1 for none

  friend bool operator==(const MemoryPeak&, const MemoryPeak&) = default;
};

struct DeviceMemory {
  model::DeviceRow device;
  records::MemorySource source = records::MemorySource::kDriver;  // the layer the peaks come from
  uint64_t events = 0;                                            // of that layer, on this device
  std::optional<MemoryPeak> allocated;
  std::optional<MemoryPeak> reserved;
};

// Every device with memory events, in device-row order. A trace with the allocator's events is read
// from them alone (the driver's, if it also has some, are the same memory seen from below).
std::vector<DeviceMemory> DescribeDeviceMemory(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_DEVICE_MEMORY_H_
