#include "analyzers/report/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analyzers/report/summary.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::Interval;

struct Window {
  Interval interval;
  std::string label;
};

// The measured step whose GPU time (first to last kernel it launched or ran on `device`) is the
// median.
std::optional<Window> MedianStepWindow(const AnalysisInput& input, const model::Device& device) {
  const std::optional<Steps>& steps = input.steps();
  if (!steps || steps->measured().empty()) return std::nullopt;
  const model::KernelTable& kernels = input.model.kernels();
  const size_t count = steps->intervals.size();
  std::vector<Interval> gpu(count, Interval{base::kMaxTraceTime, 0});
  for (model::KernelRow kernel : device.kernels) {
    const int step = steps->StepOf(input, kernel);
    if (step < 0) continue;
    Interval& span = gpu[static_cast<size_t>(step)];
    span.start = std::min(span.start, kernels.start[kernel]);
    span.end = std::max(span.end, kernels.end[kernel]);
  }
  std::vector<size_t> measured;  // steps after warm-up with kernels on this GPU
  for (size_t i = steps->warmup; i < count; ++i) {
    if (gpu[i].start < gpu[i].end) measured.push_back(i);
  }
  if (measured.empty()) return std::nullopt;
  const auto middle = measured.begin() + static_cast<std::ptrdiff_t>((measured.size() - 1) / 2);
  std::nth_element(measured.begin(), middle, measured.end(),
                   [&](size_t a, size_t b) { return gpu[a].duration() < gpu[b].duration(); });
  const size_t step = *middle;
  return Window{gpu[step],
                fmt::format("step {} of {} ({}): the median of {} measured steps, {} on the GPU",
                            step + 1, count, StepSourceName(steps->source), measured.size(),
                            base::FormatDuration(gpu[step].duration()))};
}

// Without steps: the whole span, or kMaxTimelineItems consecutive kernels from the middle of the
// run.
Window MiddleWindow(const AnalysisInput& input, const model::Device& device) {
  const model::KernelTable& kernels = input.model.kernels();
  const size_t total = device.kernels.size();
  size_t first = 0;
  size_t last = total;
  if (total > kMaxTimelineItems) {
    first = (total - kMaxTimelineItems) / 2;
    last = first + kMaxTimelineItems;
  }
  Interval window{base::kMaxTraceTime, 0};
  for (size_t i = first; i < last; ++i) {
    const model::KernelRow kernel(device.kernels.begin_value + static_cast<uint32_t>(i));
    window.start = std::min(window.start, kernels.start[kernel]);
    window.end = std::max(window.end, kernels.end[kernel]);
  }
  // Fewer than kMinSteps steps are no loop (steps.h), though a summary may still count them.
  const std::string why = fmt::format("no training loop of {} or more steps found", kMinSteps);
  if (first == 0 && last == total) return {window, "the whole run: " + why};
  return {window, fmt::format("kernels {} to {} of {}: {}, so a stretch from the middle of the run",
                              base::FormatCount(static_cast<int64_t>(first + 1)),
                              base::FormatCount(static_cast<int64_t>(last)),
                              base::FormatCount(static_cast<int64_t>(total)), why)};
}

// At most kMaxTimelineNameLength bytes, cut in the middle (namespace and tile configuration both
// stay) and never inside a UTF-8 sequence.
std::string ShortenName(std::string_view name) {
  if (name.size() <= kMaxTimelineNameLength) return std::string(name);
  constexpr std::string_view kCut = "...";
  size_t head = (kMaxTimelineNameLength - kCut.size()) / 2;
  size_t tail = name.size() - (kMaxTimelineNameLength - kCut.size() - head);
  auto continuation = [&](size_t i) {
    return (static_cast<unsigned char>(name[i]) & 0xC0) == 0x80;
  };
  while (head > 0 && continuation(head)) --head;
  while (tail < name.size() && continuation(tail)) ++tail;
  return std::string(name.substr(0, head)) + std::string(kCut) + std::string(name.substr(tail));
}

// Interns strings into one of the timeline's tables.
class Table {
 public:
  explicit Table(std::vector<std::string>& entries) : entries_(entries) {}
  uint32_t Index(const std::string& text) {
    auto [it, inserted] = index_.try_emplace(text, static_cast<uint32_t>(entries_.size()));
    if (inserted) entries_.push_back(text);
    return it->second;
  }

 private:
  std::vector<std::string>& entries_;
  std::unordered_map<std::string, uint32_t> index_;
};

// The resolution that leaves each of `lanes` lanes at most max_items / lanes items: item starts a
// resolution apart, rounded up so that the window holds no more resolutions than that.
DurationNs ResolutionFor(Interval window, size_t lanes, size_t max_items) {
  const auto per_lane =
      static_cast<DurationNs>(std::max<size_t>(1, max_items / std::max<size_t>(1, lanes)));
  return std::max<DurationNs>(1, (window.duration() + per_lane - 1) / per_lane);
}

