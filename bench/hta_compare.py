#!/usr/bin/env python3
"""ampprof against HolisticTraceAnalysis (HTA) on the same PyTorch profiler traces, in fresh processes.

For each trace it runs, one after another so they never compete:
  - HTA: TraceAnalysis(trace_dir) (load and parse), get_idle_time_breakdown(), get_gpu_kernel_breakdown(),
    without plots; the time of each phase as HTA's process saw it;
  - `ampprof analyze TRACE`: read, build the model, every analyzer (idle gaps and kernel breakdown among
    them), the text report;
  - Python's json.load of the file and nothing else: the floor of any tool that starts with it.
Wall time from the parent (process start to exit) and peak resident memory from wait4(). A process that
passes the memory limit (default: 85% of the memory available at the start) is killed and reported so,
instead of pushing the machine into swap or the OOM killer; so is one still running after the time limit.

HTA is installed into a private virtual environment (--venv) on first use:
  python3 -m venv VENV && VENV/bin/pip install HolisticTraceAnalysis==0.5.0

  bench/hta_compare.py --ampprof build-bench/src/cli/ampprof --venv /tmp/ampprof-bench/hta-venv T1.json T2.json
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

HTA_VERSION = "0.5.0"

HTA_SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
from hta.trace_analysis import TraceAnalysis
t1 = time.perf_counter()
analysis = TraceAnalysis(trace_dir=sys.argv[1])
t2 = time.perf_counter()
idle, _ = analysis.get_idle_time_breakdown(visualize=False)
t3 = time.perf_counter()
kernel_types, kernels = analysis.get_gpu_kernel_breakdown(visualize=False)
t4 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "idle_s": t3 - t2, "kernel_breakdown_s": t4 - t3,
                  "idle_rows": len(idle), "kernel_rows": len(kernels)}))
"""


def available_memory_bytes():
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    raise SystemExit("bench/hta_compare.py: /proc/meminfo has no MemAvailable")


def rss_bytes(pid):
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError, ValueError):
        return 0


def measure(command, memory_limit, time_limit):
    """Runs command in a fresh process: (wall seconds, peak RSS bytes, stdout, outcome)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    killed = threading.Event()
    timed_out = threading.Event()

    def watch():
        while child.poll() is None:
            if rss_bytes(child.pid) > memory_limit:
                killed.set()
                child.send_signal(signal.SIGKILL)
                return
            if time.perf_counter() - start > time_limit:
                timed_out.set()
                child.send_signal(signal.SIGKILL)
                return
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    stdout = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss * 1024
    if killed.is_set():
        outcome = f"killed: passed the memory limit of {memory_limit / 2**30:.1f} GiB"
    elif timed_out.is_set():
        outcome = f"killed: still running after the time limit of {time_limit / 60:.0f} min"
    elif child.returncode != 0:
        outcome = f"failed: exit status {child.returncode}"
    else:
        outcome = "ok"
    return wall, peak, stdout, outcome


def ensure_venv(venv):
    python = os.path.join(venv, "bin", "python")
    check = [python, "-c", "import hta, pandas; print(pandas.__version__)"]
    if os.path.exists(python) and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    print(f"installing HolisticTraceAnalysis {HTA_VERSION} into {venv} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    result = subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet",
                             f"HolisticTraceAnalysis=={HTA_VERSION}"])
    if result.returncode != 0:
        raise SystemExit(f"bench/hta_compare.py: cannot install HolisticTraceAnalysis into {venv} "
                         "(pip failed: no network or no package index?)")
    return python


def versions(python):
    script = ("import importlib.metadata as m, sys; print(json.dumps({'python': sys.version.split()[0], "
              "'hta': m.version('HolisticTraceAnalysis'), 'pandas': m.version('pandas'), "
              "'numpy': m.version('numpy')}))")
    out = subprocess.run([python, "-c", "import json; " + script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("traces", nargs="+", help="PyTorch profiler JSON traces (one rank each)")
    parser.add_argument("--ampprof", required=True, help="the ampprof executable")
    parser.add_argument("--venv", required=True, help="virtual environment for HTA (created if missing)")
    parser.add_argument("--memory-limit-gib", type=float,
                        help="kill a tool past this resident size (default: 85%% of MemAvailable)")
    parser.add_argument("--time-limit-min", type=float, default=60,
                        help="kill a tool still running after this many minutes (default 60)")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    limit = int(args.memory_limit_gib * 2**30) if args.memory_limit_gib else int(0.85 * available_memory_bytes())
    time_limit = args.time_limit_min * 60
    python = ensure_venv(args.venv)
    info = versions(python)
    print(f"HTA {info['hta']} (pandas {info['pandas']}, numpy {info['numpy']}, Python {info['python']}); "
          f"memory limit {limit / 2**30:.1f} GiB")

    results = []
    for trace in args.traces:
        size = os.path.getsize(trace)
        with tempfile.TemporaryDirectory(prefix="hta-trace-") as trace_dir:
            # HTA reads every trace in a directory: give it one holding only this trace.
            os.symlink(os.path.abspath(trace), os.path.join(trace_dir, "rank-0.json"))
            runs = {
                "hta": measure([python, "-c", HTA_SCRIPT, trace_dir], limit, time_limit),
                "ampprof": measure([args.ampprof, "analyze", trace], limit, time_limit),
                "json.load": measure([sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1]))",
                                      trace], limit, time_limit),
            }
        row = {"trace": trace, "bytes": size, "tools": {}}
        for tool, (wall, peak, stdout, outcome) in runs.items():
            entry = {"wall_s": wall, "peak_rss_bytes": peak, "outcome": outcome}
            if tool == "hta" and outcome == "ok":
                entry["phases"] = json.loads(stdout.strip().splitlines()[-1])
            row["tools"][tool] = entry
        results.append(row)

        print(f"\n{trace}: {size / 2**20:,.0f} MiB of JSON")
        for tool, entry in row["tools"].items():
            phases = ""
            if "phases" in entry:
                p = entry["phases"]
                phases = (f"  (load {p['load_s']:.1f} s, idle breakdown {p['idle_s']:.1f} s, "
                          f"kernel breakdown {p['kernel_breakdown_s']:.1f} s)")
            print(f"  {tool:10} {entry['wall_s']:8.2f} s  peak {entry['peak_rss_bytes'] / 2**20:8,.0f} MiB  "
                  f"{entry['outcome']}{phases}")
        hta, ours = row["tools"]["hta"], row["tools"]["ampprof"]
        if hta["outcome"] == "ok" and ours["outcome"] == "ok":
            print(f"  ampprof is {hta['wall_s'] / ours['wall_s']:.0f}x faster than HTA with "
                  f"{hta['peak_rss_bytes'] / ours['peak_rss_bytes']:.0f}x less peak memory")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"versions": info, "memory_limit_bytes": limit, "results": results}, out, indent=1)


if __name__ == "__main__":
    main()
