#include "src/cli/help_formatter.h"

#include <string_view>

#include <fmt/format.h>

namespace ampprof::cli {
namespace {

// "TRACE" of "TRACE:{a,b}" or "SEC:FLOAT in [0 - 86400]": CLI11 appends its validators' descriptions
// to the value's name; the help states the choices in words instead.
std::string ValueName(const CLI::Option& option) {
  std::string name = option.get_type_name();
  return name.substr(0, name.find(':'));
}

bool TakesMany(const CLI::Option& option) {
  return option.get_expected_max() >= CLI::detail::expected_max_vector_size;
}

}  // namespace

HelpFormatter::HelpFormatter() { column_width(30); }

std::string DisplayName(const CLI::Option& option) {
  if (option.get_positional() && !option.nonpositional()) {
    const std::string value = ValueName(option);
    return value.empty() ? option.get_name() : value;
  }
  return option.get_name();
}

std::string HelpFormatter::make_option_name(const CLI::Option* option, bool is_positional) const {
  if (is_positional) return DisplayName(*option);
  // The names alone: CLI11 shows a flag's value after each name ("--no-report{false}").
  std::string names;
  for (const std::string& name : option->get_snames()) names += (names.empty() ? "-" : ",-") + name;
  for (const std::string& name : option->get_lnames()) names += (names.empty() ? "--" : ",--") + name;
  return names;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  if (option->get_positional() || option->get_type_size() == 0) return "";
  const std::string value = ValueName(*option);
  return value.empty() ? "" : " " + value;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
  std::string description = option->get_description();
  if (option->get_type_size() != 0 && !option->get_default_str().empty()) {
    description += fmt::format(" (default: {})", option->get_default_str());
  }
  if (option->get_required() && !option->get_positional()) description += " (required)";
  return description;
}

std::string HelpFormatter::make_option_usage(const CLI::Option* option) const {
  std::string usage = DisplayName(*option);
  if (TakesMany(*option) && !std::string_view(usage).ends_with("...")) usage += "...";
  return option->get_required() ? usage : "[" + usage + "]";
}

}  // namespace ampprof::cli
