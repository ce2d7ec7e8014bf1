#ifndef AMPPROF_ANALYZERS_RANKS_MERGED_FINDINGS_H_
#define AMPPROF_ANALYZERS_RANKS_MERGED_FINDINGS_H_

// Findings merged across ranks: sixteen ranks with the same launch-bound loop are one finding on ranks
// 0-15 with the range of its saving, not sixteen copies of it.
//
//   std::vector<MergedFinding> merged = MergeFindings(summaries);
//   // gpu.launch_bound on ranks 0-15, saving 18.0% to 22.0% of the step

#include <span>
#include <vector>

#include "analyzers/ranks/job_report.h"
#include "analyzers/ranks/rank_summary.h"

namespace ampprof::analyzers {

// One entry per finding id that any summary has. A rank with the id on several GPUs counts once, with
// its largest saving. Most severe first, then by the highest saving, then by id.
std::vector<MergedFinding> MergeFindings(std::span<const RankSummary* const> summaries);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_RANKS_MERGED_FINDINGS_H_
