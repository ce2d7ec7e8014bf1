"""ampprof.distributed on a LocalCluster: the map on Dask workers and the reduce give the same cross-rank
report as `ampprof analyze` on the traces directly. Skipped (exit 77) without Dask's distributed.

    python3 tests/python/distributed_test.py AMPPROF AMPPROF_SYNTH   (python/ on PYTHONPATH)
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77


def main() -> int:
    ampprof, synth = sys.argv[1], sys.argv[2]
    try:
        import distributed  # noqa: F401  (Debian: python3-distributed)
    except ImportError:
        print("skipped: dask.distributed is not installed")
        return SKIP
    from ampprof.distributed import AmpprofError, analyze_ranks

    with tempfile.TemporaryDirectory() as work:
        job = Path(work, "job")
        subprocess.run([synth, "--ranks", "4", "--straggler", "2", "--straggler-slowdown", "3", "--kernels", "3000",
                        "-o", str(job)], check=True)
        traces = sorted(str(p.resolve()) for p in job.iterdir())
        assert len(traces) == 4, traces

        on_dask = analyze_ranks(traces, ampprof=ampprof, workers=2, summaries_dir=str(Path(work, "summaries")),
                                report_args=["--format", "json"])
        direct = subprocess.run([ampprof, "analyze", *traces, "--format", "json"], check=True, capture_output=True,
                                text=True).stdout
        dask_job, direct_job = json.loads(on_dask)["job"], json.loads(direct)["job"]
        assert dask_job == direct_job, "the reduce of the Dask map differs from direct analysis"
        assert [s["rank"] for s in dask_job["stragglers"]["ranks"]] == [2], dask_job["stragglers"]
        assert len(list(Path(work, "summaries").iterdir())) == 4

        # A map task that fails is one error naming the trace, not a hang or a traceback from a worker.
        bad = Path(work, "notes.ampt")
        bad.write_text("not a trace\n")
        try:
            analyze_ranks([*traces, str(bad)], ampprof=ampprof, workers=2)
        except AmpprofError as error:
            assert "notes.ampt" in str(error), error
        else:
            raise AssertionError("a bad trace was not reported")
    print("ok: the Dask map and the local reduce give the direct analysis' cross-rank report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
