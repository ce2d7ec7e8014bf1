#ifndef AMPPROF_ANALYZERS_RANKS_STRAGGLERS_H_
#define AMPPROF_ANALYZERS_RANKS_STRAGGLERS_H_

// Stragglers: the ranks the others wait for. In a synchronous data-parallel job every rank runs the
// same step; a rank that needs longer for its share (a slow GPU, more data, a busy host) reaches each
// collective late, and a collective kernel ends only when every rank has joined, so its peers spend
// that time inside their collective kernels, waiting. So a straggler shows twice in the traces, each
// on its own clock, and ampprof names a rank only when it sees both:
//
//   1. its own time per step is an outlier: its compute, or the time its GPU waits for its host
//      (launch waits, refilling after a sync, host busy), exceeds the other ranks' median by at least
//      kMinExcessShare of the job's median step and by kOutlierSigmas robust standard deviations
//      (1.4826 x the median absolute deviation) of that measure across ranks;
//   2. its peers wait for it: their collective kernels take longer per step than its own, by at least
//      kMinWaitShare of its excess (the peers' median collective time per step minus its own).
//
// Ranks compare durations measured on their own clocks, so no clock alignment across hosts is needed
// (HTA's straggler analysis compares the start times of collective kernels across ranks instead, and
// names the top k ranks whether or not anyone waits).
//
// Without a single outlier, a spread across ranks with the same evidence (the ranks with the least
// work wait the most) is an imbalance: uneven work (uneven batches, sequence lengths) rather than one
// slow rank. A job in which nobody waits has neither, however much the ranks differ.
//
//   StragglerVerdict verdict = FindStragglers(rows, job_median_step_ns);
//   if (!verdict.judged) print(verdict.not_judged);            // why it could not tell
//   for (const Straggler& s : verdict.stragglers) ...

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analyzers/ranks/rank_row.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// Below a twentieth of the step, a rank's difference from its peers is within the step-to-step and
// rank-to-rank variation of real jobs (2-3%), and not worth a name.
inline constexpr double kMinExcessShare = 0.05;
// The usual cut for outliers by the modified z-score (Iglewicz and Hoaglin): 3.5 robust deviations.
inline constexpr double kOutlierSigmas = 3.5;
// The peers' extra time in collectives must account for at least half of the straggler's extra time:
// less, and what the rank does more is hidden (a launch-bound loop hides slower kernels) or the ranks
// do not wait for each other at all.
inline constexpr double kMinWaitShare = 0.5;
// Stragglers are few: more outliers than a quarter of the ranks are uneven work, not stragglers.
inline constexpr double kMaxStragglerShare = 0.25;
// Ranks of one synchronous job share their step time; medians further apart than this cannot be.
inline constexpr double kMaxStepRatio = 1.5;
// Fewer ranks have no "peers" to be an outlier among.
inline constexpr size_t kMinRanksForStragglers = 3;

// A measure a straggler or an imbalance is seen in.
enum class StragglerCause : uint8_t { kCompute, kHost, kComputeAndHost };
std::string_view StragglerCauseName(StragglerCause cause);  // "compute", "host", "compute and host"

struct Straggler {
  int32_t rank = -1;
  std::string label;
  StragglerCause cause = StragglerCause::kCompute;
  base::DurationNs own_ns = 0;    // its time per step in the measure(s) of `cause` (summed for both)
  base::DurationNs peers_ns = 0;  // the median of the same across ranks
  base::DurationNs excess_ns = 0;  // own - peers
  double excess_share = 0.0;       // excess / the job's median step
  base::DurationNs collectives_ns = 0;        // its own collective kernels' time per step
  base::DurationNs peers_collectives_ns = 0;  // the median over the other ranks
  base::DurationNs wait_ns = 0;               // peers_collectives - collectives: how long peers wait for it
};

// Uneven work across ranks: the measure in which the ranks differ, its extremes, and how much longer the
// rank with the least work spends in collectives than the one with the most.
struct Imbalance {
  StragglerCause cause = StragglerCause::kCompute;
  base::DurationNs min_ns = 0;
  base::DurationNs max_ns = 0;
  std::string min_label;
  std::string max_label;
  double spread_share = 0.0;  // (max - min) / the job's median step
  base::DurationNs wait_ns = 0;
};

struct StragglerVerdict {
  bool judged = false;
  std::string not_judged;  // why not, when not judged: one clause ("fewer than 3 ranks have steps")
  std::vector<Straggler> stragglers;  // ascending rank
  std::optional<Imbalance> imbalance;  // only when no straggler is named
};

// `rows` are the ranks to judge (duplicates left out); `median_step_ns` the job's median step.
StragglerVerdict FindStragglers(std::span<const RankRow> rows, base::DurationNs median_step_ns);

// The median of `values` (the lower middle of an even count), 0 when empty.
base::DurationNs MedianOf(std::vector<base::DurationNs> values);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_RANKS_STRAGGLERS_H_
