#include "analyzers/facts/kernel_classifier.h"

#include <string.h>  // memmem (GNU)

#include <initializer_list>

namespace ampprof::analyzers {
namespace {

// memmem, not string_view::find: glibc's looks for pairs of bytes, where find stops at every byte that
// starts the part. Names are classified once each, but a trace can have a million of them.
bool Contains(std::string_view name, std::string_view part) {
  // An empty name's data() may be null, which memmem must not be given (UBSan found it on fuzz inputs).
  if (part.size() > name.size()) return false;
  if (part.empty()) return true;
  return memmem(name.data(), name.size(), part.data(), part.size()) != nullptr;
}

bool ContainsAny(std::string_view name, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts) {
    if (Contains(name, part)) return true;
  }
  return false;
}

// The kernel's own name without "void " and without its parameter list, so that template arguments of
// the parameters do not count (they repeat the kernel's).
std::string_view Head(std::string_view name) {
  if (name.substr(0, 5) == "void ") name.remove_prefix(5);
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0 && i > 0 && name.substr(i, 21) != "(anonymous namespace)") {
      return name.substr(0, i);
    }
  }
  return name;
}

// ---- Library ----

KernelLibrary LibraryOf(std::string_view name) {
  if (ContainsAny(name, {"ncclKernel", "ncclDevKernel"}) || name.substr(0, 4) == "nccl") return KernelLibrary::kNccl;
  if (ContainsAny(name, {"flash_fwd", "flash_bwd", "pytorch_flash", "fmha"})) return KernelLibrary::kFlashAttention;
  if (Contains(name, "nvjet_") || Contains(name, "epilogue::impl") || Contains(name, "cublasLt")) {
    return KernelLibrary::kCublasLt;
  }
  if (Contains(name, "triton_") || Contains(name, "triton::")) return KernelLibrary::kTriton;
  if (ContainsAny(name, {"cutlass::Kernel", "cutlass_", "cutlass3x"})) return KernelLibrary::kCutlass;
  if (Contains(name, "_5x_cublas")) return KernelLibrary::kCublas;
  if (ContainsAny(name, {"cudnn", "_5x_cudnn", "implicit_convolve_sgemm", "explicit_convolve_sgemm", "fft2d_",
                         "nchwToNhwc", "nhwcToNchw", "FoldedNhwc", "foldedNhwc", "xmma_fprop", "xmma_dgrad", "xmma_wgrad",
                         "xmma_depthwise"})) {
    return KernelLibrary::kCudnn;
  }
  if (ContainsAny(name, {"sgemm", "dgemm", "hgemm", "gcgemm", "xmma_gemm", "gemmSN", "gemmk1_kernel", "gemv",
                         "splitKreduce", "scal_kernel", "cublas", "s884gemm", "h884gemm", "s1688gemm", "h1688gemm",
                         "s16816gemm", "h16816gemm"})) {
    return KernelLibrary::kCublas;
  }
  if (Contains(name, "at_cuda_detail::cub") || Contains(name, "cub::")) return KernelLibrary::kCub;
  const std::string_view head = Head(name);
  if (!Contains(head, "elementwise_kernel") &&
      ContainsAny(head, {"fbgemm", "split_embedding", "permute_pooled_embs", "bounds_check_indices",
                         "linearize_index_kernel", "nvfuser_"})) {
    return KernelLibrary::kOther;
  }
  if (ContainsAny(name, {"at::native", "at::cuda", "softmax_warp_", "cunn_", "c10::", "elementwise_kernel"})) {
    return KernelLibrary::kAten;
  }
  return KernelLibrary::kUnknown;
}

// ---- Data type ----

