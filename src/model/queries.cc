#include "src/model/queries.h"

#include <algorithm>

namespace ampprof::model {
namespace {

// Appends [start, end) to a sorted union under construction; inputs must come in start order.
void Extend(std::vector<base::Interval>& merged, TimeNs start, TimeNs end) {
  if (!merged.empty() && start <= merged.back().end) {
    merged.back().end = std::max(merged.back().end, end);
  } else {
    merged.push_back({start, end});
  }
}

}  // namespace

std::vector<base::Interval> BusyIntervals(const TraceModel& model, DeviceRow device, GpuWork work) {
  const KernelTable& kernels = model.kernels();
  std::vector<base::Interval> merged;
  const RowRange<KernelRow> rows = model.device(device).kernels;
  if (work == GpuWork::kKernels) {
    for (KernelRow k : rows) Extend(merged, kernels.start[k], kernels.end[k]);  // rows are in start order
    return merged;
  }
  std::vector<base::Interval> all;
  all.reserve(rows.size());
  for (KernelRow k : rows) all.push_back({kernels.start[k], kernels.end[k]});
  const MemcpyTable& copies = model.memcpys();
  for (uint32_t i = 0; i < copies.size(); ++i) {
    const MemcpyRow row(i);
    if (model.stream(copies.stream[row]).device == device) all.push_back({copies.start[row], copies.end[row]});
  }
  const MemsetTable& memsets = model.memsets();
  for (uint32_t i = 0; i < memsets.size(); ++i) {
    const MemsetRow row(i);
    if (model.stream(memsets.stream[row]).device == device) {
      all.push_back({memsets.start[row], memsets.end[row]});
    }
  }
  std::sort(all.begin(), all.end(),
            [](const base::Interval& a, const base::Interval& b) { return a.start < b.start; });
  for (const base::Interval& interval : all) Extend(merged, interval.start, interval.end);
  return merged;
}

DurationNs BusyTime(const TraceModel& model, DeviceRow device, GpuWork work) {
  if (work != GpuWork::kKernels) return TotalDuration(BusyIntervals(model, device, work));
  const KernelTable& kernels = model.kernels();
  DurationNs busy = 0;
  bool open = false;
  base::Interval current;
  for (KernelRow k : model.device(device).kernels) {
    if (open && kernels.start[k] <= current.end) {
      current.end = std::max(current.end, kernels.end[k]);
      continue;
    }
    if (open) busy += current.duration();
    current = {kernels.start[k], kernels.end[k]};
    open = true;
  }
  return open ? busy + current.duration() : busy;
}

DurationNs TotalDuration(std::span<const base::Interval> intervals) {
  DurationNs total = 0;
  for (const base::Interval& interval : intervals) total += interval.duration();
  return total;
}

std::vector<RangeRow> StepRanges(const TraceModel& model) {
  // Decide per label, not per range: labels are few.
  std::vector<bool> is_step(model.range_labels().size(), false);
  for (size_t i = 0; i < is_step.size(); ++i) {
    is_step[i] = model.Text(model.range_labels()[i].name).rfind("ProfilerStep#", 0) == 0;
  }
  std::vector<RangeRow> steps;
  const RangeTable& ranges = model.ranges();
  for (uint32_t i = 0; i < ranges.size(); ++i) {
    if (is_step[ranges.label[RangeRow(i)].value]) steps.push_back(RangeRow(i));
  }
  std::sort(steps.begin(), steps.end(),
            [&](RangeRow a, RangeRow b) { return ranges.start[a] < ranges.start[b]; });
  return steps;
}

RangeRow InnermostRangeAt(const TraceModel& model, ThreadRow thread, TimeNs t) {
  const RangeTable& ranges = model.ranges();
  const RowRange<RangeRow> rows = model.thread(thread).ranges;
  const auto starts = ranges.start.values();
  // The last range of the thread that starts at or before t. With proper nesting, any range that
  // contains t is it or one of its ancestors (it starts inside every enclosing range).
  const auto first = starts.begin() + rows.begin_value;
  const auto last = starts.begin() + rows.end_value;
  const auto after = std::upper_bound(first, last, t);
  if (after == first) return RangeRow();
  RangeRow candidate(static_cast<uint32_t>(after - starts.begin() - 1));
  while (candidate.valid() && !(ranges.start[candidate] <= t && t < ranges.end[candidate])) {
    candidate = ranges.parent[candidate];
  }
  return candidate;
}

std::optional<uint64_t> PeakDeviceAllocated(const TraceModel& model, DeviceRow device) {
  const MemoryTable& memory = model.memory();  // in timestamp order
  int64_t allocated = 0;
  int64_t peak = 0;
  bool any = false;
  for (uint32_t i = 0; i < memory.size(); ++i) {
    const MemoryEventRow row(i);
    if (memory.device[row] != device || memory.memory_kind[row] != records::MemoryKind::kDevice) {
      continue;
    }
    any = true;
    const auto bytes = static_cast<int64_t>(memory.bytes[row]);
    allocated += memory.operation[row] == records::MemoryOperation::kAllocate ? bytes : -bytes;
    peak = std::max(peak, allocated);
  }
  if (!any) return std::nullopt;
  return static_cast<uint64_t>(peak);
}

}  // namespace ampprof::model
