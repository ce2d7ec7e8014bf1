"""Where the ampprof executable is, and running it.

The Python API drives the same program the command line does (see docs/python.md, "Why the command
line underneath"): one engine, one set of numbers, and no second build of the C++ code for CPython's ABI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional, Sequence

# The wheel puts the executable, libampprof_inject.so and the PyTorch shim (python/) here, side by side,
# as in a build folder: `ampprof run` finds the collector and the shim beside itself.
BUNDLED_DIR = Path(__file__).resolve().parent / "_bin"
BUNDLED_EXECUTABLE = BUNDLED_DIR / "ampprof"


class AmpprofError(RuntimeError):
    """ampprof could not do what was asked: the message is ampprof's own one-line reason."""

    def __init__(self, message: str, exit_status: Optional[int] = None):
        super().__init__(message)
        self.exit_status = exit_status


def bundled_executable() -> Optional[str]:
    """The executable shipped inside this package (a wheel or `pip install .`), or None."""
    if BUNDLED_EXECUTABLE.is_file() and os.access(BUNDLED_EXECUTABLE, os.X_OK):
        return str(BUNDLED_EXECUTABLE)
    return None


def find_executable() -> str:
    """$AMPPROF_EXECUTABLE, else the bundled executable, else `ampprof` on PATH (a source checkout)."""
    explicit = os.environ.get("AMPPROF_EXECUTABLE")
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            raise AmpprofError(f"AMPPROF_EXECUTABLE={explicit}: not an executable file")
        return explicit
    bundled = bundled_executable()
    if bundled:
        return bundled
    on_path = shutil.which("ampprof")
    if on_path:
        return on_path
    raise AmpprofError(
        "no ampprof executable: install the package with `pip install .` (it bundles one), or point "
        "AMPPROF_EXECUTABLE at a build's src/cli/ampprof")


def run(arguments: Sequence[str], stdin_text: Optional[str] = None) -> subprocess.CompletedProcess:
    """Runs `ampprof ARGUMENTS...`, capturing its output as text; never raises on a non-zero status."""
    return subprocess.run(
        [find_executable(), *arguments],
        input=stdin_text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )


def error_of(result: subprocess.CompletedProcess, command: str) -> AmpprofError:
    """The error for a failed run: ampprof's last stderr line (it says what and which file)."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    reason = lines[-1] if lines else f"exited with status {result.returncode}"
    return AmpprofError(f"ampprof {command}: {reason}", result.returncode)
