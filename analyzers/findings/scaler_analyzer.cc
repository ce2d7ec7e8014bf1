#include "analyzers/findings/scaler_analyzer.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/steps.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::FormatCount;
using base::FormatDuration;
using base::FormatPercent;
using base::TimeNs;

// found_inf is a one-element float tensor; the sum over devices that .item() reads is no bigger.
constexpr uint64_t kFoundInfBytes = 8;
// Below a twentieth of the step, GradScaler is the price of FP16 and not worth changing the loop for.
constexpr double kMinShareOfStep = 0.05;
// From a fifth of the step, GradScaler eats most of what FP16 Tensor Cores could save.
constexpr double kCriticalShareOfStep = 0.20;

bool IsScaleUpdate(std::string_view name) { return name.find("amp_update_scale") != std::string_view::npos; }

bool IsFusedOptimizer(std::string_view name) {
  return name.find("fused_adam") != std::string_view::npos || name.find("FusedAdam") != std::string_view::npos ||
         name.find("_fused_sgd") != std::string_view::npos || name.find("FusedSgd") != std::string_view::npos;
}

struct ScalerCost {
  uint64_t unscale_kernels = 0;
  DurationNs unscale_ns = 0;
  uint64_t update_kernels = 0;
  DurationNs update_ns = 0;
  uint64_t syncs = 0;            // found_inf reads: small DtoH copies after an unscale
  DurationNs host_blocked_ns = 0;  // from the copy call's start to the end of the wait for it
  DurationNs gpu_idle_ns = 0;      // idle gaps those waits caused (idle_gaps.h: kHostSync)
  bool fused_optimizer = false;
  std::unordered_set<uint32_t> sync_calls;  // API call rows of the copies and their waits
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

ScalerCost MeasureScaler(const AnalysisInput& input, model::DeviceRow device, base::Interval window) {
  const model::TraceModel& model = input.model;
  const model::KernelTable& kernels = model.kernels();
  ScalerCost cost;
  std::vector<TimeNs> unscale_launches;  // launch-call starts of the unscale kernels
  for (model::KernelRow kernel : model.device(device).kernels) {
    if (kernels.start[kernel] < window.start || kernels.start[kernel] >= window.end) continue;
    const KernelCategory category = input.ClassOf(kernel).category;
    if (category == KernelCategory::kOptimizer && IsFusedOptimizer(model.KernelName(kernel))) cost.fused_optimizer = true;
    if (category != KernelCategory::kGradScaler) continue;
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
  if (cost.syncs > 0) {
    const IdleBreakdown idle = ClassifyIdleGaps(input, device, window);
    for (const auto& [call, gap] : idle.draining_syncs) {
      if (cost.sync_calls.contains(call.value)) cost.gpu_idle_ns += gap;
    }
  }
  return cost;
}

std::string PerStep(DurationNs total, size_t steps) {
  return FormatDuration(static_cast<DurationNs>(static_cast<double>(total) / static_cast<double>(steps)));
}

}  // namespace

std::vector<Finding> AnalyzeGradScaler(const AnalysisInput& input) {
  std::vector<Finding> findings;
  const std::optional<Steps>& steps = input.steps();
  // Per-step cost needs steps; a GradScaler run always has them (one scale update per step).
  if (!steps || steps->measured().empty()) return findings;
  const base::Interval window{steps->measured().front().start, steps->measured().back().end};
  const size_t step_count = steps->measured().size();
  const DurationNs step_ns = steps->MedianDuration();
  if (step_ns <= 0) return findings;

  for (uint32_t i = 0; i < input.model.devices().size(); ++i) {
    const model::DeviceRow row(i);
    const ScalerCost cost = MeasureScaler(input, row, window);
    if (cost.unscale_kernels + cost.update_kernels == 0) continue;
    const DurationNs total = cost.unscale_ns + cost.update_ns + cost.gpu_idle_ns;
    const double share = static_cast<double>(total) / static_cast<double>(step_count) / static_cast<double>(step_ns);
    if (share < kMinShareOfStep) continue;

    Finding finding;
    finding.id = "amp.scaler_overhead";
    finding.severity = share >= kCriticalShareOfStep ? Severity::kCritical : Severity::kWarning;
    finding.verdict = fmt::format("GradScaler costs {} per step on GPU {}, {} of the median step ({})",
                                  PerStep(total, step_count), input.model.device(row).device_id,
                                  FormatPercent(share), FormatDuration(step_ns));
    finding.evidence = {
        {"examined", fmt::format("{} measured steps from {}", step_count, StepSourceName(steps->source))},
        {"unscale and inf-check kernels",
         fmt::format("{} launches, {} per step", FormatCount(static_cast<int64_t>(cost.unscale_kernels)),
                     PerStep(cost.unscale_ns, step_count))},
        {"scale update kernels", fmt::format("{} launches, {} per step", FormatCount(static_cast<int64_t>(cost.update_kernels)),
                                             PerStep(cost.update_ns, step_count))},
    };
    if (cost.syncs > 0) {
      finding.evidence.push_back(
          {"found_inf.item() syncs",
           fmt::format("{} ({:.1f} per step): host blocked {} per step, GPU idle {} per step after them",
                       FormatCount(static_cast<int64_t>(cost.syncs)),
                       static_cast<double>(cost.syncs) / static_cast<double>(step_count),
                       PerStep(cost.host_blocked_ns, step_count), PerStep(cost.gpu_idle_ns, step_count))});
    } else {
      finding.evidence.push_back({"found_inf.item() syncs",
                                  cost.fused_optimizer ? "none: the fused optimizer reads found_inf on the GPU"
                                                       : "none recorded (no 4-byte device-to-host copies after the unscale)"});
    }
    finding.time_ns = total;
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
