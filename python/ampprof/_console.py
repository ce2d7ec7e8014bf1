"""The `ampprof` console script of the wheel: replaces itself with the bundled executable.

exec rather than a child process, so that `ampprof run` keeps the process id, the signals and the exit
status a shell expects of it, exactly as when the executable is called directly.
"""

from __future__ import annotations

import os
import sys

from ._executable import BUNDLED_EXECUTABLE, bundled_executable


def main() -> None:
    executable = bundled_executable()
    if executable is None:
        sys.stderr.write(
            f"ampprof: the bundled executable {BUNDLED_EXECUTABLE} is missing; this installation of the "
            "ampprof package is incomplete (reinstall it with `pip install`)\n")
        sys.exit(2)
    os.execv(executable, [executable, *sys.argv[1:]])


if __name__ == "__main__":
    main()
