#include "src/cli/explain_command.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analyzers/findings/finding_catalog.h"
#include "reports/text/markdown_text.h"
#include "src/base/check.h"
#include "src/cli/exit_codes.h"

namespace ampprof::cli {
namespace {

// Prose is wrapped to the terminal, but not wider than this: longer lines are hard to read.
constexpr size_t kMaxWidth = 100;
constexpr size_t kMinWidth = 40;
constexpr size_t kDefaultWidth = 80;  // when stdout is not a terminal and $COLUMNS is not set

struct ExplainOptions {
  std::string id;
  std::string format = "text";
};

// $COLUMNS first (shells set it, and scripts and tests can pin the width with it), then the
// terminal's own width when stdout is one.
size_t TerminalWidth() {
  size_t width = 0;
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
    const std::string_view text(columns);
    std::from_chars(text.data(), text.data() + text.size(), width);
  }
  winsize size{};
  if (width == 0 && isatty(STDOUT_FILENO) == 1 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
    width = size.ws_col;
  }
  if (width == 0) width = kDefaultWidth;
  return std::clamp(width, kMinWidth, kMaxWidth);
}

// The list of findings. As Markdown, the rows of docs/findings/README.md's index table.
void PrintList(bool markdown) {
  if (markdown) {
    fmt::print(std::cout, "| id | default severity | title |\n|---|---|---|\n");
    for (const analyzers::FindingInfo& info : analyzers::FindingCatalog()) {
      fmt::print(std::cout, "| [`{0}`]({0}.md) | {1} | {2} |\n", info.id,
                 analyzers::SeverityName(info.default_severity), info.title);
    }
    return;
  }
  fmt::print(std::cout, "Findings ampprof reports ('ampprof explain ID' explains one):\n\n");
  fmt::print(std::cout, "  {:<27} {:<9} {}\n", "id", "severity", "title");
  for (const analyzers::FindingInfo& info : analyzers::FindingCatalog()) {
    fmt::print(std::cout, "  {:<27} {:<9} {}\n", info.id,
               analyzers::SeverityName(info.default_severity), info.title);
  }
}

int Explain(const ExplainOptions& options) {
  const bool markdown = options.format == "md";
  if (options.id.empty()) {
    PrintList(markdown);
    return kExitOk;
  }
  const analyzers::FindingInfo* info = analyzers::FindFinding(options.id);
  if (info == nullptr) {
    const std::string_view closest = analyzers::ClosestFindingId(options.id);
    const std::string hint = closest.empty() ? "" : fmt::format("; did you mean '{}'?", closest);
    fmt::print(std::cerr,
               "ampprof explain: unknown finding id '{}'{} (run 'ampprof explain' for the list)\n",
               options.id, hint);
    return kExitUsage;
  }
  const std::string_view doc = analyzers::FindingDoc(info->id);
  // The finding_catalog test fails the build's tests before a binary without a page can ship.
  AMPPROF_CHECK_MSG(!doc.empty(), "a catalog id has no docs/findings page in this build");
  if (markdown) {
    fmt::print(std::cout, "{}", doc);
  } else {
    fmt::print(std::cout, "{}", reports::RenderMarkdownAsText(doc, TerminalWidth()));
  }
  return kExitOk;
}

}  // namespace

CommandAction AddExplainCommand(CLI::App& app) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* command = app.add_subcommand(
      "explain",
      "What a finding means, how ampprof detects it and how to fix it (docs/findings/ID.md)");
  command
      ->add_option("finding", options->id,
                   "Finding id, e.g. gpu.launch_bound; without one, list them all")
      ->type_name("FINDING_ID");
  command
      ->add_option("--format", options->format,
                   "text: for the terminal, wrapped to its width; md: the Markdown page as written")
      ->type_name("FORMAT")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "md"}));
  command->footer(
      "Exit status: 0 printed, 1 an unknown finding id (the closest one is named), 2 standard output could "
      "not be written.");
  return {command, [options] { return Explain(*options); }};
}

}  // namespace ampprof::cli
