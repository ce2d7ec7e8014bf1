#ifndef AMPPROF_ANALYZERS_FINDINGS_FINDING_SUPPORT_H_
#define AMPPROF_ANALYZERS_FINDINGS_FINDING_SUPPORT_H_

// What every finding states the same way: what was examined, the saving per step from the step
// account, the severity that the saving earns, and the kernels inside the account's window.
//
//   const DeviceAccount& gpu = ...;                          // input.account().devices
//   finding.evidence.push_back({"examined", Examined(input, gpu)});
//   finding.saving = SavingOf(gpu, idle_ns, "the idle time of the launch waits");
//   finding.severity = SeverityForSaving(finding.saving.fraction, kWarningAt, kCriticalAt);

#include <string>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/precision.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

// A finding whose fix would save a quarter of the step or more is critical, whatever the finding: one bar
// for all, so that severity and saving rank findings alike (SortFindings orders by both). Each finding
// keeps its own lower bar, where its saving becomes material (its kWarning... constant).
inline constexpr double kCriticalSaving = 0.25;

// "6 measured steps from ProfilerStep ranges (1 warm-up step left out), median 176 ms", or "the whole
// trace (it marks no training steps): 994 ms of GPU time".
Statement Examined(const AnalysisInput& input, const DeviceAccount& device);

// "per step" with steps, "over the analysed window" without: how a total divided by the account's
// periods is said.
std::string_view PerStepWords(const StepAccount& account);

// The saving of removing `total_ns` of the window's time, per step and as a share of the window.
Saving SavingOf(const DeviceAccount& device, base::DurationNs total_ns, std::string basis);
Saving SavingRangeOf(const DeviceAccount& device, base::DurationNs low_total_ns, base::DurationNs high_total_ns,
                     std::string basis);

// What is left of `ns` sped up by `speedup`: ns * (1 - 1 / speedup), to the nearest nanosecond; 0 for a
// speed-up of 1 or less.
base::DurationNs SavedBySpeedup(base::DurationNs ns, double speedup);
// `ns` * `share`, to the nearest nanosecond.
base::DurationNs Portion(base::DurationNs ns, double share);

// kCritical from `critical_at`, kWarning from `warning_at`, else kInfo.
Severity SeverityForSaving(double fraction, double warning_at, double critical_at);

// The device's kernels that start inside the account's window, in start order.
model::RowRange<model::KernelRow> KernelsInWindow(const AnalysisInput& input, const DeviceAccount& device);

// The part of `kernel_ns` (the kernel time of some kernels of bucket `key`) that the account charges:
// the bucket's charged share of its kernel time, applied to them. Concurrent kernels make it less.
base::DurationNs ChargedTime(const DeviceAccount& device, const ComputeKey& key, base::DurationNs kernel_ns);

// The charged time of the compute buckets `keep` accepts.
template <typename Predicate>
base::DurationNs ChargedWhere(const DeviceAccount& device, Predicate keep) {
  base::DurationNs sum = 0;
  for (const ComputeTime& bucket : device.compute) {
    if (keep(bucket.key)) sum += bucket.charged_ns;
  }
  return sum;
}

// What makes a run mixed precision, as evidence: "FP16/BF16/FP8 GEMM/convolution kernels {kernels}
// ({time}); GradScaler kernels {scaler}". Empty text when the run is FP32.
Statement MixedPrecisionEvidence(const PrecisionEvidence& run);

// The matrix-vector products (KernelClass::matrix_vector) a Tensor-Core finding left out of its count, as
// evidence: {"matrix-vector products on CUDA cores, not counted here", "{time} per step (bound by ...)"}.
Evidence MatrixVectorLeftOut(const AnalysisInput& input, const DeviceAccount& device, base::DurationNs kernel_ns);

// The CUDA id of the device an account is of.
int64_t DeviceIdOf(const AnalysisInput& input, const DeviceAccount& device);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FINDING_SUPPORT_H_
