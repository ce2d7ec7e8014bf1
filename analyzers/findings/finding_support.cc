#include "analyzers/findings/finding_support.h"

#include <algorithm>
#include <cmath>

namespace ampprof::analyzers {

Statement Examined(const AnalysisInput& input, const DeviceAccount& device) {
  const std::optional<Steps>& steps = input.steps();
  if (input.account().basis == AccountBasis::kMeasuredSteps && steps) {
    std::string text = "{steps:measured step} from " + std::string(StepSourceName(steps->source));
    std::vector<Quantity> values = {Count("steps", device.steps())};
    if (steps->warmup > 0) {
      text += " ({warmup} warm-up left out)";
      values.push_back(Count("warmup", steps->warmup));
    }
    text += ", median {median_step}";
    values.push_back(Duration("median_step", device.MedianStepNs()));
    return Statement(std::move(text), std::move(values));
  }
  return Statement("the whole trace (it marks no training steps): {window} of GPU time",
                   {Duration("window", device.window_ns())});
}

std::string_view PerStepWords(const StepAccount& account) {
  return account.basis == AccountBasis::kMeasuredSteps ? "per step" : "over the analysed window";
}

Saving SavingOf(const DeviceAccount& device, base::DurationNs total_ns, std::string basis) {
  return Saving::Exact(device.PerStep(total_ns), device.Share(total_ns), std::move(basis));
}

Saving SavingRangeOf(const DeviceAccount& device, base::DurationNs low_total_ns, base::DurationNs high_total_ns,
                     std::string basis) {
  return Saving::Range(device.PerStep(low_total_ns), device.PerStep(high_total_ns), device.Share(low_total_ns),
                       device.Share(high_total_ns), std::move(basis));
}

base::DurationNs SavedBySpeedup(base::DurationNs ns, double speedup) {
  return speedup > 1.0 ? Portion(ns, 1.0 - 1.0 / speedup) : 0;
}

base::DurationNs Portion(base::DurationNs ns, double share) {
  return static_cast<base::DurationNs>(std::llround(static_cast<double>(ns) * share));
}

Severity SeverityForSaving(double fraction, double warning_at, double critical_at) {
  if (fraction >= critical_at) return Severity::kCritical;
  if (fraction >= warning_at) return Severity::kWarning;
  return Severity::kInfo;
}

model::RowRange<model::KernelRow> KernelsInWindow(const AnalysisInput& input, const DeviceAccount& device) {
  const model::RowRange<model::KernelRow> all = input.model.device(device.device).kernels;
  const std::span<const base::TimeNs> starts = input.model.kernels().start.values();
  const base::Interval window = device.window();
  const auto begin = starts.begin() + all.begin_value;
  const auto end = starts.begin() + all.end_value;
  const auto first = std::lower_bound(begin, end, window.start);
  const auto last = std::lower_bound(first, end, window.end);
  return {static_cast<uint32_t>(first - starts.begin()), static_cast<uint32_t>(last - starts.begin())};
}

base::DurationNs ChargedTime(const DeviceAccount& device, const ComputeKey& key, base::DurationNs kernel_ns) {
  for (const ComputeTime& bucket : device.compute) {
    if (bucket.key != key || bucket.kernel_ns <= 0) continue;
    if (bucket.charged_ns >= bucket.kernel_ns) return kernel_ns;  // nothing of the bucket overlapped: exact
    return Portion(kernel_ns, static_cast<double>(bucket.charged_ns) / static_cast<double>(bucket.kernel_ns));
  }
  return 0;
}

Evidence MatrixVectorLeftOut(const AnalysisInput& input, const DeviceAccount& device, base::DurationNs kernel_ns) {
  // A GEMV is bound by reading its matrix: Tensor Cores would not make it faster, so it is no missed
  // Tensor-Core opportunity, only time the reader should not look for in the finding's count.
  return {"matrix-vector products on CUDA cores, not counted here",
          Statement("{time} " + std::string(PerStepWords(input.account())) +
                        " (bound by reading the matrix: Tensor Cores would not speed them up)",
                    {Duration("time", device.PerStep(kernel_ns))})};
}

Statement MixedPrecisionEvidence(const PrecisionEvidence& run) {
  Statement statement;
  auto add = [&](const std::string& part) { statement.text += (statement.text.empty() ? "" : "; ") + part; };
  const MatrixTime all = run.matrix();
  if (all.low_precision_kernels > 0) {
    add("FP16/BF16/FP8 GEMM/convolution kernels {low_kernels} ({low_time})");
    statement.values.push_back(Count("low_kernels", all.low_precision_kernels));
    statement.values.push_back(Duration("low_time", all.low_precision_ns));
  }
  if (run.low_precision_attention_ns > 0) {
    add("FP16/BF16 attention {attention}");
    statement.values.push_back(Duration("attention", run.low_precision_attention_ns));
  }
  if (run.scaler_kernels > 0) {
    add("GradScaler kernels {scaler}");
    statement.values.push_back(Count("scaler", run.scaler_kernels));
  }
  if (run.low_precision_casts > 0) {
    add("FP32<->FP16/BF16/FP8 casts {casts}");
    statement.values.push_back(Count("casts", run.low_precision_casts));
  }
  return statement;
}

int64_t DeviceIdOf(const AnalysisInput& input, const DeviceAccount& device) {
  return input.model.device(device.device).device_id;  // uint32: int64 holds every id and -1
}

}  // namespace ampprof::analyzers
