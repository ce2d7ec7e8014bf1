#include "analyzers/facts/device_memory.h"

#include <algorithm>

#include "analyzers/facts/analysis_input.h"

namespace ampprof::analyzers {
namespace {

using records::MemoryRecord;
using records::MemorySource;

// The step holding `t`: host-time steps hold the allocations their host code makes.
int32_t StepAt(const AnalysisInput& input, base::TimeNs t) {
  if (!input.steps()) return -1;
  const std::vector<base::Interval>& steps = input.steps()->intervals;
  const auto after = std::upper_bound(steps.begin(), steps.end(), t,
                                      [](base::TimeNs time, const base::Interval& step) { return time < step.start; });
  if (after == steps.begin()) return -1;
  const auto step = after - 1;
  return t < step->end ? static_cast<int32_t>(step - steps.begin()) : -1;
}

void Raise(std::optional<MemoryPeak>& peak, uint64_t bytes, base::TimeNs at) {
  if (!peak || bytes > peak->bytes) peak = MemoryPeak{bytes, at, -1};
}

}  // namespace

std::vector<DeviceMemory> DescribeDeviceMemory(const AnalysisInput& input) {
  const model::MemoryTable& memory = input.model.memory();  // in timestamp order
  const bool allocator = std::find(memory.source.values().begin(), memory.source.values().end(),
                                   MemorySource::kFrameworkAllocator) != memory.source.values().end();
  const MemorySource source = allocator ? MemorySource::kFrameworkAllocator : MemorySource::kDriver;
  std::vector<DeviceMemory> devices(input.model.devices().size());
  std::vector<int64_t> running(devices.size(), 0);
  for (uint32_t i = 0; i < memory.size(); ++i) {
    const model::MemoryEventRow row(i);
    if (memory.source[row] != source || memory.memory_kind[row] != records::MemoryKind::kDevice) continue;
    const uint32_t d = memory.device[row].value;
    DeviceMemory& gpu = devices[d];
    gpu.device = memory.device[row];
    gpu.source = source;
    ++gpu.events;
    const base::TimeNs at = memory.timestamp[row];
    const auto bytes = static_cast<int64_t>(std::min<uint64_t>(memory.bytes[row], INT64_MAX / 4));
    running[d] += memory.operation[row] == records::MemoryOperation::kAllocate ? bytes : -bytes;
    const uint64_t total_allocated = memory.total_allocated[row];
    Raise(gpu.allocated, total_allocated != MemoryRecord::kUnknownTotal ? total_allocated
                                                                         : static_cast<uint64_t>(std::max<int64_t>(running[d], 0)),
          at);
    if (memory.total_reserved[row] != MemoryRecord::kUnknownTotal) Raise(gpu.reserved, memory.total_reserved[row], at);
  }
  std::vector<DeviceMemory> described;
  for (DeviceMemory& gpu : devices) {
    if (gpu.events == 0) continue;
    if (gpu.allocated) gpu.allocated->step = StepAt(input, gpu.allocated->at);
    if (gpu.reserved) gpu.reserved->step = StepAt(input, gpu.reserved->at);
    described.push_back(gpu);
  }
  return described;
}

}  // namespace ampprof::analyzers
