#!/usr/bin/env python3
"""Runs every sample of samples/answers.json under ampprof on a GPU and checks its findings.

For each run of the answers file, in order:
    ampprof run -o WORK/<run> -- <sample> <args>
    ampprof analyze WORK/<run> [--baseline WORK/<baseline run>] --format json
then checks that every finding the run "must" have is among the reports' finding ids and none it
"must_not" have is. Prints one line per run (PASS, FAIL or SKIP and why) and a summary.

Exit status: 0 when every run that could run passed, 1 when any failed (or the answers file is bad),
77 when nothing could run (no GPU, no CUDA samples built and no PyTorch, or an ampprof build that cannot
trace): CTest's SKIP_RETURN_CODE for the `gpu` label.

--check-answers only validates the answers file (needs no GPU): its shape, that baselines name earlier
runs, and that every finding id has its page in docs/findings.

Standard library only: CI and GPU machines run it with whatever python3 they have.
"""

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
SAMPLE_SKIPPED = 77  # what a sample exits with when an optional dependency is missing (resnet50.py)
AMPPROF_CANNOT_TRACE = 3  # ampprof's "this build does not have that part" status
RUN_TIMEOUT_S = 900


class AnswersError(Exception):
    pass


# ---- The answers file ----

def expectation_ids(expectation):
    """The finding ids an entry of "must"/"must_not" names: "id", {"id", "min_sm"} or {"any_of": [...]}."""
    if isinstance(expectation, str):
        return [expectation]
    if isinstance(expectation, dict) and isinstance(expectation.get("id"), str):
        return [expectation["id"]]
    if isinstance(expectation, dict) and isinstance(expectation.get("any_of"), list) and expectation["any_of"]:
        return list(expectation["any_of"])
    raise AnswersError(f"bad expectation {json.dumps(expectation)}: want an id, {{\"id\", \"min_sm\"}} or "
                       f"{{\"any_of\": [ids]}}")


def load_answers(path, findings_docs):
    try:
        with open(path, encoding="utf-8") as f:
            answers = json.load(f)
    except (OSError, json.JSONDecodeError) as error:
        raise AnswersError(f"{path}: {error}") from error
    if answers.get("schema_version") != 1:
        raise AnswersError(f"{path}: schema_version must be 1")
    runs = answers.get("runs")
    if not isinstance(runs, list) or not runs:
        raise AnswersError(f"{path}: 'runs' must be a non-empty list")
    known = None
    if findings_docs:
        known = {name[:-3] for name in os.listdir(findings_docs) if name.endswith(".md") and name != "README.md"}
    names = set()
    for index, run in enumerate(runs):
        where = f"{path}: run {index + 1}"
        for key, kind in (("name", str), ("sample", str), ("args", list), ("must", list), ("must_not", list)):
            if not isinstance(run.get(key), kind):
                raise AnswersError(f"{where}: '{key}' must be a {kind.__name__}")
        where = f"{path}: run '{run['name']}'"
        if run["name"] in names:
            raise AnswersError(f"{where}: duplicate name")
        if not re.fullmatch(r"(cuda/[a-z0-9_]+|pytorch/[a-z0-9_]+\.py)", run["sample"]):
            raise AnswersError(f"{where}: sample must be cuda/<program> or pytorch/<script>.py")
        if "baseline" in run and run["baseline"] not in names:
            raise AnswersError(f"{where}: baseline '{run['baseline']}' is not an earlier run")
        for expectation in run["must"] + run["must_not"]:
            for finding in expectation_ids(expectation):
                if known is not None and finding not in known:
                    raise AnswersError(f"{where}: unknown finding id '{finding}' (no {findings_docs}/{finding}.md)")
        for expectation in run["must_not"]:
            if not isinstance(expectation, str):
                raise AnswersError(f"{where}: must_not takes plain ids")
        names.add(run["name"])
    return runs


# ---- The machine ----

