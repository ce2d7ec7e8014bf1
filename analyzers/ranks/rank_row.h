#ifndef AMPPROF_ANALYZERS_RANKS_RANK_ROW_H_
#define AMPPROF_ANALYZERS_RANKS_RANK_ROW_H_

// One rank as the cross-rank report compares it: its measures per step, from its summary.
//
//   RankRow row = MakeRankRow(summary);
//   row.Of(Measure::kCompute)   // the rank's compute per measured step

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/ranks/rank_summary.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// The per-step measures of a rank that the report compares across ranks.
enum class Measure : uint8_t {
  kStep,                   // the median measured step
  kCompute,                // compute per step
  kExposedCommunication,   // communication no compute hides, per step
  kCollectives,            // every collective kernel's time per step, hidden or not: where ranks wait
  kHostWait,               // idle waiting for the host: launches, refilling after a sync, host busy
  kIdle,                   // idle of every cause
};
inline constexpr size_t kMeasures = 6;
inline constexpr Measure kAllMeasures[] = {Measure::kStep,        Measure::kCompute,  Measure::kExposedCommunication,
                                           Measure::kCollectives, Measure::kHostWait, Measure::kIdle};
std::string_view MeasureKey(Measure measure);    // "step", "compute", ...: stable, for scripts
std::string_view MeasureLabel(Measure measure);  // "median step", "compute", ...: for people

// One rank in the ranks x measures table.
struct RankRow {
  int32_t rank = -1;
  std::string label;
  std::string trace;
  bool has_steps = false;  // its account covers measured training steps
  uint64_t steps = 0;
  std::array<base::DurationNs, kMeasures> per_step{};  // by Measure; kStep is the median step
  ByCause<base::DurationNs> idle;                       // per step, by cause
  double busy_fraction = 0.0;
  bool duplicate = false;  // the same trace as an earlier row: shown, left out of every statistic
  bool data_loss = false;
  std::optional<RankFinding> top_finding;  // its first finding: the most severe, then the largest saving

  base::DurationNs Of(Measure measure) const { return per_step[static_cast<size_t>(measure)]; }
};

RankRow MakeRankRow(const RankSummary& summary);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_RANKS_RANK_ROW_H_
