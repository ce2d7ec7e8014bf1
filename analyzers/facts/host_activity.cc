#include "analyzers/facts/host_activity.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

#include "src/model/queries.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::TimeNs;

bool ContainsIgnoringCase(std::string_view text, std::string_view word) {
  const auto it = std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

// `word` with no letter right before or after it: "eval" in "model.eval" and "run_eval", not in
// autograd's "evaluate_function" (the backward pass).
bool ContainsWordIgnoringCase(std::string_view text, std::string_view word) {
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  auto is_letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  for (size_t at = 0; at + word.size() <= text.size(); ++at) {
    bool match = true;
    for (size_t i = 0; i < word.size() && match; ++i) match = lower(text[at + i]) == lower(word[i]);
    if (!match) continue;
    const bool before = at > 0 && is_letter(text[at - 1]);
    const bool after = at + word.size() < text.size() && is_letter(text[at + word.size()]);
    if (!before && !after) return true;
  }
  return false;
}

HostActivityKind KindOfRange(std::string_view name) {
  if (ContainsIgnoringCase(name, "dataloader") || name.find("__next__") != std::string_view::npos ||
      ContainsIgnoringCase(name, "data_load")) {
    return HostActivityKind::kDataLoading;
  }
  if (name.starts_with("Optimizer.") || ContainsIgnoringCase(name, "optimizer")) return HostActivityKind::kOptimizer;
  if (ContainsWordIgnoringCase(name, "eval") || ContainsIgnoringCase(name, "evaluation") ||
      ContainsIgnoringCase(name, "validat")) {
    return HostActivityKind::kEvaluation;
  }
  if (ContainsIgnoringCase(name, "checkpoint") || ContainsIgnoringCase(name, "save")) return HostActivityKind::kCheckpoint;
  return HostActivityKind::kOtherRange;
}

// The ranges that stand for a whole training step: never the answer to "what was the host doing".
bool IsStepRange(const AnalysisInput& input, model::RangeRow range) {
  const model::TraceModel& model = input.model;
  const std::string_view name = model.RangeName(range);
  if (name.starts_with("ProfilerStep#") || IsAmpprofRange(model, model.label(range), "step")) return true;
  const std::optional<Steps>& steps = input.steps();
  return steps && steps->source == StepSource::kUserRange && name == steps->label;
}

// The outermost range enclosing `t` on `thread` that is not a step range; invalid when there is none.
model::RangeRow OutermostBelowStep(const AnalysisInput& input, model::ThreadRow thread, TimeNs t) {
  model::RangeRow outermost;
  for (model::RangeRow range = model::InnermostRangeAt(input.model, thread, t); range.valid();
       range = input.model.ranges().parent[range]) {
    if (!IsStepRange(input, range)) outermost = range;
  }
  return outermost;
}

// The start of the thread's first range that starts after `t`, or `limit`.
TimeNs NextRangeStart(const model::TraceModel& model, model::ThreadRow thread, TimeNs t, TimeNs limit) {
  const model::RowRange<model::RangeRow> rows = model.thread(thread).ranges;
  const auto starts = model.ranges().start.values();
  const auto after = std::upper_bound(starts.begin() + rows.begin_value, starts.begin() + rows.end_value, t);
  return after == starts.begin() + rows.end_value ? limit : std::min(*after, limit);
}

class Tally {
 public:
  void Add(HostActivityKind kind, std::string_view label, DurationNs ns, size_t gap) {
    if (ns <= 0) return;
    Entry& entry = entries_[{kind, kind == HostActivityKind::kOtherRange ? std::string(label) : std::string()}];
    entry.ns += ns;
    if (entry.last_gap != gap) {
      entry.last_gap = gap;
      ++entry.gaps;
    }
  }
  std::vector<HostActivityPart> Parts() const {
    std::vector<HostActivityPart> parts;
    for (const auto& [key, entry] : entries_) {
      parts.push_back({key.first, key.second.empty() ? std::string(HostActivityKindName(key.first)) : key.second,
                       entry.ns, entry.gaps});
    }
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.ns > b.ns; });
    return parts;
  }

 private:
  struct Entry {
    DurationNs ns = 0;
    uint64_t gaps = 0;
    size_t last_gap = SIZE_MAX;
  };
  std::map<std::pair<HostActivityKind, std::string>, Entry> entries_;
};

