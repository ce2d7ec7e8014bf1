#include "collectors/records/record_set.h"

#include <type_traits>

namespace ampprof::records {
namespace {

// Copies `record`, translating every StringId field from `from` into `to`.
template <typename Record>
Record Reintern(const Record& record, const base::StringPool& from, base::StringPool& to) {
  Record copy = record;
  Record::Fields(copy, [&](auto& field) {
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, StringId>) {
      field = to.Intern(from.Get(field));
    }
  });
  return copy;
}

template <typename Record>
void ReplayAll(const std::vector<Record>& records, const base::StringPool& from, RecordSink& sink) {
  if (records.empty()) return;
  sink.Reserve(RecordTraits<Record>::kKind, records.size());
  for (const Record& record : records) sink.Add(Reintern(record, from, sink.strings()));
}

}  // namespace

size_t RecordSet::record_count() const {
  return devices.size() + processes.size() + threads.size() + kernels.size() + api_calls.size() +
         memcpys.size() + memsets.size() + syncs.size() + ranges.size() + marks.size() +
         memory.size() + overheads.size();
}

void RecordSet::ReplayInto(RecordSink& sink) const {
  for (const auto& [key, value] : metadata) sink.SetMetadata(key, value);
  ReplayAll(devices, strings_, sink);
  ReplayAll(processes, strings_, sink);
  ReplayAll(threads, strings_, sink);
  ReplayAll(kernels, strings_, sink);
  ReplayAll(api_calls, strings_, sink);
  ReplayAll(memcpys, strings_, sink);
  ReplayAll(memsets, strings_, sink);
  ReplayAll(syncs, strings_, sink);
  ReplayAll(ranges, strings_, sink);
  ReplayAll(marks, strings_, sink);
  ReplayAll(memory, strings_, sink);
  ReplayAll(overheads, strings_, sink);
  sink.stats().MergeFrom(stats_);
}

}  // namespace ampprof::records
