#ifndef AMPPROF_SRC_CLI_REPORT_FORMATS_H_
#define AMPPROF_SRC_CLI_REPORT_FORMATS_H_

// The views `ampprof analyze --format` offers: one line each in report_formats.cc, which is the one
// place a new reporter is registered (the flag's choices and its help come from this list).
//
//   const ReportFormat* format = FindReportFormat("json");
//   format->render(reports, std::cout, {.color = false, .verbose = false});

#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/ranks/job_report.h"
#include "analyzers/report/report.h"

namespace ampprof::cli {

// What the command line decides for every view; each view takes what applies to it.
struct ViewOptions {
  bool color = false;    // text only: stdout is a terminal and NO_COLOR is not set
  bool verbose = false;  // text only: add the tables
};

struct ReportFormat {
  std::string_view name;         // the --format value
  std::string_view description;  // for --help
  std::function<void(std::span<const analyzers::Report>, std::ostream&, const ViewOptions&)> render;
  // Several ranks of one job: the cross-rank report, then the per-rank reports asked for (maybe none).
  std::function<void(const analyzers::JobReport&, std::span<const analyzers::Report>, std::ostream&,
                     const ViewOptions&)>
      render_job;
};

std::span<const ReportFormat> ReportFormats();
// nullptr when `name` is not a format.
const ReportFormat* FindReportFormat(std::string_view name);
std::vector<std::string> ReportFormatNames();

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_REPORT_FORMATS_H_
