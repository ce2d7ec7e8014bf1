#include "analyzers/ranks/job_coherence.h"

#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/ranks/job_report.h"
#include "analyzers/ranks/job_statements.h"
#include "analyzers/ranks/stragglers.h"

namespace ampprof::analyzers {
namespace {

// "a.json, b.json and c.json"
std::string Names(const std::vector<std::string>& names) {
  if (names.size() <= 1) return names.empty() ? std::string() : names.front();
  return fmt::format("{} and {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
}

// "8 (ranks 0-7)", for a value the traces state and the ranks (or traces) that state it.
template <typename Value>
std::string Groups(const std::map<Value, std::vector<const RankSummary*>>& groups) {
  std::vector<std::string> parts;
  for (const auto& [value, members] : groups) {
    std::vector<int32_t> ranks;
    std::vector<std::string> others;
    for (const RankSummary* summary : members) {
      if (summary->rank >= 0) {
        ranks.push_back(summary->rank);
      } else {
        others.push_back(summary->trace);
      }
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::vector<std::string> who;
    if (!ranks.empty()) who.push_back(fmt::format("{} {}", ranks.size() == 1 ? "rank" : "ranks", RankRanges(ranks)));
    if (!others.empty()) who.push_back(Names(others));
    parts.push_back(fmt::format("{} ({})", value, fmt::join(who, ", ")));
  }
  return Names(parts);
}

void CheckWorldSize(std::span<const RankSummary* const> summaries, JobCoherence& coherence) {
  std::map<int32_t, std::vector<const RankSummary*>> by_size;
  for (const RankSummary* summary : summaries) {
    if (summary->world_size > 0) by_size[summary->world_size].push_back(summary);
  }
  if (by_size.size() == 1) coherence.world_size = by_size.begin()->first;
  if (by_size.size() > 1) {
    coherence.notes.push_back(LiteralText(fmt::format("the traces state different world sizes: {}; they are not ranks of one job",
                                          Groups(by_size))));
  }
  if (coherence.world_size == 0) return;
  for (const RankSummary* summary : summaries) {
    if (summary->rank >= coherence.world_size) {
      coherence.notes.push_back(LiteralText(fmt::format("{} is rank {}, outside the world size of {}", summary->trace,
                                            summary->rank, coherence.world_size)));
    }
  }
}

void CheckBackend(std::span<const RankSummary* const> summaries, JobCoherence& coherence) {
  std::map<std::string, std::vector<const RankSummary*>> by_backend;
  for (const RankSummary* summary : summaries) {
    if (!summary->backend.empty()) by_backend[summary->backend].push_back(summary);
  }
  if (by_backend.size() == 1) coherence.backend = by_backend.begin()->first;
  if (by_backend.size() > 1) {
    coherence.notes.push_back(LiteralText(
        fmt::format("the traces name different distributed backends: {}", Groups(by_backend))));
  }
}

// Not a sign of another job by itself (a cluster may mix GPU models), but a rank on a slower model is a
// straggler by construction, which the reader should know before reading the stragglers.
void CheckGpus(std::span<const RankSummary* const> summaries, JobCoherence& coherence) {
  std::map<std::string, std::vector<const RankSummary*>> by_gpu;
  for (const RankSummary* summary : summaries) {
    if (!summary->gpu.empty()) by_gpu[summary->gpu].push_back(summary);
  }
  if (by_gpu.size() > 1) {
    coherence.notes.push_back(LiteralText(fmt::format("the traces ran on different GPU models: {}", Groups(by_gpu))));
  }
}

void CheckDuplicates(std::span<const RankSummary* const> summaries, JobCoherence& coherence) {
  std::map<std::string, size_t> first_with_fingerprint;
  for (size_t i = 0; i < summaries.size(); ++i) {
    const RankSummary& summary = *summaries[i];
    if (summary.fingerprint.empty()) continue;
    auto [it, first] = first_with_fingerprint.try_emplace(summary.fingerprint, i);
    if (first) continue;
    coherence.duplicate[i] = true;
    const RankSummary& original = *summaries[it->second];
    coherence.notes.push_back(LiteralText(fmt::format(
        "{} is the same trace as {} (the same kernels at the same times): it is left out of the comparison",
        summary.trace, original.trace)));
  }
  std::map<int32_t, std::vector<std::string>> traces_of_rank;
  for (size_t i = 0; i < summaries.size(); ++i) {
    if (summaries[i]->rank >= 0 && !coherence.duplicate[i]) traces_of_rank[summaries[i]->rank].push_back(summaries[i]->trace);
  }
  for (const auto& [rank, traces] : traces_of_rank) {
    if (traces.size() > 1) {
      coherence.notes.push_back(LiteralText(fmt::format("rank {} is in {} traces: {}; they are not ranks of one job", rank,
                                            traces.size(), Names(traces))));
    }
  }
}

void CheckUnranked(std::span<const RankSummary* const> summaries, JobCoherence& coherence) {
  std::vector<std::string> unranked;
  for (const RankSummary* summary : summaries) {
    if (summary->rank < 0) unranked.push_back(summary->trace);
  }
  if (unranked.empty()) return;
  coherence.notes.push_back(LiteralText(fmt::format("{} {} no rank: compared with the ranks, but {} may not belong to the job",
                                        Names(unranked), unranked.size() == 1 ? "has" : "have",
                                        unranked.size() == 1 ? "it" : "they")));
}

void CheckSteps(std::span<const RankSummary* const> summaries, JobCoherence& coherence) {
  std::vector<std::string> without_steps;
  const RankSummary* shortest = nullptr;
  const RankSummary* longest = nullptr;
  for (size_t i = 0; i < summaries.size(); ++i) {
    const RankSummary* summary = summaries[i];
    if (coherence.duplicate[i]) continue;
    if (!summary->per_step()) {
      without_steps.push_back(summary->label);
      continue;
    }
    if (shortest == nullptr || summary->median_step_ns < shortest->median_step_ns) shortest = summary;
    if (longest == nullptr || summary->median_step_ns > longest->median_step_ns) longest = summary;
  }
  if (!without_steps.empty()) {
    coherence.notes.push_back(LiteralText(fmt::format("{} {} no training steps: {} figures are per run, not per step",
                                          Names(without_steps), without_steps.size() == 1 ? "marks" : "mark",
                                          without_steps.size() == 1 ? "its" : "their")));
  }
  if (shortest != nullptr && shortest->median_step_ns > 0 &&
      static_cast<double>(longest->median_step_ns) > kMaxStepRatio * static_cast<double>(shortest->median_step_ns)) {
    coherence.notes.push_back(Statement(
        "the ranks' median steps range from {shortest} (" + LiteralText(shortest->label) + ") to {longest} (" + LiteralText(longest->label) +
            "); ranks of one synchronous job share their step time, so these traces are not the same steps of "
            "one job",
        {Duration("shortest", shortest->median_step_ns), Duration("longest", longest->median_step_ns)}));
  }
}

}  // namespace

JobCoherence CheckCoherence(std::span<const RankSummary* const> summaries) {
  JobCoherence coherence;
  coherence.duplicate.assign(summaries.size(), false);
  CheckWorldSize(summaries, coherence);
  CheckBackend(summaries, coherence);
  CheckGpus(summaries, coherence);
  CheckDuplicates(summaries, coherence);
  CheckUnranked(summaries, coherence);
  CheckSteps(summaries, coherence);
  return coherence;
}

}  // namespace ampprof::analyzers
