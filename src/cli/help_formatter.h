#ifndef AMPPROF_SRC_CLI_HELP_FORMATTER_H_
#define AMPPROF_SRC_CLI_HELP_FORMATTER_H_

// The help pages of ampprof's commands, in the words a user types: CLI11's own formatter shows its
// internals ("--no-report{false}", "TEXT:{text,json,md,html}=text", "traces TRACE ... REQUIRED").
// This one shows a flag by its names, an option by its names and its value's name ("--format
// FORMAT"), the default and the choices at the end of the description, and a positional argument by
// its value's name ("TRACE...") in the usage line and the list.
//
//   CLI::App app{"...", "ampprof"};
//   app.formatter(std::make_shared<HelpFormatter>());  // before add_subcommand: they inherit it

#include <string>

#include <CLI/CLI.hpp>

namespace ampprof::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();

  std::string make_option_name(const CLI::Option* option, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* option) const override;
  std::string make_option_desc(const CLI::Option* option) const override;
  std::string make_option_usage(const CLI::Option* option) const override;
};

// The name a user knows an option by in messages: "--format", or a positional's value name ("TRACE").
std::string DisplayName(const CLI::Option& option);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_HELP_FORMATTER_H_
