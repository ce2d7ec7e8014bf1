from torch.amp.autocast_mode import autocast
from torch.amp.grad_scaler import GradScaler
