#include "src/cli/compare_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reports/text/text_reporter.h"
#include "src/base/format.h"
#include "src/base/terminal_text.h"
#include "src/cli/collector_setup.h"
#include "src/cli/exit_codes.h"
#include "src/cli/launcher.h"
#include "src/cli/kernel_rules_option.h"
#include "src/cli/output_directory.h"
#include "src/cli/traced_run.h"
#include "src/pipeline/analysis.h"

namespace ampprof::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> command;
  TracedRunFlags traced;
  int64_t runs = 1;
  std::string amp_dtype = "fp16";
  bool report = true;
};

enum class Mode { kFp32, kAmp };

std::string_view ModeName(Mode mode) { return mode == Mode::kFp32 ? "fp32" : "amp"; }

// The command line of one mode: every "{precision}" becomes fp32, or the AMP dtype (fp16/bf16), so a
// program with its own precision flag runs unchanged: `./train --precision {precision}`.
std::vector<std::string> CommandFor(const CompareOptions& options, Mode mode) {
  const std::string precision = mode == Mode::kFp32 ? "fp32" : options.amp_dtype;
  std::vector<std::string> argv = options.command;
  for (std::string& argument : argv) {
    for (size_t at = argument.find("{precision}"); at != std::string::npos;
         at = argument.find("{precision}", at + precision.size())) {
      argument.replace(at, 11, precision);
    }
  }
  return argv;
}

struct ModeRun {
  Mode mode;
  int index = 0;  // 1-based repetition
  std::string dir;
  std::vector<std::string> traces;
  analyzers::WorkloadOutcome outcome;
};

// One pair's comparison: the AMP traces against the FP32 run as the baseline.
struct PairResult {
  int index = 0;
  std::vector<analyzers::Report> reports;
  double speedup = 0.0;
  base::DurationNs fp32_ns = 0;
  base::DurationNs amp_ns = 0;
};

base::StatusOr<PairResult> ComparePair(const ModeRun& fp32, const ModeRun& amp) {
  PairResult pair;
  pair.index = amp.index;
  ASSIGN_OR_RETURN(pair.reports, pipeline::AnalyzeTraces(amp.traces, {.baseline = fp32.dir}));
  SetWorkloadOutcome(pair.reports, amp.outcome);
  for (const analyzers::Report& report : pair.reports) {
    if (!report.comparison) continue;
    pair.speedup = report.comparison->speedup;
    pair.fp32_ns = report.comparison->baseline.time_ns;
    pair.amp_ns = report.comparison->candidate.time_ns;
    break;
  }
  return pair;
}

// With --runs N: every pair's step times and speed-up, and the spread, so that a difference can be
// told from run-to-run noise.
void RenderSpread(const std::vector<PairResult>& pairs, std::ostream& out) {
  fmt::print(out, "Runs: FP32 and mixed precision alternated, {} pair(s)\n", pairs.size());
  fmt::print(out, "  {:>4}  {:>12}  {:>12}  {:>9}\n", "pair", "FP32", "AMP", "speed-up");
  std::vector<double> speedups;
  for (const PairResult& pair : pairs) {
    fmt::print(out, "  {:>4}  {:>12}  {:>12}  {:>8.2f}x\n", pair.index, base::FormatDuration(pair.fp32_ns),
               base::FormatDuration(pair.amp_ns), pair.speedup);
    if (pair.speedup > 0) speedups.push_back(pair.speedup);
  }
  if (speedups.empty()) return;
  std::sort(speedups.begin(), speedups.end());
  fmt::print(out, "  speed-up: median {:.2f}x, from {:.2f}x to {:.2f}x over {} pairs\n\n",
             speedups[speedups.size() / 2], speedups.front(), speedups.back(), speedups.size());
}

// The report on stdout, the HTML page in the comparison's directory (the parent of the runs').
void PrintReports(std::span<const analyzers::Report> reports, const std::vector<ModeRun>& runs) {
  reports::RenderText(reports, std::cout, {});
  std::cout.flush();
  const std::filesystem::path output_dir = std::filesystem::path(runs.front().dir).parent_path();
  WriteHtmlReport(reports, (output_dir / "report.html").string(), "compare");
}

