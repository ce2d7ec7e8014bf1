#include "analyzers/findings/layout_analyzer.h"

#include <fmt/format.h>

#include "analyzers/facts/kernel_examples.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

// Below 1% of kernel time, conversions are not worth a code change; a finding there would be noise.
constexpr double kMinShareOfKernelTime = 0.01;
// From a tenth of the GPU's time spent only moving data between layouts, it is a leading cost.
constexpr double kCriticalShareOfKernelTime = 0.10;
constexpr size_t kExamples = 3;

}  // namespace

std::vector<Finding> AnalyzeLayout(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  std::vector<Finding> findings;
  for (const model::Device& device : model.devices()) {
    base::DurationNs kernel_ns = 0;
    base::DurationNs layout_ns = 0;
    base::DurationNs convolution_ns = 0;
    uint64_t layout_kernels = 0;
    uint64_t convolutions = 0;
    KernelExamples examples;
    for (model::KernelRow kernel : device.kernels) {
      const base::DurationNs duration = model.kernels().duration(kernel);
      kernel_ns = base::SaturatingAdd(kernel_ns, duration);
      const KernelCategory category = input.ClassOf(kernel).category;
      if (category == KernelCategory::kLayoutTransform) {
        layout_ns = base::SaturatingAdd(layout_ns, duration);
        ++layout_kernels;
        examples.Add(model.KernelName(kernel), duration);
      } else if (category == KernelCategory::kConvolution) {
        convolution_ns = base::SaturatingAdd(convolution_ns, duration);
        ++convolutions;
      }
    }
    if (layout_kernels == 0 || kernel_ns == 0) continue;
    const double share = base::ShareOf(layout_ns, kernel_ns);
    if (share < kMinShareOfKernelTime) continue;

    Finding finding;
    finding.id = "layout.nchw_nhwc";
    finding.severity = share >= kCriticalShareOfKernelTime ? Severity::kCritical : Severity::kWarning;
    finding.verdict = fmt::format("{} NCHW<->NHWC conversion kernels take {} of GPU {} kernel time ({})",
                                  base::FormatCount(static_cast<int64_t>(layout_kernels)),
                                  base::FormatPercent(share), device.device_id, base::FormatDuration(layout_ns));
    finding.evidence = {
        {"conversion kernels", fmt::format("{}, {} in all", base::FormatCount(static_cast<int64_t>(layout_kernels)),
                                           base::FormatDuration(layout_ns))},
        {"convolution kernels they serve", fmt::format("{}, {} in all", base::FormatCount(static_cast<int64_t>(convolutions)),
                                                       base::FormatDuration(convolution_ns))},
        {"share of kernel time", base::FormatPercent(share)},
    };
    finding.examples = examples.Top(kExamples);
    finding.time_ns = layout_ns;
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
