"""ampprof for Python: diagnose mixed-precision (AMP) training from PyTorch profiler, Nsight Systems
and ampprof traces, in scripts and notebooks.

    import ampprof
    report = ampprof.analyze("traces/")          # a Report: findings, step account, steps, kernels
    report.findings[0].saving.high_fraction      # the share of the step its fix would save
    report.to_pandas()["step_account"]           # tables for pandas
    report                                       # in Jupyter: the HTML report inline

    ampprof.classify(["volta_sgemm_128x64_nn"])  # what ampprof concludes from kernel names

    # torch.profiler: write the trace and print the diagnosis when profiling ends
    torch.profiler.profile(..., on_trace_ready=ampprof.torch.on_trace_ready("traces/"))

The API runs the bundled `ampprof` executable (docs/python.md says why); AMPPROF_EXECUTABLE overrides it.
"""

from ._executable import AmpprofError
from .analysis import KernelClass, analyze, classify
from .report import Finding, Location, Report, Saving, TraceReport

__version__ = "0.1.0"

__all__ = ["AmpprofError", "Finding", "KernelClass", "Location", "Report", "Saving", "TraceReport", "analyze",
           "classify", "torch"]


def __getattr__(name):
    # `ampprof.torch` without importing it (or torch) on `import ampprof`.
    if name == "torch":
        import importlib

        return importlib.import_module(".torch", __name__)
    raise AttributeError(f"module 'ampprof' has no attribute {name!r}")
