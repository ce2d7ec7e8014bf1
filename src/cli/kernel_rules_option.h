#ifndef AMPPROF_SRC_CLI_KERNEL_RULES_OPTION_H_
#define AMPPROF_SRC_CLI_KERNEL_RULES_OPTION_H_

// `--kernel-rules FILE`, the same on every command that classifies kernels (analyze, export, run,
// compare, classify): the user's rules, tried before the built-in table (docs/kernel-rules.md).

#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "analyzers/facts/kernel_classifier.h"

namespace ampprof::cli {

void AddKernelRulesOption(CLI::App& command, std::string& path);

// The classifier of the built-in table with the rules in `path`; nullopt when `path` is empty, or when
// the file cannot be used, after one line on stderr naming the file, the line and the problem
// ("ampprof COMMAND: rules.txt:12: unknown category 'gemmm' (...)"); the command then exits with 2.
std::optional<analyzers::KernelClassifier> LoadKernelRules(const std::string& path, std::string_view command);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_KERNEL_RULES_OPTION_H_
