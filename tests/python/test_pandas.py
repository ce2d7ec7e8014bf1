"""Report.to_pandas against the real pandas (Debian's python3-pandas; .ci/setup installs it)."""

import unittest

import ampprof
from support import TraceTestCase

try:
    import pandas
except ImportError:
    pandas = None


@unittest.skipIf(pandas is None, "pandas is not installed for this Python (apt install python3-pandas)")
class ToPandasTest(TraceTestCase):
    def test_tables_hold_the_reports_rows(self):
        report = ampprof.analyze(self.amp_trace)
        tables = report.to_pandas()
        self.assertEqual(set(tables), {"findings", "step_account", "steps", "kernels", "devices", "ops"})
        for table in tables.values():
            self.assertIsInstance(table, pandas.DataFrame)
        (trace,) = report.reports

        findings = tables["findings"]
        self.assertEqual(list(findings["id"]), [f.id for f in trace.findings])
        self.assertEqual(list(findings["saving_high_ns"]), [f.saving.high_ns for f in trace.findings])
        self.assertTrue((findings["report"] == trace.label).all())

        (account,) = trace.step_account.values()
        rows = tables["step_account"]
        self.assertEqual(int(rows["total_ns"].sum()), account["window"]["duration_ns"])
        self.assertAlmostEqual(float(rows["share"].sum()), 1.0, places=6)

        self.assertEqual(len(tables["steps"]), len(trace.steps["first"]))
        self.assertEqual(list(tables["kernels"]["name"]), [k["name"] for k in trace.kernels])
        self.assertEqual(tables["devices"].loc[0, "busy_fraction"], account["busy_fraction"])
        self.assertEqual(list(tables["ops"]["name"]), [row["name"] for row in trace.ops["rows"]])

    def test_the_comparison_table_comes_with_a_baseline(self):
        tables = ampprof.analyze(self.amp_trace, baseline=self.fp32_trace).to_pandas()
        comparison = tables["comparison"]
        self.assertGreater(len(comparison), 0)
        self.assertTrue(((comparison["candidate_ns"] - comparison["baseline_ns"]) == comparison["change_ns"]).all())


if __name__ == "__main__":
    unittest.main()
