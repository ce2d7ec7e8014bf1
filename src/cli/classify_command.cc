#include "src/cli/classify_command.h"

#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analyzers/facts/kernel_classifier.h"
#include "reports/json/json_writer.h"
#include "src/cli/exit_codes.h"
#include "src/cli/kernel_rules_option.h"

namespace ampprof::cli {
namespace {

struct ClassifyOptions {
  std::vector<std::string> names;
  std::string format = "text";
  std::string kernel_rules;
};

// One JSON object on one line (the writer indents; escaped strings hold no raw newline, so dropping
// the line breaks and indentation leaves the same JSON).
std::string JsonLine(std::string_view name, const analyzers::KernelClassifier::Decision& decision) {
  std::ostringstream pretty;
  reports::JsonWriter json(pretty);
  const analyzers::KernelClass& k = decision.kernel;
  json.BeginObject();
  json.Field("name", name);
  json.Field("category", analyzers::KernelCategoryId(k.category));
  json.Field("unit", analyzers::MathUnitId(analyzers::ReportedMathUnit(k)));
  json.Field("dtype", analyzers::DataTypeId(k.dtype));
  json.Field("library", analyzers::KernelLibraryId(k.library));
  json.Field("alignment", static_cast<uint32_t>(k.alignment));
  json.Field("grouped", k.grouped);
  json.Field("matrix_vector", k.matrix_vector);
  json.Key("rule");
  if (decision.rule != nullptr) {
    json.String(decision.rule->id);
  } else {
    json.Null();
  }
  json.EndObject();
  std::string line;
  const std::string text = pretty.str();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      line += text[i];
      continue;
    }
    while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
    if (!line.empty() && line.back() == ',') line += ' ';
  }
  return line;
}

std::string TextBlock(std::string_view name, const analyzers::KernelClassifier::Decision& decision) {
  const analyzers::KernelClass& k = decision.kernel;
  std::string block = fmt::format("{}\n  category {}, unit {}, dtype {}, library {}", name,
                                  analyzers::KernelCategoryName(k.category), analyzers::MathUnitName(analyzers::ReportedMathUnit(k)),
                                  analyzers::DataTypeName(k.dtype), analyzers::KernelLibraryName(k.library));
  if (k.alignment != 0) block += fmt::format(", alignment {}", k.alignment);
  if (k.grouped) block += ", grouped";
  if (k.matrix_vector) block += ", matrix-vector";
  if (decision.rule != nullptr) {
    block += fmt::format("\n  rule {} ({})", decision.rule->id, decision.rule->Location());
  } else {
    block += fmt::format("\n  {}", analyzers::kUnknownKernelHint);
  }
  if (decision.library_rule != nullptr) {
    block += fmt::format("\n  library from {} ({})", decision.library_rule->id, decision.library_rule->Location());
  }
  return block + "\n";
}

int Classify(const ClassifyOptions& options) {
  const std::optional<analyzers::KernelClassifier> user = LoadKernelRules(options.kernel_rules, "classify");
  if (!options.kernel_rules.empty() && !user) return kExitBadInput;
  const analyzers::KernelClassifier& classifier = user ? *user : analyzers::KernelClassifier::Builtin();
  const bool json = options.format == "json";
  const auto print = [&](std::string_view name) {
    const analyzers::KernelClassifier::Decision decision = classifier.Decide(name);
    std::cout << (json ? JsonLine(name, decision) + "\n" : TextBlock(name, decision));
  };
  if (!options.names.empty()) {
    for (const std::string& name : options.names) print(name);
  } else {
    std::string line;
    // A standard output that failed ends the loop: a closed pipe must not keep the command reading.
    while (std::cout && std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) print(line);
    }
  }
  return kExitOk;  // a failed standard output is said once, for every command, by FinishStandardOutput
}

}  // namespace

CommandAction AddClassifyCommand(CLI::App& app) {
  auto options = std::make_shared<ClassifyOptions>();
  CLI::App* command = app.add_subcommand(
      "classify", "What ampprof concludes from kernel names (category, math unit, dtype, library) and which "
                  "rule decided it; names from the command line, or one per line on stdin");
  command->add_option("names", options->names, "Kernel names, mangled or demangled; none: read stdin")
      ->type_name("NAME");
  command->add_option("--format", options->format,
                      "text: for a person; json: one object per line (docs/formats/classify-json.md)")
      ->type_name("FORMAT")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  AddKernelRulesOption(*command, options->kernel_rules);
  command->footer("Exit status: 0 printed, 1 bad usage, 2 the rules file or standard input could not be read, or "
                  "standard output could not be written.");
  return {command, [options] { return Classify(*options); }};
}

}  // namespace ampprof::cli
