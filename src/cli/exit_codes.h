#ifndef AMPPROF_SRC_CLI_EXIT_CODES_H_
#define AMPPROF_SRC_CLI_EXIT_CODES_H_

// ampprof's exit statuses (documented in README.md, "Exit status"). `run` and `compare` exit with the
// workload's own status instead, so that ampprof can wrap a training job in a script unchanged.

namespace ampprof::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;        // bad flags or arguments, unknown finding id
inline constexpr int kExitBadInput = 2;     // a trace that cannot be read, an output that cannot be written
inline constexpr int kExitUnavailable = 3;  // the command needs a part this build does not have
inline constexpr int kExitFindings = 4;     // analyze --fail-on LEVEL: a finding at LEVEL or above (report written)

}  // namespace ampprof::cli

#endif  // AMPPROF_SRC_CLI_EXIT_CODES_H_
