#include "analyzers/ranks/job_statements.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ampprof::analyzers {
namespace {

std::string CauseWords(StragglerCause cause) {
  switch (cause) {
    case StragglerCause::kCompute: return "compute";
    case StragglerCause::kHost: return "GPU's wait for its host";
    case StragglerCause::kComputeAndHost: return "compute and wait for its host together";
  }
  return "work";
}

std::string StragglerNames(const StragglerVerdict& verdict) {
  std::vector<std::string> labels;
  for (const Straggler& straggler : verdict.stragglers) labels.push_back(LiteralText(straggler.label));
  if (labels.size() == 1) return labels.front() + " is a straggler";
  return fmt::format("{} and {} are stragglers", fmt::join(labels.begin(), labels.end() - 1, ", "), labels.back());
}

}  // namespace

std::string LiteralText(std::string_view text) {
  std::string literal;
  literal.reserve(text.size());
  for (char c : text) {
    literal += c;
    if (c == '{' || c == '}') literal += c;
  }
  return literal;
}

Statement DescribeJob(const JobReport& job) {
  std::vector<std::string> parts;
  std::vector<Quantity> values = {Count("ranks", job.ranks)};
  std::string who = "{ranks:rank}";
  if (job.world_size > 0) {
    who += job.ranks == static_cast<size_t>(job.world_size) ? " (the whole world)" : " of a world of {world}";
    values.push_back(Count("world", static_cast<uint64_t>(job.world_size)));
  }
  parts.push_back(who);
  if (!job.notes.empty()) parts.push_back("{notes:note} on traces that may not belong together");
  if (!job.notes.empty()) values.push_back(Count("notes", job.notes.size()));
  if (!job.stragglers.stragglers.empty()) {
    parts.push_back(StragglerNames(job.stragglers));
  } else if (job.stragglers.imbalance) {
    parts.push_back("uneven work across ranks");
  } else if (job.stragglers.judged) {
    parts.push_back("no straggler");
  }
  if (!job.stragglers.stragglers.empty()) {
    // The peers' exposed communication is then mostly their wait for the straggler inside the
    // collectives: bringing the straggler to its peers' pace saves them that wait, which no
    // communication fix on the peers can. The merged findings follow in their own section.
    parts.push_back("start with " + LiteralText(job.stragglers.stragglers.front().label) +
                    ", which the other ranks wait for");
  } else if (!job.findings.empty()) {
    const MergedFinding& first = job.findings.front();
    parts.push_back(fmt::format("start with {} on {}", first.id, LiteralText(DescribeRanks(first, job))));
  } else {
    parts.push_back("no finding on any rank");
  }
  return Statement(fmt::format("{}", fmt::join(parts, "; ")), std::move(values));
}

Statement DescribeStraggler(const Straggler& s) {
  return Statement(
      LiteralText(s.label) + " is a straggler: its " + CauseWords(s.cause) +
          " takes {own} per step, {excess} ({share}) more than the median rank's {peers}; the other ranks wait for "
          "it in collective kernels, {wait} per step ({peers_collectives} per step against its {collectives})",
      {Duration("own", s.own_ns), Duration("excess", s.excess_ns), Fraction("share", s.excess_share),
       Duration("peers", s.peers_ns), Duration("wait", s.wait_ns), Duration("peers_collectives", s.peers_collectives_ns),
       Duration("collectives", s.collectives_ns)});
}

Statement DescribeImbalance(const Imbalance& imbalance) {
  return Statement(
      "uneven work across ranks: the " + CauseWords(imbalance.cause) + " per step ranges from {min} (" +
          LiteralText(imbalance.min_label) + ") to {max} (" + LiteralText(imbalance.max_label) +
          "), {share} of the step, and the rank with the least waits {wait} per step longer in collective kernels; "
          "no single rank stands out",
      {Duration("min", imbalance.min_ns), Duration("max", imbalance.max_ns), Fraction("share", imbalance.spread_share),
       Duration("wait", imbalance.wait_ns)});
}

Statement DescribeNoStraggler(const StragglerVerdict& verdict) {
  if (!verdict.judged) return Statement("stragglers not judged: " + LiteralText(verdict.not_judged));
  return Statement(
      "no straggler: no rank's compute or wait for its host stands out from the others' by {share} of the step or "
      "more with the others waiting for it in collectives",
      {Fraction("share", kMinExcessShare)});
}

std::string DescribeRanks(const MergedFinding& finding, const JobReport& job) {
  std::vector<std::string> parts;
  if (!finding.ranks.empty()) {
    if (job.ranks > 1 && finding.ranks.size() == job.ranks) {
      parts.push_back(fmt::format("all {} ranks", job.ranks));
    } else {
      parts.push_back(fmt::format("{} {}", finding.ranks.size() == 1 ? "rank" : "ranks", RankRanges(finding.ranks)));
    }
  }
  for (const std::string& label : finding.unranked) parts.push_back(label);
  return fmt::format("{}", fmt::join(parts, ", "));
}

Saving MergedSaving(const MergedFinding& finding) {
  return Saving::Range(finding.low_ns, finding.high_ns, finding.low_fraction, finding.high_fraction, "");
}

}  // namespace ampprof::analyzers
