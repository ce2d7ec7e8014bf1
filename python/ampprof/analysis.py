"""`ampprof.analyze` and `ampprof.classify`: the command line's analyze and classify, as functions."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Union

from . import _executable
from .report import Report

PathLike = Union[str, "os.PathLike[str]"]


def _path_list(paths: Union[PathLike, Sequence[PathLike]]) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    result = [os.fspath(p) for p in paths]
    if not result:
        raise ValueError("ampprof.analyze: no trace given")
    for p in result:
        # A name starting with '-' would read as an option; './-x' is the same file.
        if p.startswith("-"):
            raise ValueError(f"ampprof.analyze: {p!r}: name the file as ./{p}")
    return result


def analyze(paths: Union[PathLike, Sequence[PathLike]], baseline: Optional[PathLike] = None,
            kernel_rules: Optional[PathLike] = None) -> Report:
    """Analyses traces as `ampprof analyze PATHS... [--baseline BASELINE]` does and returns its report.

    paths: trace files (.ampt, PyTorch profiler JSON, Nsight Systems SQLite) or directories of them, one
    file per process (rank). baseline: the FP32 run to compare with. Raises ampprof.AmpprofError with
    ampprof's one-line reason when a trace cannot be read.
    """
    arguments = ["analyze", *_path_list(paths)]
    if baseline is not None:
        arguments += ["--baseline", _path_list(baseline)[0]]
    if kernel_rules is not None:
        arguments += ["--kernel-rules", os.fspath(kernel_rules)]
    with tempfile.TemporaryDirectory(prefix="ampprof-") as scratch:
        json_path = Path(scratch) / "report.json"
        html_path = Path(scratch) / "report.html"
        # One run writes both views of the same report.
        result = _executable.run([*arguments, "--format", "json", "-o", str(json_path), "--html",
                                  str(html_path)])
        if result.returncode != 0:
            raise _executable.error_of(result, "analyze")
        document = json.loads(json_path.read_text(encoding="utf-8"))
        page = html_path.read_text(encoding="utf-8")
    return Report(document, page)


def diagnosis_text(paths: Union[PathLike, Sequence[PathLike]]) -> str:
    """The text report of `ampprof analyze PATHS...`, as the command prints it (without colour)."""
    result = _executable.run(["analyze", *_path_list(paths)])
    if result.returncode != 0:
        raise _executable.error_of(result, "analyze")
    return result.stdout


@dataclass(frozen=True)
class KernelClass:
    """What ampprof concludes from a kernel name (docs/formats/classify-json.md)."""

    name: str
    category: str
    unit: str
    dtype: str
    library: str
    alignment: int
    grouped: bool
    rule: Optional[str]
    # Last, with a default: an ampprof older than the key (2026-11-26) does not print it.
    matrix_vector: bool = False


def classify(names: Union[str, Iterable[str]], kernel_rules: Optional[PathLike] = None) -> List[KernelClass]:
    """Classifies kernel names (mangled or demangled) as `ampprof classify --format json` does, one
    KernelClass per name, in order."""
    if isinstance(names, str):
        names = [names]
    names = list(names)
    for name in names:
        if not name.strip() or "\n" in name or "\r" in name:
            raise ValueError(f"ampprof.classify: {name!r} is not a kernel name (empty, or has a line break)")
    if not names:
        return []
    # On standard input, one per line: no name can read as an option, and no argument list gets too long.
    arguments = ["classify", "--format", "json"]
    if kernel_rules is not None:
        arguments += ["--kernel-rules", os.fspath(kernel_rules)]
    result = _executable.run(arguments, stdin_text="".join(f"{n}\n" for n in names))
    if result.returncode != 0:
        raise _executable.error_of(result, "classify")
    # Only the fields this package knows: a newer ampprof may conclude more about a name.
    known = {field.name for field in fields(KernelClass)}
    classes = [KernelClass(**{key: value for key, value in json.loads(line).items() if key in known})
               for line in result.stdout.splitlines() if line]
    if len(classes) != len(names):
        raise _executable.AmpprofError(
            f"ampprof classify: {len(names)} names given, {len(classes)} classifications returned")
    return classes
