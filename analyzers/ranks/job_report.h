#ifndef AMPPROF_ANALYZERS_RANKS_JOB_REPORT_H_
#define AMPPROF_ANALYZERS_RANKS_JOB_REPORT_H_

// The cross-rank report: one diagnosis of a data-parallel job from the summaries of its ranks
// (rank_summary.h). It is a reduction and nothing else: ReduceRanks reads RankSummary values and no
// trace, so a report built from traces analysed here and one built from summary files written
// elsewhere (a Slurm array, Dask workers) are the same report.
//
//   std::vector<RankSummary> ranks = ...;   // SummarizeRank per trace, or read from summary files
//   if (IsJob(ranks)) {
//     JobReport job = ReduceRanks(ranks);
//     for (const RankRow& row : job.rows) { ... row.per_step[Measure::kCompute] ... }
//   }
//
// What it holds, in the order the views print it: the job (ranks, world size, the median step); the
// notes on traces that do not belong together (different world sizes or backends, a rank twice, one
// trace read twice, steps that cannot be one synchronous job); the stragglers, named only with the
// evidence that peers wait for them (stragglers.h); the findings merged across ranks, each with the
// ranks that have it and the range of its saving; the spread of each measure across ranks; and a row
// per rank (its median step, compute, exposed communication, collectives and idle by cause per step,
// its top finding). docs/ranks.md explains each part; docs/design.md the choices.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/findings/finding.h"
#include "analyzers/ranks/rank_row.h"
#include "analyzers/ranks/rank_summary.h"
#include "analyzers/ranks/stragglers.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// A measure across ranks: the least, the median and the most, and who has the extremes.
struct MeasureSpread {
  Measure measure = Measure::kStep;
  base::DurationNs min_ns = 0;
  base::DurationNs median_ns = 0;
  base::DurationNs max_ns = 0;
  std::string min_label;  // the rank with the least ("rank 3"), the first of equals
  std::string max_label;
};

// A finding seen on several ranks, said once.
struct MergedFinding {
  std::string id;
  Severity severity = Severity::kInfo;  // the most severe of the ranks'
  std::vector<int32_t> ranks;           // ranks that have it, ascending
  std::vector<std::string> unranked;    // traces without a rank that have it, by label
  // The saving across those ranks: the lowest low end and the highest high end of their savings.
  base::DurationNs low_ns = 0;
  base::DurationNs high_ns = 0;
  double low_fraction = 0.0;
  double high_fraction = 0.0;
  bool per_step = true;  // every rank's saving is per step (else some are per run)
  // The verdict of the rank with the largest saving, and which rank that is.
  Statement verdict;
  std::string verdict_label;

  size_t count() const { return ranks.size() + unranked.size(); }
};

struct JobReport {
  size_t traces = 0;        // summaries reduced, duplicates included
  size_t ranks = 0;         // distinct ranks among them
  int32_t world_size = 0;   // the world size the traces state, when they agree; 0 otherwise
  std::string backend;      // the backend they state, when they agree
  bool per_step = false;    // every rank's account covers measured steps
  base::DurationNs median_step_ns = 0;  // the median over ranks of their median steps
  // Traces that do not belong together, and what makes a comparison across ranks misleading: one
  // sentence each, in a fixed order.
  std::vector<Statement> notes;
  StragglerVerdict stragglers;
  std::vector<MergedFinding> findings;  // most severe first, then by the highest saving, then by id
  std::vector<MeasureSpread> spread;    // one per Measure, over the rows that are not duplicates
  std::vector<RankRow> rows;            // ascending rank, traces without a rank last (by trace name)
};

// True when `summaries` hold several ranks of a distributed job: two or more traces, at least two of
// them with a rank in a world larger than one (or of unknown size). Other inputs keep their one report
// per trace.
bool IsJob(std::span<const RankSummary> summaries);
// The trace is a rank of a distributed job: it has a rank, in a world larger than one or of unknown size.
bool IsRankOfAJob(const RankSummary& summary);

// The cross-rank report. Deterministic: the order of `summaries` does not matter.
JobReport ReduceRanks(std::span<const RankSummary> summaries);

// "0-3, 5, 7-9": ranks (ascending, distinct) as ranges.
std::string RankRanges(std::span<const int32_t> ranks);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_RANKS_JOB_REPORT_H_
