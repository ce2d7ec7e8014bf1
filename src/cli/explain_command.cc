#include "src/cli/explain_command.h"

#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analyzers/finding_catalog.h"
#include "src/base/format.h"
#include "src/cli/exit_codes.h"

namespace ampprof::cli {
namespace {

constexpr size_t kWidth = 100;

// A heading, then the body indented by two spaces. Prose is wrapped to the terminal width; text with
// its own line breaks (fixes, which hold code) is printed as written.
void PrintSection(std::ostream& out, std::string_view heading, std::string_view body) {
  fmt::print(out, "\n{}\n", heading);
  if (body.find('\n') == std::string_view::npos) {
    for (const std::string& line : base::WrapText(body, kWidth - 2)) fmt::print(out, "  {}\n", line);
    return;
  }
  size_t at = 0;
  while (at <= body.size()) {
    const size_t newline = body.find('\n', at);
    fmt::print(out, "  {}\n", body.substr(at, newline == std::string_view::npos ? body.npos : newline - at));
    if (newline == std::string_view::npos) break;
    at = newline + 1;
  }
}

int Explain(const std::string& id) {
  if (id.empty()) {
    fmt::print(std::cout, "Findings ampprof reports (ampprof explain ID for one in full):\n\n");
    for (const analyzers::FindingInfo& info : analyzers::FindingCatalog()) {
      fmt::print(std::cout, "  {:<28} {}\n", info.id, info.title);
    }
    return kExitOk;
  }
  const analyzers::FindingInfo* info = analyzers::FindFinding(id);
  if (info == nullptr) {
    fmt::print(std::cerr, "ampprof explain: unknown finding id '{}' (run 'ampprof explain' for the list)\n",
               id);
    return kExitUsage;
  }
  fmt::print(std::cout, "{}: {}\nDefault severity: {}\n", info->id, info->title,
             analyzers::SeverityName(info->default_severity));
  PrintSection(std::cout, "What it means", info->meaning);
  PrintSection(std::cout, "How ampprof detects it", info->detection);
  PrintSection(std::cout, "Evidence in the report", info->evidence);
  PrintSection(std::cout, "How to fix it", info->fix);
  PrintSection(std::cout, "Where it comes from", info->seen_in);
  return kExitOk;
}

}  // namespace

CommandAction AddExplainCommand(CLI::App& app) {
  auto id = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "explain", "What a finding means, how ampprof detects it and how to fix it");
  command->add_option("finding", *id, "Finding id, e.g. gpu.launch_bound; without one, list them all")
      ->type_name("FINDING_ID");
  return {command, [id] { return Explain(*id); }};
}

}  // namespace ampprof::cli
