#include "src/cli/export_command.h"

#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/cli/exit_codes.h"

namespace ampprof::cli {
namespace {

struct ExportOptions {
  std::string trace;
  std::string format;
  std::string output;
};

int Export(const ExportOptions& options) {
  fmt::print(std::cerr,
             "ampprof export: the {} exporter is not part of this version yet; nothing was written to "
             "{}\n",
             options.format, options.output);
  return kExitUnavailable;
}

}  // namespace

CommandAction AddExportCommand(CLI::App& app) {
  auto options = std::make_shared<ExportOptions>();
  CLI::App* command = app.add_subcommand(
      "export", "Convert a trace for Perfetto / chrome://tracing (chrome) or Nsight Systems (nvtxt)");
  command->add_option("trace", options->trace, "Trace file")->required()->type_name("TRACE");
  command->add_option("--format", options->format, "Output format")
      ->required()
      ->check(CLI::IsMember({"chrome", "nvtxt"}));
  command->add_option("-o,--output", options->output, "File to write")->required()->type_name("FILE");
  return {command, [options] { return Export(*options); }};
}

}  // namespace ampprof::cli
