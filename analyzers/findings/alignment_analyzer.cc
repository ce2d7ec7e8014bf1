#include "analyzers/findings/alignment_analyzer.h"

#include <map>
#include <string>
#include <utility>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

// Tensor-Core kernels load operands in 16-byte vectors (128-bit LDG/cp.async); a narrower variant
// issues 2-16x as many loads for the same tile.
constexpr unsigned kAlignedBytes = 16;
// Below 3% of the step, even making the unaligned kernels free saves less than the usual step-to-step
// variation: not worth padding a model's dimensions for.
constexpr double kMinShare = 0.03;
// How much faster an aligned variant runs the same GEMM: ampprof's estimate, not a measurement. The
// unaligned variants issue 2-16x as many loads; GEMMs are partly bound by math, not loads, so the whole
// kernel gains less than that.
constexpr double kAlignedSpeedupLow = 1.25;
constexpr double kAlignedSpeedupHigh = 2.0;
// Severity from the low end of the saving: a warning from 2% of the step.
constexpr double kWarningSaving = 0.02;
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
  const std::string per = std::string(PerStepWords(input.account()));
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    std::map<ComputeKey, base::DurationNs> unaligned_by_bucket;
    std::map<ComputeKey, base::DurationNs> tagged_by_bucket;  // those whose name gives the alignment
    uint64_t unaligned_kernels = 0;
    std::map<std::pair<DataType, uint8_t>, Variant> variants;  // by type and alignment
    KernelExamples examples;
    for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
      const KernelClass& k = input.ClassOf(kernel);
      const bool matrix = k.category == KernelCategory::kGemm || k.category == KernelCategory::kConvolution;
      if (!matrix || (k.math != MathUnit::kTensorCore && k.math != MathUnit::kTensorCoreTf32)) continue;
      const unsigned bytes = ElementBytes(k.dtype);
      if (k.alignment == 0 || bytes == 0) continue;  // the name does not say: not counted either way
      const base::DurationNs duration = model.kernels().duration(kernel);
      const ComputeKey key{k.category, k.math, k.dtype};
      tagged_by_bucket[key] += duration;
      if (k.alignment * bytes >= kAlignedBytes) continue;
      unaligned_by_bucket[key] += duration;
      ++unaligned_kernels;
      Variant& variant = variants[{k.dtype, k.alignment}];
      ++variant.kernels;
      variant.ns += duration;
      examples.Add(model.KernelName(kernel), duration);
    }
    base::DurationNs unaligned_ns = 0;
    base::DurationNs tagged_ns = 0;
    for (const auto& [key, ns] : unaligned_by_bucket) unaligned_ns += ChargedTime(gpu, key, ns);
    for (const auto& [key, ns] : tagged_by_bucket) tagged_ns += ChargedTime(gpu, key, ns);
    const base::DurationNs tensor_core_ns = ChargedWhere(gpu, [](const ComputeKey& key) {
      return (key.category == KernelCategory::kGemm || key.category == KernelCategory::kConvolution) &&
             (key.math == MathUnit::kTensorCore || key.math == MathUnit::kTensorCoreTf32);
    });
    if (unaligned_kernels == 0 || gpu.Share(unaligned_ns) < kMinShare) continue;

    Finding finding;
    finding.id = "tensor_cores.misaligned";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingRangeOf(
        gpu, SavedBySpeedup(unaligned_ns, kAlignedSpeedupLow), SavedBySpeedup(unaligned_ns, kAlignedSpeedupHigh),
        "an estimate: the unaligned kernels' time, if aligned variants ran them 1.25x to 2x faster");
    finding.severity = SeverityForSaving(finding.saving.low_fraction, kWarningSaving, kCriticalSaving);
    finding.verdict = Statement("Unaligned Tensor-Core kernel variants (loads under {bytes} bytes) take {share} of GPU "
                                "{device}'s time ({time} " + per + "), {tc_share} of its Tensor-Core GEMM/convolution "
                                "time",
                                {Count("bytes", kAlignedBytes), Fraction("share", gpu.Share(unaligned_ns)),
                                 Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Duration("time", gpu.PerStep(unaligned_ns)),
                                 Fraction("tc_share", base::ShareOf(unaligned_ns, tensor_core_ns))});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back({"unaligned Tensor-Core kernels",
                                Statement("{kernels}, {time} " + per,
                                          {Count("kernels", unaligned_kernels), Duration("time", gpu.PerStep(unaligned_ns))})});
    for (const auto& [key, variant] : variants) {
      finding.evidence.push_back(
          {std::string(DataTypeName(key.first)) + " align" + std::to_string(key.second),
           Statement("{kernels:kernel}, {time}", {Count("kernels", variant.kernels), Duration("time", variant.ns)})});
    }
    finding.evidence.push_back(
        {"Tensor-Core time whose kernel names give an alignment",
         Statement("{tagged} of {all} " + per, {Duration("tagged", gpu.PerStep(tagged_ns)),
                                                Duration("all", gpu.PerStep(tensor_core_ns))})});
    finding.evidence.push_back(
        {"source", Statement("alignN tags in CUTLASS kernel names (a naming convention); the trace has no GEMM "
                             "dimensions")});
    finding.examples = examples.Top(kExamples);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
