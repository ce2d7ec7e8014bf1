#ifndef AMPPROF_SRC_CLI_CLASSIFY_COMMAND_H_
#define AMPPROF_SRC_CLI_CLASSIFY_COMMAND_H_

#include <CLI/CLI.hpp>

#include "src/cli/command.h"

namespace ampprof::cli {

// `ampprof classify [NAME...] [--format text|json] [--kernel-rules FILE]`: what the kernel classifier
// concludes for each kernel name (category, math unit, data type, library, alignment, grouped) and which
// rule decided it. Without names it reads one name per line from stdin. docs/formats/classify-json.md
// documents the JSON lines; docs/kernel-rules.md the rules.
CommandAction AddClassifyCommand(CLI::App& app);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_CLASSIFY_COMMAND_H_
