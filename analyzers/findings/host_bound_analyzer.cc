#include "analyzers/findings/host_bound_analyzer.h"

#include <string>

#include "analyzers/facts/host_activity.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// A tenth of the step with the GPU idle while the host does other work is a real, fixable cost (input
// pipelines are the usual cause, and the fix is configuration, not code).
constexpr double kWarningShare = 0.10;
// Fewer kernels than this are a probe, a test or a benchmark of one op, not a training loop whose input
// pipeline could hold it back (the GPU of such a trace idles nearly all the time whatever the host does).
constexpr uint64_t kMinKernels = 50;
// The parts of the host's time that the evidence names.
constexpr size_t kPartsShown = 4;
// A part that takes at least this share of the host-busy time gets its fix stated.
constexpr double kMainPartShare = 0.25;

struct Fix {
  std::string sentence;
  std::string code;
};

Fix FixFor(HostActivityKind kind) {
  switch (kind) {
    case HostActivityKind::kDataLoading:
      return {"Load and prepare batches in worker processes, in pinned memory, kept alive across epochs.",
              "loader = torch.utils.data.DataLoader(dataset, batch_size=..., num_workers=8,\n"
              "                                     pin_memory=True, persistent_workers=True, prefetch_factor=4)"};
    case HostActivityKind::kPageableCopy:
      return {"Copy from pinned memory without blocking the host.",
              "loader = torch.utils.data.DataLoader(dataset, ..., pin_memory=True)\n"
              "x = x.to(\"cuda\", non_blocking=True)"};
    case HostActivityKind::kOptimizer:
      return {"Use the optimizer's fused or multi-tensor implementation, which launches a few kernels instead of a "
              "few per parameter.",
              "optimizer = torch.optim.AdamW(model.parameters(), lr=..., fused=True)  # or foreach=True"};
    case HostActivityKind::kEvaluation:
      return {"Evaluate every N steps, or in a separate process, rather than inside the training step.", ""};
    case HostActivityKind::kCheckpoint:
      return {"Checkpoint less often, or asynchronously (torch.distributed.checkpoint.async_save).", ""};
    case HostActivityKind::kOtherRange:
    case HostActivityKind::kUnrecorded:
      return {"Find the host work between the kernels with a Python profiler, and move it out of the step or into "
              "DataLoader workers.",
              "py-spy record -o host.svg -- python train.py   # or torch.profiler with with_stack=True"};
  }
  return {};
}

}  // namespace

std::vector<Finding> AnalyzeHostBound(const AnalysisInput& input) {
  const StepAccount& account = input.account();
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : account.devices) {
    const DurationNs idle = gpu.total.idle[GapCause::kHostOther];
    const double share = gpu.Share(idle);
    if (gpu.kernels < kMinKernels || share < kWarningShare) continue;
    std::vector<AccountedGap> host_busy;
    for (const AccountedGap& gap : gpu.host_gaps) {
      if (gap.cause == GapCause::kHostOther) host_busy.push_back(gap);
    }
    const HostActivity activity = DescribeHostGaps(input, host_busy);

    Finding finding;
    finding.id = "gpu.host_bound";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingOf(gpu, idle, "the GPU's idle time while the host was busy with other work, if that work "
                                         "overlapped the GPU's");
    finding.severity = SeverityForSaving(finding.saving.fraction, kWarningShare, kCriticalSaving);
    const bool per_step = account.basis == AccountBasis::kMeasuredSteps;
    const HostActivityPart* main = activity.parts.empty() ? nullptr : &activity.parts.front();
    std::string verdict = per_step ? "GPU {device} is idle {share} of the step while the host does other work than "
                                     "launching ({idle} per step)"
                                   : "GPU {device} is idle {share} of the time while the host does other work than "
                                     "launching ({idle})";
    std::vector<Quantity> values = {Count("device", static_cast<uint64_t>(finding.device_id)), Fraction("share", share),
                                    Duration("idle", finding.saving.ns)};
    if (main != nullptr && main->kind != HostActivityKind::kUnrecorded && main->kind != HostActivityKind::kOtherRange) {
      verdict += ", mostly " + std::string(HostActivityKindName(main->kind));
    }
    finding.verdict = Statement(std::move(verdict), std::move(values));
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back(
        {"idle, host busy (gaps of 1 ms or more)",
         Statement("{idle} in {gaps:gap}, {per_step} " + std::string(PerStepWords(account)),
                   {Duration("idle", idle), Count("gaps", gpu.gaps[GapCause::kHostOther]),
                    Duration("per_step", finding.saving.ns)})});
    for (size_t i = 0; i < activity.parts.size() && i < kPartsShown; ++i) {
      const HostActivityPart& part = activity.parts[i];
      finding.evidence.push_back(
          {"host meanwhile: " + part.label,
           Statement("{time} ({share} of the host-busy time; in {gaps:gap})",
                     {Duration("time", part.ns), Fraction("share", base::ShareOf(part.ns, activity.total_ns)),
                      Count("gaps", part.gaps)})});
    }
    if (per_step) {
      // The steps that lost the most, so that a user can find them on a timeline.
      std::vector<std::pair<DurationNs, size_t>> by_step;
      for (size_t step = 0; step < gpu.per_step.size(); ++step) {
        by_step.emplace_back(gpu.per_step[step].idle[GapCause::kHostOther], step);
      }
      std::stable_sort(by_step.begin(), by_step.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      const DurationNs most = by_step.empty() ? 0 : by_step.front().first;
      finding.evidence.push_back(
          {"worst measured step", Statement("{idle} of {step} idle with the host busy",
                                            {Duration("idle", most),
                                             Duration("step", gpu.periods[by_step.front().second].duration())})});
    }
    // The fix of the main cause; with no main cause, the general one.
    HostActivityKind fix_kind = HostActivityKind::kUnrecorded;
    if (main != nullptr && base::ShareOf(main->ns, activity.total_ns) >= kMainPartShare) fix_kind = main->kind;
    const Fix fix = FixFor(fix_kind);
    finding.fix = fix.sentence;
    finding.fix_code = fix.code;
    LocationList locations(gpu.window());
    for (const AccountedGap& gap : host_busy) {
      locations.Add({gap.interval, LocationKind::kIdleGap, finding.device_id, -1, "host busy with other work"});
    }
    std::move(locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
