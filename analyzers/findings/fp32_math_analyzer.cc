#include "analyzers/findings/fp32_math_analyzer.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/facts/precision.h"
#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

// Below 3% of a device's kernel time, even moving all of it onto Tensor Cores saves less than the
// usual step-to-step variation, and autocast itself leaves a few small FP32 matmuls by design
// (losses, metrics outside the region): a handful of small sgemm kernels is not worth a finding.
constexpr double kMinShareOfKernelTime = 0.03;
// Tensor Cores run FP16/BF16 math about 8-16x faster than CUDA cores run FP32 (V100: 125 vs 15.7
// TFLOPS; A100: 312 vs 19.5). A quarter of the GPU's time on CUDA cores therefore stays at FP32
// speed while the rest of the step speeds up, and caps the speed-up the AMP run can reach well
// below what it should.
constexpr double kCriticalShareOfKernelTime = 0.25;
constexpr size_t kExamples = 3;

// The CUDA-core time this analyzer counts on one device.
struct CudaCoreTime {
  base::DurationNs gemm_ns = 0;
  base::DurationNs convolution_ns = 0;
  uint64_t gemm_kernels = 0;
  uint64_t convolution_kernels = 0;
  base::DurationNs grouped_ns = 0;  // left to conv.grouped_fallback
  KernelExamples examples;

  base::DurationNs total_ns() const { return base::SaturatingAdd(gemm_ns, convolution_ns); }
};

std::string KernelsAndTime(uint64_t kernels, base::DurationNs ns, base::DurationNs kernel_ns) {
  return fmt::format("{}, {} ({} of kernel time)", base::FormatCount(static_cast<int64_t>(kernels)),
                     base::FormatDuration(ns), base::FormatPercent(base::ShareOf(ns, kernel_ns)));
}

// "Tensor Cores FP16/BF16/FP8 4.10 ms, CUDA cores FP32 1.20 ms, unit unknown 30.0 us": the non-zero
// parts.
std::string TimeByUnit(const MatrixTime& time) {
  const std::pair<const char*, base::DurationNs> parts[] = {
      {"Tensor Cores FP16/BF16/FP8", time.low_precision_tensor_core_ns},
      {"Tensor Cores TF32", time.tf32_ns},
      {"Tensor Cores other types", time.other_tensor_core_ns},
      {"CUDA cores FP32", time.fp32_cuda_core_ns},
      {"CUDA cores FP16/BF16", time.low_precision_cuda_core_ns},
      {"CUDA cores other types", time.other_cuda_core_ns},
      {"unit unknown", time.unknown_unit_ns},
  };
  std::string text;
  for (const auto& [label, ns] : parts) {
    if (ns > 0)
      text += fmt::format("{}{} {}", text.empty() ? "" : ", ", label, base::FormatDuration(ns));
  }
  return text.empty() ? "none" : text;
}

// "GEMMs", "convolutions" or "GEMMs and convolutions", by what was counted.
std::string WhatRan(const CudaCoreTime& time) {
  if (time.gemm_kernels > 0 && time.convolution_kernels > 0) return "GEMMs and convolutions";
  return time.gemm_kernels > 0 ? "GEMMs" : "convolutions";
}

std::string Capitalized(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
    text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}

}  // namespace

