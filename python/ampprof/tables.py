"""`Report.to_pandas()`: the report's lists as pandas DataFrames, one row per item, for notebooks.

Every table has a `report` column first (the trace's label: "rank 3 of 8", "pid 4242"), so the ranks of
a distributed run stack in one table. Values are the JSON's, unconverted: times in integer ns,
shares as fractions in [0, 1].
"""

from __future__ import annotations

from typing import Any, Dict, List

FINDING_COLUMNS = ["report", "id", "severity", "title", "device_id", "verdict", "saving_low_ns",
                   "saving_high_ns", "saving_low_fraction", "saving_high_fraction", "saving_basis", "fix",
                   "explain"]
STEP_ACCOUNT_COLUMNS = ["report", "device_id", "key", "label", "total_ns", "per_step_ns", "share", "kernels"]
STEP_COLUMNS = ["report", "index", "start_ns", "duration_ns", "warmup"]
KERNEL_COLUMNS = ["report", "name", "kind", "launches", "total_ns", "share_of_kernel_time"]
DEVICE_COLUMNS = ["report", "pid", "device_id", "name", "kernels", "busy_fraction", "median_step_ns",
                  "peak_allocated_bytes"]
COMPARISON_COLUMNS = ["report", "label", "baseline_ns", "candidate_ns", "change_ns", "explained_by"]


def _pandas():
    try:
        import pandas
    except ImportError as error:
        raise ImportError("Report.to_pandas() needs pandas: pip install pandas (or apt install "
                          "python3-pandas)") from error
    return pandas


def _rows(report) -> Dict[str, List[Dict[str, Any]]]:
    rows: Dict[str, List[Dict[str, Any]]] = {name: [] for name in
                                             ("findings", "step_account", "steps", "kernels", "devices")}
    for trace in report.reports:
        label = trace.label
        for f in trace.json["findings"]:
            saving = f["saving"]
            rows["findings"].append({
                "report": label, "id": f["id"], "severity": f["severity"], "title": f["title"],
                "device_id": f["device_id"], "verdict": f["verdict"], "saving_low_ns": saving["low_ns"],
                "saving_high_ns": saving["high_ns"], "saving_low_fraction": saving["low_fraction"],
                "saving_high_fraction": saving["high_fraction"], "saving_basis": saving["basis"],
                "fix": f["fix"], "explain": f["explain"]})
        for device in trace.devices:
            account = device["account"]
            rows["devices"].append({
                "report": label, "pid": device["pid"], "device_id": device["device_id"], "name": device["name"],
                "kernels": device["kernels"], "busy_fraction": account["busy_fraction"] if account else None,
                "median_step_ns": account["median_step_ns"] if account else None,
                "peak_allocated_bytes": device["peak_allocated_bytes"]})
            for row in (account["rows"] if account else []):
                rows["step_account"].append({"report": label, "device_id": device["device_id"], **row})
        for step in (trace.steps["first"] if trace.steps else []):
            rows["steps"].append({"report": label, **step})
        for kernel in trace.kernels:
            rows["kernels"].append({"report": label, **kernel})
        if trace.comparison is not None:
            rows.setdefault("comparison", []).extend(
                {"report": label, **row} for row in trace.comparison["rows"])
        if trace.ops is not None:
            rows.setdefault("ops", []).extend(
                {"report": label, "device_id": trace.ops["device_id"], **op} for op in trace.ops["rows"])
    return rows


def to_pandas(report) -> Dict[str, Any]:
    """{"findings", "step_account", "steps", "kernels", "devices"} -> DataFrame, plus "comparison" with a
    baseline and "ops" when the report has ops. A table with no rows still has its columns."""
    pandas = _pandas()
    columns = {"findings": FINDING_COLUMNS, "step_account": STEP_ACCOUNT_COLUMNS, "steps": STEP_COLUMNS,
               "kernels": KERNEL_COLUMNS, "devices": DEVICE_COLUMNS, "comparison": COMPARISON_COLUMNS}
    tables = {}
    for name, rows in _rows(report).items():
        tables[name] = pandas.DataFrame(rows, columns=columns.get(name))
    return tables
