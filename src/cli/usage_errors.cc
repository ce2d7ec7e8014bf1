#include "src/cli/usage_errors.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/base/edit_distance.h"
#include "src/cli/help_formatter.h"

namespace ampprof::cli {
namespace {

// ampprof's own flags, before a command; the value of one that takes a value is no command name.
bool TakesValue(std::string_view argument) { return argument == "--log-level"; }
bool IsTopLevelFlag(std::string_view argument) {
  return TakesValue(argument) || argument.starts_with("--log-level=") || argument == "--version" ||
         argument == "--help" || argument == "-h";
}

bool IsFlag(std::string_view argument) { return argument.size() > 1 && argument.front() == '-'; }

// "a, b or c" (conjunction "or"), "a and b" ("and").
std::string ListOf(std::span<const std::string> names, std::string_view conjunction) {
  if (names.size() < 2) return fmt::format("{}", fmt::join(names, ""));
  return fmt::format("{} {} {}", fmt::join(names.first(names.size() - 1), ", "), conjunction, names.back());
}

// Every name the flags of `app` answer to, "-v" and "--verbose" alike.
std::vector<std::string> FlagNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

// `ampprof run python3 -c 1`: "-c" is the workload's, and the workload needed a "--" before it.
std::string WorkloadFlagWithoutSeparator(const CLI::App& command, std::string_view flag,
                                         std::span<const std::string> arguments) {
  const CLI::Option* workload = command.get_option_no_throw("command");
  if (workload == nullptr || workload->count() == 0) return "";
  const std::string& program = workload->results().front();
  const auto name = std::find(arguments.begin(), arguments.end(), command.get_name());
  const auto start = std::find(name, arguments.end(), program);
  if (name == arguments.end() || start == arguments.end()) return "";
  std::vector<std::string> fixed(arguments.begin(), start);
  fixed.emplace_back("--");
  fixed.insert(fixed.end(), start, arguments.end());
  return fmt::format("'{}' is not a flag of {}; if it is the workload's, put '--' before the workload: "
                     "ampprof {}",
                     flag, command.get_name(), fmt::join(fixed, " "));
}

std::string DescribeExtras(const CLI::App& app, const CLI::App& parsed, std::span<const std::string> arguments) {
  // A command passes what it does not know to ampprof's own flags (fallthrough): the extras are there.
  const std::vector<std::string> extras = app.remaining(true);
  const auto flag = std::find_if(extras.begin(), extras.end(), [](const std::string& e) { return IsFlag(e); });
  if (flag == extras.end()) {
    return extras.empty() ? "unexpected arguments"
                          : fmt::format("unexpected argument '{}'", extras.front());
  }
  const std::string typed = flag->substr(0, flag->find('='));
  if (std::string fix = WorkloadFlagWithoutSeparator(parsed, typed, arguments); !fix.empty()) return fix;
  std::vector<std::string> names = FlagNames(parsed);
  if (parsed.get_parent() != nullptr) {  // the top-level flags are accepted after a command as well
    const std::vector<std::string> top = FlagNames(*parsed.get_parent());
    names.insert(names.end(), top.begin(), top.end());
  }
  // One letter ("-x") is one edit from every other short flag: no guess for those.
  const std::string_view closest = typed.size() > 2 ? ClosestName(typed, names) : std::string_view();
  return closest.empty() ? fmt::format("unknown flag '{}'", typed)
                         : fmt::format("unknown flag '{}'; did you mean '{}'?", typed, closest);
}

// The required arguments that were not given, by the names the help shows.
std::string DescribeMissing(const CLI::App& parsed) {
  std::vector<std::string> missing;
  for (const CLI::Option* option : parsed.get_options()) {
    if (option->get_required() && option->count() == 0) missing.push_back(DisplayName(*option));
  }
  if (missing.size() == 1 && missing.front().starts_with("-- ")) {  // run's and compare's workload
    return fmt::format("the workload to run is required, after '--': ampprof {} [FLAGS] {}", parsed.get_name(),
                       missing.front());
  }
  if (missing.empty()) return "";
  return fmt::format("{} {} required", ListOf(missing, "and"), missing.size() == 1 ? "is" : "are");
}

}  // namespace

std::string_view ClosestName(std::string_view typed, std::span<const std::string> candidates) {
  std::string_view closest;
  size_t closest_distance = std::string_view::npos;
  for (const std::string& candidate : candidates) {
    const size_t distance = base::EditDistance(typed, candidate);
    if (distance < closest_distance) {
      closest = candidate;
      closest_distance = distance;
    }
  }
  // A third of the name (at least 2 edits) is a typo; more is another word.
  return closest_distance <= std::max<size_t>(2, typed.size() / 3) ? closest : std::string_view();
}

base::StatusOr<std::vector<std::string>> RouteCommandLine(int argc, char** argv,
                                                          std::span<const std::string> commands) {
  std::vector<std::string> arguments(argv + std::min(argc, 1), argv + argc);
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "--") break;
    if (IsFlag(argument)) {
      if (!IsTopLevelFlag(argument)) break;  // an unknown flag: the parser names it, with its closest
      if (TakesValue(argument)) ++i;
      continue;
    }
    if (std::find(commands.begin(), commands.end(), argument) != commands.end()) break;
    if (argument == "help") {  // git's "help CMD": the command's page
      if (i + 1 == arguments.size()) {
        arguments[i] = "--help";
        break;
      }
      const std::string topic = arguments[i + 1];
      if (std::find(commands.begin(), commands.end(), topic) == commands.end()) {
        const std::string_view closest = ClosestName(topic, commands);
        return base::InvalidArgumentError("no help on '{}': it is not an ampprof command{}", topic,
                                          closest.empty() ? "" : fmt::format("; did you mean '{}'?", closest));
      }
      arguments.erase(arguments.begin() + static_cast<std::ptrdiff_t>(i));
      arguments.insert(arguments.begin() + static_cast<std::ptrdiff_t>(i) + 1, "--help");
      break;
    }
    const std::string_view closest = ClosestName(argument, commands);
    return base::InvalidArgumentError("'{}' is not an ampprof command{}", argument,
                                      closest.empty() ? fmt::format(" ({})", ListOf(commands, "or"))
                                                      : fmt::format("; did you mean '{}'?", closest));
  }
  return arguments;
}

std::string DescribeUsageError(const CLI::ParseError& error, const CLI::App& app, const CLI::App* command,
                               std::span<const std::string> arguments) {
  const CLI::App& parsed = command != nullptr ? *command : app;
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) return DescribeExtras(app, parsed, arguments);
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    if (std::string missing = DescribeMissing(parsed); !missing.empty()) return missing;
  }
  // "--baseline: 1 required FP32_TRACE missing": a flag given without its value.
  static const std::regex kMissingValue(R"(^(\S+): \d+ required (\S+) missing$)");
  std::smatch match;
  const std::string message = error.what();
  if (std::regex_match(message, match, kMissingValue)) {
    return fmt::format("{} needs a value ({})", match[1].str(), match[2].str());
  }
  std::string line = message;
  std::replace(line.begin(), line.end(), '\n', ' ');
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

}  // namespace ampprof::cli
