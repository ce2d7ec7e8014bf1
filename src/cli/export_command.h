#ifndef AMPPROF_SRC_CLI_EXPORT_COMMAND_H_
#define AMPPROF_SRC_CLI_EXPORT_COMMAND_H_

// `ampprof export TRACE --format chrome|nvtxt -o FILE`: the trace with ampprof's diagnosis on it, for
// the Perfetto UI / chrome://tracing (reports/export/chrome_trace_exporter.h) or Nsight Systems
// (reports/export/nvtxt_exporter.h). The work is src/pipeline/trace_export.h's; this parses the
// command line and says what was written.

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

CommandAction AddExportCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_EXPORT_COMMAND_H_
