#!/usr/bin/env python3
"""Golden checks on the traces recorded on an H100 (samples/traces/h100, samples/traces/README.md).

    h100_traces.py --ampprof BIN --traces samples/traces/h100 --findings-docs docs/findings

For each entry of <traces>/expected.json: `ampprof analyze TRACE [--baseline BASELINE] --format json`,
then checks that every finding the entry "must" have is there and none it "must_not" have is, that the
record counts it names are exact, and that ampprof's median step is within `step_tolerance` of what the
sample measured itself with CUDA events on the GPU (`sample_median_ms`). Runs without a GPU: these are
recorded traces. Prints one line per trace; exit status 0 when all pass, 1 otherwise.

Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_samples  # noqa: E402  (beside this file)


def load(path, findings_docs):
    with open(path, encoding="utf-8") as f:
        expected = json.load(f)
    if expected.get("schema_version") != 1 or not isinstance(expected.get("traces"), list):
        raise ValueError(f"{path}: want schema_version 1 and a list 'traces'")
    known = {name[:-3] for name in os.listdir(findings_docs) if name.endswith(".md") and name != "README.md"}
    for entry in expected["traces"]:
        for finding in entry.get("must", []) + entry.get("must_not", []):
            if finding not in known:
                raise ValueError(f"{path}: {entry['file']}: unknown finding id {finding}")
        if not entry.get("why"):
            raise ValueError(f"{path}: {entry['file']}: every entry says why")
    return expected["traces"]


def check(entry, report):
    found = {finding["id"] for finding in report.get("findings", [])}
    # The same must/must_not check as the live runs of samples/answers.json.
    problems = run_samples.check({"must": entry.get("must", []), "must_not": entry.get("must_not", [])},
                                 found, sm=None)
    records = report["summary"].get("records") or {}
    for name, count in entry.get("records", {}).items():
        if records.get(name) != count:
            problems.append(f"{name}: {records.get(name)}, want {count}")
    steps = report["summary"].get("steps") or {}
    if "sample_median_ms" in entry:
        want = entry["sample_median_ms"]
        got = (steps.get("median_ns") or 0) / 1e6
        tolerance = entry.get("step_tolerance", 0.02)
        if abs(got - want) > tolerance * want:
            problems.append(f"median step {got:.4f} ms, the sample measured {want:.4f} ms "
                            f"(more than {tolerance:.0%} apart)")
    if "step_source" in entry and steps.get("source") != entry["step_source"]:
        problems.append(f"steps from {steps.get('source')!r}, want {entry['step_source']!r}")
    return problems, found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ampprof", required=True)
    parser.add_argument("--traces", required=True)
    parser.add_argument("--findings-docs", required=True)
    args = parser.parse_args()
    try:
        entries = load(os.path.join(args.traces, "expected.json"), args.findings_docs)
    except (OSError, ValueError, KeyError) as error:
        print(f"h100_traces: {error}")
        return 1
    failed = 0
    for entry in entries:
        command = [args.ampprof, "analyze", os.path.join(args.traces, entry["file"]), "--format", "json"]
        if "baseline" in entry:
            command += ["--baseline", os.path.join(args.traces, entry["baseline"])]
        analysed = subprocess.run(command, capture_output=True, text=True)
        if analysed.returncode != 0:
            failed += 1
            print(f"FAIL {entry['file']}: ampprof analyze exited {analysed.returncode}: {analysed.stderr.strip()[-300:]}")
            continue
        problems, found = check(entry, json.loads(analysed.stdout)["reports"][0])
        if problems:
            failed += 1
            print(f"FAIL {entry['file']}: {'; '.join(problems)} (findings: {', '.join(sorted(found)) or 'none'})")
        else:
            print(f"PASS {entry['file']} (findings: {', '.join(sorted(found)) or 'none'})")
    print(f"{len(entries) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
