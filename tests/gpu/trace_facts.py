#!/usr/bin/env python3
"""One line of facts per trace that ampprof recorded, for the GPU checks' log (docs/validation).

    trace_facts.py --ampprof BIN PATH...      PATH: an .ampt or a directory of them

For each trace: the collector's metadata (mode, CUPTI library, capture window), the record counts, the
NVTX ranges by name, the steps and their median, the data-quality counters, the findings, and the
first and last GPU timestamps (CLOCK_MONOTONIC ns, as the collector records them), all read back through
`ampprof export --format chrome` and `ampprof analyze --format json`, so that what is printed is what the
product sees. --json FILE also writes them all as one JSON document.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile


def traces_in(path):
    if os.path.isdir(path):
        return sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith(".ampt"))
    return [path]


def facts(ampprof, trace):
    result = {"trace": trace}
    with tempfile.TemporaryDirectory() as work:
        chrome = os.path.join(work, "trace.json")
        exported = subprocess.run([ampprof, "export", "--format", "chrome", "-o", chrome, trace],
                                  capture_output=True, text=True)
        if exported.returncode != 0:
            result["export_error"] = exported.stderr.strip()[-400:]
        else:
            with open(chrome, encoding="utf-8") as f:
                document = json.load(f)
            result["metadata"] = document.get("otherData", {}).get("trace_metadata", {})
            events = document.get("traceEvents", [])
            result["events_by_category"] = dict(collections.Counter(e.get("cat") for e in events if e.get("ph") == "X"))
            names = collections.Counter(e.get("name") for e in events if e.get("cat") == "nvtx")
            result["nvtx_ranges"] = dict(names.most_common(8))
            kernels = [e for e in events if e.get("cat") == "kernel"]
            if kernels:
                # Chrome's ts is in microseconds; the exporter keeps the trace's own clock.
                result["first_kernel_start_us"] = min(e["ts"] for e in kernels)
                result["last_kernel_end_us"] = max(e["ts"] + e.get("dur", 0) for e in kernels)
    analysed = subprocess.run([ampprof, "analyze", trace, "--format", "json"], capture_output=True, text=True)
    if analysed.returncode != 0:
        result["analyze_error"] = analysed.stderr.strip()[-400:]
        return result
    report = json.loads(analysed.stdout)["reports"][0]
    summary = report["summary"]
    result["records"] = summary.get("records")
    result["gpu_span"] = summary.get("gpu_span")
    steps = summary.get("steps") or {}
    result["steps"] = {k: steps.get(k) for k in ("count", "warmup", "source", "median_ns", "p90_ns")}
    result["data_quality"] = report.get("data_quality")
    result["findings"] = [f"{f['id']}({f.get('severity')})" for f in report.get("findings", [])]
    result["verdict"] = report.get("verdict", {}).get("text")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ampprof", required=True)
    parser.add_argument("--json", help="write every trace's facts here too")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    everything = []
    for path in args.paths:
        for trace in traces_in(path):
            f = facts(args.ampprof, trace)
            everything.append(f)
            print(json.dumps(f, sort_keys=True))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(everything, out, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
