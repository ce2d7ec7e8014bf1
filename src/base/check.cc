#include "src/base/check.h"

#include <cstdio>
#include <cstdlib>

namespace ampprof::base::internal {

void CheckFailed(const char* file, int line, const char* condition, const char* message) {
  std::fprintf(stderr, "%s:%d: CHECK failed: %s %s\n", file, line, condition, message);
  std::fflush(stderr);
  std::abort();
}

}  // namespace ampprof::base::internal
