import torch


class GradScaler:
    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._enabled = enabled

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs * 65536.0 if self._enabled else outputs

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        torch.events.append(("unscale_and_check",))
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        if self._enabled:
            torch.events.append(("update_scale",))
