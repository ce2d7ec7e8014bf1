"""ampprof.analyze: the report object is the command line's JSON report, with names and types."""

import json
import os
import unittest

import ampprof
from support import TraceTestCase, reference_json


class AnalyzeTest(TraceTestCase):
    def test_report_is_the_command_lines_json(self):
        report = ampprof.analyze(self.amp_trace)
        expected = json.loads(reference_json("analyze", self.amp_trace, "--format", "json"))
        self.assertEqual(report.json, expected)
        self.assertEqual(report.json["schema_version"], 2)
        self.assertTrue(report.generator.startswith("ampprof "))

    def test_findings_carry_their_savings(self):
        report = ampprof.analyze([self.amp_trace])
        (trace,) = report.reports
        self.assertGreater(len(trace.findings), 0, "the synthetic AMP loop has findings")
        for finding, raw in zip(trace.findings, trace.json["findings"]):
            self.assertEqual(finding.id, raw["id"])
            self.assertEqual(finding.saving.high_ns, raw["saving"]["high_ns"])
            self.assertEqual(finding.saving.low_fraction, raw["saving"]["low_fraction"])
            self.assertEqual(finding.saving_ns, raw["saving_ns"])
            self.assertLessEqual(finding.saving.low_ns, finding.saving.high_ns)
            self.assertEqual(finding.explain, f"ampprof explain {finding.id}")
        self.assertEqual([f.id for f in report.findings], [f.id for f in trace.findings])

    def test_findings_carry_their_locations(self):
        (trace,) = ampprof.analyze(self.amp_trace).reports
        located = [f for f in trace.findings if f.locations]
        self.assertGreater(len(located), 0, "the synthetic AMP loop's findings point at gaps or kernels")
        for finding, raw in zip(trace.findings, trace.json["findings"]):
            self.assertEqual(len(finding.locations), len(raw["locations"]))
            self.assertEqual(finding.locations_left_out, raw["locations_left_out"])
            self.assertLessEqual(len(finding.locations), 16)
            for location, raw_location in zip(finding.locations, raw["locations"]):
                self.assertIsInstance(location, ampprof.Location)
                self.assertEqual((location.start_ns, location.end_ns, location.kind, location.device,
                                  location.stream, location.label),
                                 (raw_location["start_ns"], raw_location["end_ns"], raw_location["kind"],
                                  raw_location["device"], raw_location["stream"], raw_location["label"]))
            # The longest first.
            durations = [location.duration_ns for location in finding.locations]
            self.assertEqual(durations, sorted(durations, reverse=True))

    def test_steps_account_and_kernels(self):
        (trace,) = ampprof.analyze(self.amp_trace).reports
        self.assertIsNotNone(trace.steps)
        self.assertGreater(trace.steps["count"], 0)
        self.assertEqual(len(trace.step_account), 1, "one GPU, one account")
        (account,) = trace.step_account.values()
        # Every ns of the window is in one bucket (docs/step-account.md).
        self.assertEqual(sum(row["total_ns"] for row in account["rows"]), account["window"]["duration_ns"])
        self.assertGreater(len(trace.kernels), 0)
        # The synthetic loop has a framework-op range around every launch: most kernels link to an op.
        self.assertGreater(trace.ops["attributed_kernels"], trace.ops["kernels"] // 2)
        self.assertEqual(sum(row["kernels"] for row in trace.ops["rows"]), trace.ops["attributed_kernels"])
        self.assertIsNone(trace.comparison)

    def test_baseline_adds_the_comparison(self):
        (trace,) = ampprof.analyze(self.amp_trace, baseline=self.fp32_trace).reports
        self.assertIsNotNone(trace.comparison)
        self.assertEqual(trace.comparison["pair"], "fp32_vs_mixed")
        self.assertGreater(len(trace.comparison["rows"]), 0)

    def test_a_directory_is_its_traces(self):
        # The scratch directory holds the AMP and the FP32 trace: two processes, two reports.
        self.assertEqual(len(ampprof.analyze(self.directory).reports), 2)

    def test_unreadable_trace_raises_with_ampprofs_reason(self):
        bad = os.path.join(self.directory, "broken.json")
        with open(bad, "w", encoding="utf-8") as f:
            f.write("{ this is not JSON")
        try:
            with self.assertRaises(ampprof.AmpprofError) as raised:
                ampprof.analyze(bad)
        finally:
            os.remove(bad)
        self.assertIn("broken.json", str(raised.exception))
        self.assertEqual(raised.exception.exit_status, 2)

    def test_no_trace_or_an_option_like_name_is_refused(self):
        with self.assertRaises(ValueError):
            ampprof.analyze([])
        with self.assertRaises(ValueError):
            ampprof.analyze("--help")


class FindingFromJsonTest(unittest.TestCase):
    """The reading of one finding object, without the executable."""

    FINDING = {
        "id": "gpu.sync_stall", "severity": "warning", "title": "t", "device_id": 0, "verdict": "v",
        "verdict_values": {}, "saving_ns": 5, "saving_fraction": 0.1,
        "saving": {"low_ns": 5, "high_ns": 5, "low_fraction": 0.1, "high_fraction": 0.1, "basis": "b"},
        "evidence": [], "examples": [], "fix": None, "fix_code": None, "explain": "ampprof explain gpu.sync_stall",
    }

    def test_reads_the_locations_and_the_count_left_out(self):
        value = dict(self.FINDING, locations=[
            {"start_ns": 1000, "end_ns": 3500, "kind": "host_sync", "device": 0, "stream": None,
             "label": "after cudaStreamSynchronize"},
            {"start_ns": 9000, "end_ns": 9700, "kind": "kernel", "device": 0, "stream": 7, "label": "sgemm"},
        ], locations_left_out=12)
        finding = ampprof.Finding.from_json(value)
        self.assertEqual(finding.locations, [
            ampprof.Location(start_ns=1000, end_ns=3500, kind="host_sync", device=0, stream=None,
                             label="after cudaStreamSynchronize"),
            ampprof.Location(start_ns=9000, end_ns=9700, kind="kernel", device=0, stream=7, label="sgemm"),
        ])
        self.assertEqual(finding.locations[0].duration_ns, 2500)
        self.assertEqual(finding.locations_left_out, 12)

    def test_a_report_without_locations_has_none(self):
        finding = ampprof.Finding.from_json(self.FINDING)
        self.assertEqual(finding.locations, [])
        self.assertEqual(finding.locations_left_out, 0)


class ClassifyTest(unittest.TestCase):
    def test_classifies_like_the_command_line(self):
        names = ["volta_sgemm_128x64_nn", "-starts-with-a-dash", "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                 "void gemv2N_kernel"]
        classes = ampprof.classify(names)
        self.assertEqual([c.name for c in classes], names)
        self.assertEqual((classes[0].category, classes[0].unit, classes[0].dtype), ("gemm", "cuda_cores", "fp32"))
        self.assertEqual(classes[0].rule, "cublas.simt_gemm")
        self.assertIsNone(classes[1].rule, "no rule knows a made-up name")
        self.assertEqual(classes[2].category, "communication")
        self.assertFalse(classes[0].matrix_vector)
        self.assertTrue(classes[3].matrix_vector, "cuBLAS's GEMV is a matrix-vector product")
        self.assertEqual(ampprof.classify("volta_sgemm_128x64_nn"), classes[:1])

    def test_refuses_what_is_not_one_name(self):
        with self.assertRaises(ValueError):
            ampprof.classify(["two\nnames"])
        self.assertEqual(ampprof.classify([]), [])


if __name__ == "__main__":
    unittest.main()