// The lowest-precision floating-point type a GEMM/convolution name spells, in its own naming scheme.
DataType MatrixDtype(std::string_view name) {
  if (Contains(name, "nvjet_")) {
    // nvjet_[smNN_]<A><B><C>_...: the first letter is the input type (h FP16, t BF16, s FP32, e FP8).
    std::string_view rest = name.substr(name.find("nvjet_") + 6);
    if (rest.substr(0, 2) == "sm") rest = rest.substr(rest.find('_') + 1);
    switch (rest.empty() ? ' ' : rest[0]) {
      case 'h': return DataType::kFp16;
      case 't': return DataType::kBf16;
      case 's': return DataType::kTf32;
      case 'e': case 'q': return DataType::kFp8;
      default: return DataType::kUnknown;
    }
  }
  if (Contains(name, "tf32")) return DataType::kTf32;
  if (ContainsAny(name, {"bf16", "bfloat16"})) return DataType::kBf16;
  if (ContainsAny(name, {"e4m3", "e5m2", "fp8", "qgmma"})) return DataType::kFp8;
  if (ContainsAny(name, {"f16", "fp16", "h884", "h1688", "h16816", "hgemm", "hgmma", "_half", "__half"})) {
    return DataType::kFp16;
  }
  if (ContainsAny(name, {"i8816", "i16832", "imma", "igmma", "i8i8"})) return DataType::kInt8;
  if (ContainsAny(name, {"dgemm", "d884", "d1688"})) return DataType::kFp64;
  if (ContainsAny(name, {"sgemm", "scudnn", "s884", "s1688", "s16816", "f32", "gcgemm", "convolve_sgemm",
                         "<float", "winograd", "fft2d", "gemv", "gemmSN", "gemmk1", "engine<float"})) {
    return DataType::kFp32;
  }
  return DataType::kUnknown;
}

// The first element type among a kernel's template arguments (ATen, CUB, cuDNN helpers).
DataType TemplateDtype(std::string_view head) {
  struct Token {
    std::string_view text;
    DataType dtype;
  };
  static constexpr Token kTokens[] = {
      {"BFloat16", DataType::kBf16}, {"bfloat16", DataType::kBf16}, {"Half", DataType::kFp16},
      {"__half", DataType::kFp16},   {"half_t", DataType::kFp16},   {"Float8", DataType::kFp8},
      {"double", DataType::kFp64},   {"float", DataType::kFp32},    {"long", DataType::kInt64},
      {"bool", DataType::kBool},     {"<int", DataType::kInt32},    {" int,", DataType::kInt32},
  };
  size_t best = std::string_view::npos;
  DataType dtype = DataType::kUnknown;
  for (const Token& token : kTokens) {
    const size_t at = head.find(token.text);
    if (at < best) {
      best = at;
      dtype = token.dtype;
    }
  }
  return dtype;
}

DataType NcclDtype(std::string_view name) {
  if (ContainsAny(name, {"_bf16", "bfloat16"})) return DataType::kBf16;
  if (ContainsAny(name, {"_f16", "_half"})) return DataType::kFp16;
  if (ContainsAny(name, {"_f32", "_float"})) return DataType::kFp32;
  if (ContainsAny(name, {"_f64", "_double"})) return DataType::kFp64;
  if (ContainsAny(name, {"int8", "_i8", "uint8"})) return DataType::kInt8;
  if (ContainsAny(name, {"_i32", "int32"})) return DataType::kInt32;
  if (ContainsAny(name, {"_i64", "int64"})) return DataType::kInt64;
  return DataType::kUnknown;
}

// ---- Math unit ----

MathUnit MatrixMathUnit(std::string_view name, DataType dtype) {
  // SIMT first: some xmma FP32 names also carry tile words, but "ffma" or "_simt_" settles it.
  if (ContainsAny(name, {"ffma", "_simt_"})) return MathUnit::kCudaCore;
  if (ContainsAny(name, {"tensorop", "wmma", "gmma", "tensor16x8x", "nvjet_", "cutlass3x", "warpgroupsize",
                         "884gemm", "884cudnn", "1688gemm", "1688cudnn", "16816gemm", "16816cudnn", "1684",
                         "i8816", "16832", "161616", "s1688fprop", "h1688fprop"})) {
    return dtype == DataType::kTf32 || dtype == DataType::kFp32 ? MathUnit::kTensorCoreTf32 : MathUnit::kTensorCore;
  }
  if (ContainsAny(name, {"tf32"})) return MathUnit::kTensorCoreTf32;
  if (ContainsAny(name, {"sgemm", "dgemm", "hgemm", "gcgemm", "scudnn", "implicit_convolve", "explicit_convolve",
                         "winograd", "fft2d", "gemv", "gemmSN", "gemmk1", "wgrad_alg0_engine", "dgrad_engine",
                         "grouped_direct", "conv_depthwise2d"})) {
    return MathUnit::kCudaCore;
  }
  return MathUnit::kUnknown;
}

// ---- Alignment ----