std::vector<Finding> AnalyzeFp32Math(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const PrecisionEvidence run = DescribePrecision(input);
  const bool mixed = run.MixedPrecision();
  // In an FP32 run, TF32 is worth suggesting only for the kind of kernel that runs none anywhere:
  // once some GEMMs (or convolutions) run TF32, the switch is on and the SIMT ones are the
  // library's choice.
  const bool tf32_gemms_off = run.gemm.tf32_ns == 0;
  const bool tf32_convolutions_off = run.convolution.tf32_ns == 0;

  std::vector<Finding> findings;
  for (const model::Device& device : model.devices()) {
    if (device.kernels.empty()) continue;
    const PrecisionEvidence gpu = DescribePrecision(input, device);
    if (mixed) {
      // Only where the GPU has Tensor Cores to move to; tensor_cores.unavailable covers the others,
      // and a GPU the trace does not describe and that ran no Tensor-Core kernel is not assumed to
      // have any.
      if (TensorCoresOf(device, gpu) != TensorCoreSupport::kYes) continue;
    } else if (!device.has_properties || device.compute_major < kFirstTf32Major) {
      continue;  // TF32 needs Ampere; without recorded properties the GPU is unknown
    }

    CudaCoreTime counted;
    for (model::KernelRow kernel : device.kernels) {
      const KernelClass& k = input.ClassOf(kernel);
      const bool gemm = k.category == KernelCategory::kGemm;
      const bool matrix = gemm || k.category == KernelCategory::kConvolution;
      if (!matrix || k.math != MathUnit::kCudaCore) continue;
      const base::DurationNs duration = model.kernels().duration(kernel);
      if (k.grouped) {
        counted.grouped_ns = base::SaturatingAdd(counted.grouped_ns, duration);
        continue;
      }
      const bool counts =
          mixed ? k.dtype != DataType::kFp64  // FP64 math is deliberate; autocast never touches it
                : k.dtype == DataType::kFp32 && (gemm ? tf32_gemms_off : tf32_convolutions_off);
      if (!counts) continue;
      if (gemm) {
        counted.gemm_ns = base::SaturatingAdd(counted.gemm_ns, duration);
        ++counted.gemm_kernels;
      } else {
        counted.convolution_ns = base::SaturatingAdd(counted.convolution_ns, duration);
        ++counted.convolution_kernels;
      }
      counted.examples.Add(model.KernelName(kernel), duration);
    }
    const double share = base::ShareOf(counted.total_ns(), gpu.kernel_ns);
    if (counted.total_ns() == 0 || share < kMinShareOfKernelTime) continue;

    Finding finding;
    finding.id = "tensor_cores.fp32_math";
    const std::string what = WhatRan(counted);
    const std::string label = mixed ? "CUDA-core" : "FP32 CUDA-core";
    if (mixed) {
      finding.severity =
          share >= kCriticalShareOfKernelTime ? Severity::kCritical : Severity::kWarning;
      finding.verdict = fmt::format(
          "{} on CUDA cores take {} of GPU {} kernel time ({}) in a mixed-precision run",
          Capitalized(what), base::FormatPercent(share), device.device_id,
          base::FormatDuration(counted.total_ns()));
    } else {
      finding.severity = Severity::kInfo;
      finding.verdict = fmt::format(
          "FP32 {} on CUDA cores take {} of GPU {} kernel time ({}) in an FP32 run: TF32 would "
          "run them on Tensor Cores",
          what, base::FormatPercent(share), device.device_id,
          base::FormatDuration(counted.total_ns()));
    }
    if (counted.gemm_kernels > 0) {
      finding.evidence.push_back(
          {label + " GEMMs", KernelsAndTime(counted.gemm_kernels, counted.gemm_ns, gpu.kernel_ns)});
    }
    if (counted.convolution_kernels > 0) {
      finding.evidence.push_back(
          {label + " convolutions",
           KernelsAndTime(counted.convolution_kernels, counted.convolution_ns, gpu.kernel_ns)});
    }
    finding.evidence.push_back({"GEMM and convolution time by unit", TimeByUnit(gpu.matrix())});
    if (mixed) {
      finding.evidence.push_back({"mixed precision, from", run.MixedPrecisionReason()});
      if (counted.grouped_ns > 0) {
        finding.evidence.push_back(
            {"grouped/depthwise convolutions on CUDA cores, not counted here",
             fmt::format("{} (see conv.grouped_fallback)",
                         base::FormatDuration(counted.grouped_ns))});
      }
    } else {
      finding.evidence.push_back(
          {"precision", "FP32: no FP16/BF16 kernels, GradScaler kernels or autocast casts"});
      finding.evidence.push_back(
          {"GPU", fmt::format("{} (sm_{}{}): TF32 Tensor Cores", model.Text(device.name),
                              device.compute_major, device.compute_minor)});
      if (counted.gemm_kernels > 0) {
        finding.evidence.push_back({"TF32 for matmuls",
                                    "torch.set_float32_matmul_precision(\"high\") or "
                                    "torch.backends.cuda.matmul.allow_tf32 = True"});
      }
      if (counted.convolution_kernels > 0) {
        finding.evidence.push_back({"TF32 for convolutions",
                                    "torch.backends.cudnn.allow_tf32 = True (PyTorch's default)"});
      }
    }
    finding.examples = counted.examples.Top(kExamples);
    finding.time_ns = counted.total_ns();
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
