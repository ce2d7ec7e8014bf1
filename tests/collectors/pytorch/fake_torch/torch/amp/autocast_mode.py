import torch

enabled_depth = 0


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self.device = device_type
        self.fast_dtype = dtype
        self._enabled = enabled

    def __enter__(self):
        global enabled_depth
        if self._enabled:
            enabled_depth += 1
        torch.events.append(("autocast", self.device, self._enabled))
        return self

    def __exit__(self, *exc):
        global enabled_depth
        if self._enabled:
            enabled_depth -= 1
        return False

    def __call__(self, function):
        def decorated(*args, **kwargs):
            with self:
                return function(*args, **kwargs)

        return decorated
