#include "src/cli/version_command.h"

#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "collectors/records/ampt_format.h"
#include "src/cli/collector_setup.h"
#include "src/cli/exit_codes.h"

namespace ampprof::cli {

int PrintVersion() {
  fmt::print(std::cout, "ampprof {} (commit {})\n", AMPPROF_VERSION, AMPPROF_GIT_COMMIT);
  fmt::print(std::cout, "trace format   .ampt {}.{}\n", records::ampt::kMajorVersion,
             records::ampt::kMinorVersion);
  fmt::print(std::cout, "reads          .ampt, PyTorch profiler (Kineto) JSON (.json, .json.gz), Nsight Systems SQLite\n");
  fmt::print(std::cout, "exports        Chrome trace JSON (Perfetto, chrome://tracing), NVTXT (Nsight Systems)\n");
  fmt::print(std::cout, "CUDA toolkit   {}\n",
             AMPPROF_CUDA_ENABLED ? "found at build time (" AMPPROF_CUDA_VERSION ")"
                                  : "not used (built with AMPPROF_WITH_CUDA=OFF or without CUDA)");
  base::StatusOr<CollectorFiles> collector = FindCollector();
  if (collector.ok()) {
    fmt::print(std::cout, "collector      {}\n", collector->injection_library);
    fmt::print(std::cout, "libcupti       {} (from {}; NVTX reaches it through the collector)\n",
               collector->cupti_library, collector->cupti_source);
    fmt::print(std::cout, "python shim    {}\n",
               collector->python_shim_dir.empty() ? "not found (Python runs are traced without it)"
                                                  : collector->python_shim_dir);
  } else {
    fmt::print(std::cout, "collector      unavailable: {}\n", collector.status().message());
  }
  return kExitOk;
}

CommandAction AddVersionCommand(CLI::App& app) {
  CLI::App* command = app.add_subcommand("version", "Print the version and what this build supports");
  command->footer("Exit status: 0 printed, 2 standard output could not be written. 'ampprof --version' is the same.");
  return {command, [] { return PrintVersion(); }};
}

}  // namespace ampprof::cli
