#ifndef AMPPROF_ANALYZERS_RANKS_JOB_COHERENCE_H_
#define AMPPROF_ANALYZERS_RANKS_JOB_COHERENCE_H_

// Whether traces given together are ranks of one job, and what says they are not: different world
// sizes or backends, different GPU models, a rank in two traces, one trace read twice (the same file twice, or a copy:
// their kernel timelines are identical), a rank outside the world size, traces without a rank, and
// median steps too far apart for one synchronous job. Each is one sentence naming the traces; the
// cross-rank report prints them before anything that compares ranks.
//
//   JobCoherence coherence = CheckCoherence(sorted_summaries);
//   coherence.duplicate[i]   // summary i is the same trace as an earlier one: left out of statistics

#include <span>
#include <vector>

#include "analyzers/findings/finding.h"
#include "analyzers/ranks/rank_summary.h"

namespace ampprof::analyzers {

struct JobCoherence {
  std::vector<Statement> notes;  // in a fixed order: world size, backend, GPUs, duplicates, ranks, steps
  std::vector<bool> duplicate;   // per summary
  int32_t world_size = 0;        // the one the traces state, when they agree
  std::string backend;
};

// `summaries` in the report's order (ascending rank, then trace name).
JobCoherence CheckCoherence(std::span<const RankSummary* const> summaries);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_RANKS_JOB_COHERENCE_H_
