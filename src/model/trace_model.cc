#include "src/model/trace_model.h"

#include <algorithm>

namespace ampprof::model {
namespace {

template <typename Table>
size_t TableBytes(const Table& table) {
  size_t bytes = 0;
  Table::ForEachColumn(table, [&](const auto& column) { bytes += column.capacity_bytes(); });
  return bytes;
}

}  // namespace

std::string_view TraceModel::Metadata(std::string_view key) const {
  const auto it = metadata_.find(key);
  return it == metadata_.end() ? std::string_view() : std::string_view(it->second);
}

std::string_view TraceModel::KernelName(KernelRow row) const {
  return strings_.Get(signatures_[kernels_.signature[row].value].name);
}

std::optional<base::Interval> TraceModel::GpuSpan() const {
  std::optional<base::Interval> span;
  auto extend = [&](std::span<const TimeNs> starts, std::span<const TimeNs> ends) {
    if (starts.empty()) return;
    const TimeNs first = *std::min_element(starts.begin(), starts.end());
    const TimeNs last = *std::max_element(ends.begin(), ends.end());
    span = span ? base::Interval{std::min(span->start, first), std::max(span->end, last)}
                : base::Interval{first, last};
  };
  extend(kernels_.start.values(), kernels_.end.values());
  extend(memcpys_.start.values(), memcpys_.end.values());
  extend(memsets_.start.values(), memsets_.end.values());
  return span;
}

size_t TraceModel::MemoryBytes() const {
  size_t bytes = strings_.memory_bytes();
  bytes += TableBytes(kernels_) + TableBytes(api_calls_) + TableBytes(memcpys_) +
           TableBytes(memsets_) + TableBytes(syncs_) + TableBytes(ranges_) + TableBytes(marks_) +
           TableBytes(memory_) + TableBytes(overheads_);
  for (const Stream& stream : streams_) bytes += stream.kernels.capacity() * sizeof(KernelRow);
  bytes += signatures_.capacity() * sizeof(KernelSignature) +
           range_labels_.capacity() * sizeof(RangeLabel) + threads_.capacity() * sizeof(Thread) +
           devices_.capacity() * sizeof(Device) + processes_.capacity() * sizeof(Process);
  return bytes;
}

}  // namespace ampprof::model