// "align8", "_align1", "aligna4": the A operand's vector alignment, in elements.
uint8_t AlignmentOf(std::string_view name) {
  for (size_t at = name.find("align"); at != std::string_view::npos; at = name.find("align", at + 5)) {
    size_t digits = at + 5;
    if (digits < name.size() && name[digits] == 'a') ++digits;  // xmma: aligna4 (A), alignc4 (C)
    unsigned value = 0;
    size_t end = digits;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9' && end - digits < 3) {
      value = value * 10 + static_cast<unsigned>(name[end] - '0');
      ++end;
    }
    if (end > digits && value > 0 && value <= 128) return static_cast<uint8_t>(value);
  }
  return 0;
}

// ---- Categories ----

bool IsConvolution(std::string_view name) {
  return ContainsAny(name, {"fprop", "dgrad", "wgrad", "convolve_sgemm", "conv2d", "convNd", "conv_depthwise",
                            "depthwise_convolution", "winograd", "fft2d", "scudnn", "cask_cudnn", "im2col",
                            "implicit_gemm", "s884cudnn", "h884cudnn", "1688cudnn", "16816cudnn"});
}

bool IsGemm(std::string_view name) {
  return ContainsAny(name, {"gemm", "gemv", "nvjet_", "splitKreduce", "epilogue::impl", "gemmSN", "gemmk1"});
}

// Helpers that belong to a GEMM or convolution but do no matrix math themselves.
bool IsMatrixHelper(std::string_view name) {
  return ContainsAny(name, {"splitKreduce", "epilogue::impl", "computeOffsetsKernel", "computeBOffsetsKernel",
                            "computeWgradBOffsetsKernel", "computeWgradSplitKOffsetsKernel", "im2col",
                            "generateWinogradTilesKernel"});
}

KernelClass Matrix(std::string_view name, KernelCategory category) {
  KernelClass k;
  k.category = category;
  k.dtype = MatrixDtype(name);
  k.math = IsMatrixHelper(name) ? MathUnit::kNotApplicable : MatrixMathUnit(name, k.dtype);
  // FP32 operands on Tensor Cores are TF32 whatever the name spells them as.
  if (k.math == MathUnit::kTensorCoreTf32) k.dtype = DataType::kTf32;
  if (k.math == MathUnit::kTensorCore || k.math == MathUnit::kTensorCoreTf32) k.alignment = AlignmentOf(name);
  k.grouped = ContainsAny(name, {"grouped", "depthwise"});
  return k;
}

