"""Run ampprof's per-rank map on Dask, and the reduce to one cross-rank report locally.

The map is ``ampprof analyze TRACE --summary-only -o SUMMARY`` for each rank's trace (a few KiB of JSON
per rank, docs/formats/rank-summary.md); the reduce is ``ampprof analyze SUMMARY...``, which builds the
same cross-rank report as analysing the traces directly (docs/ranks.md). Like the Nsight Systems
recipes' ``--mode dask-futures``, the map runs on Dask futures: on the scheduler Dask's own
configuration names (``DASK_SCHEDULER_ADDRESS`` or ``scheduler-address`` in its config files), else on
a LocalCluster started for the run.

    from ampprof.distributed import analyze_ranks
    report = analyze_ranks(["traces/rank-0.ampt", "traces/rank-1.ampt"], ampprof="/usr/local/bin/ampprof")

or, from a shell:

    python3 -m ampprof.distributed traces/*.ampt --summaries summaries/ -- --format md

Every worker needs the ``ampprof`` executable and read access to the traces (a shared file system, as
for a Slurm job array), and must be able to import this module (``ampprof.distributed``: the package
installed, or its ``python/`` folder on PYTHONPATH). It imports nothing else of the ampprof package.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterable, Optional, Sequence


class AmpprofError(RuntimeError):
    """ampprof failed on one input: its one-line message, with the command."""


def _run(command: Sequence[str]) -> subprocess.CompletedProcess:
    result = subprocess.run(list(command), capture_output=True, text=True, check=False)
    if result.returncode not in (0, 4):  # 4: the report was written and --fail-on found findings
        message = result.stderr.strip() or f"exit status {result.returncode}"
        raise AmpprofError(f"{' '.join(command)}: {message}")
    return result


def summarize_rank(ampprof: str, trace: str, summary: str, extra_args: Sequence[str] = ()) -> str:
    """The map task: one trace (or several) to one rank summary file. Returns the summary's path."""
    _run([ampprof, "analyze", trace, "--summary-only", "-j", "1", "-o", summary, *extra_args])
    return summary


def reduce_summaries(ampprof: str, summaries: Sequence[str], report_args: Sequence[str] = ()) -> str:
    """The reduce: summaries to the cross-rank report, returned as text (of --format's format)."""
    return _run([ampprof, "analyze", *summaries, *report_args]).stdout


def _client(scheduler: Optional[str], workers: Optional[int]):
    """A Dask client: the scheduler given, else the one Dask's configuration names, else a LocalCluster."""
    import dask
    from distributed import Client, LocalCluster

    address = scheduler or dask.config.get("scheduler-address", default=None)
    if address:
        return Client(address), None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster), cluster


def _find_ampprof(ampprof: Optional[str]) -> str:
    found = ampprof or os.environ.get("AMPPROF") or shutil.which("ampprof")
    if not found:
        raise AmpprofError("no ampprof executable: pass ampprof=PATH, set AMPPROF, or put ampprof on PATH")
    return str(Path(found).resolve())


def analyze_ranks(
    traces: Iterable[str],
    *,
    ampprof: Optional[str] = None,
    summaries_dir: Optional[str] = None,
    report_args: Sequence[str] = (),
    map_args: Sequence[str] = (),
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
) -> str:
    """Maps every trace to its rank summary on Dask, then reduces them here; returns the report.

    summaries_dir keeps the summaries (on a file system the workers share); by default they go to a
    temporary directory removed afterwards, which then must be shared with the workers too (it is,
    on a LocalCluster). report_args are passed to the reduce (``--format json``, ``-o FILE``);
    map_args to each map task (``--kernel-rules FILE``).
    """
    from distributed import as_completed

    binary = _find_ampprof(ampprof)
    traces = [str(Path(t).resolve()) for t in traces]
    if not traces:
        raise AmpprofError("no traces given")
    temporary = None
    if summaries_dir is None:
        temporary = tempfile.TemporaryDirectory(prefix="ampprof-summaries-")
        summaries_dir = temporary.name
    Path(summaries_dir).mkdir(parents=True, exist_ok=True)
    client, cluster = _client(scheduler, workers)
    try:
        futures = []
        for index, trace in enumerate(traces):
            summary = str(Path(summaries_dir, f"{index:06d}-{Path(trace).name}.summary.json").resolve())
            # pure=False: the same file given twice is two tasks, so the reduce can name the duplicate.
            futures.append(client.submit(summarize_rank, binary, trace, summary, list(map_args), pure=False))
        written = [future.result() for future in as_completed(futures)]
        return reduce_summaries(binary, sorted(written), report_args)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        if temporary is not None:
            temporary.cleanup()


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description="ampprof's cross-rank report with the per-rank map on Dask (a LocalCluster by default, "
        "or the scheduler Dask's configuration names)",
        epilog="Arguments after -- go to the reduce, e.g. -- --format json -o report.json",
    )
    parser.add_argument("traces", nargs="+", help="the ranks' trace files")
    parser.add_argument("--ampprof", help="the ampprof executable (default: $AMPPROF, else ampprof on PATH)")
    parser.add_argument("--summaries", help="keep the rank summaries in this directory (shared with the workers)")
    parser.add_argument("--scheduler", help="a Dask scheduler address (default: Dask's configuration, else local)")
    parser.add_argument("--workers", type=int, help="LocalCluster workers (default: Dask's choice)")
    argv = list(sys.argv[1:] if argv is None else argv)
    report_args: list = []
    if "--" in argv:
        split = argv.index("--")
        argv, report_args = argv[:split], argv[split + 1 :]
    args = parser.parse_args(argv)
    try:
        sys.stdout.write(
            analyze_ranks(
                args.traces,
                ampprof=args.ampprof,
                summaries_dir=args.summaries,
                report_args=report_args,
                scheduler=args.scheduler,
                workers=args.workers,
            )
        )
    except AmpprofError as error:
        print(f"ampprof.distributed: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
