// ampprof: a profiler and diagnosis tool for mixed-precision training on NVIDIA GPUs.

#include <cstdio>
#include <exception>

#include "src/cli/cli_app.h"

int main(int argc, char** argv) {
  try {
    return ampprof::cli::RunCli(argc, argv);
  } catch (const std::exception& error) {
    // Bad input is reported through Status; reaching here is a bug (or memory ran out).
    std::fprintf(stderr, "ampprof: internal error: %s\n", error.what());
    return 70;
  }
}
