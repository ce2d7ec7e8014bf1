#include "src/cli/analyze_command.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reports/html/html_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/cli/exit_codes.h"
#include "src/pipeline/analysis.h"

namespace ampprof::cli {
namespace {

struct AnalyzeOptions {
  std::vector<std::string> traces;
  std::string baseline;
  std::string output;
  std::string html;  // also write the HTML report there
};

// The self-contained HTML page (reports/html), besides the text report.
bool WriteHtml(const std::vector<analyzers::Report>& reports, const std::string& path) {
  std::ofstream file(path, std::ios::out | std::ios::trunc | std::ios::binary);
  if (file) reports::RenderHtml(reports, file, {});
  if (!file || !file.flush()) {
    fmt::print(std::cerr, "ampprof analyze: {}: cannot write the HTML report\n", path);
    return false;
  }
  return true;
}

int Analyze(const AnalyzeOptions& options) {
  auto reports = pipeline::AnalyzeTraces(options.traces, {.baseline = options.baseline});
  if (!reports.ok()) {
    fmt::print(std::cerr, "ampprof analyze: {}\n", reports.status().message());
    return kExitBadInput;
  }
  const bool data_loss = std::any_of(reports->begin(), reports->end(),
                                     [](const analyzers::Report& report) { return report.stats.HasDataLoss(); });
  if (data_loss) {
    fmt::print(std::cerr,
               "ampprof analyze: warning: records were lost before analysis; the report says which "
               "under \"Data quality\"\n");
  }
  const bool baseline_loss = std::any_of(reports->begin(), reports->end(), [](const analyzers::Report& report) {
    return report.comparison && report.comparison->baseline.data_loss;
  });
  if (baseline_loss) {
    fmt::print(std::cerr,
               "ampprof analyze: warning: the baseline trace lost records; the comparison's notes say so\n");
  }
  if (!options.html.empty() && !WriteHtml(*reports, options.html)) return kExitBadInput;
  if (options.output.empty()) {
    reports::RenderText(*reports, std::cout, {});
    return kExitOk;
  }
  std::ofstream file(options.output, std::ios::out | std::ios::trunc);
  if (file) reports::RenderText(*reports, file, {});
  if (!file || !file.flush()) {
    fmt::print(std::cerr, "ampprof analyze: {}: cannot write the report\n", options.output);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

CommandAction AddAnalyzeCommand(CLI::App& app) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* command = app.add_subcommand(
      "analyze", "Read traces and print the diagnosis; with --baseline, compare with the FP32 run");
  command->add_option("traces", options->traces,
                      "Trace files or directories of them: .ampt, PyTorch profiler JSON (.json, .json.gz), "
                      "Nsight Systems SQLite; each file is one process (rank) of the run")
      ->required()
      ->type_name("TRACE");
  command->add_option("--baseline", options->baseline,
                      "The FP32 run of the same workload (a trace file, or a directory of rank traces): "
                      "compare the mixed-precision TRACE with it step by step and explain the difference")
      ->type_name("FP32_TRACE");
  command->add_option("-o,--output", options->output, "Write the report to FILE instead of stdout")
      ->type_name("FILE");
  command->add_option("--html", options->html,
                      "Also write the report as one self-contained HTML page (timeline, comparison, findings with "
                      "their fixes) to FILE")
      ->type_name("FILE");
  command->footer(
      "Exit status: 0 report written, 1 bad usage, 2 a trace (or the baseline) could not be read or the "
      "report could not be written.\nA trace cut short (its process was killed) is analyzed as far as it goes; the report's "
      "\"Data quality\" section says what was lost.");
  return {command, [options] { return Analyze(*options); }};
}

}  // namespace ampprof::cli