def probe_gpu():
    """(compute capability as 80, 90, ..., None) or (None, why not) from the CUDA driver itself."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as error:
        return None, f"no CUDA driver ({error})"
    if cuda.cuInit(0) != 0:
        return None, "cuInit failed: no usable CUDA GPU"
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        return None, "the CUDA driver reports no devices"
    major, minor = ctypes.c_int(0), ctypes.c_int(0)
    device = ctypes.c_int(0)
    if cuda.cuDeviceGet(ctypes.byref(device), 0) != 0:
        return None, "cuDeviceGet(0) failed"
    # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, _MINOR = 76 (cuda.h)
    cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, device)
    cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, device)
    return major.value * 10 + minor.value, None


def has_torch(python):
    return subprocess.run([python, "-c", "import torch"], capture_output=True).returncode == 0


# ---- Running and checking ----

def tail(text, lines=6):
    return "\n".join(("    " + line) for line in text.strip().splitlines()[-lines:])


def finding_ids(analysis):
    """Every finding id of every report in `ampprof analyze --format json` output."""
    document = json.loads(analysis)
    if "schema_version" not in document or not isinstance(document.get("reports"), list):
        raise ValueError("not ampprof's JSON report (no schema_version and reports)")
    ids = set()
    for report in document["reports"]:
        for finding in report.get("findings", []):
            ids.add(finding["id"])
    return ids


def step_agreement(step_line, analysis):
    """The sample's own median step (CUDA events) beside ampprof's, and how far apart they are: the
    validation asks for 2%."""
    sample = re.search(r"median ([0-9.]+) ms", step_line or "")
    try:
        steps = json.loads(analysis)["reports"][0]["summary"].get("steps") or {}
    except (ValueError, KeyError, IndexError):
        steps = {}
    median_ns = steps.get("median_ns")
    if not sample or not median_ns:
        return f"; sample's {step_line}" if step_line else ""
    sample_ms, ampprof_ms = float(sample.group(1)), median_ns / 1e6
    apart = abs(ampprof_ms - sample_ms) / sample_ms * 100 if sample_ms > 0 else float("inf")
    return (f"; median step: sample {sample_ms:.4f} ms, ampprof {ampprof_ms:.4f} ms "
            f"({steps.get('count')} steps from {steps.get('source')}), {apart:.1f}% apart")


def check(run, found, sm):
    """Problems with `found` against the run's expectations (empty when it passes)."""
    problems = []
    for expectation in run["must"]:
        if isinstance(expectation, dict) and sm is not None and sm < expectation.get("min_sm", 0):
            continue
        ids = expectation_ids(expectation)
        if not any(finding in found for finding in ids):
            problems.append("missing " + (" or ".join(ids)))
    for finding in run["must_not"]:
        if finding in found:
            problems.append("unexpected " + finding)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", required=True)
    parser.add_argument("--findings-docs", help="docs/findings, to check the finding ids against")
    parser.add_argument("--check-answers", action="store_true", help="validate the answers file and stop")
    parser.add_argument("--ampprof")
    parser.add_argument("--cuda-samples", help="the build's samples/cuda directory")
    parser.add_argument("--pytorch-samples", help="samples/pytorch in the source tree")
    parser.add_argument("--python", default=sys.executable, help="the Python that runs the PyTorch samples")
    parser.add_argument("--work", help="where the traces go (emptied first)")
    parser.add_argument("--only", help="run only the runs whose name matches this regular expression")
    parser.add_argument("--cuda-library-path", help="directories the CUDA samples need (cuDNN, cuBLAS) where the "
                        "machine's loader does not look, prepended to LD_LIBRARY_PATH for them alone")
    parser.add_argument("--timeout", type=int, default=RUN_TIMEOUT_S, help="seconds each ampprof run may take")
    args = parser.parse_args()

    try:
        runs = load_answers(args.answers, args.findings_docs)
    except AnswersError as error:
        print(f"run_samples: {error}", file=sys.stderr)
        return 1
    if args.check_answers:
        print(f"run_samples: {args.answers}: {len(runs)} runs, well formed")
        return 0
    for flag in ("ampprof", "cuda_samples", "pytorch_samples", "work"):
        if getattr(args, flag) is None:
            parser.error(f"--{flag.replace('_', '-')} is required unless --check-answers")

    sm, why_not = probe_gpu()
    if sm is None:
        print(f"SKIP: {why_not}")
        return SKIP
    print(f"GPU 0: sm_{sm}")
    torch = has_torch(args.python)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    passed, failed, skipped = [], [], []
    ran = set()  # runs whose trace exists, for baselines
    for run in runs:
        name = run["name"]
        if args.only and not re.search(args.only, name):
            continue
        kind, program = run["sample"].split("/", 1)
        if kind == "cuda":
            command = [os.path.join(args.cuda_samples, program)]
            if not os.access(command[0], os.X_OK):
                skipped.append(name)
                print(f"SKIP {name}: {command[0]} not built (the CUDA samples need the CUDA backend)")
                continue
        else:
            if not torch:
                skipped.append(name)
                print(f"SKIP {name}: {args.python} cannot import torch")
                continue
            command = [args.python, os.path.join(args.pytorch_samples, program)]
        baseline = run.get("baseline")
        if baseline is not None and baseline not in ran:
            skipped.append(name)
            print(f"SKIP {name}: its baseline {baseline} did not run")
            continue

        trace_dir = os.path.join(args.work, name)
        environment = dict(os.environ)
        if kind == "cuda" and args.cuda_library_path:
            environment["LD_LIBRARY_PATH"] = args.cuda_library_path + os.pathsep + environment.get("LD_LIBRARY_PATH", "")
        try:
            traced = subprocess.run([args.ampprof, "run", "-o", trace_dir, "--"] + command + run["args"],
                                    capture_output=True, text=True, timeout=args.timeout, env=environment)
        except subprocess.TimeoutExpired:
            failed.append(name)
            print(f"FAIL {name}: ampprof run took more than {args.timeout} s", flush=True)
            continue
        if traced.returncode == AMPPROF_CANNOT_TRACE:
            print(f"SKIP: this ampprof cannot trace (ampprof run exited {AMPPROF_CANNOT_TRACE}):\n{tail(traced.stderr)}")
            return SKIP
        if traced.returncode == SAMPLE_SKIPPED:
            skipped.append(name)
            print(f"SKIP {name}: the sample skipped itself:\n{tail(traced.stderr)}")
            continue
        if traced.returncode != 0:
            failed.append(name)
            print(f"FAIL {name}: ampprof run exited {traced.returncode}:\n{tail(traced.stdout + traced.stderr)}")
            continue
        ran.add(name)
        step_line = next((line for line in traced.stdout.splitlines() if line.startswith("step time:")), None)

        analyze = [args.ampprof, "analyze", trace_dir, "--format", "json"]
        if baseline is not None:
            analyze[3:3] = ["--baseline", os.path.join(args.work, baseline)]
        analysed = subprocess.run(analyze, capture_output=True, text=True, timeout=args.timeout)
        if analysed.returncode != 0:
            failed.append(name)
            print(f"FAIL {name}: ampprof analyze exited {analysed.returncode}:\n{tail(analysed.stderr)}")
            continue
        try:
            found = finding_ids(analysed.stdout)
        except (ValueError, KeyError, TypeError) as error:
            failed.append(name)
            print(f"FAIL {name}: cannot read the JSON report: {error}")
            continue
        problems = check(run, found, sm)
        detail = f"findings: {', '.join(sorted(found)) or 'none'}" + step_agreement(step_line, analysed.stdout)
        if problems:
            failed.append(name)
            print(f"FAIL {name}: {'; '.join(problems)} ({detail})", flush=True)
        else:
            passed.append(name)
            print(f"PASS {name} ({detail})", flush=True)

    print(f"{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped")
    if failed:
        return 1
    return 0 if passed else SKIP


if __name__ == "__main__":
    sys.exit(main())
