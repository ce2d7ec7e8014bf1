"""torch.profiler integration: `on_trace_ready=ampprof.torch.on_trace_ready("traces/")`.

A drop-in for `torch.profiler.tensorboard_trace_handler(dir_name, worker_name, use_gzip)`: the same
file, in the same place, under the same name, and then ampprof's diagnosis of it printed, so that the
script that profiles gets the verdict when profiling ends. This module never imports torch: the
profiler object passed to the handler is all it uses (its `export_chrome_trace`).
"""

from __future__ import annotations

import os
import socket
import sys
import time
from typing import Callable, Optional, TextIO

from ._executable import AmpprofError
from .analysis import diagnosis_text


def trace_file_name(worker_name: str, use_gzip: bool) -> str:
    """tensorboard_trace_handler's name for a trace: WORKER.TIME_NS.pt.trace.json[.gz]."""
    return f"{worker_name}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")


def on_trace_ready(dir_name: str, worker_name: Optional[str] = None, use_gzip: bool = False,
                   output: Optional[TextIO] = None) -> Callable[[object], None]:
    """Returns the handler for `torch.profiler.profile(on_trace_ready=...)`.

    Each time profiling ends (each active window of a schedule), the handler writes the trace to
    DIR_NAME as tensorboard_trace_handler does and prints `ampprof analyze`'s text report of it to
    OUTPUT (standard output by default). A trace ampprof cannot read is said in one line on standard
    error; the training goes on.
    """

    def handler(profiler) -> None:
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        path = os.path.join(dir_name, trace_file_name(worker, use_gzip))
        profiler.export_chrome_trace(path)
        stream = output if output is not None else sys.stdout
        try:
            text = diagnosis_text([path])
        except (AmpprofError, OSError) as error:
            sys.stderr.write(f"ampprof: no diagnosis of {path}: {error}\n")
            return
        stream.write(f"ampprof: diagnosis of {path}\n{text}")
        stream.flush()

    return handler
