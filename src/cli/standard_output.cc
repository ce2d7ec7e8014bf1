#include "src/cli/standard_output.h"

#include <cerrno>
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "src/cli/exit_codes.h"

namespace ampprof::cli {

namespace {

// The errors a write to a file, pipe or device fails with; stdio leaves the one of a write that failed
// before the final flush in errno, and nothing the command did after it is likely to have set one of
// these.
bool IsWriteError(int error) {
  return error == ENOSPC || error == EDQUOT || error == EFBIG || error == EIO || error == EPIPE || error == EBADF;
}

}  // namespace

int FinishStandardOutput(std::string_view command, int status, bool keep_status, std::FILE* out) {
  std::cout.flush();  // synchronised with stdio (the default), so what it holds reaches `out`
  const int earlier_error = errno;
  errno = 0;
  const bool flushed = std::fflush(out) == 0;
  const int flush_error = errno;
  if (flushed && std::ferror(out) == 0 && !std::cout.fail()) return status;
  // A command that failed has said why already (export checks its summary line itself); run and
  // compare have not, and exit with their workload's status whatever it is.
  if (status != kExitOk && !keep_status) return status;
  // The flush's own error when it is the one that failed, else the earlier write's.
  const int error = !flushed && flush_error != 0 ? flush_error : earlier_error;
  const std::string reason = IsWriteError(error) ? std::strerror(error) : "a write failed";
  fmt::print(stderr, "ampprof {}: standard output: cannot write: {}\n", command, reason);
  return keep_status ? status : kExitBadInput;
}

}  // namespace ampprof::cli
