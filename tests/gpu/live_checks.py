#!/usr/bin/env python3
"""Small PyTorch workloads for the collector's live checks (docs/validation/README.md, checks 6 and 7).

Each mode is one behaviour that `ampprof run` must survive or honour:

    exit --how normal|status3|exception|os_exit   ends the program that way after a few steps
    loop --seconds S [--interval S]               steps until killed; appends time.monotonic_ns() of every
                                                  step's launch to --stamps, so that the gap between the
                                                  last recorded kernel and a SIGKILL can be measured
    capture --steps N --start A --stop B          torch.cuda.profiler.start() before step A, stop() after B
    dataloader                                    a DataLoader with two worker processes feeding the GPU
    ranks                                         one process of a torchrun job (gloo), named by its rank

Every step is an NVTX range "train_step", as in the samples. Standard library and torch only.
"""

import argparse
import os
import sys
import time


def import_torch():
    import torch
    if not torch.cuda.is_available():
        print("live_checks.py: no usable CUDA GPU", file=sys.stderr)
        sys.exit(1)
    return torch


def make_step(torch, size=256):
    weight = torch.randn(size, size, device="cuda")
    data = torch.randn(64, size, device="cuda")

    def step():
        torch.cuda.nvtx.range_push("train_step")
        out = torch.relu(data @ weight)
        out = out @ weight.t()
        torch.cuda.nvtx.range_pop()
        return out
    return step


def mode_exit(args):
    torch = import_torch()
    step = make_step(torch)
    for _ in range(20):
        step()
    torch.cuda.synchronize()
    if args.how == "status3":
        sys.exit(3)
    if args.how == "exception":
        raise RuntimeError("live_checks.py: the uncaught exception the check asks for")
    if args.how == "os_exit":
        os._exit(0)
    return 0


def mode_loop(args):
    torch = import_torch()
    step = make_step(torch)
    deadline = time.monotonic() + args.seconds
    with open(args.stamps, "w", encoding="ascii") as stamps:
        while time.monotonic() < deadline:
            stamps.write(f"{time.monotonic_ns()}\n")
            stamps.flush()
            step()
            if args.interval > 0:
                torch.cuda.synchronize()
                time.sleep(args.interval)
    torch.cuda.synchronize()
    return 0


def mode_capture(args):
    torch = import_torch()
    step = make_step(torch)
    for index in range(args.steps):
        if index == args.start:
            torch.cuda.synchronize()
            torch.cuda.profiler.start()
        step()
        if index == args.stop:
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()
    torch.cuda.synchronize()
    return 0


class Squares:
    """A dataset whose items cost a little CPU, so the workers do something."""

    def __len__(self):
        return 512

    def __getitem__(self, index):
        import torch
        return torch.full((256,), float(index))


def mode_dataloader(args):
    torch = import_torch()
    weight = torch.randn(256, 256, device="cuda")
    loader = torch.utils.data.DataLoader(Squares(), batch_size=32, num_workers=2)
    for batch in loader:
        torch.cuda.nvtx.range_push("train_step")
        (batch.cuda(non_blocking=True) @ weight).sum().item()
        torch.cuda.nvtx.range_pop()
    return 0


def mode_ranks(args):
    torch = import_torch()
    import torch.distributed as dist
    dist.init_process_group("gloo")
    step = make_step(torch)
    for _ in range(20):
        out = step()
        total = out.sum().cpu()
        dist.all_reduce(total)
    torch.cuda.synchronize()
    dist.destroy_process_group()
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    p = modes.add_parser("exit")
    p.add_argument("--how", choices=["normal", "status3", "exception", "os_exit"], required=True)
    p = modes.add_parser("loop")
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--interval", type=float, default=0, help="seconds of sleep after each step (0: launch-bound)")
    p.add_argument("--stamps", required=True)
    p = modes.add_parser("capture")
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--start", type=int, default=10)
    p.add_argument("--stop", type=int, default=19)
    modes.add_parser("dataloader")
    modes.add_parser("ranks")
    args = parser.parse_args()
    return {"exit": mode_exit, "loop": mode_loop, "capture": mode_capture, "dataloader": mode_dataloader,
            "ranks": mode_ranks}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
