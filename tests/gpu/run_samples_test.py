#!/usr/bin/env python3
"""Unit tests of tests/gpu/run_samples.py's checking, which the GPU test relies on and CI cannot run:
the answers file's validation, the JSON report's reading and the must / must_not verdicts."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_samples  # noqa: E402

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ANSWERS = os.path.join(SOURCE_DIR, "samples", "answers.json")
FINDINGS_DOCS = os.path.join(SOURCE_DIR, "docs", "findings")


def run(**fields):
    entry = {"name": "r", "sample": "cuda/tiny_mlp", "args": [], "must": [], "must_not": []}
    entry.update(fields)
    return entry


class AnswersFileTest(unittest.TestCase):
    def load(self, runs, findings_docs=FINDINGS_DOCS):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"schema_version": 1, "runs": runs}, f)
        try:
            return run_samples.load_answers(f.name, findings_docs)
        finally:
            os.unlink(f.name)

    def test_the_projects_answers_are_valid_and_cover_every_cuda_sample(self):
        runs = run_samples.load_answers(ANSWERS, FINDINGS_DOCS)
        samples = {entry["sample"] for entry in runs}
        for program in ("tiny_mlp", "recipe_mlp", "conv_layout", "grouped_conv", "misaligned_gemm", "double_step"):
            self.assertIn(f"cuda/{program}", samples)
        for entry in runs:
            self.assertTrue(entry["why"], entry["name"])

    def test_unknown_finding_id_is_rejected(self):
        with self.assertRaisesRegex(run_samples.AnswersError, "unknown finding id 'gpu.launch_bond'"):
            self.load([run(must=["gpu.launch_bond"])])

    def test_baseline_must_be_an_earlier_run(self):
        with self.assertRaisesRegex(run_samples.AnswersError, "baseline 'later' is not an earlier run"):
            self.load([run(name="first", baseline="later"), run(name="later")])

    def test_sample_path_is_checked(self):
        with self.assertRaisesRegex(run_samples.AnswersError, "sample must be"):
            self.load([run(sample="../bin/sh")])

    def test_missing_field_and_bad_version(self):
        with self.assertRaisesRegex(run_samples.AnswersError, "'must_not' must be a list"):
            self.load([{"name": "r", "sample": "cuda/x", "args": [], "must": []}])
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"schema_version": 2, "runs": [run()]}, f)
        try:
            with self.assertRaisesRegex(run_samples.AnswersError, "schema_version must be 1"):
                run_samples.load_answers(f.name, None)
        finally:
            os.unlink(f.name)


class VerdictTest(unittest.TestCase):
    def test_must_and_must_not(self):
        entry = run(must=["gpu.launch_bound"], must_not=["layout.nchw_nhwc"])
        self.assertEqual(run_samples.check(entry, {"gpu.launch_bound"}, 90), [])
        self.assertEqual(run_samples.check(entry, {"layout.nchw_nhwc"}, 90),
                         ["missing gpu.launch_bound", "unexpected layout.nchw_nhwc"])

    def test_any_of_needs_one(self):
        entry = run(must=[{"any_of": ["tensor_cores.misaligned", "tensor_cores.fp32_math"]}])
        self.assertEqual(run_samples.check(entry, {"tensor_cores.fp32_math"}, 90), [])
        self.assertEqual(run_samples.check(entry, set(), 90),
                         ["missing tensor_cores.misaligned or tensor_cores.fp32_math"])

    def test_min_sm_applies_only_from_that_architecture(self):
        entry = run(must=[{"id": "tensor_cores.fp32_math", "min_sm": 80}])
        self.assertEqual(run_samples.check(entry, set(), 75), [])
        self.assertEqual(run_samples.check(entry, set(), 90), ["missing tensor_cores.fp32_math"])


class JsonReportTest(unittest.TestCase):
    def test_ids_of_every_report(self):
        document = {"schema_version": 1, "reports": [
            {"findings": [{"id": "gpu.launch_bound", "severity": "warning"}]},
            {"findings": [{"id": "amp.scaler_overhead", "severity": "critical"}]},
            {"findings": []}]}
        self.assertEqual(run_samples.finding_ids(json.dumps(document)), {"gpu.launch_bound", "amp.scaler_overhead"})

    def test_text_report_is_refused(self):
        with self.assertRaises(ValueError):
            run_samples.finding_ids(json.dumps({"findings": []}))


if __name__ == "__main__":
    unittest.main()
