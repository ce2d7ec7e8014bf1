#include "analyzers/facts/kernel_class.h"

#include <array>

namespace ampprof::analyzers {
namespace {

constexpr std::array kCategories = {
    KernelCategory::kUnknown,       KernelCategory::kGemm,         KernelCategory::kConvolution,
    KernelCategory::kAttention,     KernelCategory::kElementwise,  KernelCategory::kReduction,
    KernelCategory::kNormalization, KernelCategory::kLayoutTransform, KernelCategory::kCast,
    KernelCategory::kOptimizer,     KernelCategory::kGradScaler,   KernelCategory::kCommunication,
    KernelCategory::kCopy,          KernelCategory::kOther,
};

constexpr std::array kDataTypes = {
    DataType::kUnknown, DataType::kFp64, DataType::kFp32,  DataType::kTf32,
    DataType::kFp16,    DataType::kBf16, DataType::kFp8,   DataType::kFp4,
    DataType::kInt8,    DataType::kInt64, DataType::kInt32, DataType::kBool,
};

constexpr std::array kLibraries = {
    KernelLibrary::kUnknown,   KernelLibrary::kCublas,      KernelLibrary::kCublasLt,
    KernelLibrary::kCutlass,   KernelLibrary::kCudnn,       KernelLibrary::kAten,
    KernelLibrary::kTriton,    KernelLibrary::kNccl,        KernelLibrary::kFlashAttention,
    KernelLibrary::kCub,       KernelLibrary::kOther,       KernelLibrary::kTransformerEngine,
    KernelLibrary::kTensorRt,  KernelLibrary::kTensorRtLlm, KernelLibrary::kVllm,
    KernelLibrary::kSglang,    KernelLibrary::kFlashInfer,  KernelLibrary::kFlashMla,
    KernelLibrary::kDeepEp,    KernelLibrary::kDeepGemm,    KernelLibrary::kNvshmem,
    KernelLibrary::kNvFuser,   KernelLibrary::kApex,        KernelLibrary::kFbgemm,
    KernelLibrary::kTensorFlow,
};

template <typename Enum, size_t N>
std::optional<Enum> ParseId(std::string_view id, const std::array<Enum, N>& values,
                            std::string_view (*id_of)(Enum)) {
  for (Enum value : values) {
    if (id_of(value) == id) return value;
  }
  return std::nullopt;
}

}  // namespace

std::string_view KernelCategoryName(KernelCategory category) {
  switch (category) {
    case KernelCategory::kUnknown: return "unknown";
    case KernelCategory::kGemm: return "GEMM";
    case KernelCategory::kConvolution: return "convolution";
    case KernelCategory::kAttention: return "attention";
    case KernelCategory::kElementwise: return "elementwise";
    case KernelCategory::kReduction: return "reduction";
    case KernelCategory::kNormalization: return "normalization";
    case KernelCategory::kLayoutTransform: return "layout transform";
    case KernelCategory::kCast: return "cast";
    case KernelCategory::kOptimizer: return "optimizer";
    case KernelCategory::kGradScaler: return "GradScaler";
    case KernelCategory::kCommunication: return "communication";
    case KernelCategory::kCopy: return "copy";
    case KernelCategory::kOther: return "other";
  }
  return "unknown";
}

std::string_view KernelCategoryId(KernelCategory category) {
  switch (category) {
    case KernelCategory::kUnknown: return "unknown";
    case KernelCategory::kGemm: return "gemm";
    case KernelCategory::kConvolution: return "convolution";
    case KernelCategory::kAttention: return "attention";
    case KernelCategory::kElementwise: return "elementwise";
    case KernelCategory::kReduction: return "reduction";
    case KernelCategory::kNormalization: return "normalization";
    case KernelCategory::kLayoutTransform: return "layout_transform";
    case KernelCategory::kCast: return "cast";
    case KernelCategory::kOptimizer: return "optimizer";
    case KernelCategory::kGradScaler: return "grad_scaler";
    case KernelCategory::kCommunication: return "communication";
    case KernelCategory::kCopy: return "copy";
    case KernelCategory::kOther: return "other";
  }
  return "unknown";
}

std::string_view MathUnitName(MathUnit math) {
  switch (math) {
    case MathUnit::kNotApplicable: return "-";
    case MathUnit::kUnknown: return "unknown";
    case MathUnit::kTensorCore: return "Tensor Cores";
    case MathUnit::kTensorCoreTf32: return "Tensor Cores (TF32)";
    case MathUnit::kCudaCore: return "CUDA cores";
  }
  return "unknown";
}

MathUnit ReportedMathUnit(const KernelClass& k) {
  return k.category == KernelCategory::kUnknown ? MathUnit::kUnknown : k.math;
}

std::string_view MathUnitId(MathUnit math) {
  switch (math) {
    case MathUnit::kNotApplicable: return "none";
    case MathUnit::kUnknown: return "unknown";
    case MathUnit::kTensorCore:
    case MathUnit::kTensorCoreTf32: return "tensor_cores";
    case MathUnit::kCudaCore: return "cuda_cores";
  }
  return "unknown";
}

std::string_view DataTypeName(DataType dtype) {
  switch (dtype) {
    case DataType::kUnknown: return "unknown";
    case DataType::kFp64: return "FP64";
    case DataType::kFp32: return "FP32";
    case DataType::kTf32: return "TF32";
    case DataType::kFp16: return "FP16";
    case DataType::kBf16: return "BF16";
    case DataType::kFp8: return "FP8";
    case DataType::kFp4: return "FP4";
    case DataType::kInt8: return "INT8";
    case DataType::kInt64: return "INT64";
    case DataType::kInt32: return "INT32";
    case DataType::kBool: return "bool";
  }
  return "unknown";
}

std::string_view DataTypeId(DataType dtype) {
  switch (dtype) {
    case DataType::kUnknown: return "unknown";
    case DataType::kFp64: return "fp64";
    case DataType::kFp32: return "fp32";
    case DataType::kTf32: return "tf32";
    case DataType::kFp16: return "fp16";
    case DataType::kBf16: return "bf16";
    case DataType::kFp8: return "fp8";
    case DataType::kFp4: return "fp4";
    case DataType::kInt8: return "int8";
    case DataType::kInt64: return "int64";
    case DataType::kInt32: return "int32";
    case DataType::kBool: return "bool";
  }
  return "unknown";
}

std::string_view KernelLibraryName(KernelLibrary library) {
  switch (library) {
    case KernelLibrary::kUnknown: return "unknown";
    case KernelLibrary::kCublas: return "cuBLAS";
    case KernelLibrary::kCublasLt: return "cuBLASLt";
    case KernelLibrary::kCutlass: return "CUTLASS";
    case KernelLibrary::kCudnn: return "cuDNN";
    case KernelLibrary::kAten: return "ATen";
    case KernelLibrary::kTriton: return "Triton";
    case KernelLibrary::kNccl: return "NCCL";
    case KernelLibrary::kFlashAttention: return "FlashAttention";
    case KernelLibrary::kCub: return "CUB";
    case KernelLibrary::kOther: return "other";
    case KernelLibrary::kTransformerEngine: return "Transformer Engine";
    case KernelLibrary::kTensorRt: return "TensorRT";
    case KernelLibrary::kTensorRtLlm: return "TensorRT-LLM";
    case KernelLibrary::kVllm: return "vLLM";
    case KernelLibrary::kSglang: return "SGLang";
    case KernelLibrary::kFlashInfer: return "FlashInfer";
    case KernelLibrary::kFlashMla: return "FlashMLA";
    case KernelLibrary::kDeepEp: return "DeepEP";
    case KernelLibrary::kDeepGemm: return "DeepGEMM";
    case KernelLibrary::kNvshmem: return "NVSHMEM";
    case KernelLibrary::kNvFuser: return "nvFuser";
    case KernelLibrary::kApex: return "Apex";
    case KernelLibrary::kFbgemm: return "FBGEMM";
    case KernelLibrary::kTensorFlow: return "TensorFlow";
  }
  return "unknown";
}

std::string_view KernelLibraryId(KernelLibrary library) {
  switch (library) {
    case KernelLibrary::kUnknown: return "unknown";
    case KernelLibrary::kCublas: return "cublas";
    case KernelLibrary::kCublasLt: return "cublaslt";
    case KernelLibrary::kCutlass: return "cutlass";
    case KernelLibrary::kCudnn: return "cudnn";
    case KernelLibrary::kAten: return "aten";
    case KernelLibrary::kTriton: return "triton";
    case KernelLibrary::kNccl: return "nccl";
    case KernelLibrary::kFlashAttention: return "flash_attention";
    case KernelLibrary::kCub: return "cub";
    case KernelLibrary::kOther: return "other";
    case KernelLibrary::kTransformerEngine: return "transformer_engine";
    case KernelLibrary::kTensorRt: return "tensorrt";
    case KernelLibrary::kTensorRtLlm: return "tensorrt_llm";
    case KernelLibrary::kVllm: return "vllm";
    case KernelLibrary::kSglang: return "sglang";
    case KernelLibrary::kFlashInfer: return "flashinfer";
    case KernelLibrary::kFlashMla: return "flashmla";
    case KernelLibrary::kDeepEp: return "deepep";
    case KernelLibrary::kDeepGemm: return "deepgemm";
    case KernelLibrary::kNvshmem: return "nvshmem";
    case KernelLibrary::kNvFuser: return "nvfuser";
    case KernelLibrary::kApex: return "apex";
    case KernelLibrary::kFbgemm: return "fbgemm";
    case KernelLibrary::kTensorFlow: return "tensorflow";
  }
  return "unknown";
}

std::optional<KernelCategory> ParseKernelCategoryId(std::string_view id) {
  return ParseId(id, kCategories, &KernelCategoryId);
}

std::optional<DataType> ParseDataTypeId(std::string_view id) { return ParseId(id, kDataTypes, &DataTypeId); }

std::optional<KernelLibrary> ParseKernelLibraryId(std::string_view id) {
  return ParseId(id, kLibraries, &KernelLibraryId);
}

std::span<const KernelCategory> AllKernelCategories() { return kCategories; }
std::span<const DataType> AllDataTypes() { return kDataTypes; }
std::span<const KernelLibrary> AllKernelLibraries() { return kLibraries; }

}  // namespace ampprof::analyzers