// What a run that failed (crashed, was interrupted) recorded: a mixed-precision run against its
// FP32 run, an FP32 run on its own.
base::StatusOr<std::vector<analyzers::Report>> StoppedRunReports(const std::vector<ModeRun>& runs,
                                                                 size_t stopped) {
  const ModeRun& run = runs[stopped];
  if (run.mode == Mode::kAmp) {
    ASSIGN_OR_RETURN(PairResult pair, ComparePair(runs[stopped - 1], run));
    return std::move(pair.reports);
  }
  fmt::print(std::cerr, "ampprof compare: nothing to compare; the FP32 run's own report follows\n");
  ASSIGN_OR_RETURN(std::vector<analyzers::Report> reports, pipeline::AnalyzeTraces(run.traces));
  SetWorkloadOutcome(reports, run.outcome);
  return reports;
}

// What a failed run recorded, reported with how it ended.
void ReportOnStoppedRun(const std::vector<ModeRun>& runs, size_t stopped,
                        const CompareOptions& options) {
  if (!options.report || runs[stopped].traces.empty()) return;
  base::StatusOr<std::vector<analyzers::Report>> reports = StoppedRunReports(runs, stopped);
  if (!reports.ok()) {
    fmt::print(std::cerr, "ampprof compare: cannot analyze the traces: {}\n",
               base::EscapeControlCharacters(reports.status().message()));
    return;
  }
  PrintReports(*reports, runs);
}

