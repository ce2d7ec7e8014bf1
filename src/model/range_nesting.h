#ifndef AMPPROF_SRC_MODEL_RANGE_NESTING_H_
#define AMPPROF_SRC_MODEL_RANGE_NESTING_H_

// The model builder's range steps: pairing the two ends of NVTX ranges, and nesting ranges per thread.
// Internal to src/model.

#include <cstdint>
#include <vector>

#include "src/base/stats.h"
#include "src/model/tables.h"

namespace ampprof::model {

// One end of a range recorded as two marks (records::MarkKind::kRangeStart / kRangeEnd).
struct RangeMark {
  uint32_t pid = 0;
  uint64_t range_id = 0;
  TimeNs timestamp = 0;
  ThreadRow thread;
  RangeLabelRow label;  // set on starts; the name travels with the start
};

// Pairs starts with ends by (pid, range_id), in time order when an id repeats, and appends one range per
// start to `ranges` (their parent and depth are left for SortAndNestRanges). A start without an end
// ends at `trace_end` (Stat::kRangeUnclosed); an end without a start is counted and dropped
// (Stat::kRangeEndWithoutStart). Ends are on the start's thread.
void AppendPairedRanges(std::vector<RangeMark> starts, std::vector<RangeMark> ends, TimeNs trace_end,
                        RangeTable& ranges, base::Stats& stats);

// Sorts `ranges` by (thread, start, end descending), fills parent and depth, and sets each thread's
// `ranges` row range. A range that starts inside another but ends after it gets, as parent, the
// innermost range that does contain it, and is not made anyone's parent (Stat::kRangeImproperNesting).
void SortAndNestRanges(RangeTable& ranges, std::vector<Thread>& threads, base::Stats& stats);

}  // namespace ampprof::model

#endif  // AMPPROF_SRC_MODEL_RANGE_NESTING_H_
