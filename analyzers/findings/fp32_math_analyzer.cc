#include "analyzers/findings/fp32_math_analyzer.h"

#include <map>
#include <string>
#include <vector>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/facts/precision.h"
#include "analyzers/facts/throughput.h"
#include "analyzers/findings/autocast_coverage.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"
#include "analyzers/findings/library_call_evidence.h"
#include "analyzers/findings/op_evidence.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// Below 3% of the step, even moving all of it onto Tensor Cores saves less than the usual step-to-step
// variation, and autocast itself leaves a few small FP32 matmuls by design (losses, metrics outside the
// region): a handful of small sgemm kernels is not worth a finding. The test is on the realistic saving.
constexpr double kWarningShare = 0.03;
constexpr size_t kExamples = 3;

struct CudaCoreTime {
  explicit CudaCoreTime(base::Interval window) : locations(window) {}
  std::map<ComputeKey, DurationNs> kernel_ns;  // by bucket, inside the window
  uint64_t gemm_kernels = 0;
  uint64_t convolution_kernels = 0;
  DurationNs gemm_ns = 0;
  DurationNs convolution_ns = 0;
  DurationNs grouped_ns = 0;  // left to conv.grouped_fallback
  DurationNs matrix_vector_ns = 0;  // GEMVs: bound by memory, Tensor Cores would not speed them up
  KernelExamples examples;
  LocationList locations;  // the longest of those kernels
};

// "GEMMs", "convolutions" or "GEMMs and convolutions", by what was counted.
std::string WhatRan(const CudaCoreTime& time) {
  if (time.gemm_kernels > 0 && time.convolution_kernels > 0) return "GEMMs and convolutions";
  return time.gemm_kernels > 0 ? "GEMMs" : "convolutions";
}

}  // namespace

