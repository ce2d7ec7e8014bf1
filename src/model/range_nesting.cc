#include "src/model/range_nesting.h"

#include <algorithm>
#include <tuple>

#include "src/model/permutation.h"

namespace ampprof::model {

void AppendPairedRanges(std::vector<RangeMark> starts, std::vector<RangeMark> ends, TimeNs trace_end,
                        RangeTable& ranges, base::Stats& stats) {
  auto by_key = [](const RangeMark& a, const RangeMark& b) {
    return std::tie(a.pid, a.range_id, a.timestamp) < std::tie(b.pid, b.range_id, b.timestamp);
  };
  std::sort(starts.begin(), starts.end(), by_key);
  std::sort(ends.begin(), ends.end(), by_key);
  auto add_range = [&](const RangeMark& start, TimeNs end) {
    if (ranges.size() >= kMaxRows) {
      stats.Increment(base::Stat::kTableRowLimit);
      return;
    }
    if (end < start.timestamp) {
      stats.Increment(base::Stat::kRecordNegativeDuration);
      end = start.timestamp;
    }
    ranges.start.storage().push_back(start.timestamp);
    ranges.end.storage().push_back(end);
    ranges.thread.storage().push_back(start.thread);
    ranges.label.storage().push_back(start.label);
    ranges.sequence.storage().push_back(kNoSequence);  // NVTX ranges carry no sequence number
  };
  size_t e = 0;
  for (const RangeMark& start : starts) {
    while (e < ends.size() &&
           std::tie(ends[e].pid, ends[e].range_id) < std::tie(start.pid, start.range_id)) {
      stats.Increment(base::Stat::kRangeEndWithoutStart);
      ++e;
    }
    if (e < ends.size() && ends[e].pid == start.pid && ends[e].range_id == start.range_id) {
      add_range(start, ends[e].timestamp);
      ++e;
    } else {
      stats.Increment(base::Stat::kRangeUnclosed);
      add_range(start, std::max(trace_end, start.timestamp));
    }
  }
  stats.Increment(base::Stat::kRangeEndWithoutStart, static_cast<int64_t>(ends.size() - e));
}

void SortAndNestRanges(RangeTable& ranges, std::vector<Thread>& threads, base::Stats& stats) {
  {
    const auto thread_of = ranges.thread.values();
    const auto starts = ranges.start.values();
    const auto ends = ranges.end.values();
    ranges.parent.storage().resize(ranges.size());
    ranges.depth.storage().resize(ranges.size());
    // Parents first: at equal starts, the longer range encloses the shorter.
    internal::SortRows(ranges, ranges.size(), [&](uint32_t a, uint32_t b) {
      return std::make_tuple(thread_of[a].value, starts[a], -ends[a]) <
             std::make_tuple(thread_of[b].value, starts[b], -ends[b]);
    });
  }
  auto depth_of = [](size_t depth) { return static_cast<uint16_t>(std::min<size_t>(depth, UINT16_MAX)); };
  std::vector<RangeRow> open;  // ranges enclosing the current one, outermost first
  for (uint32_t row = 0; row < ranges.size();) {
    const ThreadRow thread = ranges.thread[RangeRow(row)];
    uint32_t end = row;
    open.clear();
    for (; end < ranges.size() && ranges.thread[RangeRow(end)] == thread; ++end) {
      const RangeRow range(end);
      while (!open.empty() && ranges.end[open.back()] <= ranges.start[range]) open.pop_back();
      if (open.empty() || ranges.end[range] <= ranges.end[open.back()]) {
        ranges.parent.storage()[end] = open.empty() ? RangeRow() : open.back();
        ranges.depth.storage()[end] = depth_of(open.size());
        open.push_back(range);
        continue;
      }
      // It starts inside the innermost open range but ends after it: not nested. Its parent is the
      // innermost open range that does contain it, and it does not become a parent itself.
      stats.Increment(base::Stat::kRangeImproperNesting);
      size_t depth = open.size();
      while (depth > 0 && ranges.end[open[depth - 1]] < ranges.end[range]) --depth;
      ranges.parent.storage()[end] = depth == 0 ? RangeRow() : open[depth - 1];
      ranges.depth.storage()[end] = depth_of(depth);
    }
    threads[thread.value].ranges = {row, end};
    row = end;
  }
}

}  // namespace ampprof::model
