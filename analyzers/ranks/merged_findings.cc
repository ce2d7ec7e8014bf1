#include "analyzers/ranks/merged_findings.h"

#include <algorithm>
#include <map>
#include <string>

namespace ampprof::analyzers {

std::vector<MergedFinding> MergeFindings(std::span<const RankSummary* const> summaries) {
  std::map<std::string, MergedFinding, std::less<>> by_id;
  std::map<std::string, base::DurationNs, std::less<>> verdict_saving;  // the saving the kept verdict has
  for (const RankSummary* summary : summaries) {
    // The rank's own finding per id: the one with the largest saving (the first of equals).
    std::map<std::string_view, const RankFinding*> own;
    for (const RankFinding& finding : summary->findings) {
      auto [it, inserted] = own.try_emplace(finding.id, &finding);
      if (!inserted && finding.saving.ns > it->second->saving.ns) it->second = &finding;
    }
    for (const auto& [id, finding] : own) {
      auto [it, first] = by_id.try_emplace(std::string(id));
      MergedFinding& merged = it->second;
      if (first) {
        merged.id = std::string(id);
        merged.severity = finding->severity;
        merged.low_ns = finding->saving.low_ns;
        merged.high_ns = finding->saving.ns;
        merged.low_fraction = finding->saving.low_fraction;
        merged.high_fraction = finding->saving.fraction;
      } else {
        merged.severity = std::max(merged.severity, finding->severity);
        merged.low_ns = std::min(merged.low_ns, finding->saving.low_ns);
        merged.high_ns = std::max(merged.high_ns, finding->saving.ns);
        merged.low_fraction = std::min(merged.low_fraction, finding->saving.low_fraction);
        merged.high_fraction = std::max(merged.high_fraction, finding->saving.fraction);
      }
      merged.per_step = merged.per_step && summary->per_step();
      if (summary->rank >= 0) {
        merged.ranks.push_back(summary->rank);
      } else {
        merged.unranked.push_back(summary->label);
      }
      auto [kept, none_yet] = verdict_saving.try_emplace(merged.id, finding->saving.ns);
      if (none_yet || finding->saving.ns > kept->second) {
        kept->second = finding->saving.ns;
        merged.verdict = finding->verdict;
        merged.verdict_label = summary->label;
      }
    }
  }
  std::vector<MergedFinding> merged;
  for (auto& [id, finding] : by_id) {
    std::sort(finding.ranks.begin(), finding.ranks.end());
    finding.ranks.erase(std::unique(finding.ranks.begin(), finding.ranks.end()), finding.ranks.end());
    merged.push_back(std::move(finding));
  }
  std::stable_sort(merged.begin(), merged.end(), [](const MergedFinding& a, const MergedFinding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.high_ns != b.high_ns) return a.high_ns > b.high_ns;
    return a.id < b.id;
  });
  return merged;
}

}  // namespace ampprof::analyzers
