#ifndef AMPPROF_TESTS_ANALYZERS_SYNTHETIC_RUN_H_
#define AMPPROF_TESTS_ANALYZERS_SYNTHETIC_RUN_H_

// Synthetic runs for analyzer tests: kernels with real names (each recorded by a profiler on a real
// GPU: the shared fixtures, or the names pinned in kernel_classifier_test.cc) laid end to end on
// one or more GPUs, optionally described by a device record.
//
//   const SyntheticRun run = BuildRun({{kFp16Gemm, 900}, {kFp32Gemm, 100}}, {kH100});
//   const std::vector<Finding> findings = AnalyzeFp32Math(run.input());

#include <initializer_list>
#include <string_view>
#include <vector>

#include <memory>
#include <string>

#include "analyzers/findings/registry.h"
#include "reports/common/statement_text.h"
#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers::testing {

// GEMMs.
// cuBLAS on H100 (CUPTI-NOTES §4.1, classifier table)
inline constexpr std::string_view kFp16TensorCoreGemm =
    "sm90_xmma_gemm_f16f16_f16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_"
    "k_off_kernel__5x_cublas";
// HTA A100 fixtures
inline constexpr std::string_view kFp32SimtGemm = "ampere_sgemm_128x64_nn";
// cuBLASLt FP32 on H100
inline constexpr std::string_view kFp32SimtGemmH100 =
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas";
// CUTLASS SIMT: an alignment tag on CUDA cores
inline constexpr std::string_view kFp32SimtGemmAlign1 =
    "void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_"
    "128x32_8x5_nn_align1::Params)";
