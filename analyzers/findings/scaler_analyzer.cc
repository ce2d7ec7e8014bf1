#include "analyzers/findings/scaler_analyzer.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_set>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/facts/steps.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::TimeNs;

// found_inf is a one-element float tensor; the sum over devices that .item() reads is no bigger.
constexpr uint64_t kFoundInfBytes = 8;
// Below a twentieth of the step, GradScaler is the price of FP16 and not worth changing the loop for.
constexpr double kMinShareOfStep = 0.05;

bool IsScaleUpdate(std::string_view name) { return name.find("amp_update_scale") != std::string_view::npos; }

bool IsFusedOptimizer(std::string_view name) {
  return name.find("fused_adam") != std::string_view::npos || name.find("FusedAdam") != std::string_view::npos ||
         name.find("_fused_sgd") != std::string_view::npos || name.find("FusedSgd") != std::string_view::npos;
}

struct ScalerCost {
  explicit ScalerCost(base::Interval window) : locations(window) {}
  uint64_t unscale_kernels = 0;
  DurationNs unscale_ns = 0;
  uint64_t update_kernels = 0;
  DurationNs update_ns = 0;
  uint64_t syncs = 0;            // found_inf reads: small DtoH copies after an unscale
  DurationNs host_blocked_ns = 0;  // from the copy call's start to the end of the wait for it
  DurationNs gpu_idle_ns = 0;      // idle gaps those waits caused (idle_gaps.h: kHostSync)
  bool fused_optimizer = false;
  std::unordered_set<uint32_t> sync_calls;  // API call rows of the copies and their waits
  LocationList locations;                   // the longest GradScaler kernels and idle gaps after found_inf
};

// Host time blocked by the found_inf read that starts with `copy_call`: the call itself (blocking when
// the destination is pageable) and the stream synchronise that follows it on the same thread.
DurationNs BlockedFrom(const model::TraceModel& model, model::ApiCallRow copy_call, ScalerCost& cost) {
  const model::ApiCallTable& calls = model.api_calls();
  const model::Thread& thread = model.thread(calls.thread[copy_call]);
  TimeNs blocked_until = calls.end[copy_call];
  cost.sync_calls.insert(copy_call.value);
  for (uint32_t row = copy_call.value + 1; row < thread.api_calls.end_value; ++row) {
    const model::ApiCallRow call(row);
    if (calls.start[call] > blocked_until + kClockSlack) break;
    if (model.Text(calls.name[call]).find("Synchronize") == std::string_view::npos) continue;
    blocked_until = std::max(blocked_until, calls.end[call]);
    cost.sync_calls.insert(call.value);
    break;
  }
  return blocked_until - calls.start[copy_call];
}

ScalerCost MeasureScaler(const AnalysisInput& input, const DeviceAccount& gpu) {
  const model::DeviceRow device = gpu.device;
  const base::Interval window = gpu.window();
  const model::TraceModel& model = input.model;
  const model::KernelTable& kernels = model.kernels();
  ScalerCost cost(window);
  std::vector<TimeNs> unscale_launches;  // launch-call starts of the unscale kernels
  for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
    const KernelCategory category = input.ClassOf(kernel).category;
    if (category == KernelCategory::kOptimizer && IsFusedOptimizer(model.KernelName(kernel))) cost.fused_optimizer = true;
    if (category != KernelCategory::kGradScaler) continue;
    cost.locations.AddKernel(input, kernel);
    if (IsScaleUpdate(model.KernelName(kernel))) {
      ++cost.update_kernels;
      cost.update_ns += kernels.duration(kernel);
      continue;
    }
    ++cost.unscale_kernels;
    cost.unscale_ns += kernels.duration(kernel);
    if (kernels.launch[kernel].valid()) unscale_launches.push_back(model.api_calls().start[kernels.launch[kernel]]);
  }
  std::sort(unscale_launches.begin(), unscale_launches.end());

  // found_inf reads: each small device-to-host copy launched after an unscale that no earlier read
  // followed (several unscale launches, one per chunk of gradients, precede one read).
  std::vector<model::MemcpyRow> small_reads;
  const model::MemcpyTable& copies = model.memcpys();
  for (uint32_t i = 0; i < copies.size(); ++i) {
    const model::MemcpyRow copy(i);
    if (copies.kind[copy] != records::MemcpyKind::kDeviceToHost || copies.bytes[copy] > kFoundInfBytes ||
        !copies.launch[copy].valid() || model.stream(copies.stream[copy]).device != device ||
        copies.start[copy] < window.start || copies.start[copy] >= window.end) {
      continue;
    }
    small_reads.push_back(copy);
  }
  std::sort(small_reads.begin(), small_reads.end(), [&](model::MemcpyRow a, model::MemcpyRow b) {
    return model.api_calls().start[copies.launch[a]] < model.api_calls().start[copies.launch[b]];
  });
  TimeNs previous_read = std::numeric_limits<TimeNs>::min();
  for (model::MemcpyRow copy : small_reads) {
    const model::ApiCallRow call = copies.launch[copy];
    const TimeNs at = model.api_calls().start[call];
    const auto unscale = std::lower_bound(unscale_launches.begin(), unscale_launches.end(), previous_read);
    if (unscale == unscale_launches.end() || *unscale >= at) continue;
    previous_read = at;
    ++cost.syncs;
    cost.host_blocked_ns += BlockedFrom(model, call, cost);
  }
  for (const AccountedGap& gap : gpu.host_gaps) {
    if (gap.cause == GapCause::kHostSync && gap.draining_call.valid() && cost.sync_calls.contains(gap.draining_call.value)) {
      cost.gpu_idle_ns += gap.interval.duration();
      cost.locations.Add({gap.interval, LocationKind::kHostSync, model.device(device).device_id, -1,
                          "after the found_inf read"});
    }
  }
  return cost;
}

}  // namespace

