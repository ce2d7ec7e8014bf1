#include "analyzers/ranks/rank_row.h"

namespace ampprof::analyzers {

std::string_view MeasureKey(Measure measure) {
  switch (measure) {
    case Measure::kStep: return "step";
    case Measure::kCompute: return "compute";
    case Measure::kExposedCommunication: return "exposed_communication";
    case Measure::kCollectives: return "collectives";
    case Measure::kHostWait: return "host_wait";
    case Measure::kIdle: return "idle";
  }
  return "unknown";
}

std::string_view MeasureLabel(Measure measure) {
  switch (measure) {
    case Measure::kStep: return "median step";
    case Measure::kCompute: return "compute";
    case Measure::kExposedCommunication: return "exposed communication";
    case Measure::kCollectives: return "collective kernels";
    case Measure::kHostWait: return "idle waiting for the host";
    case Measure::kIdle: return "idle";
  }
  return "unknown";
}

RankRow MakeRankRow(const RankSummary& summary) {
  RankRow row;
  row.rank = summary.rank;
  row.label = summary.label;
  row.trace = summary.trace;
  row.has_steps = summary.per_step();
  row.steps = summary.steps;
  row.data_loss = summary.data_loss;
  if (!summary.findings.empty()) row.top_finding = summary.findings.front();
  if (!summary.has_account()) return row;
  const auto set = [&](Measure measure, base::DurationNs ns) { row.per_step[static_cast<size_t>(measure)] = ns; };
  set(Measure::kStep, summary.median_step_ns);
  set(Measure::kCompute, summary.PerStep(summary.compute_ns));
  set(Measure::kExposedCommunication, summary.PerStep(summary.exposed_communication_ns));
  set(Measure::kCollectives, summary.PerStep(summary.collective_ns()));
  set(Measure::kHostWait, summary.PerStep(summary.host_wait_ns()));
  set(Measure::kIdle, summary.PerStep(summary.idle.Sum()));
  for (GapCause cause : kAllGapCauses) row.idle[cause] = summary.PerStep(summary.idle[cause]);
  row.busy_fraction = base::ShareOf(summary.compute_ns + summary.exposed_communication_ns, summary.window_ns);
  return row;
}

}  // namespace ampprof::analyzers
