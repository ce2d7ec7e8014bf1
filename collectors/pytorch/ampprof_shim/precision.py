"""FP32 mode: the same script, with autocast and GradScaler switched off.

`ampprof compare` traces a script twice; in the FP32 run every autocast region and GradScaler is
constructed with enabled=False, whatever the script passes. A disabled autocast leaves ops in the
precision of their inputs, and a disabled GradScaler's scale() returns the loss unchanged, step() calls
optimizer.step() and update() does nothing, which is what the script would do without AMP. (Tensors the
script converts itself, `model.half()`, stay as they are.)

Patching __init__ covers every way the classes are used: `with torch.autocast(...)`, the decorator form,
torch.cuda.amp's subclasses that call super().__init__, and instances created later in other modules.
"""

import functools
import inspect


def _autocast_classes(torch):
    yield getattr(torch, "autocast", None)
    yield getattr(getattr(torch, "amp", None), "autocast", None)
    for device in ("cuda", "cpu"):
        yield getattr(getattr(getattr(torch, device, None), "amp", None), "autocast", None)


def _grad_scaler_classes(torch):
    yield getattr(getattr(torch, "amp", None), "GradScaler", None)
    for device in ("cuda", "cpu"):
        yield getattr(getattr(getattr(torch, device, None), "amp", None), "GradScaler", None)


def _distinct_classes(candidates):
    seen = []
    for cls in candidates:
        if isinstance(cls, type) and cls not in seen:
            seen.append(cls)
    return seen


def disabled_init(original):
    """An __init__ that calls `original` with enabled=False, however `enabled` was passed."""
    signature = inspect.signature(original)
    if "enabled" not in signature.parameters:
        raise TypeError("%s has no 'enabled' parameter" % getattr(original, "__qualname__", original))

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError:
            return original(self, *args, **kwargs)  # the script's own mistake: let torch report it
        bound.arguments["enabled"] = False
        return original(*bound.args, **bound.kwargs)

    __init__.__ampprof_forced_off__ = True
    return __init__


def force_fp32(torch, patcher):
    autocasts = _distinct_classes(_autocast_classes(torch))
    scalers = _distinct_classes(_grad_scaler_classes(torch))
    if not autocasts:
        raise LookupError("no torch.autocast class found")
    for cls in autocasts + scalers:
        original = vars(cls).get("__init__")
        # Subclasses that inherit __init__ are covered through their base class.
        if original is None or getattr(original, "__ampprof_forced_off__", False):
            continue
        patcher.replace(cls, "__init__", disabled_init(original))
