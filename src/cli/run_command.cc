#include "src/cli/run_command.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reports/text/text_reporter.h"
#include "src/cli/collector_setup.h"
#include "src/cli/exit_codes.h"
#include "src/cli/launcher.h"
#include "src/cli/output_directory.h"
#include "src/pipeline/analysis.h"

namespace ampprof::cli {
namespace {

struct RunOptions {
  std::vector<std::string> command;
  std::string output_dir = "ampprof-out";
  bool force = false;
  std::string capture_range = "none";
  std::optional<double> delay_seconds;
  std::optional<double> duration_seconds;
  bool report = true;
};

std::optional<std::string> ProcessEnvironment(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// What the exit status says about how the workload ended, when it did not end normally.
std::optional<std::string> HowItDied(int status) {
  if (status <= 128 || status > 128 + 64) return std::nullopt;
  const int signal = status - 128;
  const char* name = sigabbrev_np(signal);
  return fmt::format("the workload was killed by signal {} (SIG{}); its traces hold what was recorded "
                     "before",
                     signal, name != nullptr ? name : "?");
}

void ExplainNoActivity(const std::string& output_dir, const RunOptions& options) {
  fmt::print(std::cerr,
             "ampprof run: no CUDA activity was recorded (no trace in {}). Likely reasons:\n"
             "  - the program never initialised CUDA (it ran on the CPU, or failed before using the GPU);\n"
             "  - no NVIDIA driver or GPU is visible to it (check nvidia-smi and CUDA_VISIBLE_DEVICES);\n"
             "  - its CUDA libraries ignore CUDA_INJECTION64_PATH (a driver older than CUDA 13 needs);\n"
             "{}",
             output_dir,
             options.capture_range == "cudaProfilerApi"
                 ? "  - --capture-range=cudaProfilerApi: the program never called cudaProfilerStart "
                   "(torch.cuda.profiler.start()).\n"
                 : "");
}

std::vector<std::string> TracesIn(const std::string& output_dir) {
  std::vector<std::string> traces;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(output_dir, error)) {
    if (entry.path().extension() == ".ampt") traces.push_back(entry.path().string());
  }
  std::sort(traces.begin(), traces.end());
  return traces;
}

// Every trace the run wrote, analyzed and printed; the likely reasons when there is none.
void ReportOnTraces(const std::string& output_dir, const RunOptions& options) {
  const std::vector<std::string> traces = TracesIn(output_dir);
  if (traces.empty()) {
    ExplainNoActivity(output_dir, options);
    return;
  }
  fmt::print(std::cerr, "ampprof run: {} trace(s) in {}\n", traces.size(), output_dir);
  auto reports = pipeline::AnalyzeTraces(traces);
  if (!reports.ok()) {
    fmt::print(std::cerr, "ampprof run: cannot analyze the traces: {}\n", reports.status().message());
    return;
  }
  for (const analyzers::Report& report : *reports) {
    if (!report.summary.collector_note.empty()) {
      fmt::print(std::cerr, "ampprof run: {}: {}\n", report.label, report.summary.collector_note);
    }
  }
  reports::RenderText(*reports, std::cout, {});
}

int Run(const RunOptions& options) {
  base::StatusOr<CollectorFiles> collector = FindCollector();
  if (!collector.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", collector.status().message());
    return kExitUnavailable;
  }
  if (options.capture_range == "cudaProfilerApi" && options.delay_seconds) {
    fmt::print(std::cerr,
               "ampprof run: --delay applies to the whole-run capture; with "
               "--capture-range=cudaProfilerApi the program's cudaProfilerStart opens the window\n");
    return kExitUsage;
  }
  base::StatusOr<std::string> output_dir = PrepareOutputDirectory(options.output_dir, options.force);
  if (!output_dir.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", output_dir.status().message());
    return kExitBadInput;
  }

  CaptureOptions capture;
  capture.output_dir = *output_dir;
  capture.range = options.capture_range == "cudaProfilerApi" ? CaptureRangeOption::kCudaProfilerApi
                                                             : CaptureRangeOption::kNone;
  capture.delay_seconds = options.delay_seconds;
  capture.duration_seconds = options.duration_seconds;
  TracedEnvironment traced = TracedRunEnvironment(capture, *collector, &ProcessEnvironment);
  if (traced.other_tool) {
    fmt::print(std::cerr,
               "ampprof run: another CUDA tool is attached ({}), and CUDA and NVTX accept one tool per "
               "process: ampprof records nothing in this run; its NVTX ranges reach that tool\n",
               *traced.other_tool);
  }

  LaunchRequest request;
  request.argv = options.command;
  request.environment = std::move(traced.variables);
  base::StatusOr<int> status = RunWorkload(request);
  if (!status.ok()) {
    fmt::print(std::cerr, "ampprof run: {}\n", status.status().message());
    return status.status().code() == base::StatusCode::kNotFound ? kExitCommandNotFound : kExitCannotExecute;
  }
  if (std::optional<std::string> death = HowItDied(*status)) fmt::print(std::cerr, "ampprof run: {}\n", *death);
  if (options.report && !traced.other_tool) ReportOnTraces(*output_dir, options);
  return *status;
}

}  // namespace

CommandAction AddRunCommand(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Trace one run of a CUDA program and print the diagnosis");
  command->add_option("-o,--output", options->output_dir,
                      "Directory for the traces: one .ampt per process that used CUDA, named by rank and pid")
      ->type_name("DIR")
      ->capture_default_str();
  command->add_flag("--force", options->force, "Replace the traces an earlier run left in the directory");
  command->add_option("--capture-range", options->capture_range,
                      "none: record from CUDA initialisation to exit; cudaProfilerApi: from the program's "
                      "cudaProfilerStart to cudaProfilerStop (torch.cuda.profiler.start/stop)")
      ->check(CLI::IsMember({"none", "cudaProfilerApi"}))
      ->capture_default_str();
  command->add_option("--delay", options->delay_seconds, "Start recording SEC seconds after CUDA initialisation")
      ->type_name("SEC")
      ->check(CLI::Range(0.0, 86400.0));
  command->add_option("--duration", options->duration_seconds,
                      "Record for SEC seconds, then detach so the rest of the run is not slowed down")
      ->type_name("SEC")
      ->check(CLI::Range(0.001, 86400.0));
  command->add_flag("!--no-report", options->report, "Only record: do not analyze the traces after the run");
  command->add_option("command", options->command, "The workload and its arguments, after --")
      ->required()
      ->type_name("-- CMD ARGS...");
  command->footer(
      "Example: ampprof run -o traces -- python train.py --epochs 1\n"
      "Exit status: the workload's own (128 + N when signal N killed it); 127/126 when it cannot be "
      "started; 1 bad usage, 2 the output directory is unusable, 3 this build has no collector.");
  // The action owns the options: CLI11 writes into them while parsing, after this function returns.
  return {command, [options] { return Run(*options); }};
}

}  // namespace ampprof::cli
