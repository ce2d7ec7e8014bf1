"""The profiler entry points as in torch/autograd/profiler.py: one profiler per thread."""
import torch

_enabled_state = [None]


def _run_on_profiler_start():
    pass


def _run_on_profiler_stop():
    pass


def _enable_profiler(config, activities):
    if _enabled_state[0] is not None:
        raise RuntimeError("Profiler is already enabled on this thread")
    _enabled_state[0] = config
    torch.events.append(("profiler_enabled", config))


def _disable_profiler():
    torch.events.append(("profiler_disabled", _enabled_state[0]))
    _enabled_state[0] = None


class emit_nvtx:
    def __init__(self, enabled=True, record_shapes=False):
        self.enabled = enabled
        self.record_shapes = record_shapes

    def __enter__(self):
        torch.cuda.synchronize()
        _run_on_profiler_start()
        _enable_profiler("nvtx" + (" record_shapes" if self.record_shapes else ""), set())
        return self

    def __exit__(self, *exc):
        torch.cuda.synchronize()
        _disable_profiler()
        _run_on_profiler_stop()
        return False


class profile:
    """The user's profiler (what torch.profiler.profile starts)."""

    def __enter__(self):
        _enable_profiler("kineto", {"cpu", "cuda"})
        return self

    def __exit__(self, *exc):
        _disable_profiler()
        return False
