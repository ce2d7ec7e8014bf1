"""The collector's exit flush, from Python (docs/reliability.md, "Faults in the traced run").

The collector finishes its trace in a C atexit handler: stop recording, force CUPTI's last buffers out,
write, close. Python 3.8 and later, dying of an uncaught KeyboardInterrupt (Ctrl-C), kill themselves with
SIGINT after their own finalisation, before the C library runs those handlers, so the end of the trace
would be lost. Python's own atexit functions do run, so the shim registers one that asks the collector
to finish then (ampprof_collector_finish in libampprof_inject.so); the C handler later does nothing.

os._exit skips every exit handler, Python's and C's: a program (or a framework's launcher) that ends that
way lost its whole trace when the run was shorter than the collector's one-second hand-over (seen on an
H100: 102 kernels recorded, none written). The shim wraps os._exit to ask for the same finish first, in
the process that loaded the shim only: a forked child (a DataLoader worker) exits without touching it.

The library is looked up with RTLD_NOLOAD: only when the CUDA driver loaded it (the process used CUDA)
is there anything to finish, and the shim never loads it itself.
"""

import atexit
import ctypes
import functools
import os

FINISH_SYMBOL = "ampprof_collector_finish"


def install(environ):
    path = environ.get("CUDA_INJECTION64_PATH")
    if path:
        atexit.register(finish_collector, path)
        os._exit = _finishing_first(os._exit, path, os.getpid())


def _finishing_first(original_exit, path, pid):
    @functools.wraps(original_exit)
    def _exit(status):
        if os.getpid() == pid:
            try:
                finish_collector(path)
            except Exception:  # never in the way of the exit the program asked for
                pass
        original_exit(status)

    return _exit


def finish_collector(path):
    """Asks the collector in this process to finish its trace; True when it did."""
    try:
        library = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_NOW)
    except OSError:
        return False  # not loaded: this process never initialised CUDA
    finish = getattr(library, FINISH_SYMBOL, None)
    if finish is None:
        return False  # another tool's library (ampprof leaves CUDA_INJECTION64_PATH alone then)
    finish.restype = ctypes.c_int
    return finish() == 1
