#ifndef AMPPROF_ANALYZERS_FACTS_KERNEL_CLASSIFIER_H_
#define AMPPROF_ANALYZERS_FACTS_KERNEL_CLASSIFIER_H_

// What a GPU kernel is, from its name alone: its category (GEMM, convolution, layout transform, cast,
// GradScaler, ...), the math unit it runs on (Tensor Cores or CUDA cores), its data type, the library
// that launched it, and for Tensor-Core kernels the vector alignment of the variant. Every analyzer
// reads kernels through this.
//
//   const KernelClass k = ClassifyKernel("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn");
//   k.category == KernelCategory::kGemm;   k.math == MathUnit::kTensorCore;   k.dtype == DataType::kFp16
//
// Names are matched as CUPTI, Kineto or Nsight Systems give them: mangled or demangled, with either
// demangler's spelling of anonymous namespaces and template arguments. Rules are facts about real
// kernel names (../shared/design/CUPTI-NOTES.md §4 and §6, the shared fixtures), pinned by a table test
// of real names from Volta to Blackwell. A name no rule knows is kUnknown, never a guess; a known
// library's kernel whose operation is not one of the categories is kOther.

#include <cstdint>
#include <string_view>

namespace ampprof::analyzers {

enum class KernelCategory : uint8_t {
  kUnknown,
  kGemm,             // matrix multiply (and matrix-vector) kernels, with their split-K/epilogue helpers
  kConvolution,      // convolution kernels and their cuDNN helpers (offset tables, im2col)
  kAttention,        // fused attention (FlashAttention, fmha)
  kElementwise,      // pointwise ATen/Triton kernels, random number generation, indexing
  kReduction,        // sums, means, norms, softmax, losses
  kLayoutTransform,  // NCHW <-> NHWC conversions around convolutions
  kCast,             // dtype conversions (autocast's float <-> half/bfloat16 copies)
  kOptimizer,        // optimizer updates (multi-tensor-apply foreach kernels, fused Adam/SGD)
  kGradScaler,       // GradScaler's unscale/inf-check and scale update
  kCommunication,    // NCCL collectives
  kCopy,             // same-dtype copies and concatenations done by kernels
  kOther,            // a recognised kernel (normalisation, pooling, sorting, embedding, ...) of none of the above
};

enum class MathUnit : uint8_t {
  kNotApplicable,    // not a GEMM or convolution, or a helper kernel of one
  kUnknown,          // a GEMM/convolution whose name does not say
  kTensorCore,       // HMMA/GMMA (FP16, BF16, FP8) or IMMA (INT8)
  kTensorCoreTf32,   // Tensor Cores on FP32 data (TF32)
  kCudaCore,         // FFMA/HFMA/DFMA on CUDA cores (SIMT)
};

enum class DataType : uint8_t { kUnknown, kFp64, kFp32, kTf32, kFp16, kBf16, kFp8, kInt8, kInt64, kInt32, kBool };

enum class KernelLibrary : uint8_t {
  kUnknown,
  kCublas,
  kCublasLt,  // including nvjet
  kCutlass,
  kCudnn,
  kAten,      // PyTorch's own kernels
  kTriton,
  kNccl,
  kFlashAttention,
  kCub,
  kOther,     // another recognised library (FBGEMM, nvFuser, ...)
};

struct KernelClass {
  KernelCategory category = KernelCategory::kUnknown;
  MathUnit math = MathUnit::kNotApplicable;
  DataType dtype = DataType::kUnknown;
  KernelLibrary library = KernelLibrary::kUnknown;
  uint8_t alignment = 0;  // vector alignment of A, in elements (align1/2/4/8), 0 when the name does not say
  bool grouped = false;   // a grouped or depthwise convolution kernel

  friend bool operator==(const KernelClass&, const KernelClass&) = default;
};

KernelClass ClassifyKernel(std::string_view name);

std::string_view KernelCategoryName(KernelCategory category);
std::string_view MathUnitName(MathUnit math);
std::string_view DataTypeName(DataType dtype);
std::string_view KernelLibraryName(KernelLibrary library);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_KERNEL_CLASSIFIER_H_