KernelClass Classify(std::string_view name) {
  const std::string_view head = Head(name);
  KernelClass k;
  // GradScaler before optimizers and casts: its kernels are multi-tensor-apply foreach kernels too.
  if (ContainsAny(name, {"_amp_foreach_non_finite_check_and_unscale", "_amp_non_finite_check_and_unscale",
                         "amp_update_scale"})) {
    k.category = KernelCategory::kGradScaler;
    k.dtype = TemplateDtype(head);
    return k;
  }
  if (ContainsAny(name, {"ncclKernel", "ncclDevKernel"}) || name.substr(0, 4) == "nccl") {
    k.category = KernelCategory::kCommunication;
    k.dtype = NcclDtype(name);
    return k;
  }
  if (ContainsAny(name, {"nchwToNhwc", "nhwcToNchw", "FoldedNhwc", "NhwcToNchw"})) {
    k.category = KernelCategory::kLayoutTransform;
    k.dtype = TemplateDtype(head);
    return k;
  }
  if (ContainsAny(name, {"flash_fwd", "flash_bwd", "fmha", "attention_kernel", "efficient_attention"})) {
    k.category = KernelCategory::kAttention;
    k.math = MathUnit::kTensorCore;
    k.dtype = ContainsAny(name, {"bfloat16", "bf16"}) ? DataType::kBf16
              : ContainsAny(name, {"half", "f16"})    ? DataType::kFp16
                                                      : DataType::kUnknown;
    return k;
  }
  // A copy that converts: the dedicated autocast copy kernels, or ATen's generic copy with casting
  // loads/stores (older PyTorch). LoadWithCast on other functors is type promotion inside an op.
  const bool casting_copy = Contains(name, "direct_copy_kernel_cuda") && ContainsAny(name, {"LoadWithCast", "StoreWithCast"});
  if (casting_copy || ContainsAny(name, {"float16_copy_kernel_cuda", "bfloat16_copy_kernel_cuda", "float8_copy_kernel_cuda",
                                         "tofloat32_copy_kernel_cuda"})) {
    k.category = KernelCategory::kCast;
    // The reduced-precision side of the conversion.
    k.dtype = ContainsAny(name, {"bfloat16", "BFloat16"}) ? DataType::kBf16
              : ContainsAny(name, {"float8", "Float8"})   ? DataType::kFp8
              : ContainsAny(name, {"float16", "Half"})    ? DataType::kFp16
                                                          : TemplateDtype(head);
    return k;
  }
  if (ContainsAny(name, {"multi_tensor_apply_kernel", "fused_adam", "FusedAdam", "AdamFunctor", "_fused_sgd",
                         "FusedSgd", "LambStage"})) {
    k.category = KernelCategory::kOptimizer;
    k.dtype = TemplateDtype(head);
    return k;
  }
  if (Contains(name, "triton_")) {  // Inductor's naming: triton_poi_ pointwise, _red_/_per_ reductions
    if (Contains(name, "triton_poi")) k.category = KernelCategory::kElementwise;
    if (ContainsAny(name, {"triton_red", "triton_per"})) k.category = KernelCategory::kReduction;
    if (Contains(name, "triton_tem")) {
      k.category = KernelCategory::kGemm;
      k.math = MathUnit::kUnknown;
    }
    return k;
  }
  // FBGEMM's embedding kernels: "gemm" is in the library's name, not in what they do. (An ATen
  // elementwise kernel running an FBGEMM lambda stays elementwise.)
  if (!Contains(head, "elementwise_kernel") && ContainsAny(head, {"fbgemm", "split_embedding", "permute_pooled_embs", "bounds_check_indices",
                         "linearize_index_kernel"})) {
    k.category = KernelCategory::kOther;
    k.dtype = TemplateDtype(head);
    return k;
  }
  // Decided on the kernel's own name (head): parameter lists name types such as fbgemm_gpu::... too.
  if (!Contains(head, "elementwise_kernel") && IsConvolution(head)) return Matrix(name, KernelCategory::kConvolution);
  if (!Contains(head, "elementwise_kernel") && IsGemm(head)) return Matrix(name, KernelCategory::kGemm);
  k.dtype = TemplateDtype(head);
  if (ContainsAny(head, {"reduce_kernel", "softmax", "SoftMax", "nll_loss", "ClassNLLCriterion", "DeviceReduce"})) {
    k.category = KernelCategory::kReduction;
  } else if (ContainsAny(head, {"CatArrayBatchedCopy", "direct_copy_kernel_cuda", "copy_device_to_device"})) {
    k.category = KernelCategory::kCopy;
  } else if (ContainsAny(head, {"elementwise_kernel", "distribution_elementwise", "fused_dropout", "scal_kernel"})) {
    k.category = KernelCategory::kElementwise;
  } else if (LibraryOf(name) != KernelLibrary::kUnknown && !Contains(name, "nvfuser_")) {
    k.category = KernelCategory::kOther;  // normalisation, pooling, sorting, embeddings, ...
  }
  return k;
}

}  // namespace

KernelClass ClassifyKernel(std::string_view name) {
  KernelClass k = Classify(name);
  k.library = LibraryOf(name);
  return k;
}

std::string_view KernelCategoryName(KernelCategory category) {
  switch (category) {
    case KernelCategory::kUnknown: return "unknown";
    case KernelCategory::kGemm: return "GEMM";
    case KernelCategory::kConvolution: return "convolution";
    case KernelCategory::kAttention: return "attention";
    case KernelCategory::kElementwise: return "elementwise";
    case KernelCategory::kReduction: return "reduction";
    case KernelCategory::kLayoutTransform: return "layout transform";
    case KernelCategory::kCast: return "cast";
    case KernelCategory::kOptimizer: return "optimizer";
    case KernelCategory::kGradScaler: return "GradScaler";
    case KernelCategory::kCommunication: return "NCCL";
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

std::string_view DataTypeName(DataType dtype) {
  switch (dtype) {
    case DataType::kUnknown: return "unknown";
    case DataType::kFp64: return "FP64";
    case DataType::kFp32: return "FP32";
    case DataType::kTf32: return "TF32";
    case DataType::kFp16: return "FP16";
    case DataType::kBf16: return "BF16";
    case DataType::kFp8: return "FP8";
    case DataType::kInt8: return "INT8";
    case DataType::kInt64: return "INT64";
    case DataType::kInt32: return "INT32";
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
  }
  return "unknown";
}

}  // namespace ampprof::analyzers
