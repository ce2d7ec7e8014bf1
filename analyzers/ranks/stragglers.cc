#include "analyzers/ranks/stragglers.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// 1.4826 x the median absolute deviation estimates the standard deviation of normal data, and one
// outlier cannot move it (the standard deviation of eight ranks with one straggler is mostly the
// straggler).
constexpr double kMadToSigma = 1.4826;

DurationNs ValueOf(const RankRow& row, StragglerCause cause) {
  switch (cause) {
    case StragglerCause::kCompute: return row.Of(Measure::kCompute);
    case StragglerCause::kHost: return row.Of(Measure::kHostWait);
    case StragglerCause::kComputeAndHost: return row.Of(Measure::kCompute) + row.Of(Measure::kHostWait);
  }
  return 0;
}

std::vector<DurationNs> Values(std::span<const RankRow> rows, StragglerCause cause) {
  std::vector<DurationNs> values;
  values.reserve(rows.size());
  for (const RankRow& row : rows) values.push_back(ValueOf(row, cause));
  return values;
}

// Excess over the median of each row in one measure, where it is an outlier; 0 elsewhere.
std::vector<DurationNs> Outliers(std::span<const RankRow> rows, StragglerCause cause, DurationNs median_step_ns,
                                 DurationNs& median) {
  const std::vector<DurationNs> values = Values(rows, cause);
  median = MedianOf(values);
  std::vector<DurationNs> deviations;
  for (DurationNs value : values) deviations.push_back(value > median ? value - median : median - value);
  const double sigma = kMadToSigma * static_cast<double>(MedianOf(deviations));
  const double threshold = std::max(kMinExcessShare * static_cast<double>(median_step_ns), kOutlierSigmas * sigma);
  std::vector<DurationNs> excess(values.size(), 0);
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] > median && static_cast<double>(values[i] - median) >= threshold) excess[i] = values[i] - median;
  }
  return excess;
}

std::string NotJudged(std::span<const RankRow> rows, DurationNs median_step_ns) {
  if (rows.size() < kMinRanksForStragglers) {
    return fmt::format("stragglers need at least {} ranks to compare", kMinRanksForStragglers);
  }
  for (const RankRow& row : rows) {
    if (!row.has_steps) return fmt::format("{} marks no training steps", row.label);
  }
  DurationNs shortest = rows.front().Of(Measure::kStep);
  DurationNs longest = shortest;
  for (const RankRow& row : rows) {
    shortest = std::min(shortest, row.Of(Measure::kStep));
    longest = std::max(longest, row.Of(Measure::kStep));
  }
  if (shortest <= 0 || median_step_ns <= 0) return "a rank has steps of no duration";
  if (static_cast<double>(longest) > kMaxStepRatio * static_cast<double>(shortest)) {
    return "the ranks' median steps differ too much to be steps of one synchronous job";
  }
  const bool collectives = std::any_of(rows.begin(), rows.end(),
                                       [](const RankRow& row) { return row.Of(Measure::kCollectives) > 0; });
  if (!collectives) return "no rank ran collective kernels, so no rank waits for another in these traces";
  return "";
}

std::optional<Imbalance> FindImbalance(std::span<const RankRow> rows, DurationNs median_step_ns) {
  std::optional<Imbalance> widest;
  for (StragglerCause cause : {StragglerCause::kCompute, StragglerCause::kHost}) {
    size_t least = 0;
    size_t most = 0;
    for (size_t i = 1; i < rows.size(); ++i) {
      if (ValueOf(rows[i], cause) < ValueOf(rows[least], cause)) least = i;
      if (ValueOf(rows[i], cause) > ValueOf(rows[most], cause)) most = i;
    }
    const DurationNs spread = ValueOf(rows[most], cause) - ValueOf(rows[least], cause);
    const DurationNs wait = rows[least].Of(Measure::kCollectives) - rows[most].Of(Measure::kCollectives);
    if (static_cast<double>(spread) < kMinExcessShare * static_cast<double>(median_step_ns)) continue;
    if (static_cast<double>(wait) < kMinWaitShare * static_cast<double>(spread)) continue;
    Imbalance imbalance{cause,
                        ValueOf(rows[least], cause),
                        ValueOf(rows[most], cause),
                        rows[least].label,
                        rows[most].label,
                        base::ShareOf(spread, median_step_ns),
                        wait};
    if (!widest || imbalance.max_ns - imbalance.min_ns > widest->max_ns - widest->min_ns) widest = imbalance;
  }
  return widest;
}

}  // namespace

