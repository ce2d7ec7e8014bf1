#include "reports/html/page_title.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace ampprof::reports {
namespace {

constexpr size_t kMaxWorkload = 60;  // a tab shows less; the page's header has the whole command

// Up to kMaxWorkload bytes, ended at a space when there is one, else before a UTF-8 character.
std::string ShortWorkload(std::string_view workload) {
  if (workload.size() <= kMaxWorkload) return std::string(workload);
  size_t end = workload.rfind(' ', kMaxWorkload);
  if (end == std::string_view::npos || end < kMaxWorkload / 2) {
    end = kMaxWorkload;
    while (end > 0 && (static_cast<unsigned char>(workload[end]) & 0xC0) == 0x80) --end;
  }
  return std::string(workload.substr(0, end)) + "...";
}

// What ran: the workload, else the first trace's file name, else the report's label.
std::string WhatRan(const analyzers::Report& report) {
  if (!report.summary.workload.empty()) return ShortWorkload(report.summary.workload);
  if (!report.inputs.empty()) {
    const std::string_view path = report.inputs.front().path;
    return std::string(path.substr(path.rfind('/') + 1));
  }
  return report.label;
}

}  // namespace

std::string PageTitle(std::span<const analyzers::Report> reports) {
  if (reports.empty()) return "ampprof";
  const std::string what = WhatRan(reports.front());
  if (reports.size() == 1) {
    const int32_t rank = reports.front().rank;
    return rank >= 0 ? fmt::format("ampprof: {}, rank {}", what, rank) : fmt::format("ampprof: {}", what);
  }
  const bool one_workload = std::all_of(reports.begin(), reports.end(), [&](const analyzers::Report& report) {
    return WhatRan(report) == what;
  });
  const bool all_ranks = std::all_of(reports.begin(), reports.end(),
                                     [](const analyzers::Report& report) { return report.rank >= 0; });
  const std::string count = fmt::format("{} {}", reports.size(), all_ranks ? "ranks" : "traces");
  return one_workload ? fmt::format("ampprof: {}, {}", what, count) : fmt::format("ampprof: {}", count);
}

std::string ReportHeading(const analyzers::Report& report) {
  const std::string what = WhatRan(report);
  const std::string ranked = report.rank >= 0 ? fmt::format("{}, rank {}", what, report.rank) : what;
  const bool label_adds = !report.label.empty() && report.label != what &&
                          (report.rank < 0 || report.label != fmt::format("rank {}", report.rank));
  return label_adds ? fmt::format("{} ({})", ranked, report.label) : ranked;
}

}  // namespace ampprof::reports
