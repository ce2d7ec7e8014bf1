#include "analyzers/findings/grouped_conv_analyzer.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/facts/precision.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

// Below 3% of a device's kernel time, even a Tensor-Core path that made these layers free would
// save less than the usual step-to-step variation.
constexpr double kMinShareOfKernelTime = 0.03;
// From a quarter of the GPU's time in kernels that AMP does not speed up, they cap the AMP run's
// speed-up (Amdahl: with the rest of the step 2x faster, the step is at most 1.6x faster), and
// direct FP16 kernels can be slower than the FP32 ones they replace.
constexpr double kCriticalShareOfKernelTime = 0.25;
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

  std::vector<Finding> findings;
  for (const model::Device& device : model.devices()) {
    if (device.kernels.empty()) continue;
    const PrecisionEvidence gpu = DescribePrecision(input, device);
    // Without Tensor Cores no convolution has a faster path to fall back from:
    // tensor_cores.unavailable.
    if (TensorCoresOf(device, gpu) != TensorCoreSupport::kYes) continue;

    base::DurationNs fallback_ns = 0;
    uint64_t fallback_kernels = 0;
    base::DurationNs other_grouped_ns =
        0;  // grouped kernels on Tensor Cores or an unknown unit (xmma depthwise)
    uint64_t other_grouped_kernels = 0;
    std::map<std::pair<KernelLibrary, DataType>, Group> by_library_and_type;
    KernelExamples examples;
    for (model::KernelRow kernel : device.kernels) {
      const KernelClass& k = input.ClassOf(kernel);
      if (k.category != KernelCategory::kConvolution || !k.grouped) continue;
      const base::DurationNs duration = model.kernels().duration(kernel);
      if (k.math != MathUnit::kCudaCore) {
        other_grouped_ns = base::SaturatingAdd(other_grouped_ns, duration);
        ++other_grouped_kernels;
        continue;
      }
      fallback_ns = base::SaturatingAdd(fallback_ns, duration);
      ++fallback_kernels;
      Group& group = by_library_and_type[{k.library, k.dtype}];
      ++group.kernels;
      group.ns = base::SaturatingAdd(group.ns, duration);
      examples.Add(model.KernelName(kernel), duration);
    }
    const double share = base::ShareOf(fallback_ns, gpu.kernel_ns);
    if (fallback_kernels == 0 || share < kMinShareOfKernelTime) continue;

    const base::DurationNs convolution_ns = gpu.convolution.total_ns();
    std::string kinds;
    for (const auto& [key, group] : by_library_and_type) {
      kinds += fmt::format("{}{} {}: {}, {}", kinds.empty() ? "" : "; ",
                           KernelLibraryName(key.first), DataTypeName(key.second),
                           base::FormatCount(static_cast<int64_t>(group.kernels)),
                           base::FormatDuration(group.ns));
    }
    Finding finding;
    finding.id = "conv.grouped_fallback";
    finding.severity =
        share >= kCriticalShareOfKernelTime ? Severity::kCritical : Severity::kWarning;
    finding.verdict = fmt::format(
        "Grouped/depthwise convolutions on CUDA cores take {} of GPU {} kernel time ({}), {} of "
        "its convolution time, in a mixed-precision run",
        base::FormatPercent(share), device.device_id, base::FormatDuration(fallback_ns),
        base::FormatPercent(base::ShareOf(fallback_ns, convolution_ns)));
    finding.evidence = {
        {"grouped/depthwise kernels on CUDA cores",
         fmt::format("{}, {} ({} of kernel time)",
                     base::FormatCount(static_cast<int64_t>(fallback_kernels)),
                     base::FormatDuration(fallback_ns), base::FormatPercent(share))},
        {"by library and type", kinds},
        {"share of convolution time",
         fmt::format("{} of {}", base::FormatPercent(base::ShareOf(fallback_ns, convolution_ns)),
                     base::FormatDuration(convolution_ns))},
    };
    if (other_grouped_kernels > 0) {
      finding.evidence.push_back(
          {"other grouped/depthwise kernels (Tensor Cores or xmma depthwise), not counted",
           fmt::format("{}, {}", base::FormatCount(static_cast<int64_t>(other_grouped_kernels)),
                       base::FormatDuration(other_grouped_ns))});
    }
    finding.evidence.push_back({"mixed precision, from", run.MixedPrecisionReason()});
    finding.examples = examples.Top(kExamples);
    finding.time_ns = fallback_ns;
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