// Merges each item into the one before it on its lane when it starts within `resolution` of that
// one's start; the merged item takes the name and category of its longest member. `items` by lane,
// then start.
std::vector<TimelineItem> MergeItems(const std::vector<TimelineItem>& items,
                                     DurationNs resolution) {
  std::vector<TimelineItem> merged;
  DurationNs longest = 0;  // of merged.back()'s members
  for (const TimelineItem& item : items) {
    if (merged.empty() || merged.back().lane != item.lane ||
        item.interval.start >= merged.back().interval.start + resolution) {
      merged.push_back(item);
      longest = item.kernel_ns;
      continue;
    }
    TimelineItem& into = merged.back();
    into.interval.end = std::max(into.interval.end, item.interval.end);
    into.kernel_ns += item.kernel_ns;
    into.kernels += item.kernels;
    if (item.kernel_ns > longest) {
      longest = item.kernel_ns;
      into.name = item.name;
      into.category = item.category;
    }
  }
  return merged;
}

void SortByStart(std::vector<TimelineItem>& items) {
  std::stable_sort(items.begin(), items.end(), [](const TimelineItem& a, const TimelineItem& b) {
    return a.interval.start < b.interval.start;
  });
}

void SortByLane(std::vector<TimelineItem>& items) {
  std::stable_sort(items.begin(), items.end(), [](const TimelineItem& a, const TimelineItem& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.interval.start < b.interval.start;
  });
}

}  // namespace

std::optional<Timeline> BuildTimeline(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const std::optional<model::DeviceRow> device_row = BusiestDevice(model);
  if (!device_row) return std::nullopt;
  const model::Device& device = model.device(*device_row);
  const std::optional<Window> step = MedianStepWindow(input, device);
  const Window window = step ? *step : MiddleWindow(input, device);

  Timeline timeline;
  timeline.device_id = device.device_id;
  if (device.has_properties) timeline.device = std::string(model.Text(device.name));
  timeline.window = window.interval;
  timeline.window_label = window.label;

  // The window's kernels, counted as ClassifyIdleGaps counts them: those starting inside it.
  const model::KernelTable& kernels = model.kernels();
  std::map<uint32_t, uint32_t> lane_of_stream;  // by stream id, so lanes come in stream-id order
  for (model::KernelRow kernel : device.kernels) {
    if (window.interval.Contains(kernels.start[kernel]))
      lane_of_stream[model.stream(kernels.stream[kernel]).stream_id];
  }
  for (auto& [stream_id, lane] : lane_of_stream) {
    lane = static_cast<uint32_t>(timeline.lanes.size());
    timeline.lanes.push_back({stream_id, 0});
  }
  Table names(timeline.names);
  Table categories(timeline.categories);
  std::vector<TimelineItem> items;
  for (model::KernelRow kernel : device.kernels) {
    if (!window.interval.Contains(kernels.start[kernel])) continue;
    const uint32_t lane = lane_of_stream[model.stream(kernels.stream[kernel]).stream_id];
    const Interval clipped{kernels.start[kernel],
                           std::min(kernels.end[kernel], window.interval.end)};
    items.push_back({clipped, clipped.duration(), 1, lane,
                     names.Index(ShortenName(model.KernelName(kernel))),
                     categories.Index(CategoryLabel(input.ClassOf(kernel)))});
    ++timeline.lanes[lane].kernels;
    ++timeline.kernels;
  }
  if (items.size() > kMaxTimelineItems) {
    timeline.resolution_ns =
        ResolutionFor(window.interval, timeline.lanes.size(), kMaxTimelineItems);
    SortByLane(items);
    items = MergeItems(items, timeline.resolution_ns);
  }
  SortByStart(items);
  timeline.items = std::move(items);

  const IdleBreakdown idle =
      ClassifyIdleGaps(input, *device_row, window.interval, [&](const IdleGap& gap) {
        ++timeline.all_gaps;
        if (gap.interval.duration() >= timeline.resolution_ns) timeline.gaps.push_back(gap);
      });
  timeline.idle = idle.idle;
  return timeline;
}

Timeline CoarsenTimeline(const Timeline& timeline, size_t max_items) {
  if (timeline.items.size() <= max_items) return timeline;
  Timeline coarse = timeline;
  coarse.resolution_ns = std::max(timeline.resolution_ns,
                                  ResolutionFor(timeline.window, timeline.lanes.size(), max_items));
  SortByLane(coarse.items);
  coarse.items = MergeItems(coarse.items, coarse.resolution_ns);
  SortByStart(coarse.items);
  std::erase_if(coarse.gaps,
                [&](const IdleGap& gap) { return gap.interval.duration() < coarse.resolution_ns; });
  // Only the names the remaining items use.
  coarse.names.clear();
  Table names(coarse.names);
  for (TimelineItem& item : coarse.items) item.name = names.Index(timeline.names[item.name]);
  return coarse;
}

}  // namespace ampprof::analyzers
