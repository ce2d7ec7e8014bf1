from torch.optim import optimizer  # noqa: F401
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD  # noqa: F401