std::vector<Finding> AnalyzeGradScaler(const AnalysisInput& input) {
  std::vector<Finding> findings;
  // Per-step cost needs steps; a GradScaler run always has them (one scale update per step).
  if (input.account().basis != AccountBasis::kMeasuredSteps) return findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    ScalerCost cost = MeasureScaler(input, gpu);
    if (cost.unscale_kernels + cost.update_kernels == 0) continue;
    const DurationNs kernels_ns = ChargedWhere(gpu, [](const ComputeKey& key) { return key.category == KernelCategory::kGradScaler; });
    const DurationNs total = kernels_ns + cost.gpu_idle_ns;
    const double share = gpu.Share(total);
    if (share < kMinShareOfStep) continue;
    const double step_count = static_cast<double>(gpu.steps());

    Finding finding;
    finding.id = "amp.scaler_overhead";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingOf(gpu, total, "GradScaler's kernel time and the GPU's idle time after its found_inf "
                                          "read, which BF16 without a scaler (or a fused optimizer) removes");
    finding.severity = SeverityForSaving(finding.saving.fraction, kMinShareOfStep, kCriticalSaving);
    finding.verdict = Statement("GradScaler costs {cost} per step on GPU {device}, {share} of the measured steps' time (median step {step})",
                                {Duration("cost", finding.saving.ns), Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Fraction("share", share), Duration("step", gpu.MedianStepNs())});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back({"unscale and inf-check kernels",
                                Statement("{kernels:launch|launches}, {per_step} per step",
                                          {Count("kernels", cost.unscale_kernels),
                                           Duration("per_step", gpu.PerStep(cost.unscale_ns))})});
    finding.evidence.push_back({"scale update kernels", Statement("{kernels:launch|launches}, {per_step} per step",
                                                                  {Count("kernels", cost.update_kernels),
                                                                   Duration("per_step", gpu.PerStep(cost.update_ns))})});
    if (cost.syncs > 0) {
      finding.evidence.push_back(
          {"found_inf.item() syncs",
           Statement("{syncs} ({per_step} per step): host blocked {blocked} per step, GPU idle {idle} per step after them",
                     {Count("syncs", cost.syncs), Number("per_step", static_cast<double>(cost.syncs) / step_count),
                      Duration("blocked", gpu.PerStep(cost.host_blocked_ns)), Duration("idle", gpu.PerStep(cost.gpu_idle_ns))})});
    } else {
      finding.evidence.push_back({"found_inf.item() syncs",
                                  Statement(cost.fused_optimizer ? "none: the fused optimizer reads found_inf on the GPU"
                                                                 : "none recorded (no device-to-host copies of 8 bytes or "
                                                                   "less after the unscale)")});
    }
    std::move(cost.locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
