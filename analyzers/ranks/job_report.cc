#include "analyzers/ranks/job_report.h"

#include <algorithm>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analyzers/ranks/job_coherence.h"
#include "analyzers/ranks/merged_findings.h"

namespace ampprof::analyzers {
namespace {

// The report's order: ascending rank, traces without a rank last; then by trace name and fingerprint,
// so that the same summaries in any order reduce alike.
bool Before(const RankSummary* a, const RankSummary* b) {
  const auto key = [](const RankSummary* s) {
    return std::make_tuple(s->rank < 0, s->rank, std::string_view(s->trace), std::string_view(s->fingerprint),
                           std::string_view(s->label));
  };
  return key(a) < key(b);
}

std::vector<MeasureSpread> Spread(std::span<const RankRow> rows) {
  std::vector<MeasureSpread> spread;
  for (Measure measure : kAllMeasures) {
    MeasureSpread entry;
    entry.measure = measure;
    std::vector<base::DurationNs> values;
    const RankRow* least = nullptr;
    const RankRow* most = nullptr;
    for (const RankRow& row : rows) {
      values.push_back(row.Of(measure));
      if (least == nullptr || row.Of(measure) < least->Of(measure)) least = &row;
      if (most == nullptr || row.Of(measure) > most->Of(measure)) most = &row;
    }
    if (least == nullptr) continue;
    entry.min_ns = least->Of(measure);
    entry.max_ns = most->Of(measure);
    entry.median_ns = MedianOf(std::move(values));
    entry.min_label = least->label;
    entry.max_label = most->label;
    spread.push_back(std::move(entry));
  }
  return spread;
}

}  // namespace

bool IsRankOfAJob(const RankSummary& summary) {
  // A trace of a world of one is a single-GPU run that names its rank 0 (ampprof's own traces and
  // PyTorch's do): two of them are two runs, reported side by side, not a job.
  return summary.rank >= 0 && summary.world_size != 1;
}

bool IsJob(std::span<const RankSummary> summaries) {
  const auto ranked = std::count_if(summaries.begin(), summaries.end(), IsRankOfAJob);
  return summaries.size() >= 2 && ranked >= 2;
}

std::string RankRanges(std::span<const int32_t> ranks) {
  std::string text;
  for (size_t i = 0; i < ranks.size();) {
    size_t last = i;
    while (last + 1 < ranks.size() && ranks[last + 1] == ranks[last] + 1) ++last;
    if (!text.empty()) text += ", ";
    text += last == i ? fmt::format("{}", ranks[i]) : fmt::format("{}-{}", ranks[i], ranks[last]);
    i = last + 1;
  }
  return text;
}

JobReport ReduceRanks(std::span<const RankSummary> summaries) {
  std::vector<const RankSummary*> sorted;
  for (const RankSummary& summary : summaries) sorted.push_back(&summary);
  std::stable_sort(sorted.begin(), sorted.end(), Before);

  JobReport job;
  job.traces = sorted.size();
  const JobCoherence coherence = CheckCoherence(sorted);
  job.notes = coherence.notes;
  job.world_size = coherence.world_size;
  job.backend = coherence.backend;

  std::vector<const RankSummary*> distinct;  // the traces every statistic is over: duplicates left out
  std::vector<RankRow> compared;
  std::set<int32_t> ranks;
  for (size_t i = 0; i < sorted.size(); ++i) {
    RankRow row = MakeRankRow(*sorted[i]);
    row.duplicate = coherence.duplicate[i];
    if (!row.duplicate) {
      distinct.push_back(sorted[i]);
      if (sorted[i]->rank >= 0) ranks.insert(sorted[i]->rank);
      if (sorted[i]->has_account()) compared.push_back(row);
    }
    job.rows.push_back(std::move(row));
  }
  job.ranks = ranks.size();
  job.per_step = !compared.empty() && std::all_of(compared.begin(), compared.end(),
                                                  [](const RankRow& row) { return row.has_steps; });
  std::vector<base::DurationNs> steps;
  for (const RankRow& row : compared) steps.push_back(row.Of(Measure::kStep));
  job.median_step_ns = MedianOf(std::move(steps));
  job.stragglers = FindStragglers(compared, job.median_step_ns);
  job.findings = MergeFindings(distinct);
  job.spread = Spread(compared);
  return job;
}

}  // namespace ampprof::analyzers
