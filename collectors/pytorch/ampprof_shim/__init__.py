"""The PyTorch shim of `ampprof run` / `ampprof compare` (docs/pytorch-shim.md).

Environment (read once, at interpreter start-up):
  AMPPROF_SHIM=1           set by the launcher in traced runs; without it nothing is installed
  AMPPROF_PRECISION=fp32   force autocast and GradScaler off, so the script runs in FP32
                           (amp or unset: leave the script as written)
  AMPPROF_TORCH_OPS=1      every op becomes an NVTX range with its input shapes (emit_nvtx)
  AMPPROF_NVTX_LIBRARY     optional: the NVTX library to mark steps through, or "torch" for
                           torch.cuda.nvtx in the default domain (see nvtx.py)
  CUBLAS_LOGDEST_DBG, CUDNN_LOGDEST_DBG
                           with --library-logs: "%i" becomes this process's id (library_logs.py)

Step marks (optimizer.step, GradScaler.step/update and a `step` range per training iteration, NVTX
domain `ampprof`) are always on, and so is the collector's exit flush from Python (exit_flush.py: a
Ctrl-C'd Python skips the C exit handlers).

torch is not imported here: importing it costs seconds and would slow every Python process of the run
(DataLoader workers, torchrun's launcher, helper scripts) whether or not it uses torch. Instead a
meta-path finder waits for the script's own `import torch` and adjusts torch right after it has loaded.
"""

import os
import sys

from ampprof_shim import exit_flush, library_logs
from ampprof_shim.import_hook import TorchImportHook
from ampprof_shim.patching import Patcher, warn

_installed = False


class Settings:
    """What the launcher asked for, from the environment."""

    def __init__(self, environ):
        precision = environ.get("AMPPROF_PRECISION", "amp").strip().lower() or "amp"
        if precision not in ("fp32", "amp"):
            warn("AMPPROF_PRECISION=%r is neither fp32 nor amp; the script runs as written" % precision)
            precision = "amp"
        self.force_fp32 = precision == "fp32"
        self.op_ranges = environ.get("AMPPROF_TORCH_OPS") == "1"
        self.nvtx_library = environ.get("AMPPROF_NVTX_LIBRARY") or None


def install(environ=None):
    """Installs the import hook once per process (a second copy of the shim on the path does nothing)."""
    global _installed
    if _installed:
        return
    _installed = True
    environ = os.environ if environ is None else environ
    try:
        library_logs.expand_pid_placeholders(environ)
    except Exception as error:
        warn("per-process library log names failed (%s: %s)" % (type(error).__name__, error))
    try:
        exit_flush.install(environ)
    except Exception as error:
        warn("the collector's exit flush from Python failed (%s: %s)" % (type(error).__name__, error))
    settings = Settings(environ)
    if "torch" in sys.modules:  # imported before site ran (embedded interpreters): adjust it now
        adjust_torch(sys.modules["torch"], settings)
        return
    sys.meta_path.insert(0, TorchImportHook(lambda torch: adjust_torch(torch, settings)))


def adjust_torch(torch, settings):
    """Applies the requested changes to a loaded torch. Each feature is all or nothing: when one fails,
    its patches are undone, one warning says so, and the others still apply."""
    from ampprof_shim import nvtx, ops, precision, steps

    if settings.force_fp32:
        _apply("forcing FP32 (autocast and GradScaler off)", lambda patcher: precision.force_fp32(torch, patcher))
    markers = nvtx.open_markers(torch, settings.nvtx_library)
    if markers is not None:
        _apply("marking training steps", lambda patcher: steps.install(torch, patcher, markers))
    if settings.op_ranges:
        _apply("per-op NVTX ranges (--torch-ops)", lambda patcher: ops.enable(torch, patcher))


def _apply(feature, install_feature):
    patcher = Patcher()
    try:
        install_feature(patcher)
    except Exception as error:
        patcher.undo()
        warn("%s failed (%s: %s); torch is left as the script set it" % (feature, type(error).__name__, error))
