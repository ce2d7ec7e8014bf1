#include "analyzers/findings/cast_analyzer.h"

#include <fmt/format.h>

#include <map>
#include <string>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/facts/precision.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

// Autocast always casts: weights once per region, activations at every switch between FP32 and FP16
// ops. Below 2% of kernel time that is the normal price of autocast, and removing every cast would
// save less than the usual step-to-step variation.
constexpr double kMinShareOfKernelTime = 0.02;
// From a tenth of the GPU's time spent only converting dtypes, casts cost more than normal autocast
// does (re-casting in loops, several autocast regions per step, manual .half()/.float()) and eat a
// large part of what the Tensor Cores save.
constexpr double kWarningShareOfKernelTime = 0.10;
constexpr size_t kExamples = 3;

struct Group {
  uint64_t kernels = 0;
  base::DurationNs ns = 0;
};

}  // namespace

std::vector<Finding> AnalyzeCasts(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  std::vector<Finding> findings;
  for (const model::Device& device : model.devices()) {
    if (device.kernels.empty()) continue;
    const PrecisionEvidence gpu = DescribePrecision(input, device);
    base::DurationNs cast_ns = 0;
    uint64_t casts = 0;
    base::DurationNs other_ns = 0;  // conversions between other types: not autocast's
    uint64_t others = 0;
    std::map<DataType, Group> by_type;  // by the low-precision side of the conversion
    KernelExamples examples;
    for (model::KernelRow kernel : device.kernels) {
      const KernelClass& k = input.ClassOf(kernel);
      if (k.category != KernelCategory::kCast) continue;
      const base::DurationNs duration = model.kernels().duration(kernel);
      if (!IsLowPrecision(k.dtype)) {
        other_ns = base::SaturatingAdd(other_ns, duration);
        ++others;
        continue;
      }
      cast_ns = base::SaturatingAdd(cast_ns, duration);
      ++casts;
      Group& group = by_type[k.dtype];
      ++group.kernels;
      group.ns = base::SaturatingAdd(group.ns, duration);
      examples.Add(model.KernelName(kernel), duration);
    }
    const double share = base::ShareOf(cast_ns, gpu.kernel_ns);
    if (casts == 0 || share < kMinShareOfKernelTime) continue;

    std::string types;
    for (const auto& [dtype, group] : by_type) {
      types += fmt::format("{}FP32<->{}: {}, {}", types.empty() ? "" : "; ", DataTypeName(dtype),
                           base::FormatCount(static_cast<int64_t>(group.kernels)),
                           base::FormatDuration(group.ns));
    }
    const base::DurationNs matrix_ns = gpu.matrix().total_ns();
    Finding finding;
    finding.id = "amp.cast_overhead";
    finding.severity = share >= kWarningShareOfKernelTime ? Severity::kWarning : Severity::kInfo;
    finding.verdict = fmt::format(
        "Cast kernels between FP32 and FP16/BF16/FP8 take {} of GPU {} kernel time ({} in {})",
        base::FormatPercent(share), device.device_id, base::FormatDuration(cast_ns),
        casts == 1 ? std::string("1 launch")
                   : base::FormatCount(static_cast<int64_t>(casts)) + " launches");
    finding.evidence = {
        {"cast kernels",
         fmt::format("{}, {} ({} of kernel time)", base::FormatCount(static_cast<int64_t>(casts)),
                     base::FormatDuration(cast_ns), base::FormatPercent(share))},
        {"by type", types},
    };
    if (matrix_ns > 0) {
      finding.evidence.push_back(
          {"relative to GEMM/convolution time",
           fmt::format("{} of {}", base::FormatPercent(base::ShareOf(cast_ns, matrix_ns)),
                       base::FormatDuration(matrix_ns))});
    }
    if (others > 0) {
      finding.evidence.push_back(
          {"other dtype conversions, not counted",
           fmt::format("{}, {}", base::FormatCount(static_cast<int64_t>(others)),
                       base::FormatDuration(other_ns))});
    }
    finding.evidence.push_back(
        {"bytes cast", "not in the trace (kernel records carry no tensor sizes)"});
    finding.examples = examples.Top(kExamples);
    finding.time_ns = cast_ns;
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
