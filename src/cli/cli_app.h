#ifndef AMPPROF_SRC_CLI_CLI_APP_H_
#define AMPPROF_SRC_CLI_CLI_APP_H_

// The `ampprof` command line: global flags, the list of subcommands, and the mapping of parse errors to
// one-line messages and exit statuses (exit_codes.h).

namespace ampprof::cli {

int RunCli(int argc, char** argv);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_CLI_APP_H_