std::vector<Finding> AnalyzeFp32Math(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const PrecisionEvidence run = DescribePrecision(input);
  // An FP32 run (casts or not) is amp.opportunity's: this finding is about a run that did reduced-precision
  // math and left other matrix work on CUDA cores.
  if (!run.TriedReducedPrecisionMath()) return {};
  const std::string per = std::string(PerStepWords(input.account()));
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    const model::Device& device = model.device(gpu.device);
    // Only where the GPU has Tensor Cores to move to; tensor_cores.unavailable covers the others, and a
    // GPU the trace does not describe and that ran no Tensor-Core kernel is not assumed to have any.
    if (TensorCoresOf(device, DescribePrecision(input, device)) != TensorCoreSupport::kYes) continue;
    CudaCoreTime counted(gpu.window());
    OpTally ops(input);
    LibraryCallTally calls(input);
    for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
      const KernelClass& k = input.ClassOf(kernel);
      const bool gemm = k.category == KernelCategory::kGemm;
      if ((!gemm && k.category != KernelCategory::kConvolution) || k.math != MathUnit::kCudaCore) continue;
      const DurationNs duration = std::min(model.kernels().end[kernel], gpu.window().end) - model.kernels().start[kernel];
      if (k.dtype == DataType::kFp64) continue;  // FP64 math is deliberate; autocast never touches it
      if (k.grouped) {
        counted.grouped_ns += duration;
        continue;
      }
      if (k.matrix_vector) {
        counted.matrix_vector_ns += duration;
        continue;
      }
      counted.kernel_ns[{k.category, k.math, k.dtype}] += duration;
      (gemm ? counted.gemm_kernels : counted.convolution_kernels) += 1;
      (gemm ? counted.gemm_ns : counted.convolution_ns) += duration;
      counted.examples.Add(model.KernelName(kernel), duration);
      counted.locations.AddKernel(input, kernel);
      ops.Add(kernel, duration);
      calls.Add(kernel, duration);
    }
    DurationNs charged = 0;
    for (const auto& [key, ns] : counted.kernel_ns) charged += ChargedTime(gpu, key, ns);
    // The same speed-up range as moving FP32 work of an FP32 run: these kernels run FP32 (or FP16 on
    // CUDA cores, which gains at least as much) where Tensor Cores would take them.
    const SpeedupRange speedup =
        device.has_properties && device.compute_major > 0
            ? ExpectedSpeedup(device.compute_major, device.compute_minor, MatrixPath::kFp32CudaCores,
                              IsConsumerPart(model.Text(device.name)))
                  .value_or(ConservativeSpeedup(MatrixPath::kFp32CudaCores))
            : ConservativeSpeedup(MatrixPath::kFp32CudaCores);
    const DurationNs low = SavedBySpeedup(charged, speedup.realistic);
    const DurationNs high = SavedBySpeedup(charged, speedup.peak);
    if (charged == 0 || gpu.Share(low) < kWarningShare) continue;

    Finding finding;
    finding.id = "tensor_cores.fp32_math";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingRangeOf(gpu, low, high,
                                   "the CUDA-core GEMM/convolution time times (1 - 1/speed-up) on FP16/BF16 Tensor "
                                   "Cores, realistic to peak");
    finding.severity = SeverityForSaving(finding.saving.low_fraction, kWarningShare, kCriticalSaving);
    finding.verdict = Statement(WhatRan(counted) + " on CUDA cores take {share} of GPU {device}'s time in a "
                                "mixed-precision run; on Tensor Cores they would save about {low_share} to "
                                "{high_share} of the step",
                                {Fraction("share", gpu.Share(charged)),
                                 Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Fraction("low_share", finding.saving.low_fraction),
                                 Fraction("high_share", finding.saving.fraction)});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    if (counted.gemm_kernels > 0) {
      finding.evidence.push_back({"CUDA-core GEMMs", Statement("{kernels:kernel}, {time} " + per,
                                                               {Count("kernels", counted.gemm_kernels),
                                                                Duration("time", gpu.PerStep(counted.gemm_ns))})});
    }
    if (counted.convolution_kernels > 0) {
      finding.evidence.push_back(
          {"CUDA-core convolutions", Statement("{kernels:kernel}, {time} " + per,
                                               {Count("kernels", counted.convolution_kernels),
                                                Duration("time", gpu.PerStep(counted.convolution_ns))})});
    }
    const DurationNs tensor_core_ns = ChargedWhere(gpu, [](const ComputeKey& key) {
      return (key.category == KernelCategory::kGemm || key.category == KernelCategory::kConvolution) &&
             (key.math == MathUnit::kTensorCore || key.math == MathUnit::kTensorCoreTf32);
    });
    finding.evidence.push_back(
        {"GEMMs and convolutions on Tensor Cores", Statement("{time} " + per, {Duration("time", gpu.PerStep(tensor_core_ns))})});
    finding.evidence.push_back({"mixed precision, from", MixedPrecisionEvidence(run)});
    if (counted.grouped_ns > 0) {
      finding.evidence.push_back(
          {"grouped/depthwise convolutions on CUDA cores, not counted here",
           Statement("{time} " + per + " (see conv.grouped_fallback)",
                     {Duration("time", gpu.PerStep(counted.grouped_ns))})});
    }
    if (counted.matrix_vector_ns > 0) {
      finding.evidence.push_back(MatrixVectorLeftOut(input, gpu, counted.matrix_vector_ns));
    }
    for (Evidence& op : OpEvidence(input, gpu, ops, kExamples)) finding.evidence.push_back(std::move(op));
    const AutocastContext autocast{.reduced_precision_math = run.matrix().low_precision_ns > 0 ||
                                                             run.low_precision_attention_ns > 0};
    for (Evidence& op : AutocastCoverage(input, ops, kExamples, autocast)) finding.evidence.push_back(std::move(op));
    for (Evidence& call : LibraryCallEvidence(input, gpu, calls, kExamples, MathPathNote)) {
      finding.evidence.push_back(std::move(call));
    }
    finding.examples = counted.examples.Top(kExamples);
    std::move(counted.locations).MoveInto(finding);
    if (input.run_kind().kind == RunKind::kInference) {
      finding.fix = "Put these ops under autocast (the whole forward pass, not only part of the model), make GEMM "
                    "dimensions multiples of 8, and let the FP32 ones that remain use TF32.";
      finding.fix_code =
          "with torch.inference_mode(), torch.autocast(\"cuda\", dtype=torch.bfloat16):\n"
          "    out = model(x)                                  # the whole forward pass\n"
          "torch.backends.cuda.matmul.allow_tf32 = True          # what stays FP32 uses TF32";
    } else {
      finding.fix = "Put these ops under autocast (the forward pass and the loss, not only part of the model), make "
                    "GEMM dimensions multiples of 8, and let the FP32 ones that remain use TF32.";
      finding.fix_code =
          "with torch.autocast(\"cuda\", dtype=torch.bfloat16):   # or float16 with GradScaler\n"
          "    loss = loss_fn(model(x), y)                     # the whole forward and the loss\n"
          "torch.backends.cuda.matmul.allow_tf32 = True          # what stays FP32 uses TF32";
    }
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
