#include "src/cli/traced_run.h"

#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "reports/html/html_reporter.h"
#include "src/base/output_file.h"
#include "src/base/output_target.h"
#include "src/base/status.h"
#include "src/base/terminal_text.h"
#include "src/cli/kernel_rules_option.h"
#include "src/cli/launcher.h"
#include "src/cli/open_traces.h"
#include "src/cli/output_directory.h"

namespace ampprof::cli {
namespace {

// "60 s", "1.5 s".
std::string Seconds(std::chrono::milliseconds duration) {
  return fmt::format("{} s", static_cast<double>(duration.count()) / 1000.0);
}

}  // namespace

void AddTracedRunFlags(CLI::App* command, TracedRunFlags& flags) {
  AddKernelRulesOption(*command, flags.kernel_rules);
  command
      ->add_option("-o,--output", flags.output_dir,
                   "Directory for the traces: one .ampt per process that used CUDA, named by rank "
                   "and pid")
      ->type_name("DIR")
      ->capture_default_str();
  command->add_flag("--force", flags.force,
                    "Replace the traces an earlier run left in the directory");
  command
      ->add_option("--capture-range", flags.capture_range,
                   "none: record from CUDA initialisation to exit; cudaProfilerApi: from the "
                   "program's cudaProfilerStart to cudaProfilerStop (torch.cuda.profiler.start/stop)")
      ->type_name("RANGE")
      ->check(CLI::IsMember({"none", "cudaProfilerApi"}))
      ->capture_default_str();
  command
      ->add_option("--delay", flags.delay_seconds,
                   "Start recording SEC seconds after CUDA initialisation")
      ->type_name("SEC")
      ->check(CLI::Range(0.0, 86400.0));
  command
      ->add_option("--duration", flags.duration_seconds,
                   "Record for SEC seconds, then detach so the rest of the run is not slowed down")
      ->type_name("SEC")
      ->check(CLI::Range(0.001, 86400.0));
  command->add_flag("--torch-ops", flags.torch_ops,
                    "PyTorch workloads: every op an NVTX range with its input shapes "
                    "(emit_nvtx(record_shapes=True)), to attribute kernels to ops; costs host time");
  command->add_flag("--library-logs", flags.library_logs,
                    "cuBLASLt, cuBLAS and cuDNN log their calls (types, shapes, groups) into DIR, one "
                    "file per process; slows the run down");
  command
      ->add_option("--api-calls", flags.api_calls,
                   "analysed: record the CUDA calls the analyses use (launches, copies, syncs, "
                   "allocations); all: every runtime and driver call, as Nsight Systems does "
                   "(more records and more cost per call)")
      ->type_name("SET")
      ->check(CLI::IsMember({"analysed", "all"}))
      ->capture_default_str();
  command
      ->add_option(
          "--trace-wait", flags.trace_wait_seconds,
          "When the program ends before its child processes, wait up to SEC seconds for the "
          "traces they are still writing before the report")
      ->type_name("SEC")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
}

std::chrono::milliseconds TraceWaitFor(const TracedRunFlags& flags) {
  return std::chrono::milliseconds(static_cast<int64_t>(flags.trace_wait_seconds * 1000.0));
}

base::Status CheckTracedRunFlags(const TracedRunFlags& flags) {
  if (flags.capture_range == "cudaProfilerApi" && flags.delay_seconds) {
    return base::InvalidArgumentError(
        "--delay applies to the whole-run capture; with --capture-range=cudaProfilerApi the "
        "program's cudaProfilerStart opens the window");
  }
  return base::OkStatus();
}

CaptureOptions CaptureOptionsFor(const TracedRunFlags& flags, const std::string& output_dir) {
  CaptureOptions capture;
  capture.output_dir = output_dir;
  capture.range = flags.capture_range == "cudaProfilerApi" ? CaptureRangeOption::kCudaProfilerApi
                                                           : CaptureRangeOption::kNone;
  capture.delay_seconds = flags.delay_seconds;
  capture.duration_seconds = flags.duration_seconds;
  capture.torch_ops = flags.torch_ops;
  capture.library_logs = flags.library_logs;
  capture.all_api_calls = flags.api_calls == "all";
  return capture;
}

base::StatusOr<TracedRunResult> RunTraced(const TracedWorkload& workload,
                                          const CollectorFiles& collector,
                                          std::string_view command) {
  TracedEnvironment traced = TracedRunEnvironment(workload.capture, collector, &ProcessEnvironment);
  TracedRunResult result;
  if (traced.other_tool) {
    result.recorded = false;
    fmt::print(std::cerr,
               "ampprof {}: another CUDA tool is attached ({}), and CUDA and NVTX accept one tool "
               "per process: ampprof records nothing in this run; its NVTX ranges reach that tool\n",
               command, *traced.other_tool);
  }
  LaunchRequest request;
  request.argv = workload.argv;
  request.environment = std::move(traced.variables);
  for (const auto& variable : workload.extra_environment) request.environment.push_back(variable);
  ASSIGN_OR_RETURN(result.outcome, RunWorkload(request));
  const std::vector<OpenTrace> still_open = WaitForOpenTraces(
      workload.output_dir, workload.trace_wait, [&](const std::vector<OpenTrace>& open) {
        fmt::print(std::cerr,
                   "ampprof {}: the program has ended, but {} trace(s) are still being written by "
                   "its other processes: {}; waiting up to {} for them (--trace-wait)\n",
                   command, open.size(), DescribeOpenTraces(open), Seconds(workload.trace_wait));
      });
  if (!still_open.empty()) {
    fmt::print(
        std::cerr,
        "ampprof {}: gave up waiting after {}: {} trace(s) are still being written: {}; the report "
        "shows what they held then\n",
        command, Seconds(workload.trace_wait), still_open.size(), DescribeOpenTraces(still_open));
  }
  // The workload has run: a directory that cannot be listed loses the report, not its exit status.
  base::StatusOr<std::vector<std::string>> traces = AmptTracesIn(workload.output_dir);
  if (traces.ok()) {
    result.traces = std::move(*traces);
  } else {
    fmt::print(std::cerr, "ampprof {}: {}\n", command, traces.status().message());
  }
  return result;
}

void ExplainNoTrace(std::string_view command, const std::string& output_dir,
                    const CaptureOptions& capture) {
  std::vector<std::string> reasons = {
      "the program never initialised CUDA (it ran on the CPU, or failed before using the GPU)",
      "no NVIDIA driver or GPU is visible to it (check nvidia-smi and CUDA_VISIBLE_DEVICES)",
      "the CUDA driver did not load ampprof's collector (CUDA_INJECTION64_PATH): the collector is built "
      "with CUDA 13 and needs a driver that supports CUDA 13 or later (nvidia-smi shows the newest CUDA "
      "version the driver supports)",
  };
  if (capture.range == CaptureRangeOption::kCudaProfilerApi) {
    reasons.emplace_back(
        "--capture-range=cudaProfilerApi: the program never called cudaProfilerStart "
        "(torch.cuda.profiler.start())");
  }
  std::string list;
  for (size_t i = 0; i < reasons.size(); ++i) {
    list += fmt::format("  - {}{}\n", reasons[i], i + 1 == reasons.size() ? "." : ";");
  }
  fmt::print(std::cerr, "ampprof {}: no CUDA activity was recorded (no trace in {}). Likely reasons:\n{}",
             command, output_dir, list);
}

void SetWorkloadOutcome(std::span<analyzers::Report> reports, const analyzers::WorkloadOutcome& outcome) {
  for (analyzers::Report& report : reports) report.workload_outcome = outcome;
}

void WriteHtmlReport(std::span<const analyzers::Report> reports, const std::string& path,
                     std::string_view command) {
  // Written like every other output (output_file.h): beside the target and renamed into place, every
  // write checked, so that a full disk is said with its reason rather than leaving half a page.
  const auto written = [&]() -> base::Status {
    ASSIGN_OR_RETURN(const base::OutputTarget target, base::OutputTarget::Resolve(path));
    ASSIGN_OR_RETURN(std::unique_ptr<base::OutputFile> output, base::OutputFile::Open(target));
    reports::RenderHtml(reports, output->stream(), {});
    return output->Commit();
  }();
  if (!written.ok()) {
    fmt::print(std::cerr, "ampprof {}: the HTML report: {}\n", command,
               base::EscapeControlCharacters(written.message()));
    return;
  }
  fmt::print(std::cerr, "ampprof {}: HTML report: {}\n", command, base::EscapeControlCharacters(path));
}

int ExitStatusForLaunchError(const base::Status& error) {
  return error.code() == base::StatusCode::kNotFound ? kExitCommandNotFound : kExitCannotExecute;
}

}  // namespace ampprof::cli
