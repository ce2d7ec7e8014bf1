from torch.optim import optimizer  # noqa: F401
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD  # noqa: F401

# As torch 2.11's torch/optim/__init__.py does: the submodule's name is deleted from the package, so
# `torch.optim.optimizer` is not an attribute although the module is imported (sys.modules has it).
del optimizer
