"""The training loop and timing shared by the PyTorch samples.

Each sample builds a model and its data, then calls train(): autocast + GradScaler exactly as PyTorch's
AMP recipe writes them (enabled or not by --amp), warm-up steps before the timed ones, CUDA events
around every timed step and torch.cuda.synchronize() before any time is read. Each step is an NVTX range
named "train_step" ("warmup_step" for warm-up), as in the CUDA samples, so that a profiler's steps are
the steps timed here.
"""

import argparse
import contextlib
import statistics
import sys
import time


def parser(description, steps, warmup):
    """An argparse parser with the flags every sample takes."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--amp", choices=["on", "off"], default="on",
                   help="torch.autocast + GradScaler (on) or FP32 (off) (default: on)")
    p.add_argument("--dtype", choices=["fp16", "bf16"], default="fp16",
                   help="autocast's dtype when --amp on (default: fp16)")
    p.add_argument("--steps", type=positive, default=steps, help=f"timed steps (default: {steps})")
    p.add_argument("--warmup", type=non_negative, default=warmup,
                   help=f"untimed steps before them (default: {warmup})")
    p.add_argument("--torch-profiler", metavar="FILE",
                   help="profile the timed steps with torch.profiler (CPU and CUDA activities, shapes) and "
                        "write its Chrome/Kineto JSON trace to FILE: the peer that ampprof is compared with")
    return p


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def non_negative(text):
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {text}")
    return value


def import_torch(program):
    """torch, or one line and exit status 1 when it is missing or there is no usable GPU (instead of a
    traceback later)."""
    try:
        import torch
    except ImportError as error:
        print(f"{program}: PyTorch is not installed ({error})", file=sys.stderr)
        sys.exit(1)
    if not torch.cuda.is_available():
        print(f"{program}: no usable CUDA GPU (torch.cuda.is_available() is False)", file=sys.stderr)
        sys.exit(1)
    return torch


def train(torch, model, optimizer, loss_fn, batches, args, double_step=False):
    """Runs args.warmup + args.steps training steps over `batches` (a list of (input, target) pairs on
    the GPU, FP32) and prints the step time. With double_step, optimizer.step() is called again after
    scaler.step(optimizer) and scaler.update(): seed 003's bug."""
    use_amp = args.amp == "on"
    dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float16
    try:
        scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    except (AttributeError, TypeError):  # PyTorch before 2.3
        scaler = torch.cuda.amp.GradScaler(enabled=use_amp)

    def step(index):
        inputs, target = batches[index % len(batches)]
        with torch.autocast(device_type="cuda", dtype=dtype, enabled=use_amp):
            output = model(inputs)
            loss = loss_fn(output, target)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        if double_step:
            optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return loss

    for index in range(args.warmup):
        torch.cuda.nvtx.range_push("warmup_step")
        step(index)
        torch.cuda.nvtx.range_pop()

    events = [torch.cuda.Event(enable_timing=True) for _ in range(args.steps + 1)]
    profiler = None
    if args.torch_profiler:
        activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        profiler = torch.profiler.profile(activities=activities, record_shapes=True)
        profiler.__enter__()
    torch.cuda.synchronize()
    start = time.perf_counter()
    loss = None
    for index in range(args.steps):
        events[index].record()
        torch.cuda.nvtx.range_push("train_step")
        # The step as torch.profiler marks it too, so that its trace has the same steps as ampprof's.
        with torch.profiler.record_function(f"ProfilerStep#{index}") if profiler else contextlib.nullcontext():
            loss = step(args.warmup + index)
        torch.cuda.nvtx.range_pop()
    events[-1].record()
    torch.cuda.synchronize()
    wall = time.perf_counter() - start
    if profiler:
        profiler.__exit__(None, None, None)
        profiler.export_chrome_trace(args.torch_profiler)

    step_ms = sorted(events[i].elapsed_time(events[i + 1]) for i in range(args.steps))
    print(f"step time: median {statistics.median(step_ms):.4f} ms, mean {statistics.fmean(step_ms):.4f} ms, "
          f"min {step_ms[0]:.4f} ms, max {step_ms[-1]:.4f} ms (CUDA events, {args.steps} steps after "
          f"{args.warmup} warm-up steps)")
    print(f"wall clock: {wall * 1000 / args.steps:.4f} ms per step (host clock over the timed steps, "
          f"GPU synchronised before and after)")
    if use_amp:
        print(f"final loss {loss.item():.6f} (autocast {args.dtype} + GradScaler, loss scale {scaler.get_scale():.0f})")
    else:
        print(f"final loss {loss.item():.6f} (fp32)")
