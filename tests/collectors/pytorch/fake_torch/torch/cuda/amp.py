import os

import torch.amp


class autocast(torch.amp.autocast):
    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


if os.environ.get("FAKE_TORCH_SCALER_WITHOUT_ENABLED") == "1":
    # A torch whose GradScaler cannot be switched off: forcing FP32 must fail as a whole.
    class GradScaler(torch.amp.GradScaler):
        def __init__(self, init_scale=2.0**16):
            super().__init__("cuda", init_scale=init_scale)
else:
    class GradScaler(torch.amp.GradScaler):
        def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                     enabled=True):
            super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)
