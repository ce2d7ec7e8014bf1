"""Global step hooks as in torch/optim/optimizer.py (PyTorch >= 2.0)."""
import functools

_global_pre_hooks = {}
_global_post_hooks = {}
_next_handle = [0]


class _Handle:
    def __init__(self, hooks, key):
        self._hooks, self._key = hooks, key

    def remove(self):
        self._hooks.pop(self._key, None)


def _register(hooks, hook):
    _next_handle[0] += 1
    hooks[_next_handle[0]] = hook
    return _Handle(hooks, _next_handle[0])


def register_optimizer_step_pre_hook(hook):
    return _register(_global_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    return _register(_global_post_hooks, hook)


def with_hooks(step):
    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        for hook in list(_global_pre_hooks.values()):
            hook(self, args, kwargs)
        out = step(self, *args, **kwargs)
        for hook in list(_global_post_hooks.values()):
            hook(self, args, kwargs)
        return out

    return wrapper


class Optimizer:
    def __init__(self, params, defaults):
        self.name = defaults.get("name", type(self).__name__)
