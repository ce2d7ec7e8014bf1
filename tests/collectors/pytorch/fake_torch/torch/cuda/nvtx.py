import torch

_next_id = [0]


def range_push(msg):
    torch.events.append(("nvtx_push", msg))


def range_pop():
    torch.events.append(("nvtx_pop",))


def range_start(msg):
    _next_id[0] += 1
    torch.events.append(("nvtx_start", msg, _next_id[0]))
    return _next_id[0]


def range_end(range_id):
    torch.events.append(("nvtx_end", range_id))
