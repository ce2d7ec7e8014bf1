#include "analyzers/findings/tensor_core_analyzer.h"

#include <fmt/format.h>

#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

// Volta (sm_70) was the first architecture with Tensor Cores; every later one has them.
constexpr uint32_t kFirstTensorCoreMajor = 7;

}  // namespace

std::vector<Finding> AnalyzeTensorCoreAvailability(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  std::vector<Finding> findings;
  for (const model::Device& device : model.devices()) {
    // Only what the trace states: a device without recorded properties is not assumed to be old.
    if (!device.has_properties || device.compute_major == 0 || device.compute_major >= kFirstTensorCoreMajor ||
        device.kernels.empty()) {
      continue;
    }
    base::DurationNs kernel_ns = 0;
    base::DurationNs matrix_ns = 0;
    for (model::KernelRow kernel : device.kernels) {
      const base::DurationNs duration = model.kernels().duration(kernel);
      kernel_ns = base::SaturatingAdd(kernel_ns, duration);
      const KernelCategory category = input.ClassOf(kernel).category;
      if (category == KernelCategory::kGemm || category == KernelCategory::kConvolution) {
        matrix_ns = base::SaturatingAdd(matrix_ns, duration);
      }
    }
    const double share = kernel_ns > 0 ? static_cast<double>(matrix_ns) / static_cast<double>(kernel_ns) : 0.0;
    Finding finding;
    finding.id = "tensor_cores.unavailable";
    finding.severity = FindFinding(finding.id)->default_severity;
    finding.verdict = fmt::format(
        "GPU {} ({}, sm_{}{}) has no Tensor Cores: mixed precision can save memory here, not GEMM or "
        "convolution time",
        device.device_id, model.Text(device.name), device.compute_major, device.compute_minor);
    finding.evidence = {
        {"compute capability", fmt::format("{}.{} (Tensor Cores need {}.0 or newer)", device.compute_major,
                                           device.compute_minor, kFirstTensorCoreMajor)},
        {"GEMM and convolution time", fmt::format("{} ({} of kernel time)", base::FormatDuration(matrix_ns),
                                                   base::FormatPercent(share))},
    };
    finding.time_ns = matrix_ns;
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