// HTA sampled_rank-0 (A100)
inline constexpr std::string_view kTf32GemmAlign1 =
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nt_align1>(cutlass_80_"
    "tensorop_s1688gemm_128x128_16x4_nt_align1::Params)";
// HTA sampled_rank-0 (A100)
inline constexpr std::string_view kTf32GemmAlign4 =
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>(cutlass_80_"
    "tensorop_s1688gemm_64x64_16x6_nt_align4::Params)";
// CUPTI-NOTES §4.1
inline constexpr std::string_view kFp16GemmAlign2 =
    "void cutlass::Kernel<cutlass_80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align2>(cutlass_"
    "80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align2::Params)";
// HTA V100
inline constexpr std::string_view kFp16GemmAlign8 =
    "void cutlass::Kernel<cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8>("
    "cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8::Params)";
// TraceLens bert-small (H100): the 30522-word head
inline constexpr std::string_view kBf16GemmAlign2 =
    "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2>("
    "cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2::Params)";
// TraceLens bert-small (H100)
inline constexpr std::string_view kBf16GemmAlign8 =
    "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8>("
    "cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8::Params)";
// Inductor template: unit unknown
inline constexpr std::string_view kTritonMm = "triton_tem_fused_mm_3";
// cuBLAS matrix-vector products (CUDA cores, memory-bound): FP16 as nsys cuts it (a cuDNN sample on
// sm86, held-out round 13), FP32 from HTA's fixtures.
inline constexpr std::string_view kFp16Gemv =
    "std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, __half, __half, __half, float, (b\xe2\x80\xa6";
inline constexpr std::string_view kFp32Gemv =
    "void gemv2N_kernel<int, int, float, float, float, float, 128, 1, 4, 4, 1, false, cublasGemvParams<"
    "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, "
    "cublasGemvTensorStridedBatched<float>, float> >(cublasGemvParams<cublasGemvTensorStridedBatched<float "
    "const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)";

// Convolutions.
// cuDNN 9 on A100
inline constexpr std::string_view kFp16Convolution =
    "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_"
    "warpsize2x2x1_g1_tensor16x8x16_execute_kernel__5x_cudnn";
// HTA alexnet (A100)
inline constexpr std::string_view kTf32Convolution =
    "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
    "stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn";
// HTA alexnet (A100)
inline constexpr std::string_view kFp32SimtConvolution =
    "cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1";
// cuDNN 9
inline constexpr std::string_view kGroupedDirectFp16 =
    "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, __half, "
    "__half, float, float, float>(cudnn::cnn::GroupedDirectFpropParams, __half const*, __half "
    "const*, __half*, float, float, float const*, float const*, float const*, "
    "cudnnActivationStruct)";
// cuDNN 9
inline constexpr std::string_view kGroupedWgradFp16 =
    "void cudnn::cnn::wgrad2d_grouped_direct_kernel<false, false, int, __half, float, float>("
    "cudnn::cnn::GroupedDirectWgradParams, __half const*, __half const*, float*, float, float)";
// PyTorch's own depthwise kernel
inline constexpr std::string_view kDepthwiseFp32 =
    "void at::native::(anonymous namespace)::conv_depthwise2d_forward_kernel<3, float, int>(at::"
    "GenericPackedTensorAccessor<float const, 4ul, at::DefaultPtrTraits, int>, at::"
    "GenericPackedTensorAccessor<float, 4ul, at::DefaultPtrTraits, int>, at::"
    "GenericPackedTensorAccessor<float const, 4ul, at::DefaultPtrTraits, int>, at::"
    "GenericPackedTensorAccessor<float const, 4ul, at::DefaultPtrTraits, int> const&, int, int, "
    "int, int, int, int, int, int, int, int, int, int, int, int, int)";
// cuDNN 9 NHWC depthwise: unit unknown
inline constexpr std::string_view kXmmaDepthwiseFp16 =
    "sm80_xmma_depthwise_convolution_fprop_tiling_f16f16_f32f32_f32_nhwckrsc_nhwc_tilesize1x8x8_"
    "1x5x5_1x2x2_1x1x1_stage2_warpsize8x1x1_g64_betaFalse_execute_kernel__5x_cudnn";

// Attention, AMP and other kernels.
// PyTorch memory-efficient attention (CUPTI-NOTES §6.4)
inline constexpr std::string_view kFlashAttentionBf16 =
    "fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::"
    "bfloat16_t, cutlass::arch::Sm80, true, 64, 128, 128, true, true>::Params)";
// GradScaler, autocast casts: CUPTI-NOTES §6.1, §6.2 and the classifier table
inline constexpr std::string_view kScaleUpdate =
    "at::native::amp_update_scale_cuda_kernel(float*, int*, float const*, double, double, int)";
// GradScaler's unscale and inf check, a multi-tensor-apply kernel (CUPTI-NOTES §6.1)
inline constexpr std::string_view kUnscale =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::UnaryOpFunctor<float, 1, 1, 0>, "
    "at::native::_amp_foreach_non_finite_check_and_unscale_cuda_(c10::ArrayRef<at::Tensor>, at::Tensor&, "
    "at::Tensor const&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}>"
    "(int, at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous "
    "namespace)::UnaryOpFunctor<float, 1, 1, 0>, at::native::_amp_foreach_non_finite_check_and_unscale_cuda_"
    "(c10::ArrayRef<at::Tensor>, at::Tensor&, at::Tensor const&)::{lambda()#1}::operator()() "
    "const::{lambda()#2}::operator()() const::{lambda(float)#1})";
// A foreach optimizer's updates (torch.optim SGD/Adam with foreach=True): classifier table
inline constexpr std::string_view kForeachMul =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, "
    "std::multiplies<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, "
    "at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)";
inline constexpr std::string_view kForeachAdd =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
    "std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)";
inline constexpr std::string_view kCastToFp16 =
    "void at::native::vectorized_elementwise_kernel<8, at::native::float16_copy_kernel_cuda(at::"
    "TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::float16_"
    "copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)";
inline constexpr std::string_view kCastToBf16 =
    "void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda(at::"
    "TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_"
    "copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)";
inline constexpr std::string_view kCastBf16ToFp32 =
    "void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16tofloat32_copy_kernel_"
    "cuda(at::TensorIteratorBase&)::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::"
    "native::bfloat16tofloat32_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::"
    "BFloat16)#1}, std::array<char*, 2ul>)";
// HTA sampled_rank-0: a casting copy to long, not autocast's
inline constexpr std::string_view kCopyToInt64 =
    "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::"
    "TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::"
    "{lambda(long)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, "
    "TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::"
    "memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::"
    "TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::"
    "{lambda(long)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, "
    "TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::"
    "memory::StoreWithCast<1>)";
// fixtures (Kineto traces of 2021-2023)
inline constexpr std::string_view kFill =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::"
    "detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";

struct Gpu {
  uint32_t device_id;
  std::string_view name;
  uint32_t major;
  uint32_t minor;
};
inline constexpr Gpu kGp100{0, "Quadro GP100", 6, 0};
inline constexpr Gpu kV100{0, "Tesla V100-SXM2-16GB", 7, 0};
inline constexpr Gpu kA100{0, "NVIDIA A100-PG509-200", 8, 0};
inline constexpr Gpu kH100{0, "NVIDIA H100 80GB HBM3", 9, 0};

// `count` launches of `name`, `each` ns long, on GPU `device`.
struct Launches {
  std::string_view name;
  base::DurationNs each;
  int count = 1;
  uint32_t device = 0;
};

struct SyntheticRun {
  model::TraceModel model;

  // The analysis input of the model, built on first use (so a SyntheticRun may be moved until then).
  const AnalysisInput& input() const {
    if (!analysis) analysis = std::make_unique<AnalysisInput>(model);
    return *analysis;
  }
  mutable std::unique_ptr<AnalysisInput> analysis;
};

// A finding's verdict or evidence as the reports print it.
inline std::string Text(const Statement& statement) { return reports::RenderStatement(statement); }

// The text of the evidence labelled `label`, or "<none>".
inline std::string EvidenceText(const Finding& finding, std::string_view label) {
  for (const Evidence& evidence : finding.evidence) {
    if (evidence.label == label) return Text(evidence.value);
  }
  return "<none>";
}

// The launches in order, end to end (no idle time between them, so that a share of the analysed window is
// a share of kernel time); `gpus` become device records (none: the trace
// does not describe its GPUs).
inline SyntheticRun BuildRun(std::initializer_list<Launches> launches,
                             std::initializer_list<Gpu> gpus = {}) {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  for (const Gpu& gpu : gpus) b.Device(gpu.device_id, gpu.name, gpu.major, gpu.minor);
  base::TimeNs t = 0;
  for (const Launches& launch : launches) {
    b.device = launch.device;
    b.stream = 7 + launch.device;  // streams belong to one device
    for (int i = 0; i < launch.count; ++i) {
      b.Kernel(launch.name, t, t + launch.each);
      t += launch.each;
    }
  }
  return SyntheticRun{std::move(builder).Build(), nullptr};
}

}  // namespace ampprof::analyzers::testing

#endif  // AMPPROF_TESTS_ANALYZERS_SYNTHETIC_RUN_H_
