#include "analyzers/findings/comm_exposed_analyzer.h"

#include <string>

#include "analyzers/facts/communication.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// A tenth of the step in communication that nothing hides is worth overlapping: DDP and FSDP can hide
// most of it behind the backward pass.
constexpr double kWarningShare = 0.10;
constexpr size_t kCollectivesShown = 3;
// A collective whose median kernel takes this many times its shortest is spending most of its time in
// something its own size does not explain: waiting for the other ranks to join.
constexpr double kWaitingSpread = 2.0;
constexpr uint64_t kMinKernelsForSpread = 3;

}  // namespace

std::vector<Finding> AnalyzeCommunication(const AnalysisInput& input) {
  const StepAccount& account = input.account();
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : account.devices) {
    const DurationNs exposed = gpu.total.exposed_communication_ns;
    const double share = gpu.Share(exposed);
    if (share < kWarningShare) continue;
    const bool per_step = account.basis == AccountBasis::kMeasuredSteps;
    const std::string per = std::string(PerStepWords(account));

    Finding finding;
    finding.id = "comm.exposed";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingOf(gpu, exposed, "the communication time that no compute hides, if it were all overlapped "
                                            "with compute");
    finding.severity = SeverityForSaving(finding.saving.fraction, kWarningShare, kCriticalSaving);
    finding.verdict = Statement(
        per_step ? "GPU {device} spends {share} of the step in communication that no compute hides ({exposed} per step)"
                 : "GPU {device} spends {share} of the time in communication that no compute hides ({exposed})",
        {Count("device", static_cast<uint64_t>(finding.device_id)), Fraction("share", share),
         Duration("exposed", finding.saving.ns)});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back(
        {"communication",
         Statement("{exposed} exposed and {overlapped} overlapped with compute, " + per,
                   {Duration("exposed", gpu.PerStep(exposed)),
                    Duration("overlapped", gpu.PerStep(gpu.total.overlapped_communication_ns))})});
    finding.evidence.push_back({"compute", Statement("{compute} " + per + " ({share} of the time)",
                                                     {Duration("compute", gpu.PerStep(gpu.total.compute_ns)),
                                                      Fraction("share", gpu.Share(gpu.total.compute_ns))})});
    const CollectiveTime* waiting = nullptr;
    for (size_t i = 0; i < gpu.communication.size() && i < kCollectivesShown; ++i) {
      const CollectiveTime& collective = gpu.communication[i];
      finding.evidence.push_back(
          {collective.collective,
           Statement("{kernels:kernel}, {exposed} exposed and {overlapped} overlapped " + per,
                     {Count("kernels", collective.kernels), Duration("exposed", gpu.PerStep(collective.exposed_ns)),
                      Duration("overlapped", gpu.PerStep(collective.overlapped_ns))})});
      if (waiting == nullptr && collective.kernels >= kMinKernelsForSpread && collective.shortest_ns > 0 &&
          static_cast<double>(collective.median_ns) >= kWaitingSpread * static_cast<double>(collective.shortest_ns)) {
        waiting = &collective;
      }
    }
    if (waiting != nullptr) {
      // A collective kernel starts when this rank launches it and ends only when every rank has joined.
      finding.evidence.push_back(
          {"waiting for other ranks",
           Statement("one " + waiting->collective + " kernel takes {median} at the median but {shortest} at the "
                     "shortest: the difference is most likely this rank waiting for slower ranks (a straggler, or "
                     "uneven work) inside the collective",
                     {Duration("median", waiting->median_ns), Duration("shortest", waiting->shortest_ns)})});
      finding.fix = "Find the slow rank: analyse every rank's trace together (ampprof analyze DIR); the rank that "
                    "waits least in the collectives is the one the others wait for.";
    } else if (input.run_kind().kind == RunKind::kInference) {
      finding.fix = "Overlap the collectives with computation: issue them asynchronously and compute what does not "
                    "depend on them meanwhile, or shard the model so that fewer collectives sit between layers.";
    } else {
      finding.fix = "Overlap communication with the backward pass: let DDP bucket gradients and start each "
                    "all-reduce as its bucket is ready, and skip it on accumulation steps.";
      finding.fix_code =
          "model = DDP(model, bucket_cap_mb=50, gradient_as_bucket_view=True)\n"
          "with model.no_sync():          # on gradient-accumulation steps\n"
          "    loss.backward()";
    }
    // The longest stretches with only communication running, named by the collective that led them.
    LocationList locations(gpu.window());
    for (const ExposedStretch& stretch : gpu.longest_exposed) {
      const model::Stream& stream = input.model.stream(input.model.kernels().stream[stretch.kernel]);
      locations.Add({stretch.interval, LocationKind::kCommunication, finding.device_id, stream.stream_id,
                     std::string(CollectiveOf(input.model.KernelName(stretch.kernel))) + " exposed"});
    }
    locations.CountLeftOut(gpu.exposed_stretches - gpu.longest_exposed.size());
    std::move(locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
