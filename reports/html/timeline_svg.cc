#include "reports/common/statement_text.h"
#include "reports/html/timeline_svg.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <map>
#include <vector>

#include "reports/html/html_escape.h"
#include "reports/html/palette.h"
#include "src/base/format.h"

namespace ampprof::reports {
namespace {

using analyzers::GapCause;
using analyzers::kGapCauses;
using analyzers::Timeline;
using analyzers::TimelineItem;

constexpr int kLaneHeight = 26;
constexpr int kBarHeight = 20;

// Microseconds from the window's start, to the nanosecond.
std::string Micros(base::TimeNs t) {
  return fmt::format("{:.3f}", static_cast<double>(t) / 1000.0);
}

void RenderLegend(const Timeline& timeline, std::ostream& out) {
  out << "<div class=\"legend\">";
  for (const std::string& category : timeline.categories) {
    fmt::print(out, "<span><i style=\"background:{}\"></i>{}</span>", CategoryColor(category),
               EscapeHtml(category));
  }
  out << "</div>\n<div class=\"legend idle\">";
  for (size_t c = 0; c < kGapCauses; ++c) {
    const auto cause = static_cast<GapCause>(c);
    if (timeline.idle[cause] == 0) continue;
    fmt::print(out, "<span><i style=\"background:{}\"></i>idle, {}: {}</span>", IdleColor(cause),
               EscapeHtml(analyzers::GapCauseName(cause)),
               base::FormatDuration(timeline.idle[cause]));
  }
  out << "</div>\n";
}

// What the script needs for tooltips and the axis, as JSON.
void RenderData(const Timeline& timeline, std::ostream& out) {
  out << "<script type=\"application/json\" class=\"tl-data\">{\"names\":[";
  for (size_t i = 0; i < timeline.names.size(); ++i)
    out << (i ? "," : "") << JsonString(timeline.names[i]);
  out << "],\"categories\":[";
  for (size_t i = 0; i < timeline.categories.size(); ++i)
    out << (i ? "," : "") << JsonString(timeline.categories[i]);
  out << "],\"streams\":[";
  for (size_t i = 0; i < timeline.lanes.size(); ++i)
    out << (i ? "," : "") << timeline.lanes[i].stream_id;
  out << "],\"causes\":[";
  for (size_t c = 0; c < kGapCauses; ++c) {
    out << (c ? "," : "") << JsonString(analyzers::GapCauseName(static_cast<GapCause>(c)));
  }
  fmt::print(out, "],\"window_us\":{},\"lane_height\":{}}}</script>\n",
             Micros(timeline.window.duration()), kLaneHeight);
}

void RenderSvg(const Timeline& timeline, std::ostream& out) {
  const base::TimeNs origin = timeline.window.start;
  const int height = std::max<int>(1, static_cast<int>(timeline.lanes.size())) * kLaneHeight;
  fmt::print(
      out,
      "<svg class=\"tl-svg\" viewBox=\"0 0 {0} {1}\" preserveAspectRatio=\"none\" height=\"{1}\" "
      "role=\"img\" aria-label=\"GPU timeline\">\n<g class=\"tl-gaps\">",
      Micros(std::max<base::DurationNs>(1, timeline.window.duration())), height);
  for (const analyzers::TimelineGap& gap : timeline.gaps) {
    fmt::print(out, "<rect x=\"{}\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{}\" data-g=\"{}\"/>",
               Micros(gap.interval.start - origin), Micros(gap.interval.duration()), height,
               IdleColor(gap.cause), static_cast<int>(gap.cause));
  }
  out << "</g>\n";
  // One group per category: its colour once, its items inside.
  std::map<uint32_t, std::vector<const TimelineItem*>> by_category;
  for (const TimelineItem& item : timeline.items) by_category[item.category].push_back(&item);
  for (const auto& [category, items] : by_category) {
    const std::string_view color = CategoryColor(timeline.categories[category]);
    fmt::print(out, "<g class=\"tl-kernels\" fill=\"{0}\" stroke=\"{0}\" data-c=\"{1}\">", color,
               category);
    for (const TimelineItem* item : items) {
      fmt::print(out, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" data-n=\"{}\"",
                 Micros(item->interval.start - origin),
                 item->lane * kLaneHeight + (kLaneHeight - kBarHeight) / 2,
                 Micros(item->interval.duration()), kBarHeight, item->name);
      if (item->kernels > 1)
        fmt::print(out, " data-m=\"{}\" data-b=\"{}\"", item->kernels, Micros(item->kernel_ns));
      out << "/>";
    }
    out << "</g>\n";
  }
  out << "</svg>\n";
}

}  // namespace

void RenderTimeline(const Timeline& timeline, const TimelineBlock& block, std::ostream& out) {
  fmt::print(out, "<div class=\"timeline\" id=\"{}\">\n", EscapeHtml(block.id));
  std::string device = timeline.device.empty()
                           ? fmt::format("GPU {}", timeline.device_id)
                           : fmt::format("GPU {}: {}", timeline.device_id, timeline.device);
  fmt::print(out, "<h3>{}{}</h3>\n",
             block.title.empty() ? "" : EscapeHtml(block.title) + " &middot; ", EscapeHtml(device));
  std::string merged;
  if (timeline.resolution_ns > 0) {
    merged = fmt::format(
        "; kernels of a stream starting within {} of each other drawn as one, idle gaps under {} "
        "left out ({} of {} shown)",
        base::FormatDuration(timeline.resolution_ns), base::FormatDuration(timeline.resolution_ns),
        base::FormatCount(static_cast<int64_t>(timeline.gaps.size())),
        base::FormatCount(static_cast<int64_t>(timeline.all_gaps)));
  }
  fmt::print(out, "<p class=\"tl-caption\">{}: {} kernels on {} stream{} in {}{}</p>\n",
             EscapeHtml(RenderStatement(timeline.window_label)),
             base::FormatCount(static_cast<int64_t>(timeline.kernels)), timeline.lanes.size(),
             timeline.lanes.size() == 1 ? "" : "s",
             base::FormatDuration(timeline.window.duration()), merged);
  out << "<div class=\"tl-toolbar\"><button type=\"button\" data-zoom=\"in\">zoom in</button>"
         "<button type=\"button\" data-zoom=\"out\">zoom out</button>"
         "<button type=\"button\" data-zoom=\"reset\">reset</button>"
         "<span class=\"tl-hint\">drag across the timeline to zoom into a range; hover for "
         "details</span></div>\n";
  fmt::print(out, "<div class=\"tl-frame\" style=\"width:{:.1f}%\">\n<div class=\"tl-labels\">",
             block.width_percent);
  for (const analyzers::TimelineLane& lane : timeline.lanes) {
    fmt::print(out, "<div style=\"height:{}px\">stream {}</div>", kLaneHeight, lane.stream_id);
  }
  out << "</div>\n<div class=\"tl-plot\">\n";
  RenderSvg(timeline, out);
  fmt::print(out,
             "<div class=\"tl-axis\"><span style=\"left:0\">0</span><span "
             "style=\"right:0\">{}</span></div>\n",
             base::FormatDuration(timeline.window.duration()));
  out << "</div>\n</div>\n";
  RenderLegend(timeline, out);
  RenderData(timeline, out);
  out << "</div>\n";
}

}  // namespace ampprof::reports
