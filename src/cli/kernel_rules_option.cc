#include "src/cli/kernel_rules_option.h"

#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace ampprof::cli {

void AddKernelRulesOption(CLI::App& command, std::string& path) {
  command
      .add_option("--kernel-rules", path,
                  "Kernel naming rules of your own, tried before the built-in ones (docs/kernel-rules.md)")
      ->type_name("FILE");
}

std::optional<analyzers::KernelClassifier> LoadKernelRules(const std::string& path, std::string_view command) {
  if (path.empty()) return std::nullopt;
  auto classifier = analyzers::KernelClassifier::FromRulesFile(path);
  if (!classifier.ok()) {
    fmt::print(std::cerr, "ampprof {}: {}\n", command, classifier.status().message());
    return std::nullopt;
  }
  return std::move(*classifier);
}

}  // namespace ampprof::cli
