#ifndef AMPPROF_SRC_CLI_USAGE_ERRORS_H_
#define AMPPROF_SRC_CLI_USAGE_ERRORS_H_

// What ampprof says about a command line it cannot run, the way git does: a mistyped command or
// flag gets "did you mean", `ampprof help CMD` is `ampprof CMD --help`, a workload's flag given
// without `--` is answered with the command line that works, and CLI11's messages ("1 required
// FP32_TRACE missing", "The following arguments were not expected: x anlyze") are said in words.
//
//   auto arguments = RouteCommandLine(argc, argv, {"run", "analyze", ...});
//   if (!arguments.ok()) { print arguments.status().message(); return kExitUsage; }
//   try { app.parse(ReversedForCli11(*arguments)); }
//   catch (const CLI::ParseError& error) { print DescribeUsageError(error, app, arguments); }

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "src/base/status.h"

namespace ampprof::cli {

// The candidate closest to `typed` when it is close enough to be a typo of it, else empty.
std::string_view ClosestName(std::string_view typed, std::span<const std::string> candidates);

// The arguments after the program's name, with `help [CMD]` turned into `[CMD] --help`. An error when
// the command named (the first argument that is not a flag) is none of `commands`: its message names
// it and, when one is close, the command it may have meant.
base::StatusOr<std::vector<std::string>> RouteCommandLine(int argc, char** argv,
                                                          std::span<const std::string> commands);

// One line for a parse error: what is wrong, the fix when ampprof can tell it, without the leading
// "ampprof CMD: " and the "(see ... --help)" hint. `command` is the subcommand being parsed, or null.
std::string DescribeUsageError(const CLI::ParseError& error, const CLI::App& app, const CLI::App* command,
                               std::span<const std::string> arguments);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_USAGE_ERRORS_H_
