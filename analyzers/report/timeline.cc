#include "analyzers/report/timeline.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analyzers/report/summary.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::Interval;

struct Window {
  Interval interval;
  Statement label;
};

// The measured step whose period is the median (step_account.h): the step the report's median
// step time is.
std::optional<Window> MedianStepWindow(const AnalysisInput& input, const DeviceAccount& gpu) {
  if (input.account().basis != AccountBasis::kMeasuredSteps || gpu.periods.empty()) return std::nullopt;
  const size_t index = gpu.MedianStepIndex();
  return Window{gpu.periods[index],
                Statement("measured step {step} of {steps}, the median step: {duration}",
                          {Count("step", index + 1), Count("steps", gpu.steps()),
                           Duration("duration", gpu.periods[index].duration())})};
}

// Without steps: the analysed window, or kMaxTimelineItems consecutive kernels from its middle.
Window MiddleWindow(const AnalysisInput& input, const model::Device& device, std::optional<Interval> analysed) {
  const model::KernelTable& kernels = input.model.kernels();
  size_t begin = 0;
  size_t end = device.kernels.size();
  if (analysed) {  // the kernels inside the account's window
    while (begin < end && kernels.start[model::KernelRow(device.kernels.begin_value + static_cast<uint32_t>(begin))] <
                              analysed->start) {
      ++begin;
    }
    while (end > begin && kernels.start[model::KernelRow(device.kernels.begin_value + static_cast<uint32_t>(end - 1))] >=
                              analysed->end) {
      --end;
    }
  }
  const size_t total = end - begin;
  size_t first = begin;
  size_t last = end;
  if (total > kMaxTimelineItems) {
    first = begin + (total - kMaxTimelineItems) / 2;
    last = first + kMaxTimelineItems;
  }
  Interval window{base::kMaxTraceTime, 0};
  for (size_t i = first; i < last; ++i) {
    const model::KernelRow kernel(device.kernels.begin_value + static_cast<uint32_t>(i));
    window.start = std::min(window.start, kernels.start[kernel]);
    window.end = std::max(window.end, kernels.end[kernel]);
  }
  if (first == begin && last == end) {
    return {window, Statement("the analysed window (no training loop of {min_steps} or more steps): {duration}",
                              {Count("min_steps", kMinSteps), Duration("duration", window.duration())})};
  }
  return {window, Statement("kernels {first} to {last} of {total}, a stretch from the middle of the analysed window "
                            "(no training loop of {min_steps} or more steps)",
                            {Count("first", first - begin + 1), Count("last", last - begin), Count("total", total),
                             Count("min_steps", kMinSteps)})};
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
  const DeviceAccount* gpu = input.account().Primary();
  const std::optional<model::DeviceRow> device_row = gpu != nullptr ? std::optional(gpu->device) : BusiestDevice(model);
  if (!device_row) return std::nullopt;
  const model::Device& device = model.device(*device_row);
  std::optional<Window> step;
  if (gpu != nullptr) step = MedianStepWindow(input, *gpu);
  const Window window =
      step ? *step : MiddleWindow(input, device, gpu != nullptr ? std::optional(gpu->window()) : std::nullopt);

  Timeline timeline;
  timeline.device_id = device.device_id;
  if (device.has_properties) timeline.device = std::string(model.Text(device.name));
  timeline.window = window.interval;
  timeline.window_label = window.label;

  // The window's kernels, counted as the account counts them: those starting inside it.
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

  // The gaps and their causes from the account's own sweep, so that the step drawn is the step counted.
  for (const AccountSegment& segment : SegmentDevice(input, *device_row, window.interval)) {
    if (segment.kind != AccountSegment::Kind::kIdle) continue;
    ++timeline.all_gaps;
    timeline.idle[segment.cause] += segment.interval.duration();
    if (segment.interval.duration() >= timeline.resolution_ns) timeline.gaps.push_back({segment.interval, segment.cause});
  }
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
                [&](const TimelineGap& gap) { return gap.interval.duration() < coarse.resolution_ns; });
  // Only the names the remaining items use.
  coarse.names.clear();
  Table names(coarse.names);
  for (TimelineItem& item : coarse.items) item.name = names.Index(timeline.names[item.name]);
  return coarse;
}

}  // namespace ampprof::analyzers
