#include "reports/text/text_tables.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "reports/common/memory_text.h"
#include "reports/text/text_layout.h"
#include "src/base/format.h"
#include "src/base/terminal_text.h"
#include "src/base/time.h"

namespace ampprof::reports {
namespace {

using analyzers::DeviceSummary;
using analyzers::Report;
using base::FormatBytes;
using base::FormatCount;
using base::FormatDuration;
using base::FormatPercent;

std::string DeviceTitle(const DeviceSummary& device) {
  std::string title = fmt::format("GPU {}", device.device_id);
  if (device.pid != 0) title += fmt::format(" (pid {})", device.pid);
  if (device.name.empty()) return title + ": properties not recorded";
  title += fmt::format(": {}", device.name);
  if (device.compute_major > 0) title += fmt::format(", sm_{}{}", device.compute_major, device.compute_minor);
  if (device.sm_count > 0) title += fmt::format(", {} SMs", device.sm_count);
  if (device.global_memory_bytes > 0) title += fmt::format(", {}", FormatBytes(device.global_memory_bytes));
  return title;
}

}  // namespace

void RenderDeviceDetails(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  for (const DeviceSummary& device : report.summary.devices) {
    if (device.kernels == 0) continue;
    fmt::print(out, "\n{}\n", style.Heading(Shorten(DeviceTitle(device), width)));
    fmt::print(out, "  kernels   {} on {} stream{}\n", FormatCount(static_cast<int64_t>(device.kernels)),
               device.streams_with_kernels, device.streams_with_kernels == 1 ? "" : "s");
    fmt::print(out, "  span      {} from the first kernel to the last\n", FormatDuration(device.span->duration()));
    if (device.account) {
      fmt::print(out, "  busy      {} of the analysed {} ({} with no kernel running)\n",
                 FormatPercent(device.account->busy_fraction), FormatDuration(device.account->window.duration()),
                 FormatDuration(device.account->window.duration() - device.account->busy_ns));
    }
    if (const std::string memory = DeviceMemoryText(device); !memory.empty()) {
      PrintWrapped(out, "  memory    ", "            ", memory, width);
    }
    if (!device.account) continue;
    std::vector<std::string> causes;
    for (analyzers::GapCause cause : analyzers::kAllGapCauses) {
      if (device.account->idle[cause] > 0) {
        causes.push_back(fmt::format("{} {}", FormatDuration(device.account->idle[cause]), analyzers::GapCauseName(cause)));
      }
    }
    if (!causes.empty()) PrintWrapped(out, "  idle      ", "            ", fmt::format("{}", fmt::join(causes, "; ")), width);
  }
}

void RenderRecordCounts(const Report& report, std::ostream& out) {
  const analyzers::TraceSummary& s = report.summary;
  auto count = [](uint64_t n) { return FormatCount(static_cast<int64_t>(n)); };
  fmt::print(out, "\nrecords   {} kernels, {} API calls, {} memcpys, {} memsets, {} syncs\n", count(s.kernels),
             count(s.api_calls), count(s.memcpys), count(s.memsets), count(s.syncs));
  fmt::print(out, "          {} ranges, {} marks, {} memory events; {} process{}, {} thread{}\n", count(s.ranges),
             count(s.marks), count(s.memory_events), s.processes, s.processes == 1 ? "" : "es", s.threads,
             s.threads == 1 ? "" : "s");
  if (s.synchronize_calls + s.pageable_copies > 0) {
    fmt::print(out, "host      {} synchronise calls; {} copies to or from pageable memory ({})\n",
               count(s.synchronize_calls), count(s.pageable_copies), FormatBytes(s.pageable_copy_bytes));
  }
}

void RenderAccount(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  const analyzers::TraceSummary& s = report.summary;
  for (const DeviceSummary& device : s.devices) {
    if (!device.account) continue;
    const analyzers::AccountSummary& account = *device.account;
    const bool per_step = account.basis == "measured steps";
    fmt::print(out, "\n{}\n",
               style.Heading(Shorten(fmt::format("Step account, GPU {}: {} ({})", device.device_id,
                                                 per_step ? fmt::format("{} measured steps", account.steps)
                                                          : std::string("the whole run"),
                                                 FormatDuration(account.window.duration())),
                                     width)));
    fmt::print(out, "  {:>6}  {:>10}  {:>10}  {}\n", "share", per_step ? "per step" : "time", "in all", "bucket");
    for (const analyzers::AccountRow& row : account.rows) {
      fmt::print(out, "  {:>6}  {:>10}  {:>10}  {}\n", FormatPercent(row.share), FormatDuration(row.per_step_ns),
                 FormatDuration(row.total_ns), Shorten(row.label, width > 36 ? width - 36 : 20));
    }
    if (account.overlapped_communication_ns > 0) {
      fmt::print(out, "  (not charged: {} of communication ran under compute)\n",
                 FormatDuration(account.overlapped_communication_ns));
    }
  }
}

void RenderTopKernels(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  const analyzers::TraceSummary& s = report.summary;
  if (s.top_kernels.empty()) return;
  fmt::print(out, "\n{}\n",
             style.Heading(fmt::format("Top kernels by GPU time ({} in all kernels)", FormatDuration(s.kernel_time_ns))));
  fmt::print(out, "  {:>6}  {:>10}  {:>9}  {}\n", "share", "time", "launches", "kernel");
  const size_t name_width = width - 36;
  for (const analyzers::KernelTimeSummary& kernel : s.top_kernels) {
    const std::string name = base::EscapeControlCharacters(DisplayKernelName(kernel.name));
    // A name that does not fit beside the numbers gets a line of its own, at full width: the part that
    // tells kernels apart is often in the middle (the functor of an elementwise kernel).
    const bool own_line = name.size() > name_width;
    const std::string numbers = fmt::format("  {:>6}  {:>10}  {:>9}", FormatPercent(kernel.share_of_kernel_time),
                                            FormatDuration(kernel.total_ns), FormatCount(static_cast<int64_t>(kernel.count)));
    fmt::print(out, "{}{}\n", numbers, own_line ? "" : "  " + std::string(name));
    if (own_line) {
      // Nested template arguments collapsed, the rest whole over as many lines as it takes.
      const std::string collapsed = name.size() > width - 4 ? CollapseNestedArguments(name) : std::string(name);
      for (const std::string& line : BreakLongWord(collapsed, width - 4)) fmt::print(out, "    {}\n", line);
    }
    if (!kernel.kind.empty()) fmt::print(out, "    ({})\n", kernel.kind);
  }
}

void RenderOpTable(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  if (!report.ops || report.ops->rows.empty()) return;
  const analyzers::OpTable& table = *report.ops;
  const bool per_step = table.steps > 0;
  fmt::print(out, "\n{}\n",
             style.Heading(Shorten(fmt::format("Ops by GPU time on GPU {} ({} of {} kernels launched by an op{})",
                                               table.device_id, FormatCount(static_cast<int64_t>(table.attributed_kernels)),
                                               FormatCount(static_cast<int64_t>(table.kernels)),
                                               per_step ? ", per step" : ""),
                                   width)));
  fmt::print(out, "  {:>6}  {:>10}  {:>7}  {}\n", "share", "time", "kernels", "op (input shapes; type; unit)");
  for (const analyzers::OpRow& row : table.rows) {
    fmt::print(out, "  {:>6}  {:>10}  {:>7}  {}\n", FormatPercent(row.share),
               FormatDuration(per_step ? row.per_step_ns : row.kernel_ns),
               FormatCount(static_cast<int64_t>(row.kernels)),
               Shorten(row.name, width - 31));
    std::vector<std::string> details;
    if (!row.shapes.empty()) details.push_back(row.shapes);
    if (!row.input_type.empty()) details.push_back(row.input_type);
    if (!row.unit.empty()) details.push_back(row.unit);
    if (!row.forward.empty()) details.push_back("backward of " + row.forward);
    else if (row.backward) details.push_back("backward pass");
    if (!details.empty()) {
      PrintWrapped(out, "            ", "              ",
                   fmt::format("{}", fmt::join(details, "; ")), width);
    }
  }
  if (table.distinct_ops > table.rows.size()) {
    fmt::print(out, "  ({} smaller ops left out)\n", table.distinct_ops - table.rows.size());
  }
}

void RenderStepTimes(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  const analyzers::TraceSummary& s = report.summary;
  if (s.step_times.empty()) return;
  const std::string shown = s.step_times.size() < s.steps
                                ? fmt::format("the first {} of {}", s.step_times.size(), s.steps)
                                : fmt::format("{}", s.steps);
  fmt::print(
      out, "\n{}\n",
      style.Heading(Shorten(fmt::format("Steps: {}, from {}", shown, s.step_source), width)));
  fmt::print(out, "  {:>5}  {:>10}  {:>10}\n", "step", "start", "duration");
  base::DurationNs longest = 0;
  for (const analyzers::StepTime& step : s.step_times) longest = std::max(longest, step.interval.duration());
  const base::TimeNs origin = s.step_times.front().interval.start;
  constexpr size_t kFixed = 2 + 5 + 2 + 10 + 2 + 10 + 2 + 7 + 2;  // the columns before the bar
  const size_t bar_width = std::min<size_t>(width > kFixed ? width - kFixed : 0, 40);
  for (const analyzers::StepTime& step : s.step_times) {
    const base::DurationNs duration = std::clamp<base::DurationNs>(step.interval.duration(), 0, longest);
    const size_t bar = longest > 0 ? static_cast<size_t>(static_cast<double>(bar_width) * static_cast<double>(duration) /
                                                             static_cast<double>(longest) +
                                                         0.5)
                                   : 0;
    std::string line = fmt::format("  {:>5}  {:>10}  {:>10}  {:<7}  {}", step.index,
                                   FormatDuration(step.interval.start - origin), FormatDuration(duration),
                                   step.warmup ? "warm-up" : "", std::string(std::max<size_t>(bar, 1), '#'));
    fmt::print(out, "{}\n", step.warmup ? style.Dim(line) : line);
  }
  fmt::print(out, "  median {}, p90 {} over the steps after warm-up\n", FormatDuration(s.median_step_ns),
             FormatDuration(s.p90_step_ns));
}

void RenderDataQuality(const Report& report, std::ostream& out, const TextStyle& style, size_t width) {
  const auto entries = report.stats.NonZero();
  if (entries.empty()) return;
  fmt::print(out, "\n{}\n", style.Heading("Data quality"));
  for (const base::StatEntry& entry : entries) {
    fmt::print(out, "  {:<9}  {:>12}  {}\n", base::SeverityName(entry.info->severity), FormatCount(entry.value),
               entry.info->name);
    PrintWrapped(out, std::string(27, ' '), std::string(27, ' '), entry.info->description, width);
  }
}

}  // namespace ampprof::reports
