#include "analyzers/findings/alignment_analyzer.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "analyzers/facts/kernel_examples.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

// Tensor-Core kernels load operands in 16-byte vectors (128-bit LDG/cp.async); a narrower variant
// issues 2-16x as many loads for the same tile.
constexpr unsigned kAlignedBytes = 16;
// Below 3% of a device's kernel time, even making the unaligned kernels free saves less than the
// usual step-to-step variation: not worth padding a model's dimensions for.
constexpr double kMinShareOfKernelTime = 0.03;
constexpr size_t kExamples = 3;

// Bytes per element of a Tensor-Core kernel's operands; 0 when the type is not known.
unsigned ElementBytes(DataType dtype) {
  switch (dtype) {
    case DataType::kFp16:
    case DataType::kBf16:
      return 2;
    case DataType::kTf32:
      return 4;
    case DataType::kFp8:
    case DataType::kInt8:
      return 1;
    default:
      return 0;
  }
}

struct Variant {
  uint64_t kernels = 0;
  base::DurationNs ns = 0;
};

}  // namespace

std::vector<Finding> AnalyzeAlignment(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  std::vector<Finding> findings;
  for (const model::Device& device : model.devices()) {
    base::DurationNs kernel_ns = 0;
    base::DurationNs tensor_core_ns = 0;  // every Tensor-Core GEMM/convolution, tagged or not
    base::DurationNs tagged_ns = 0;       // those whose name gives the alignment
    base::DurationNs unaligned_ns = 0;
    uint64_t unaligned_kernels = 0;
    std::map<std::pair<DataType, uint8_t>, Variant> variants;  // by type and alignment
    KernelExamples examples;
    for (model::KernelRow kernel : device.kernels) {
      const base::DurationNs duration = model.kernels().duration(kernel);
      kernel_ns = base::SaturatingAdd(kernel_ns, duration);
      const KernelClass& k = input.ClassOf(kernel);
      const bool matrix =
          k.category == KernelCategory::kGemm || k.category == KernelCategory::kConvolution;
      if (!matrix) continue;
      if (k.math != MathUnit::kTensorCore && k.math != MathUnit::kTensorCoreTf32) continue;
      tensor_core_ns = base::SaturatingAdd(tensor_core_ns, duration);
      const unsigned bytes = ElementBytes(k.dtype);
      if (k.alignment == 0 || bytes == 0)
        continue;  // the name does not say: not counted either way
      tagged_ns = base::SaturatingAdd(tagged_ns, duration);
      if (k.alignment * bytes >= kAlignedBytes) continue;
      unaligned_ns = base::SaturatingAdd(unaligned_ns, duration);
      ++unaligned_kernels;
      Variant& variant = variants[{k.dtype, k.alignment}];
      ++variant.kernels;
      variant.ns = base::SaturatingAdd(variant.ns, duration);
      examples.Add(model.KernelName(kernel), duration);
    }
    const double share = base::ShareOf(unaligned_ns, kernel_ns);
    if (unaligned_kernels == 0 || share < kMinShareOfKernelTime) continue;

    std::string by_variant;
    for (const auto& [key, variant] : variants) {
      by_variant += fmt::format("{}{} align{}: {}, {}", by_variant.empty() ? "" : "; ",
                                DataTypeName(key.first), key.second,
                                base::FormatCount(static_cast<int64_t>(variant.kernels)),
                                base::FormatDuration(variant.ns));
    }
    Finding finding;
    finding.id = "tensor_cores.misaligned";
    finding.severity = FindFinding(finding.id)->default_severity;
    finding.verdict = fmt::format(
        "Unaligned Tensor-Core kernel variants (loads under {} bytes) take {} of GPU {} kernel "
        "time ({}), {} of its Tensor-Core GEMM/convolution time",
        kAlignedBytes, base::FormatPercent(share), device.device_id,
        base::FormatDuration(unaligned_ns),
        base::FormatPercent(base::ShareOf(unaligned_ns, tensor_core_ns)));
    finding.evidence = {
        {"unaligned Tensor-Core kernels",
         fmt::format("{}, {} ({} of kernel time)",
                     base::FormatCount(static_cast<int64_t>(unaligned_kernels)),
                     base::FormatDuration(unaligned_ns), base::FormatPercent(share))},
        {"by type and alignment (elements)", by_variant},
        {"share of Tensor-Core GEMM/convolution time",
         fmt::format("{} of {}", base::FormatPercent(base::ShareOf(unaligned_ns, tensor_core_ns)),
                     base::FormatDuration(tensor_core_ns))},
        {"Tensor-Core time whose kernel names give an alignment",
         fmt::format("{} of {}", base::FormatDuration(tagged_ns),
                     base::FormatDuration(tensor_core_ns))},
        {"source",
         "alignN tags in CUTLASS kernel names (a naming convention); the trace has no GEMM "
         "dimensions"},
    };
    finding.examples = examples.Top(kExamples);
    finding.time_ns = unaligned_ns;
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