// Pageable copies launched from `thread` whose calls overlap the gap: the host copied through a staging
// buffer meanwhile. Returns the overlap, per gap.
DurationNs PageableCopyTime(const model::TraceModel& model, model::ThreadRow thread, base::Interval gap,
                            const std::vector<model::MemcpyRow>& pageable_by_call_start) {
  const model::MemcpyTable& copies = model.memcpys();
  const model::ApiCallTable& calls = model.api_calls();
  DurationNs overlap = 0;
  for (model::MemcpyRow copy : pageable_by_call_start) {
    const model::ApiCallRow call = copies.launch[copy];
    if (calls.start[call] >= gap.end) break;
    if (calls.thread[call] != thread || calls.end[call] <= gap.start) continue;
    overlap += std::min(calls.end[call], gap.end) - std::max(calls.start[call], gap.start);
  }
  return std::min(overlap, gap.duration());
}

}  // namespace

std::string_view HostActivityKindName(HostActivityKind kind) {
  switch (kind) {
    case HostActivityKind::kDataLoading: return "data loading (DataLoader)";
    case HostActivityKind::kPageableCopy: return "copies from pageable host memory";
    case HostActivityKind::kOptimizer: return "the optimizer step on the host";
    case HostActivityKind::kEvaluation: return "evaluation";
    case HostActivityKind::kCheckpoint: return "checkpointing";
    case HostActivityKind::kOtherRange: return "other recorded work";
    case HostActivityKind::kUnrecorded: return "host code outside any recorded range";
  }
  return "unknown";
}

HostActivity DescribeHostGaps(const AnalysisInput& input, std::span<const AccountedGap> gaps) {
  const model::TraceModel& model = input.model;
  std::vector<model::MemcpyRow> pageable;  // by launch-call start
  for (uint32_t i = 0; i < model.memcpys().size(); ++i) {
    const model::MemcpyRow copy(i);
    if (!model.memcpys().launch[copy].valid()) continue;
    if (model.memcpys().src_kind[copy] == records::MemoryKind::kPageable ||
        model.memcpys().dst_kind[copy] == records::MemoryKind::kPageable) {
      pageable.push_back(copy);
    }
  }
  std::sort(pageable.begin(), pageable.end(), [&](model::MemcpyRow a, model::MemcpyRow b) {
    return model.api_calls().start[model.memcpys().launch[a]] < model.api_calls().start[model.memcpys().launch[b]];
  });

  Tally tally;
  HostActivity activity;
  for (size_t g = 0; g < gaps.size(); ++g) {
    const AccountedGap& gap = gaps[g];
    activity.total_ns += gap.interval.duration();
    if (!gap.ending_launch.valid()) {
      tally.Add(HostActivityKind::kUnrecorded, "", gap.interval.duration(), g);
      continue;
    }
    const model::ThreadRow thread = model.api_calls().thread[gap.ending_launch];
    const DurationNs copying = PageableCopyTime(model, thread, gap.interval, pageable);
    tally.Add(HostActivityKind::kPageableCopy, "", copying, g);
    // The rest of the gap, by the outermost range below the step at each instant. Copy time is taken
    // off the ranges in proportion, so the parts add up to the gap.
    const double scale = gap.interval.duration() > 0
                             ? 1.0 - static_cast<double>(copying) / static_cast<double>(gap.interval.duration())
                             : 0.0;
    TimeNs t = gap.interval.start;
    while (t < gap.interval.end) {
      const model::RangeRow range = OutermostBelowStep(input, thread, t);
      TimeNs until;
      if (range.valid()) {
        until = std::min(model.ranges().end[range], gap.interval.end);
        const std::string_view name = model.RangeName(range);
        tally.Add(KindOfRange(name), name, static_cast<DurationNs>(static_cast<double>(until - t) * scale), g);
      } else {
        until = NextRangeStart(model, thread, t, gap.interval.end);
        tally.Add(HostActivityKind::kUnrecorded, "", static_cast<DurationNs>(static_cast<double>(until - t) * scale), g);
      }
      if (until <= t) break;  // a range ending at t: cannot happen with start <= t < end, but never loop
      t = until;
    }
  }
  activity.parts = tally.Parts();
  return activity;
}

}  // namespace ampprof::analyzers
