#include "analyzers/findings/tensor_core_analyzer.h"

#include "analyzers/facts/precision.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeTensorCoreAvailability(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const bool mixed = DescribePrecision(input).MixedPrecision();
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    const model::Device& device = model.device(gpu.device);
    // Only what the trace states: a device without recorded properties is not assumed to be old.
    if (!device.has_properties || device.compute_major == 0 || device.compute_major >= kFirstTensorCoreMajor) continue;
    const base::DurationNs matrix_ns = ChargedWhere(gpu, [](const ComputeKey& key) {
      return key.category == KernelCategory::kGemm || key.category == KernelCategory::kConvolution;
    });
    Finding finding;
    finding.id = "tensor_cores.unavailable";
    finding.device_id = DeviceIdOf(input, gpu);
    // In a mixed-precision run this decides the outcome: AMP cannot be faster here. In an FP32 run it is
    // what the user should know before trying.
    finding.severity = mixed ? Severity::kCritical : Severity::kInfo;
    finding.verdict = Statement(
        "GPU {device} (" + std::string(model.Text(device.name)) +
            ") has no Tensor Cores: mixed precision can save memory here, not GEMM or convolution time",
        {Count("device", static_cast<uint64_t>(finding.device_id))});
    finding.evidence.push_back(
        {"compute capability", Statement("{major}.{minor} (Tensor Cores need {first}.0 or newer)",
                                         {Count("major", device.compute_major), Count("minor", device.compute_minor),
                                          Count("first", kFirstTensorCoreMajor)})});
    finding.evidence.push_back(
        {"GEMM and convolution time", Statement("{time} " + std::string(PerStepWords(input.account())) + " ({share})",
                                                {Duration("time", gpu.PerStep(matrix_ns)),
                                                 Fraction("share", gpu.Share(matrix_ns))})});
    finding.evidence.push_back({"precision", mixed ? MixedPrecisionEvidence(DescribePrecision(input))
                                                   : Statement("FP32: no reduced-precision kernels")});
    const bool inference = input.run_kind().kind == RunKind::kInference;
    finding.fix = mixed ? (inference ? "Run in FP32 on this GPU (autocast only adds casts), or move the job to a GPU "
                                       "with Tensor Cores (Volta or newer)."
                                     : "Train in FP32 on this GPU (AMP only adds casts and GradScaler's work), or "
                                       "move the job to a GPU with Tensor Cores (Volta or newer).")
                        : "Keep FP32 on this GPU for speed; autocast would save memory only. A Volta or newer GPU "
                          "runs FP16/BF16 GEMMs and convolutions on Tensor Cores.";
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
