#include "analyzers/findings/cast_analyzer.h"

#include <map>
#include <string>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/facts/precision.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

// Autocast always casts: weights once per region, activations at every switch between FP32 and FP16
// ops. Below 2% of the step that is the normal price of autocast, and removing every cast would save
// less than the usual step-to-step variation.
constexpr double kMinShare = 0.02;
// From a tenth of the step spent only converting dtypes, casts cost more than normal autocast does
// (re-casting in loops, several autocast regions per step, manual .half()/.float()) and eat a large
// part of what the Tensor Cores save.
constexpr double kWarningShare = 0.10;
// Some casts are the price of autocast: at least half of the cast time is taken to be avoidable only
// as the low end of the estimate.
constexpr double kAvoidableLow = 0.5;
constexpr size_t kExamples = 3;

struct Group {
  uint64_t kernels = 0;
  base::DurationNs ns = 0;
};

}  // namespace

std::vector<Finding> AnalyzeCasts(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const std::string per = std::string(PerStepWords(input.account()));
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    uint64_t casts = 0;
    uint64_t others = 0;  // conversions between other types: not autocast's
    base::DurationNs other_ns = 0;
    std::map<ComputeKey, base::DurationNs> cast_by_bucket;
    std::map<DataType, Group> by_type;  // by the low-precision side of the conversion
    KernelExamples examples;
    LocationList locations(gpu.window());  // the longest of those kernels
    for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
      const KernelClass& k = input.ClassOf(kernel);
      if (k.category != KernelCategory::kCast) continue;
      const base::DurationNs duration = model.kernels().duration(kernel);
      if (!IsLowPrecision(k.dtype)) {
        other_ns += duration;
        ++others;
        continue;
      }
      cast_by_bucket[{k.category, k.math, k.dtype}] += duration;
      ++casts;
      Group& group = by_type[k.dtype];
      ++group.kernels;
      group.ns += duration;
      examples.Add(model.KernelName(kernel), duration);
      locations.AddKernel(input, kernel);
    }
    base::DurationNs cast_ns = 0;
    for (const auto& [key, ns] : cast_by_bucket) cast_ns += ChargedTime(gpu, key, ns);
    const double share = gpu.Share(cast_ns);
    if (casts == 0 || share < kMinShare) continue;

    Finding finding;
    finding.id = "amp.cast_overhead";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingRangeOf(gpu, Portion(cast_ns, kAvoidableLow),
                                   cast_ns,
                                   "an estimate: half to all of the cast kernels' time, what casting once per step "
                                   "instead of at every use would save");
    finding.severity = share >= kWarningShare ? Severity::kWarning : Severity::kInfo;
    finding.verdict = Statement("Cast kernels between FP32 and FP16/BF16/FP8 take {share} of GPU {device}'s time "
                                "({time} " + per + " in {kernels:launch|launches})",
                                {Fraction("share", share), Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Duration("time", gpu.PerStep(cast_ns)), Count("kernels", casts)});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back({"cast kernels", Statement("{kernels}, {time} " + per,
                                                          {Count("kernels", casts), Duration("time", gpu.PerStep(cast_ns))})});
    for (const auto& [dtype, group] : by_type) {
      finding.evidence.push_back({"FP32<->" + std::string(DataTypeName(dtype)),
                                  Statement("{kernels:kernel}, {time}", {Count("kernels", group.kernels),
                                                                           Duration("time", group.ns)})});
    }
    const base::DurationNs matrix_ns = ChargedWhere(gpu, [](const ComputeKey& key) {
      return key.category == KernelCategory::kGemm || key.category == KernelCategory::kConvolution;
    });
    if (matrix_ns > 0) {
      finding.evidence.push_back({"relative to GEMM/convolution time",
                                  Statement("{share} of {matrix} " + per, {Fraction("share", base::ShareOf(cast_ns, matrix_ns)),
                                                                           Duration("matrix", gpu.PerStep(matrix_ns))})});
    }
    if (others > 0) {
      finding.evidence.push_back({"other dtype conversions, not counted",
                                  Statement("{kernels}, {time}", {Count("kernels", others), Duration("time", other_ns)})});
    }
    finding.evidence.push_back(
        {"bytes cast", Statement("not in the trace (kernel records carry no tensor sizes)")});
    finding.examples = examples.Top(kExamples);
    std::move(locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
