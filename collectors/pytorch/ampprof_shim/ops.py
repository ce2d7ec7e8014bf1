"""--torch-ops: every PyTorch op as an NVTX range with its input shapes, for attributing kernels to ops.

This is torch.autograd.profiler.emit_nvtx(record_shapes=True), entered when torch is imported and left
at exit. Two adjustments keep the script's behaviour unchanged:

  * emit_nvtx calls torch.cuda.synchronize() on entry and exit, which would initialise CUDA at
    `import torch`: a DataLoader worker or torchrun's launcher that imports torch but never uses the GPU
    would create a context, and a fork after it breaks CUDA in the child. Before the script has used
    CUDA there is nothing to synchronise, so the call is skipped until CUDA is initialised.
  * PyTorch allows one profiler per thread. If the script starts its own (torch.profiler.profile), the
    per-op ranges stop there, with one warning, instead of the script failing with "profiler already
    enabled".
"""

import atexit
import contextlib

from ampprof_shim.patching import warn


@contextlib.contextmanager
def _synchronize_only_if_cuda_initialized(torch):
    cuda = torch.cuda
    synchronize = cuda.synchronize

    def synchronize_if_initialized(*args, **kwargs):
        if cuda.is_initialized():
            return synchronize(*args, **kwargs)
        return None

    cuda.synchronize = synchronize_if_initialized
    try:
        yield
    finally:
        cuda.synchronize = synchronize


def enable(torch, patcher):
    profiler = torch.autograd.profiler
    session = profiler.emit_nvtx(enabled=True, record_shapes=True)
    with _synchronize_only_if_cuda_initialized(torch):
        session.__enter__()
    state = {"active": True}

    def stop():
        if not state["active"]:
            return
        state["active"] = False
        with _synchronize_only_if_cuda_initialized(torch):
            session.__exit__(None, None, None)

    patcher.on_undo(stop)
    atexit.register(stop)
    patcher.on_undo(lambda: atexit.unregister(stop))

    enable_profiler = vars(profiler).get("_enable_profiler")
    if enable_profiler is not None:
        def enable_profiler_after_ours(*args, **kwargs):
            if state["active"]:
                warn("the script starts its own PyTorch profiler: per-op NVTX ranges (--torch-ops) stop here")
                stop()
            return enable_profiler(*args, **kwargs)

        patcher.replace(profiler, "_enable_profiler", enable_profiler_after_ours)
