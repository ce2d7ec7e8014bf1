#include "src/cli/export_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/base/format.h"
#include "src/base/terminal_text.h"
#include "src/cli/exit_codes.h"
#include "src/cli/kernel_rules_option.h"
#include "src/pipeline/trace_export.h"

namespace ampprof::cli {
namespace {

struct ExportOptions {
  std::string trace;
  std::string format;
  std::string output;
  std::string kernel_rules;
};

// What was written and what to do with it: the file is useless to someone who does not know which
// tool opens it. On stdout, unless the export itself went there; false if it could not be written.
bool PrintSummary(pipeline::ExportFormat format, const pipeline::ExportSummary& summary) {
  std::FILE* out = summary.to_standard_output ? stderr : stdout;
  const std::string diagnosis =
      fmt::format("{} training step{} and {} finding{}", base::FormatCount(static_cast<int64_t>(summary.steps)),
                  summary.steps == 1 ? "" : "s", summary.findings, summary.findings == 1 ? "" : "s");
  if (format == pipeline::ExportFormat::kChromeTrace) {
    fmt::print(out, "wrote {}: {} kernels, {}\nopen it in https://ui.perfetto.dev or chrome://tracing\n",
               summary.output, base::FormatCount(static_cast<int64_t>(summary.kernels)), diagnosis);
  } else {
    fmt::print(out, "wrote {}: {} as NVTX ranges\n", summary.output, diagnosis);
    if (summary.nsys_timebase) {
      fmt::print(out,
                 "merge it into the Nsight Systems report this trace was exported from:\n"
                 "  ImportNvtxt --cmd merge -i REPORT.nsys-rep -n {} -o MERGED.nsys-rep\n",
                 summary.output);
    } else {
      fmt::print(out,
                 "its timestamps are the trace's own clock; make a report of it with:\n"
                 "  ImportNvtxt --cmd create -n {} -o NEW.nsys-rep\n",
                 summary.output);
    }
  }
  if (std::fflush(out) == 0 && std::ferror(out) == 0) return true;
  if (out == stdout) fmt::print(std::cerr, "ampprof export: standard output: cannot write: {}\n", std::strerror(errno));
  return false;
}

int Export(const ExportOptions& options) {
  const std::optional<analyzers::KernelClassifier> rules = LoadKernelRules(options.kernel_rules, "export");
  if (!options.kernel_rules.empty() && !rules) return kExitBadInput;
  const analyzers::ScopedKernelClassifier active_rules(rules ? &*rules : nullptr);
  const std::optional<pipeline::ExportFormat> format = pipeline::ExportFormatNamed(options.format);
  if (!format) {  // CLI11 checks the name first; this keeps the two lists honest
    fmt::print(std::cerr, "ampprof export: unknown format '{}' (chrome or nvtxt)\n",
               options.format);
    return kExitUsage;
  }
  const auto summary = pipeline::ExportTrace(options.trace, *format, options.output);
  if (!summary.ok()) {
    fmt::print(std::cerr, "ampprof export: {}\n", base::EscapeControlCharacters(summary.status().message()));
    return kExitBadInput;
  }
  return PrintSummary(*format, *summary) ? kExitOk : kExitBadInput;
}

}  // namespace

CommandAction AddExportCommand(CLI::App& app) {
  auto options = std::make_shared<ExportOptions>();
  CLI::App* command = app.add_subcommand(
      "export",
      "Convert a trace for Perfetto / chrome://tracing (chrome) or Nsight Systems (nvtxt), with "
      "ampprof's training steps and findings on its timeline");
  command
      ->add_option("trace", options->trace,
                   "Trace file: .ampt, PyTorch profiler JSON, Nsight Systems SQLite; - reads it from "
                   "standard input")
      ->required()
      ->type_name("TRACE");
  command
      ->add_option(
          "--format", options->format,
          "chrome: Trace Event Format JSON with every kernel, API call, range and copy; nvtxt: the "
          "steps and findings as NVTX ranges for Nsight Systems' ImportNvtxt")
      ->type_name("FORMAT")
      ->required()
      ->check(CLI::IsMember({"chrome", "nvtxt"}));
  command->add_option("-o,--output", options->output,
                      "File to write (replaced only once the export is complete); - is standard output")
      ->required()
      ->type_name("FILE");
  command->footer(
      "Exit status: 0 written, 1 bad usage (an unknown format), 2 the trace could not be read, or "
      "the file could not be written (an existing file is left as it was, nothing else is left behind) "
      "or is the trace itself.");
  AddKernelRulesOption(*command, options->kernel_rules);
  return {command, [options] { return Export(*options); }};
}

}  // namespace ampprof::cli
