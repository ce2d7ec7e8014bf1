"""Step marks: where each training iteration starts and ends, as NVTX ranges in the ampprof domain.

Two kinds of range:

  * "optimizer.step", "scaler.step", "scaler.update": pushed around each call (nested, one thread);
  * "step": one start/end range per iteration, from one step boundary to the next. analyzers/steps.cc
    takes these as the training steps, ahead of every other source.

The boundary is the end of GradScaler.update() when the script uses a GradScaler (the last call of an
AMP iteration), else the end of optimizer.step(). Only the first scaler (or optimizer) seen defines
boundaries, so a GAN's two optimizers, or a scaler stepping two optimizers, still make one step per
iteration; and a second optimizer.step() in an iteration (the amp.double_optimizer_step bug) stays
inside one step instead of splitting it. Gradient accumulation gives one step per optimizer step.

So N iterations give N - 1 complete step ranges: the first starts when the first iteration ends (that
iteration is warm-up anyway). The range open at exit is ended by an atexit handler; it covers whatever
the script does after its last step.

Optimizers are observed through torch.optim's global step hooks (PyTorch >= 2.0), so every optimizer
class, including ones defined by the script, is covered without patching it.
"""

import atexit
import functools
import importlib
import threading

from ampprof_shim.patching import warn


class StepMarker:
    """Turns optimizer and scaler events into step ranges. Thread-safe; never raises into the script:
    the first NVTX failure disables marking with one warning."""

    def __init__(self, markers):
        self._markers = markers
        self._lock = threading.Lock()
        self._open_step = None
        self._scaler_seen = False
        self._boundary_optimizer = None
        self._boundary_scaler = None
        self._enabled = True
        self.boundaries = 0

    def _safely(self, action, *args):
        if not self._enabled:
            return None
        try:
            return action(*args)
        except Exception as error:
            self._enabled = False
            warn("NVTX step marks failed (%s: %s); no more steps are marked" % (type(error).__name__, error))
            return None

    def push(self, name):
        self._safely(self._markers.push, name)

    def pop(self):
        self._safely(self._markers.pop)

    def optimizer_step_ended(self, optimizer):
        if self._scaler_seen:
            return
        if self._boundary_optimizer is None:
            self._boundary_optimizer = id(optimizer)
        if id(optimizer) == self._boundary_optimizer:
            self._boundary()

    def scaler_step_started(self, scaler):
        self._scaler_seen = True

    def scaler_update_ended(self, scaler):
        self._scaler_seen = True
        if self._boundary_scaler is None:
            self._boundary_scaler = id(scaler)
        if id(scaler) == self._boundary_scaler:
            self._boundary()

    def _boundary(self):
        with self._lock:
            if self._open_step is not None:
                self._safely(self._markers.end, self._open_step)
            self._open_step = self._safely(self._markers.start, "step")
            self.boundaries += 1

    def close(self):
        with self._lock:
            if self._open_step is not None:
                self._safely(self._markers.end, self._open_step)
                self._open_step = None


def _marked(original, before, after):
    """`original` (a method) with before(self) and after(self) around it; the script's own exceptions
    pass through unchanged."""

    @functools.wraps(original)
    def method(self, *args, **kwargs):
        before(self)
        try:
            return original(self, *args, **kwargs)
        finally:
            after(self)

    return method


def _grad_scaler_classes(torch):
    seen = []
    for module in (getattr(torch, "amp", None), getattr(getattr(torch, "cuda", None), "amp", None)):
        cls = getattr(module, "GradScaler", None)
        if isinstance(cls, type) and cls not in seen:
            seen.append(cls)
    return seen


def _optimizer_module(torch):
    """torch.optim.optimizer, which holds the global step hooks. Imported by name: torch.optim's
    __init__ deletes its submodules' names (torch 2.11 does), so `torch.optim.optimizer` as an
    attribute is missing even where the module is there (seen on a GPU machine, docs/validation)."""
    if getattr(torch, "optim", None) is None:
        return None
    try:
        return importlib.import_module(torch.__name__ + ".optim.optimizer")
    except ImportError:
        return None


def install(torch, patcher, markers):
    marker = StepMarker(markers)
    optimizer_module = _optimizer_module(torch)
    register_pre = getattr(optimizer_module, "register_optimizer_step_pre_hook", None)
    register_post = getattr(optimizer_module, "register_optimizer_step_post_hook", None)
    if register_pre is None or register_post is None:
        warn("torch.optim has no global step hooks (PyTorch < 2.0); optimizer steps are not marked")
    else:
        pre = register_pre(lambda optimizer, args, kwargs: marker.push("optimizer.step"))
        patcher.on_undo(pre.remove)

        def after_optimizer_step(optimizer, args, kwargs):
            marker.pop()
            marker.optimizer_step_ended(optimizer)

        post = register_post(after_optimizer_step)
        patcher.on_undo(post.remove)

    def before_scaler_step(scaler):
        marker.scaler_step_started(scaler)
        marker.push("scaler.step")

    def after_scaler_update(scaler):
        marker.pop()
        marker.scaler_update_ended(scaler)

    for cls in _grad_scaler_classes(torch):
        # A subclass that inherits step/update is covered through its base class.
        if "step" in vars(cls):
            patcher.replace(cls, "step", _marked(vars(cls)["step"], before_scaler_step, lambda scaler: marker.pop()))
        if "update" in vars(cls):
            patcher.replace(cls, "update", _marked(vars(cls)["update"], lambda scaler: marker.push("scaler.update"),
                                                   after_scaler_update))
    atexit.register(marker.close)
    patcher.on_undo(lambda: atexit.unregister(marker.close))
    return marker
