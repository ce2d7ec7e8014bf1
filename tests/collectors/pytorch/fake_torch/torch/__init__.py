"""A stand-in for torch with the names and signatures the ampprof shim touches (PyTorch 2.x layout).
Everything observable is appended to `events`, which the tests print and check."""

events = []

from torch import amp, autograd, cuda, optim  # noqa: E402  (torch imports its submodules this way too)

autocast = amp.autocast


def is_autocast_enabled():
    return amp.autocast_mode.enabled_depth > 0
