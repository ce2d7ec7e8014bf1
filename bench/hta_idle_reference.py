#!/usr/bin/env python3
"""HTA's idle-time breakdown, re-implemented from its documented definition, for comparison with
ampprof's idle-gap classification (docs/step-account.md).

HolisticTraceAnalysis (BreakdownAnalysis.get_idle_time_breakdown) works per CUDA stream on every GPU event
with a stream (kernels, memcpys, memsets), sorted by start:
  idle interval  = start - previous event's end on the same stream;
  host wait      = the launching runtime call started after the previous event ended;
  kernel wait    = not host wait, and the interval is shorter than consecutive_kernel_delay (30 ns);
  other          = the rest.
Only the standard library is used, so it runs where HTA and pandas are not installed.

  bench/hta_idle_reference.py TRACE.json[.gz] ...
"""
import collections
import gzip
import json
import sys

CONSECUTIVE_KERNEL_DELAY_NS = 30
GPU_CATEGORIES = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def ns(value):
    return int(round(float(value) * 1000))


def breakdown(trace):
    runtime_start = {}
    gpu = collections.defaultdict(list)
    for event in trace.get("traceEvents", []):
        if event.get("ph") != "X":
            continue
        args = event.get("args", {}) or {}
        category = event.get("cat", "")
        if category in ("cuda_runtime", "cuda_driver", "Runtime"):
            if "correlation" in args:
                runtime_start[args["correlation"]] = ns(event["ts"])
        elif category in GPU_CATEGORIES and "stream" in args:
            start = ns(event["ts"])
            gpu[(event.get("pid"), args["stream"])].append((start, start + ns(event.get("dur", 0)), args.get("correlation")))
    totals = collections.Counter()
    for events in gpu.values():
        events.sort()
        for (_, previous_end, _), (start, _, correlation) in zip(events, events[1:]):
            idle = start - previous_end
            launched = runtime_start.get(correlation)
            if launched is not None and launched > previous_end:
                totals["host_wait"] += idle
            elif idle < CONSECUTIVE_KERNEL_DELAY_NS:
                totals["kernel_wait"] += idle
            else:
                totals["other"] += idle
    return totals, len(gpu)


def main(paths):
    for path in paths:
        totals, streams = breakdown(load(path))
        parts = ", ".join(f"{name} {totals[name] / 1e6:.2f} ms" for name in ("host_wait", "kernel_wait", "other"))
        print(f"{path}: {streams} streams; {parts}")


if __name__ == "__main__":
    main(sys.argv[1:])
