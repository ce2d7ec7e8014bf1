#ifndef AMPPROF_ANALYZERS_KERNEL_CLASS_H_
#define AMPPROF_ANALYZERS_KERNEL_CLASS_H_

// What a GPU kernel is: the result of classifying its name (kernel_classifier.h). Every value has two
// spellings: a display name for reports ("layout transform", "Tensor Cores (TF32)") and a stable
// lower-case id for the rule table and JSON ("layout_transform", "tensor_cores"); Parse*Id reads the id.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ampprof::analyzers {

enum class KernelCategory : uint8_t {
  kUnknown,
  kGemm,             // matrix multiply (and matrix-vector) kernels, with their split-K/epilogue helpers
  kConvolution,      // convolution kernels and their cuDNN helpers (offset tables, im2col, transforms)
  kAttention,        // fused attention (FlashAttention 2/3/4, cuDNN and CUTLASS FMHA, ...) and its helpers
  kElementwise,      // pointwise kernels, activations, random number generation, indexing
  kReduction,        // sums, means, softmax, losses, top-k
  kNormalization,    // batch, layer, RMS, group and instance normalisation
  kLayoutTransform,  // NCHW <-> NHWC conversions around convolutions
  kCast,             // dtype conversions: autocast copies, quantisation to FP8/FP4
  kOptimizer,        // optimizer updates (multi-tensor-apply foreach kernels, fused Adam/SGD)
  kGradScaler,       // GradScaler's unscale/inf-check and scale update
  kCommunication,    // collectives and peer transfers: NCCL, NVSHMEM, symmetric memory, expert parallelism
  kCopy,             // same-dtype copies, concatenations and permutations done by kernels
  kOther,            // a recognised kernel (pooling, sorting, embedding, ...) of none of the above
};

enum class MathUnit : uint8_t {
  kNotApplicable,    // not a GEMM, convolution or attention kernel, or a helper kernel of one
  kUnknown,          // a GEMM/convolution/attention kernel whose name does not say
  kTensorCore,       // HMMA/GMMA/UMMA (FP16, BF16, FP8, FP4) or IMMA (INT8)
  kTensorCoreTf32,   // Tensor Cores on FP32 data (TF32)
  kCudaCore,         // FFMA/HFMA/DFMA on CUDA cores (SIMT)
};

enum class DataType : uint8_t {
  kUnknown, kFp64, kFp32, kTf32, kFp16, kBf16, kFp8, kFp4, kInt8, kInt64, kInt32, kBool,
};

enum class KernelLibrary : uint8_t {
  kUnknown,
  kCublas,
  kCublasLt,  // including nvjet
  kCutlass,
  kCudnn,
  kAten,      // PyTorch's own kernels (ATen, c10d symmetric memory)
  kTriton,
  kNccl,
  kFlashAttention,
  kCub,
  kOther,     // another recognised library
  kTransformerEngine,
  kTensorRt,
  kTensorRtLlm,
  kVllm,
  kSglang,
  kFlashInfer,
  kFlashMla,
  kDeepEp,
  kDeepGemm,
  kNvshmem,
  kNvFuser,
  kApex,
  kFbgemm,
  kTensorFlow,
};

struct KernelClass {
  KernelCategory category = KernelCategory::kUnknown;
  MathUnit math = MathUnit::kNotApplicable;
  DataType dtype = DataType::kUnknown;
  KernelLibrary library = KernelLibrary::kUnknown;
  uint8_t alignment = 0;  // vector alignment of A, in elements (align1/2/4/8), 0 when the name does not say
  bool grouped = false;   // a grouped GEMM (MoE experts) or a grouped/depthwise convolution kernel
  // A matrix-vector product (GEMV): bound by reading the matrix, so Tensor Cores would not speed it up
  // and its CUDA-core time is not a missed Tensor-Core opportunity.
  bool matrix_vector = false;

  friend bool operator==(const KernelClass&, const KernelClass&) = default;
};

// Display names, for reports.
std::string_view KernelCategoryName(KernelCategory category);
std::string_view MathUnitName(MathUnit math);
std::string_view DataTypeName(DataType dtype);
std::string_view KernelLibraryName(KernelLibrary library);

// Stable ids, for the rule table and machine-readable output. A math unit's id folds TF32 into
// "tensor_cores" (the dtype says TF32) and kNotApplicable is "none".
std::string_view KernelCategoryId(KernelCategory category);
std::string_view MathUnitId(MathUnit math);
std::string_view DataTypeId(DataType dtype);
std::string_view KernelLibraryId(KernelLibrary library);

// The unit to report for `k`: its math unit, except that a kernel no rule knows may or may not do
// matrix math, so its unit is kUnknown rather than kNotApplicable ("none").
MathUnit ReportedMathUnit(const KernelClass& k);

std::optional<KernelCategory> ParseKernelCategoryId(std::string_view id);
std::optional<DataType> ParseDataTypeId(std::string_view id);
std::optional<KernelLibrary> ParseKernelLibraryId(std::string_view id);

// Every value, in declaration order (for listing the valid ids in an error message).
std::span<const KernelCategory> AllKernelCategories();
std::span<const DataType> AllDataTypes();
std::span<const KernelLibrary> AllKernelLibraries();

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_KERNEL_CLASS_H_
