import torch
from torch.optim.optimizer import Optimizer, with_hooks


class SGD(Optimizer):
    def __init__(self, params, lr=0.1, name="sgd"):
        super().__init__(params, {"lr": lr, "name": name})

    @with_hooks
    def step(self, closure=None):
        torch.events.append(("optimizer_step", self.name))
