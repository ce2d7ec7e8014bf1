#include "analyzers/facts/precision.h"


#include <vector>

#include "src/base/format.h"

namespace ampprof::analyzers {
namespace {

void AddTo(base::DurationNs& sum, base::DurationNs duration) {
  sum = base::SaturatingAdd(sum, duration);
}

void AddMatrix(MatrixTime& time, const KernelClass& kernel, base::DurationNs duration) {
  const bool low = IsLowPrecision(kernel.dtype);
  if (low && kernel.math != MathUnit::kNotApplicable) {
    AddTo(time.low_precision_ns, duration);
    ++time.low_precision_kernels;
  }
  switch (kernel.math) {
    case MathUnit::kNotApplicable:
      AddTo(time.helper_ns, duration);
      return;
    case MathUnit::kUnknown:
      AddTo(time.unknown_unit_ns, duration);
      return;
    case MathUnit::kTensorCoreTf32:
      AddTo(time.tf32_ns, duration);
      return;
    case MathUnit::kTensorCore:
      AddTo(low ? time.low_precision_tensor_core_ns : time.other_tensor_core_ns, duration);
      return;
    case MathUnit::kCudaCore:
      AddTo(kernel.dtype == DataType::kFp32 ? time.fp32_cuda_core_ns
            : low                           ? time.low_precision_cuda_core_ns
                                            : time.other_cuda_core_ns,
            duration);
      return;
  }
}

}  // namespace

bool IsLowPrecision(DataType dtype) {
  return dtype == DataType::kFp16 || dtype == DataType::kBf16 || dtype == DataType::kFp8;
}

base::DurationNs MatrixTime::total_ns() const {
  base::DurationNs total = 0;
  for (base::DurationNs part :
       {low_precision_tensor_core_ns, tf32_ns, other_tensor_core_ns, fp32_cuda_core_ns,
        low_precision_cuda_core_ns, other_cuda_core_ns, unknown_unit_ns, helper_ns}) {
    AddTo(total, part);
  }
  return total;
}

MatrixTime& MatrixTime::operator+=(const MatrixTime& other) {
  AddTo(low_precision_tensor_core_ns, other.low_precision_tensor_core_ns);
  AddTo(tf32_ns, other.tf32_ns);
  AddTo(other_tensor_core_ns, other.other_tensor_core_ns);
  AddTo(fp32_cuda_core_ns, other.fp32_cuda_core_ns);
  AddTo(low_precision_cuda_core_ns, other.low_precision_cuda_core_ns);
  AddTo(other_cuda_core_ns, other.other_cuda_core_ns);
  AddTo(unknown_unit_ns, other.unknown_unit_ns);
  AddTo(helper_ns, other.helper_ns);
  AddTo(low_precision_ns, other.low_precision_ns);
  low_precision_kernels += other.low_precision_kernels;
  return *this;
}

MatrixTime PrecisionEvidence::matrix() const {
  MatrixTime sum = gemm;
  sum += convolution;
  return sum;
}

bool PrecisionEvidence::MixedPrecision() const {
  return gemm.low_precision_kernels > 0 || convolution.low_precision_kernels > 0 ||
         low_precision_attention_ns > 0 || scaler_kernels > 0 || low_precision_casts > 0;
}

bool PrecisionEvidence::TriedReducedPrecisionMath() const {
  return matrix().low_precision_ns > 0 || low_precision_attention_ns > 0 || scaler_kernels > 0;
}

void PrecisionEvidence::Add(const KernelClass& kernel, base::DurationNs duration) {
  AddTo(kernel_ns, duration);
  switch (kernel.category) {
    case KernelCategory::kGemm:
      AddMatrix(gemm, kernel, duration);
      break;
    case KernelCategory::kConvolution:
      AddMatrix(convolution, kernel, duration);
      break;
    case KernelCategory::kAttention:
      if (IsLowPrecision(kernel.dtype)) AddTo(low_precision_attention_ns, duration);
      break;
    case KernelCategory::kGradScaler:
      ++scaler_kernels;
      break;
    case KernelCategory::kCast:
      if (IsLowPrecision(kernel.dtype)) ++low_precision_casts;
      break;
    default:
      break;
  }
  // Attention counts only in FP16/BF16: the classifier calls every fused attention kernel Tensor
  // Core, and an FP32 one (fmha_cutlassF_f32_...) proves nothing about the GPU.
  const bool matrix =
      kernel.category == KernelCategory::kGemm || kernel.category == KernelCategory::kConvolution;
  const bool low_precision_attention =
      kernel.category == KernelCategory::kAttention && IsLowPrecision(kernel.dtype);
  if ((matrix || low_precision_attention) &&
      (kernel.math == MathUnit::kTensorCore || kernel.math == MathUnit::kTensorCoreTf32)) {
    ++tensor_core_kernels;
  }
}

PrecisionEvidence DescribePrecision(const AnalysisInput& input) {
  PrecisionEvidence evidence;
  const model::KernelTable& kernels = input.model.kernels();
  for (uint32_t row = 0; row < kernels.size(); ++row) {
    const model::KernelRow kernel(row);
    evidence.Add(input.ClassOf(kernel), kernels.duration(kernel));
  }
  return evidence;
}

PrecisionEvidence DescribePrecision(const AnalysisInput& input, const model::Device& device) {
  PrecisionEvidence evidence;
  for (model::KernelRow kernel : device.kernels) {
    evidence.Add(input.ClassOf(kernel), input.model.kernels().duration(kernel));
  }
  return evidence;
}

TensorCoreSupport TensorCoresOf(const model::Device& device, const PrecisionEvidence& evidence) {
  if (device.has_properties && device.compute_major > 0) {
    return device.compute_major >= kFirstTensorCoreMajor ? TensorCoreSupport::kYes
                                                         : TensorCoreSupport::kNo;
  }
  return evidence.tensor_core_kernels > 0 ? TensorCoreSupport::kYes : TensorCoreSupport::kUnknown;
}

}  // namespace ampprof::analyzers
