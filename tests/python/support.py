"""What the Python package's tests share: the executables under test and synthetic traces.

ctest sets AMPPROF_EXECUTABLE (the build's ampprof, which the package runs) and AMPPROF_SYNTH
(ampprof-synth, which writes the traces), and puts python/ first on PYTHONPATH.
"""

import os
import subprocess
import tempfile
import unittest


def synth_path() -> str:
    path = os.environ.get("AMPPROF_SYNTH")
    if not path:
        raise unittest.SkipTest("AMPPROF_SYNTH is not set: run these tests through ctest")
    return path


def write_trace(directory: str, name: str, precision: str = "amp", kernels: int = 3000) -> str:
    """A synthetic training loop on one H100 as PyTorch profiler JSON (ampprof-synth --format kineto)."""
    path = os.path.join(directory, name)
    subprocess.run([synth_path(), "--kernels", str(kernels), "--precision", precision, "--format", "kineto",
                    "--output", path, "--force"], check=True, capture_output=True)
    return path


def reference_json(*arguments: str) -> str:
    """What the command line itself prints, to compare the API with."""
    return subprocess.run([os.environ["AMPPROF_EXECUTABLE"], *arguments], check=True, capture_output=True,
                          text=True).stdout


class TraceTestCase(unittest.TestCase):
    """A temporary directory with an AMP trace and its FP32 baseline, made once per test class."""

    @classmethod
    def setUpClass(cls):
        cls._scratch = tempfile.TemporaryDirectory(prefix="ampprof-python-test-")
        cls.directory = cls._scratch.name
        cls.amp_trace = write_trace(cls.directory, "amp.pt.trace.json")
        cls.fp32_trace = write_trace(cls.directory, "fp32.pt.trace.json", precision="fp32")

    @classmethod
    def tearDownClass(cls):
        cls._scratch.cleanup()
