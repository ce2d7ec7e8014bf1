#ifndef AMPPROF_COLLECTORS_SYNTHETIC_MARK_RANGES_H_
#define AMPPROF_COLLECTORS_SYNTHETIC_MARK_RANGES_H_

// Kineto JSON and nsys push/pop ranges store a range as one event, where records carry its start and
// its end as two MarkRecords: this pairs them (by range_id) into one RangeRecord, for the writers of
// those formats. An end without its start, and an instant mark, give nothing.

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "collectors/records/records.h"

namespace ampprof::synthetic {

class MarkRangePairer {
 public:
  std::optional<records::RangeRecord> Add(const records::MarkRecord& mark) {
    if (mark.kind == records::MarkKind::kRangeStart) {
      open_[mark.range_id] = mark;
      return std::nullopt;
    }
    if (mark.kind != records::MarkKind::kRangeEnd) return std::nullopt;
    const auto start = open_.find(mark.range_id);
    if (start == open_.end()) return std::nullopt;
    records::RangeRecord range;
    range.start = start->second.timestamp;
    range.end = mark.timestamp;
    range.pid = start->second.pid;
    range.tid = start->second.tid;
    range.category = start->second.category;
    range.domain = start->second.domain;
    range.name = start->second.name;  // the name travels with the start
    open_.erase(start);
    return range;
  }

 private:
  std::unordered_map<uint64_t, records::MarkRecord> open_;  // range_id -> its start
};

}  // namespace ampprof::synthetic

#endif  // AMPPROF_COLLECTORS_SYNTHETIC_MARK_RANGES_H_
