#include "analyzers/findings/sync_stall_analyzer.h"

#include <algorithm>
#include <map>
#include <string>

#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"
#include "src/model/queries.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// A twentieth of the step spent refilling a drained queue is visible in step time.
constexpr double kWarningShare = 0.05;
constexpr size_t kExamples = 3;

}  // namespace

DrainingSyncs CountDrainingSyncs(const AnalysisInput& input, const DeviceAccount& gpu) {
  const model::TraceModel& model = input.model;
  DrainingSyncs counted(gpu.window());
  const int64_t device_id = DeviceIdOf(input, gpu);
  for (const AccountedGap& gap : gpu.host_gaps) {
    if (gap.cause != GapCause::kHostSync || !gap.draining_call.valid()) continue;
    ++counted.syncs;
    // Which call drained the queue, and from which op (tensor.item() shows up as aten::item).
    const model::ApiCallRow call = gap.draining_call;
    const model::RangeRow op =
        model::InnermostRangeAt(model, model.api_calls().thread[call], model.api_calls().start[call]);
    std::string origin(model.Text(model.api_calls().name[call]));
    if (op.valid()) origin += " in " + std::string(model.RangeName(op));
    SyncOrigin& entry = counted.by_origin[origin];
    ++entry.count;
    entry.idle += gap.interval.duration();
    // The gap the sync left, named by it: the idle time is where the cost is.
    counted.locations.Add({gap.interval, LocationKind::kHostSync, device_id, -1, "after " + origin});
  }
  return counted;
}

std::vector<Finding> AnalyzeSyncStall(const AnalysisInput& input) {
  const StepAccount& account = input.account();
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : account.devices) {
    const DurationNs idle = gpu.total.idle[GapCause::kHostSync];
    const double share = gpu.Share(idle);
    if (share < kWarningShare) continue;
    DrainingSyncs counted = CountDrainingSyncs(input, gpu);
    const uint64_t syncs = counted.syncs;
    std::vector<std::pair<std::string, SyncOrigin>> origins(counted.by_origin.begin(), counted.by_origin.end());
    std::stable_sort(origins.begin(), origins.end(), [](const auto& a, const auto& b) { return a.second.idle > b.second.idle; });

    Finding finding;
    finding.id = "gpu.sync_stall";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingOf(gpu, idle, "the GPU's idle time after the syncs, if the host never waited for the GPU "
                                         "inside the step");
    finding.severity = SeverityForSaving(finding.saving.fraction, kWarningShare, kCriticalSaving);
    finding.verdict = Statement("{syncs:host synchronisation} drained GPU {device}'s queue; refilling it left the GPU "
                                "idle {share} of the time",
                                {Count("syncs", syncs), Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Fraction("share", share)});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    // Per step only where there are steps: over a window without them the count is the whole figure.
    finding.evidence.push_back(
        {"draining syncs",
         account.basis == AccountBasis::kMeasuredSteps
             ? Statement("{syncs}, {per_step} per step",
                         {Count("syncs", syncs),
                          Number("per_step", static_cast<double>(syncs) / static_cast<double>(gpu.steps()))})
             : Statement("{syncs} over the analysed window", {Count("syncs", syncs)})});
    finding.evidence.push_back(
        {"idle after them", Statement("{idle} in {gaps:gap} ({share}), {per_step} " + std::string(PerStepWords(account)),
                                      {Duration("idle", idle), Count("gaps", gpu.gaps[GapCause::kHostSync]),
                                       Fraction("share", share), Duration("per_step", finding.saving.ns)})});
    for (size_t i = 0; i < origins.size() && i < kExamples; ++i) {
      finding.examples.push_back(origins[i].first + ": " + std::to_string(origins[i].second.count) + " times");
    }
    std::move(counted.locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
