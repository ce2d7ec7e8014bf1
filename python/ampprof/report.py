"""The report of `ampprof.analyze`: JSON schema 2 (docs/formats/report-json.md) as Python objects.

Every value comes from the JSON that `ampprof analyze --format json` writes, unchanged: the objects
give it names and types, they compute nothing. The document itself is `Report.json`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

SCHEMA_VERSION = 2


@dataclass(frozen=True)
class Saving:
    """The step time a finding's fix would save, per measured step: a range when it rests on an
    estimated speed-up (low < high), exact when both ends are equal."""

    low_ns: int
    high_ns: int
    low_fraction: float
    high_fraction: float
    basis: str


@dataclass(frozen=True)
class Location:
    """One place in the trace a finding is about (the `location` object of the schema): a gap, a sync,
    a kernel, a stretch of communication or a step, in the trace's clock, clipped to the window the
    finding measured."""

    start_ns: int
    end_ns: int
    kind: str              # "launch_wait", "host_sync", "idle_gap", "kernel", "communication", "step", "autotuning"
    device: Optional[int]  # the GPU, or None when the place is not on one
    stream: Optional[int]  # the CUDA stream, or None (gaps and steps are the whole device's)
    label: str

    @property
    def duration_ns(self) -> int:
        return self.end_ns - self.start_ns

    @classmethod
    def from_json(cls, value: Dict[str, Any]) -> "Location":
        return cls(start_ns=value["start_ns"], end_ns=value["end_ns"], kind=value["kind"], device=value["device"],
                   stream=value["stream"], label=value["label"])


@dataclass(frozen=True)
class Finding:
    """One problem found (the `finding` object of the schema)."""

    id: str
    severity: str
    title: Optional[str]
    device_id: Optional[int]
    verdict: str
    verdict_values: Dict[str, Any]
    saving_ns: int
    saving_fraction: float
    saving: Saving
    evidence: List[Dict[str, Any]]
    examples: List[str]
    fix: Optional[str]
    fix_code: Optional[str]
    explain: str
    # Where it shows in the trace, the longest first (at most 16; empty for a finding about the run as
    # a whole), and how many more places it is about. Reports written before ampprof located findings
    # have neither key: no locations, none left out.
    locations: List[Location] = field(default_factory=list)
    locations_left_out: int = 0

    @classmethod
    def from_json(cls, value: Dict[str, Any]) -> "Finding":
        return cls(
            id=value["id"], severity=value["severity"], title=value["title"], device_id=value["device_id"],
            verdict=value["verdict"], verdict_values=value["verdict_values"], saving_ns=value["saving_ns"],
            saving_fraction=value["saving_fraction"], saving=Saving(**value["saving"]),
            evidence=value["evidence"], examples=value["examples"], fix=value["fix"],
            fix_code=value["fix_code"], explain=value["explain"],
            locations=[Location.from_json(location) for location in value.get("locations", [])],
            locations_left_out=value.get("locations_left_out", 0))


@dataclass(frozen=True)
class TraceReport:
    """The report of one trace file, i.e. one process (rank) of the run."""

    json: Dict[str, Any] = field(repr=False)

    @property
    def label(self) -> str:
        return self.json["label"]

    @property
    def rank(self) -> Optional[int]:
        return self.json["rank"]

    @property
    def inputs(self) -> List[Dict[str, str]]:
        return self.json["inputs"]

    @property
    def verdict(self) -> Dict[str, Any]:
        return self.json["verdict"]

    @property
    def findings(self) -> List[Finding]:
        return [Finding.from_json(f) for f in self.json["findings"]]

    @property
    def checks_run(self) -> List[str]:
        return self.json["checks_run"]

    @property
    def comparison(self) -> Optional[Dict[str, Any]]:
        """Only with a baseline."""
        return self.json.get("comparison")

    @property
    def workload_outcome(self) -> Optional[Dict[str, Any]]:
        """Only in reports of `ampprof run`/`compare`; never in `analyze`'s."""
        return self.json.get("workload_outcome")

    @property
    def summary(self) -> Dict[str, Any]:
        return self.json["summary"]

    @property
    def steps(self) -> Optional[Dict[str, Any]]:
        """The training loop (count, warm-up, source, median and p90, the first 32), or None when the
        trace marks no steps."""
        return self.summary["steps"]

    @property
    def devices(self) -> List[Dict[str, Any]]:
        return self.summary["devices"]

    @property
    def step_account(self) -> Dict[int, Dict[str, Any]]:
        """Each GPU's step account by device id (docs/step-account.md); GPUs without one are left out."""
        return {d["device_id"]: d["account"] for d in self.devices if d["account"] is not None}

    @property
    def kernels(self) -> List[Dict[str, Any]]:
        """The kernels with the most GPU time (at most 10, grouped by name)."""
        return self.summary["top_kernels"]

    @property
    def ops(self) -> Optional[Dict[str, Any]]:
        """The op table (the JSON's `ops`: the GPU it is about, how many kernels were linked to an op, and
        `rows`, one per op and input shapes), or None when the trace links no kernel to an op."""
        return self.json.get("ops")

    @property
    def data_quality(self) -> Dict[str, Any]:
        return self.json["data_quality"]


class Report:
    """What `ampprof analyze` concludes about a run: one `TraceReport` per trace (rank).

    `json` is the whole schema 2 document; `html` the self-contained HTML page of the same report,
    which Jupyter shows inline (`_repr_html_`).
    """

    def __init__(self, document: Dict[str, Any], html_page: str):
        version = document.get("schema_version")
        if version != SCHEMA_VERSION:
            raise ValueError(
                f"ampprof wrote a JSON report of schema version {version!r}; this package reads version "
                f"{SCHEMA_VERSION} (the package and the executable are from different versions)")
        self.json = document
        self.html = html_page

    @property
    def generator(self) -> str:
        return self.json["generator"]

    @property
    def reports(self) -> List[TraceReport]:
        return [TraceReport(r) for r in self.json["reports"]]

    @property
    def findings(self) -> List[Finding]:
        """Every trace's findings, in report order (each report's own order: most severe first)."""
        return [f for r in self.reports for f in r.findings]

    @property
    def verdict(self) -> str:
        """Each trace's one-line verdict, one line per trace."""
        return "\n".join(f"{r.label}: {r.verdict['text']}" for r in self.reports)

    def to_pandas(self) -> Dict[str, Any]:
        """The report as pandas DataFrames (needs pandas); see ampprof.tables.to_pandas."""
        from .tables import to_pandas

        return to_pandas(self)

    def _repr_html_(self) -> str:
        # The page is a whole document with its own styles and scripts; an iframe keeps them from
        # reaching (or being reached by) the notebook's own page.
        return (f'<iframe srcdoc="{html.escape(self.html, quote=True)}" '
                'style="width: 100%; height: 720px; border: none;" title="ampprof report"></iframe>')

    def __repr__(self) -> str:
        return f"<ampprof.Report: {len(self.json['reports'])} trace(s)\n{self.verdict}>"