int Compare(const CompareOptions& options) {
  // The rules are read before the workload starts: a bad file fails now, not after the run.
  const std::optional<analyzers::KernelClassifier> rules = LoadKernelRules(options.traced.kernel_rules, "compare");
  if (!options.traced.kernel_rules.empty() && !rules) return kExitBadInput;
  const analyzers::ScopedKernelClassifier active_rules(rules ? &*rules : nullptr);
  base::StatusOr<CollectorFiles> collector = FindCollector();
  if (!collector.ok()) {
    fmt::print(std::cerr, "ampprof compare: {}\n", collector.status().message());
    return kExitUnavailable;
  }
  if (base::Status flags = CheckTracedRunFlags(options.traced); !flags.ok()) {
    fmt::print(std::cerr, "ampprof compare: {}\n", flags.message());
    return kExitUsage;
  }
  // Every run's directory is prepared before the first starts: an unusable one fails now, not after
  // an hour of FP32 training. All of them, and the one above that gets report.html, stay locked
  // until ampprof exits, so that no other run writes into them meanwhile.
  std::vector<PreparedOutputDirectory> locked;
  base::StatusOr<PreparedOutputDirectory> top = LockOutputDirectory(options.traced.output_dir);
  if (!top.ok()) {
    fmt::print(std::cerr, "ampprof compare: {}\n", top.status().message());
    return kExitBadInput;
  }
  locked.push_back(std::move(*top));
  std::vector<ModeRun> runs;
  for (int index = 1; index <= options.runs; ++index) {
    for (const Mode mode : {Mode::kFp32, Mode::kAmp}) {
      const std::string name = fmt::format("{}/{}-{}", options.traced.output_dir, ModeName(mode), index);
      base::StatusOr<PreparedOutputDirectory> dir =
          PrepareOutputDirectory(name, options.traced.force);
      if (!dir.ok()) {
        fmt::print(std::cerr, "ampprof compare: {}\n", dir.status().message());
        return kExitBadInput;
      }
      runs.push_back({mode, index, dir->path, {}, {}});
      locked.push_back(std::move(*dir));
    }
  }

  SayWhichCupti(*collector, "compare");
  // Alternating FP32 and AMP, so that drift (clocks, temperature, other jobs) touches both alike.
  for (size_t r = 0; r < runs.size(); ++r) {
    ModeRun& run = runs[r];
    fmt::print(std::cerr, "ampprof compare: {} run {} of {}\n",
               run.mode == Mode::kFp32 ? "FP32" : "mixed-precision", run.index, options.runs);
    TracedWorkload workload;
    workload.argv = CommandFor(options, run.mode);
    workload.output_dir = run.dir;
    workload.capture = CaptureOptionsFor(options.traced, run.dir);
    workload.extra_environment = {{"AMPPROF_PRECISION", std::string(ModeName(run.mode))}};
    workload.trace_wait = TraceWaitFor(options.traced);
    base::StatusOr<TracedRunResult> result = RunTraced(workload, *collector, "compare");
    if (!result.ok()) {
      fmt::print(std::cerr, "ampprof compare: {}\n", result.status().message());
      return ExitStatusForLaunchError(result.status());
    }
    run.outcome = result->outcome;
    run.traces = std::move(result->traces);
    if (run.outcome.ShellStatus() != 0) {
      fmt::print(std::cerr, "ampprof compare: the {} run {}{}; stopping\n", ModeName(run.mode),
                 run.outcome.signal != 0 ? "was " : "", analyzers::DescribeOutcome(run.outcome));
      // A failed run stops the comparison; ampprof ends as that run did (its status, or its
      // signal).
      ReportOnStoppedRun(runs, r, options);
      return ExitLikeWorkload(run.outcome);
    }
    if (!result->recorded) return kExitOk;  // another tool owns the tracing: nothing to compare
    if (run.traces.empty()) {
      // Nothing to compare is not a pass: a CI job that compares must not go green on it.
      ExplainNoTrace("compare", run.dir, workload.capture);
      return kExitBadInput;
    }
  }
  if (!options.report) return kExitOk;

  std::vector<PairResult> pairs;
  for (size_t i = 0; i + 1 < runs.size(); i += 2) {
    base::StatusOr<PairResult> pair = ComparePair(runs[i], runs[i + 1]);
    if (!pair.ok()) {
      fmt::print(std::cerr, "ampprof compare: cannot analyze the traces: {}\n",
                 base::EscapeControlCharacters(pair.status().message()));
      return kExitBadInput;
    }
    pairs.push_back(std::move(*pair));
  }
  // The pair with the median speed-up stands for all of them in the full report.
  std::vector<const PairResult*> by_speedup;
  for (const PairResult& pair : pairs) by_speedup.push_back(&pair);
  std::sort(by_speedup.begin(), by_speedup.end(),
            [](const PairResult* a, const PairResult* b) { return a->speedup < b->speedup; });
  const PairResult& median = *by_speedup[by_speedup.size() / 2];
  if (pairs.size() > 1) {
    RenderSpread(pairs, std::cout);
    fmt::print(std::cout, "The report of pair {}, the median speed-up:\n\n", median.index);
  }
  PrintReports(median.reports, runs);
  // A pair whose runs could not be compared (one of them ran no kernel) is not a pass either.
  const size_t uncompared = static_cast<size_t>(
      std::count_if(pairs.begin(), pairs.end(), [](const PairResult& pair) { return pair.speedup <= 0.0; }));
  if (uncompared > 0) {
    fmt::print(std::cerr, "ampprof compare: {} of {} pair(s) could not be compared: a run recorded no GPU kernels\n",
               uncompared, pairs.size());
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

CommandAction AddCompareCommand(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Run a program in FP32 and in mixed precision, trace both and explain the difference");
  AddTracedRunFlags(command, options->traced);
  command->add_option("--runs", options->runs, "Pairs of runs (FP32, then AMP), to see the spread")
      ->type_name("N")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  command
      ->add_option("--amp-dtype", options->amp_dtype,
                   "What {precision} becomes in the mixed-precision run's command line: fp16 or bf16")
      ->type_name("DTYPE")
      ->check(CLI::IsMember({"fp16", "bf16"}))
      ->capture_default_str();
  command->add_flag("!--no-report", options->report,
                    "Only record: do not analyze the traces after the runs");
  command->add_option("command", options->command, "The workload and its arguments, after --")
      ->required()
      ->type_name("-- CMD ARGS...");
  command->footer(
      "Each run gets AMPPROF_PRECISION=fp32 or amp, and {precision} in its arguments becomes fp32 or "
      "the --amp-dtype; traces go to DIR/fp32-N and DIR/amp-N.\n"
      "Example: ampprof compare --runs 3 -- ./train --precision {precision}\n"
      "Exit status: 0 when both runs succeeded; otherwise the failing run's own status, or its "
      "signal, which ampprof then dies of after the report; 127/126 when the program cannot be "
      "started; 1 bad usage, 2 an output directory is unusable or in use, or a trace unreadable, 3 "
      "this build has no collector.");
  return {command, [options] { return Compare(*options); }};
}

}  // namespace ampprof::cli