std::string_view StragglerCauseName(StragglerCause cause) {
  switch (cause) {
    case StragglerCause::kCompute: return "compute";
    case StragglerCause::kHost: return "host";
    case StragglerCause::kComputeAndHost: return "compute and host";
  }
  return "unknown";
}

DurationNs MedianOf(std::vector<DurationNs> values) {
  if (values.empty()) return 0;
  const size_t middle = (values.size() - 1) / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  return values[middle];
}

StragglerVerdict FindStragglers(std::span<const RankRow> rows, DurationNs median_step_ns) {
  StragglerVerdict verdict;
  verdict.not_judged = NotJudged(rows, median_step_ns);
  if (!verdict.not_judged.empty()) return verdict;
  verdict.judged = true;

  DurationNs compute_median = 0;
  DurationNs host_median = 0;
  const std::vector<DurationNs> compute = Outliers(rows, StragglerCause::kCompute, median_step_ns, compute_median);
  const std::vector<DurationNs> host = Outliers(rows, StragglerCause::kHost, median_step_ns, host_median);
  std::vector<size_t> candidates;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (compute[i] > 0 || host[i] > 0) candidates.push_back(i);
  }
  const double allowed = std::max(1.0, kMaxStragglerShare * static_cast<double>(rows.size()));
  if (!candidates.empty() && static_cast<double>(candidates.size()) <= allowed) {
    std::vector<DurationNs> peer_collectives;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (std::find(candidates.begin(), candidates.end(), i) == candidates.end()) {
        peer_collectives.push_back(rows[i].Of(Measure::kCollectives));
      }
    }
    const DurationNs peers_collectives = MedianOf(peer_collectives);
    for (size_t i : candidates) {
      const RankRow& row = rows[i];
      Straggler straggler;
      straggler.rank = row.rank;
      straggler.label = row.label;
      straggler.cause = compute[i] > 0 && host[i] > 0 ? StragglerCause::kComputeAndHost
                        : compute[i] > 0              ? StragglerCause::kCompute
                                                      : StragglerCause::kHost;
      straggler.own_ns = ValueOf(row, straggler.cause);
      straggler.peers_ns = straggler.cause == StragglerCause::kCompute ? compute_median
                           : straggler.cause == StragglerCause::kHost  ? host_median
                                                                       : compute_median + host_median;
      straggler.excess_ns = compute[i] + host[i];
      straggler.excess_share = base::ShareOf(straggler.excess_ns, median_step_ns);
      straggler.collectives_ns = row.Of(Measure::kCollectives);
      straggler.peers_collectives_ns = peers_collectives;
      straggler.wait_ns = peers_collectives - straggler.collectives_ns;
      if (static_cast<double>(straggler.wait_ns) >= kMinWaitShare * static_cast<double>(straggler.excess_ns)) {
        verdict.stragglers.push_back(std::move(straggler));
      }
    }
  }
  std::stable_sort(verdict.stragglers.begin(), verdict.stragglers.end(),
                   [](const Straggler& a, const Straggler& b) { return a.rank < b.rank; });
  if (verdict.stragglers.empty()) verdict.imbalance = FindImbalance(rows, median_step_ns);
  return verdict;
}

}  // namespace ampprof::analyzers
