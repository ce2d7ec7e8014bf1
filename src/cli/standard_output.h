#ifndef AMPPROF_SRC_CLI_STANDARD_OUTPUT_H_
#define AMPPROF_SRC_CLI_STANDARD_OUTPUT_H_

// What a command printed on standard output must have arrived: `ampprof explain > /dev/full` that
// exits 0 tells a script its page was written. Commands that write files check their writes
// themselves (src/base/output_file.h); this is the check for everything printed to stdout.

#include <cstdio>
#include <string_view>

namespace ampprof::cli {

// Flushes `out` and checks that every write to it succeeded. When one failed: one line on stderr
// naming the command and the reason, and the exit status becomes 2 (bad input or output). Unless
// `keep_status` (run and compare exit with their workload's status, whatever happened to the
// report, and say the report was lost), a command that failed already is left to its own message.
int FinishStandardOutput(std::string_view command, int status, bool keep_status, std::FILE* out = stdout);

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_STANDARD_OUTPUT_H_
