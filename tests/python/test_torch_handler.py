"""ampprof.torch.on_trace_ready with a stand-in for torch.profiler.profile.

The stand-in does what the real profiler does with on_trace_ready: when profiling ends it calls the
handler with itself, and the handler calls its export_chrome_trace(path). Here export_chrome_trace
writes a synthetic PyTorch profiler trace of an AMP loop. Where torch is not installed, the stand-in is
installed as the module `torch`, so the test reads like a user's script.
"""

import contextlib
import glob
import gzip
import importlib.util
import io
import os
import re
import shutil
import sys
import tempfile
import types
import unittest

import ampprof
from support import TraceTestCase


class StandInProfile:
    """torch.profiler.profile's contract with on_trace_ready, and nothing else."""

    def __init__(self, source_trace, on_trace_ready=None, **_):
        self.source_trace = source_trace
        self.on_trace_ready = on_trace_ready

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)
        return False

    def export_chrome_trace(self, path):
        # As torch does: gzip-compressed when the name ends in .gz.
        opener = gzip.open if path.endswith(".gz") else open
        with open(self.source_trace, "rb") as source, opener(path, "wb") as target:
            shutil.copyfileobj(source, target)


def fake_torch_module():
    torch = types.ModuleType("torch")
    torch.profiler = types.ModuleType("torch.profiler")
    torch.profiler.profile = StandInProfile
    return torch


class TraceHandlerTest(TraceTestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="ampprof-handler-")
        self.addCleanup(shutil.rmtree, self.out)
        self.real_torch = importlib.util.find_spec("torch") is not None
        if not self.real_torch:
            sys.modules["torch"] = fake_torch_module()
            sys.modules["torch.profiler"] = sys.modules["torch"].profiler
            self.addCleanup(sys.modules.pop, "torch.profiler")
            self.addCleanup(sys.modules.pop, "torch")

    def test_writes_the_trace_and_prints_the_diagnosis(self):
        printed = io.StringIO()
        handler = ampprof.torch.on_trace_ready(os.path.join(self.out, "traces"), output=printed)
        with StandInProfile(self.amp_trace, on_trace_ready=handler):
            pass  # the training steps

        (written,) = glob.glob(os.path.join(self.out, "traces", "*"))
        # tensorboard_trace_handler's name: HOST_PID.TIME_NS.pt.trace.json
        self.assertRegex(os.path.basename(written), rf"^.+_{os.getpid()}\.\d+\.pt\.trace\.json$")
        text = printed.getvalue()
        self.assertTrue(text.startswith(f"ampprof: diagnosis of {written}\n"))
        report = ampprof.analyze(written)
        self.assertIn(report.reports[0].verdict["text"], text)
        for finding in report.findings:
            self.assertIn(finding.id, text)

    def test_as_a_script_with_the_module_torch(self):
        if self.real_torch:
            self.skipTest("torch is installed: the stand-in is not installed as the module torch")
        import torch

        handler = ampprof.torch.on_trace_ready(self.out, worker_name="worker0", use_gzip=True)
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            with torch.profiler.profile(self.amp_trace, on_trace_ready=handler):
                pass
        (written,) = glob.glob(os.path.join(self.out, "*"))
        self.assertRegex(os.path.basename(written), r"^worker0\.\d+\.pt\.trace\.json\.gz$")
        self.assertIn("ampprof: diagnosis of", stdout.getvalue())

    def test_an_unreadable_trace_is_one_line_and_training_goes_on(self):
        broken = os.path.join(self.out, "broken.json")
        with open(broken, "w", encoding="utf-8") as f:
            f.write("[ not a trace")
        printed, errors = io.StringIO(), io.StringIO()
        handler = ampprof.torch.on_trace_ready(os.path.join(self.out, "traces"), output=printed)
        with contextlib.redirect_stderr(errors):
            with StandInProfile(broken, on_trace_ready=handler):
                pass
        self.assertEqual(printed.getvalue(), "")
        lines = errors.getvalue().splitlines()
        self.assertEqual(len(lines), 1)
        self.assertTrue(re.match(r"^ampprof: no diagnosis of .*\.pt\.trace\.json: ampprof analyze: ", lines[0]))


if __name__ == "__main__":
    unittest.main()
