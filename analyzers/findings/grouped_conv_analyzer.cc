#include "analyzers/findings/grouped_conv_analyzer.h"

#include <map>
#include <string>
#include <utility>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/facts/precision.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"
#include "analyzers/findings/library_call_evidence.h"
#include "analyzers/findings/op_evidence.h"

namespace ampprof::analyzers {
namespace {

// Below 3% of the step, even a Tensor-Core path that made these layers free would save less than the
// usual step-to-step variation.
constexpr double kMinShare = 0.03;
// How much faster another path runs these layers: ampprof's estimate, not a measurement.
constexpr double kFasterPathLow = 1.25;
constexpr double kFasterPathHigh = 2.0;
constexpr size_t kExamples = 3;

struct Group {
  uint64_t kernels = 0;
  base::DurationNs ns = 0;
};

}  // namespace

std::vector<Finding> AnalyzeGroupedConvolutions(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const PrecisionEvidence run = DescribePrecision(input);
  if (!run.MixedPrecision()) return {};
  const std::string per = std::string(PerStepWords(input.account()));
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    const model::Device& device = model.device(gpu.device);
    // Without Tensor Cores no convolution has a faster path to fall back from: tensor_cores.unavailable.
    if (TensorCoresOf(device, DescribePrecision(input, device)) != TensorCoreSupport::kYes) continue;
    std::map<ComputeKey, base::DurationNs> fallback_by_bucket;
    uint64_t fallback_kernels = 0;
    base::DurationNs other_grouped_ns = 0;  // grouped kernels on Tensor Cores or an unknown unit (xmma depthwise)
    uint64_t other_grouped_kernels = 0;
    std::map<std::pair<KernelLibrary, DataType>, Group> by_library_and_type;
    KernelExamples examples;
    LocationList locations(gpu.window());  // the longest of those kernels
    OpTally ops(input);  // the convolution ops (with their shapes: groups and channels) that fell back
    LibraryCallTally calls(input);  // the cuDNN calls behind them (groups and channels as cuDNN saw them)
    for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
      const KernelClass& k = input.ClassOf(kernel);
      if (k.category != KernelCategory::kConvolution || !k.grouped) continue;
      const base::DurationNs duration = model.kernels().duration(kernel);
      if (k.math != MathUnit::kCudaCore) {
        other_grouped_ns += duration;
        ++other_grouped_kernels;
        continue;
      }
      fallback_by_bucket[{k.category, k.math, k.dtype}] += duration;
      ++fallback_kernels;
      Group& group = by_library_and_type[{k.library, k.dtype}];
      ++group.kernels;
      group.ns += duration;
      examples.Add(model.KernelName(kernel), duration);
      locations.AddKernel(input, kernel);
      ops.Add(kernel, duration);
      calls.Add(kernel, duration);
    }
    base::DurationNs fallback_ns = 0;
    for (const auto& [key, ns] : fallback_by_bucket) fallback_ns += ChargedTime(gpu, key, ns);
    const double share = gpu.Share(fallback_ns);
    if (fallback_kernels == 0 || share < kMinShare) continue;
    const base::DurationNs convolution_ns =
        ChargedWhere(gpu, [](const ComputeKey& key) { return key.category == KernelCategory::kConvolution; });

    Finding finding;
    finding.id = "conv.grouped_fallback";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingRangeOf(
        gpu, SavedBySpeedup(fallback_ns, kFasterPathLow), SavedBySpeedup(fallback_ns, kFasterPathHigh),
        "an estimate: the fallback kernels' time, if a channels-last or FP32 path ran them 1.25x to 2x faster");
    finding.severity = SeverityForSaving(finding.saving.low_fraction, 0.0, kCriticalSaving);
    finding.verdict = Statement("Grouped/depthwise convolutions on CUDA cores take {share} of GPU {device}'s time "
                                "({time} " + per + "), {conv_share} of its convolution time, in a mixed-precision run",
                                {Fraction("share", share), Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Duration("time", gpu.PerStep(fallback_ns)),
                                 Fraction("conv_share", base::ShareOf(fallback_ns, convolution_ns))});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back({"grouped/depthwise kernels on CUDA cores",
                                Statement("{kernels}, {time} " + per, {Count("kernels", fallback_kernels),
                                                                       Duration("time", gpu.PerStep(fallback_ns))})});
    for (const auto& [key, group] : by_library_and_type) {
      finding.evidence.push_back(
          {std::string(KernelLibraryName(key.first)) + " " + std::string(DataTypeName(key.second)),
           Statement("{kernels:kernel}, {time}", {Count("kernels", group.kernels), Duration("time", group.ns)})});
    }
    if (other_grouped_kernels > 0) {
      finding.evidence.push_back(
          {"other grouped/depthwise kernels (Tensor Cores or xmma depthwise), not counted",
           Statement("{kernels}, {time}", {Count("kernels", other_grouped_kernels), Duration("time", other_grouped_ns)})});
    }
    finding.evidence.push_back({"mixed precision, from", MixedPrecisionEvidence(run)});
    for (Evidence& op : OpEvidence(input, gpu, ops, kExamples)) finding.evidence.push_back(std::move(op));
    for (Evidence& call : LibraryCallEvidence(input, gpu, calls, kExamples)) finding.evidence.push_back(std::move(call));
    finding.examples = examples.Top(kExamples);
    std::move(locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
