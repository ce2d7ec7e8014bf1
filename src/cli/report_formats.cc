#include "src/cli/report_formats.h"

#include <fmt/format.h>

#include "reports/html/html_reporter.h"
#include "reports/markdown/job_markdown.h"
#include "reports/text/job_text.h"
#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"

#ifndef AMPPROF_VERSION
#define AMPPROF_VERSION "unknown"
#endif

namespace ampprof::cli {
namespace {

using analyzers::JobReport;
using analyzers::Report;

const std::vector<ReportFormat>& Formats() {
  static const std::vector<ReportFormat> kFormats = {
      {"text", "for the terminal (the default)",
       [](std::span<const Report> reports, std::ostream& out, const ViewOptions& view) {
         reports::RenderText(reports, out, {.color = view.color, .verbose = view.verbose});
       },
       [](const JobReport& job, std::span<const Report> reports, std::ostream& out, const ViewOptions& view) {
         reports::RenderJobText(job, reports, out, {.color = view.color, .verbose = view.verbose});
       }},
      {"json", "for scripts (docs/formats/report-json.md)",
       [](std::span<const Report> reports, std::ostream& out, const ViewOptions&) {
         reports::RenderJson(reports, out, {.generator = fmt::format("ampprof {}", AMPPROF_VERSION)});
       },
       [](const JobReport& job, std::span<const Report> reports, std::ostream& out, const ViewOptions&) {
         reports::RenderJson(job, reports, out, {.generator = fmt::format("ampprof {}", AMPPROF_VERSION)});
       }},
      {"md", "a Markdown summary for a pull request or a CI job page",
       [](std::span<const Report> reports, std::ostream& out, const ViewOptions&) {
         reports::RenderMarkdown(reports, out);
       },
       [](const JobReport& job, std::span<const Report> reports, std::ostream& out, const ViewOptions&) {
         reports::RenderJobMarkdown(job, reports, out);
       }},
      {"html", "one self-contained page for a browser, with the timeline (docs/html-report.md)",
       [](std::span<const Report> reports, std::ostream& out, const ViewOptions&) {
         reports::RenderHtml(reports, out, {});
       },
       [](const JobReport& job, std::span<const Report> reports, std::ostream& out, const ViewOptions&) {
         reports::RenderHtml(reports, out, {.job = &job});
       }},
  };
  return kFormats;
}

}  // namespace

std::span<const ReportFormat> ReportFormats() { return Formats(); }

const ReportFormat* FindReportFormat(std::string_view name) {
  for (const ReportFormat& format : Formats()) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

std::vector<std::string> ReportFormatNames() {
  std::vector<std::string> names;
  for (const ReportFormat& format : Formats()) names.emplace_back(format.name);
  return names;
}

}  // namespace ampprof::cli
