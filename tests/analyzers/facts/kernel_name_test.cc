// Reading kernel names: the own name rules match, and where the data type comes from. The names are
// real (the shared fixtures, kernel_rules.txt's examples, public profiles), cut where only a part matters.

#include "analyzers/facts/kernel_name.h"

#include <string>

#include <gtest/gtest.h>

namespace ampprof::analyzers {
namespace {

std::string_view Own(std::string_view name, std::string& storage) {
  return KernelOwnName(DemangleKernelName(name, storage));
}

TEST(KernelName, MangledNamesAreDemangledFirst) {
  std::string storage;
  EXPECT_EQ(Own("_ZN5cudnn19engines_precompiled16nchwToNhwcKernelI6__halfS2_fLb0ELb0EL21cudnnKernelDataType_t0EEEvNS0_"
                "18nchw2nhwc_params_tIT1_EEPKT_PT0_",
                storage),
            "cudnn::engines_precompiled::nchwToNhwcKernel<__half, __half, float, false, false, (cudnnKernelDataType_t)0>");
  EXPECT_EQ(Own("_Z42ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_tP11ncclDevCommPvP8ncclWork", storage),
            "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t");
  // Not mangled, or not demangleable: as written.
  EXPECT_EQ(DemangleKernelName("_Z", storage), "_Z");
  EXPECT_EQ(DemangleKernelName("_Znot a symbol", storage), "_Znot a symbol");
  EXPECT_EQ(DemangleKernelName("volta_sgemm_128x64_nn", storage), "volta_sgemm_128x64_nn");
}

TEST(KernelName, AMangledNameCutShortIsReadFromItsSourceNames) {
  std::string storage;
  // A profiler's column cut this one at 90 characters: __cxa_demangle refuses it.
  EXPECT_EQ(DemangleKernelName("_ZN7cutlass13device_kernelINS_4gemm6kernel13GemmUniversalIN4cute5tupleIJiiiiEEENS1_10colle",
                               storage),
            "cutlass::device_kernel::gemm::kernel::GemmUniversal::cute::tuple::colle");
  // A table's cut marks (a PyTorch-style table, held-out round 18) are not part of the last name.
  EXPECT_EQ(DemangleKernelName("_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23Imp...", storage),
            "cutlass_cudnn_train::Kernel::conv::kernel::Imp");
  EXPECT_EQ(DemangleKernelName("_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23Imp\xe2\x80\xa6", storage),
            "cutlass_cudnn_train::Kernel::conv::kernel::Imp");
  // Lengths of literals (Li128E), substitutions (S1_) and template parameters (T0_) are not names.
  EXPECT_EQ(DemangleKernelName("_ZN5flash7computeILi128ES1_T0_5tra", storage), "flash::compute::tra");
  EXPECT_EQ(DemangleKernelName("_ZN", storage), "_ZN");  // nothing to read: as written
}

TEST(KernelName, TheOwnNameHasNoReturnTypeAndNoParameters) {
  EXPECT_EQ(KernelOwnName("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true>(float*, "
                          "float const*, int, int, int)"),
            "(anonymous namespace)::softmax_warp_forward<float, float, float, 10, true>");
  EXPECT_EQ(KernelOwnName("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float>("
                          "cublasGemvParams<float>)"),
            "internal::gemvx::kernel<int, int, float, float>");
  EXPECT_EQ(KernelOwnName("at::native::amp_update_scale_cuda_kernel(float*, int*, float*, double, double, int)"),
            "at::native::amp_update_scale_cuda_kernel");
  EXPECT_EQ(KernelOwnName("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT"), "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT");
  // Cut short by a profiler's column: everything there is.
  EXPECT_EQ(KernelOwnName("void transformer_engine::normalization::rmsnorm_fwd_general_kernel<transformer_engine::nor"),
            "transformer_engine::normalization::rmsnorm_fwd_general_kernel<transformer_engine::nor");
  EXPECT_EQ(KernelOwnName(""), "");
  // nsys prints the casts of a return type's std::enable_if without parentheses around them: a cast is
  // followed by its value, a parameter list never is.
  EXPECT_EQ(KernelOwnName("std::enable_if<T2>(int)0&&vllm::_typeConvert<T1>::exists, void>::type "
                          "vllm::fused_add_rms_norm_kern"),
            "vllm::fused_add_rms_norm_kern");
}

TEST(KernelName, NsightComputeBracketsWithoutTheirOpeningHalf) {
  // Nsight Compute prints ATen's names without namespaces, the anonymous namespace as `unnamed>::` and
  // the lambdas after the first without their `[`: neither closes a bracket the name opened. Names
  // from CodeGandee/llm-perf-opt's DeepSeek-OCR profile (RTX 5090).
  EXPECT_EQ(KernelOwnName("void unnamed>::CatArrayBatchedCopy<unnamed>::OpaqueType<2>, unsigned int, 4, 64, 64>(T1 *, "
                          "unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, unnamed>::TensorSizeStride<T2, 4>, int, T2)"),
            "unnamed>::CatArrayBatchedCopy<unnamed>::OpaqueType<2>, unsigned int, 4, 64, 64>");
  EXPECT_EQ(KernelOwnName("void unrolled_elementwise_kernel<direct_copy_kernel_cuda(TensorIteratorBase &)::[lambda() "
                          "(instance 3)]::operator ()() lambda() (instance 7)]::operator ()() lambda(float) (instance "
                          "1)], array<char *, 2>, 4, TrivialOffsetCalculator<1, unsigned int>, "
                          "TrivialOffsetCalculator<1, unsigned int>, LoadWithCast<1>, StoreWithCast<1>>(int, T1, T2, "
                          "T4, T5, T6, T7)"),
            "unrolled_elementwise_kernel<direct_copy_kernel_cuda(TensorIteratorBase &)::[lambda() (instance "
            "3)]::operator ()() lambda() (instance 7)]::operator ()() lambda(float) (instance 1)], array<char *, "
            "2>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, "
            "LoadWithCast<1>, StoreWithCast<1>>");
  // Nsight Systems' `<unnamed>::` keeps its `<` (vllm-project/vllm#6317, cut by nsys' column).
  EXPECT_EQ(KernelOwnName("void at::native::<unnamed>::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, "
                          "(int)2, (int)2\u2026"),
            "at::native::<unnamed>::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, (int)2, (int)2\u2026");
}

TEST(KernelName, TypeWordsInNamesAreReadLeftToRightLongestFirst) {
  EXPECT_EQ(NameDtype("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"), DataType::kBf16);
  EXPECT_EQ(NameDtype("sm80_xmma_gemm_f32f32_tf32f32_f32"), DataType::kFp32);  // operands FP32; the rule's unit says TF32
  EXPECT_EQ(NameDtype("sm89_xmma_gemm_e4m3bf16_e4m3f32_f32"), DataType::kFp8);
  EXPECT_EQ(NameDtype("volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_nn"), DataType::kFp16);
  EXPECT_EQ(NameDtype("volta_h884gemm_128x128_ldg8_tn"), DataType::kFp16);
  EXPECT_EQ(NameDtype("cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4"), DataType::kFp32);  // only s1688
  EXPECT_EQ(NameDtype("cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8"), DataType::kBf16);
  // m16n8k16 takes FP16 or BF16 operands: a name cut before them states neither (not FP32/TF32).
  EXPECT_EQ(NameDtype("cutlass_80_tensorop_s16816gemm..."), DataType::kUnknown);
  EXPECT_EQ(NameDtype("cutlass_80_wmma_tensorop_s161616gemm"), DataType::kUnknown);
  EXPECT_EQ(NameDtype("cutlass3x_sm100_bstensorop_s256x192x64gemm_block_scaled_ue4m3xf4_ue4m3xf4_f32_f16_f16"),
            DataType::kFp4);  // the UE4M3 block scales are skipped
  // CUTLASS blockwise scaling: <granularity><scale type>x<element type> per operand.
  EXPECT_EQ(NameDtype("cutlass3x_sm100_tensorop_gemm_64x128f32xe4m3_1x128f32xe4m3_f32_f16_f16_64x128x128_1x1x1_0_nnn"),
            DataType::kFp8);
  EXPECT_EQ(NameDtype("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), DataType::kFp32);
  EXPECT_EQ(NameDtype("ncclDevKernel_ReduceScatter_Sum_u8_RING_LL"), DataType::kUnknown);  // no unsigned type here
  EXPECT_EQ(NameDtype("cutlass::float_e4m3_t"), DataType::kFp8);   // not "float"
  EXPECT_EQ(NameDtype("c10::Float8_e4m3fn"), DataType::kFp8);
  EXPECT_EQ(NameDtype("bfloat16tofloat32_copy_kernel_cuda"), DataType::kBf16);  // "float" inside "bfloat16" is not read
  EXPECT_EQ(NameDtype("volta_sgemm_128x64_nn"), DataType::kFp32);
  EXPECT_EQ(NameDtype("maxwell_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148m_nt_v1"), DataType::kFp32);
  EXPECT_EQ(NameDtype("kernel_unified_attention"), DataType::kUnknown);
  EXPECT_EQ(NameDtype("xf16"), DataType::kUnknown);  // a short code only counts where no letter precedes it
  // TensorRT's CUTLASS names spell FP8 as f8, a field of its own; a hexadecimal hash's 1f8 is not one.
  EXPECT_EQ(NameDtype("cutlass3x_sm100_tensorop_s128x128x32gemm_f8_f8_f32_f16_f16"), DataType::kFp8);
  EXPECT_EQ(NameDtype("__myl_Fc_0x1f8a"), DataType::kUnknown);
}

TEST(KernelName, FieldsAndBaseNames) {
  const std::string_view bmm =
      "bmm_Bfloat16_E2m1E2m1_Fp32_Ab16_Bb16tokFp32_t128x8x512_s5_et128x8_m128x8x64_c1x1x1_rM_TN_transOut";
  EXPECT_EQ(NameDtype(bmm), DataType::kBf16);   // the output type comes first
  EXPECT_EQ(FieldDtype(bmm, 2), DataType::kFp4);  // the operands are the third field
  EXPECT_EQ(FieldDtype(bmm, 40), DataType::kUnknown);
  EXPECT_EQ(BaseNameDtype("per_token_group_quant_8bit_kernel<c10::BFloat16, c10::Float8_e4m3fn, true, true, float>"),
            DataType::kUnknown);
  EXPECT_EQ(BaseNameDtype("fbgemm_gpu::(anonymous namespace)::_compute_FP8_quantize_cuda_kernel<float>"),
            DataType::kFp8);
}

TEST(KernelName, TemplateTypesSkipHostParametersIndicesPointersCastsAndByteWidths) {
  const auto first = [](std::string_view own) { return TemplateDtype(own, TemplatePick::kFirst); };
  // Host-function parameters inside the arguments are not element types; the lambda's are.
  EXPECT_EQ(first("at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar("
                  "at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::"
                  "operator()() const::{lambda()#8}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >"),
            DataType::kFp32);
  EXPECT_EQ(first("at::native::vectorized_elementwise_kernel<4, at::native::nan_to_num_kernel_cuda("
                  "at::TensorIteratorBase&, c10::optional<double>, c10::optional<double>, c10::optional<double>)"
                  "::{lambda()#1}::operator()() const::{lambda(c10::Half)#1}>"),
            DataType::kFp16);
  // An int index type before the element type: the floating-point type wins.
  EXPECT_EQ(first("gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 2, 2, false, false>"),
            DataType::kFp32);
  EXPECT_EQ(first("cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, __half, __half, "
                  "float, float, float>"),
            DataType::kFp16);
  // Integers when nothing else: int64 elements, but not unsigned index types.
  EXPECT_EQ(first("at::native::(anonymous namespace)::CatArrayBatchedCopy<long, unsigned int, 2, 128, 1>"),
            DataType::kInt64);
  EXPECT_EQ(first("linearize_index_kernel<unsigned int>"), DataType::kUnknown);
  // OpaqueType<N> is a byte width; ATen's launch lambda takes an int index, not an int element.
  EXPECT_EQ(first("at::native::_scatter_gather_elementwise_kernel<128, 4, at::native::_cuda_scatter_gather_internal_"
                  "kernel<false, at::native::OpaqueType<4> >::operator()<at::native::TensorAssign>(at::TensorIterator&, "
                  "long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}>"),
            DataType::kUnknown);
  // The same launch lambda as Nsight Systems and cu++filt print it: `::[lambda(...) (instance 1)]`.
  EXPECT_EQ(first("at::native::index_elementwise_kernel<(int)128, (int)4, void at::native::"
                  "gpu_index_kernel<void at::native::index_put_kernel_impl<"
                  "at::native::OpaqueType<(int)2>>(at::TensorIterator &, c10::ArrayRef<long>, "
                  "c10::ArrayRef<long>)::[lambda(char *, const char *, long) (instance 1)]>("
                  "at::TensorIteratorBase &, c10::ArrayRef<long>, c10::ArrayRef<long>, const T1 &, "
                  "bool)::[lambda(int) (instance 1)]>"),
            DataType::kUnknown);
  EXPECT_EQ(first("at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
                  "::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, "
                  "at::detail::Array<char*, 2> >"),
            DataType::kInt64);
  // CuTe shapes hold extents, not elements: a GEMM's problem shape cute::tuple<int, int, int, int>.
  EXPECT_EQ(first("cutlass::device_kernel<enable_sm120_family<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, "
                  "int, int, int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::Mainl"),
            DataType::kUnknown);
  EXPECT_EQ(first("cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int>, "
                  "cutlass::gemm::collective::CollectiveMma<MainloopSm90, cute::tuple<cute::C<128> >, "
                  "cutlass::bfloat16_t> > >"),
            DataType::kBf16);
  // Template flags, casts of values and nvprof's `int=4` are values, not types; pointers are not elements.
  EXPECT_EQ(first("kern_precompute_indices<bool=0>"), DataType::kUnknown);
  EXPECT_EQ(first("at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<bool>, "
                  "std::array<char *, (unsigned long)1>>"),
            DataType::kBool);
  EXPECT_EQ(first("softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 1, false, false>"), DataType::kBf16);
  EXPECT_EQ(first("vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, (bool)1>"),
            DataType::kBf16);
  // CUTLASS element types, FP8/FP4 families, block-scale types.
  EXPECT_EQ(first("cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int>, "
                  "cutlass::gemm::collective::CollectiveMma<X, cutlass::float_e4m3_t, cute::tuple<long, cute::C<1>, "
                  "long>, cutlass::float_e4m3_t>>>"),
            DataType::kFp8);
  EXPECT_EQ(first("quantize<cutlass::float_ue8m0_t, __nv_fp4_e2m1>"), DataType::kFp4);
  EXPECT_EQ(first("x<signed char>"), DataType::kInt8);
  EXPECT_EQ(first("x<unsigned char>"), DataType::kUnknown);
  EXPECT_EQ(first("x<unsigned long long, long long>"), DataType::kInt64);
  EXPECT_EQ(first("no_template_arguments"), DataType::kUnknown);
}

TEST(KernelName, APointerToTheProgramsOwnStructLeavesTheElementTypeUnknown) {
  // Thrust sorting a user struct: `long` is the count, `int` the scan state's offset (held-out round 7, nvprof).
  const std::string_view merge =
      "thrust::cuda_cub::core::_kernel_agent<thrust::cuda_cub::__merge_sort::MergeAgent<Entity*, Entity*, long, cmp, "
      "thrust::detail::integral_constant<bool, bool=0>>, bool, Entity*, Entity*, long, Entity*, Entity*, cmp, long*, "
      "long>";
  EXPECT_EQ(TemplateDtype(merge, TemplatePick::kFirst), DataType::kUnknown);
  EXPECT_EQ(TemplateDtype(merge, TemplatePick::kLeading), DataType::kUnknown);
  EXPECT_EQ(TemplateDtype("thrust::cuda_cub::core::_kernel_agent<thrust::cuda_cub::__unique::UniqueAgent<Entity*, "
                          "Entity*, is_equal, int, int*>, Entity*, Entity*, is_equal, int*, int>",
                          TemplatePick::kLeading),
            DataType::kUnknown);
  // A floating-point type after it still counts; a known pointee, a library's handle or a lambda's generator
  // state does not hide the integer element type.
  EXPECT_EQ(TemplateDtype("x<Particle*, float, long>", TemplatePick::kFirst), DataType::kFp32);
  EXPECT_EQ(TemplateDtype("x<int*, int*, int>", TemplatePick::kLeading), DataType::kInt32);
  EXPECT_EQ(TemplateDtype("f<unsigned int, g<at::CUDAGeneratorImpl*>(at::TensorIteratorBase&)::{lambda("
                          "curandStatePhilox4_32_10*)#2}, h<long, unsigned int>>",
                          TemplatePick::kFirst),
            DataType::kInt64);
}

// PaddlePaddle's half type is phi::dtype::float16 (its bfloat16 was already read): unknown before, and
// FP32 when a float came later in the arguments (a review of round 6's Paddle rules found it).
TEST(KernelName, PaddlesFloat16IsFp16) {
  const std::string_view square =
      "phi::funcs::VectorizedElementwiseKernel<phi::dtype::float16, phi::funcs::CudaSquareFunctor<phi::dtype::"
      "float16>, 1, 1, 4>";
  EXPECT_EQ(TemplateDtype(square, TemplatePick::kFirst), DataType::kFp16);
  EXPECT_EQ(TemplateDtype("phi::funcs::VectorizedElementwiseKernel<phi::dtype::float16, phi::funcs::"
                          "ScaleFunctor<phi::dtype::float16, float>, 1, 1, 4>",
                          TemplatePick::kFirst),
            DataType::kFp16);
}

TEST(KernelName, NarrowestAndLeadingTemplateTypes) {
  EXPECT_EQ(TemplateDtype("per_token_group_quant_8bit_kernel<c10::BFloat16, c10::Float8_e4m3fn, true, true, float>",
                          TemplatePick::kNarrowest),
            DataType::kFp8);
  EXPECT_EQ(TemplateDtype("cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, float, int>::Policy800, "
                          "false, long, float, int, int>",
                          TemplatePick::kLeading),
            DataType::kInt64);
}

TEST(KernelName, NvjetTypeLetters) {
  EXPECT_EQ(NvjetDtype("nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN"), DataType::kFp16);
  EXPECT_EQ(NvjetDtype("nvjet_sm103_tst_128x8_64x12_4x1_v_bz_NNT"), DataType::kBf16);
  EXPECT_EQ(NvjetDtype("nvjet_sm100_qqtst_128x256_128x6_2x1_2cta_v_bz_bias_TNT"), DataType::kFp8);
  EXPECT_EQ(NvjetDtype("nvjet_sm100_ootst_128x128_256x7_4x1_2cta_v_bx_Avec16UE4M3_Bvec16UE4M3_TNT"), DataType::kFp4);
  EXPECT_EQ(NvjetDtype("nvjet_sss_tf32_128x256_TNT"), DataType::kFp32);
  EXPECT_EQ(NvjetDtype("nvjet_sm90"), DataType::kUnknown);
  EXPECT_EQ(NvjetDtype("nvjet_"), DataType::kUnknown);
}

TEST(KernelName, Alignment) {
  EXPECT_EQ(AlignmentOf("cutlass_80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align2"), 2);
  EXPECT_EQ(AlignmentOf("sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x32x64_"
                        "stage1_warpsize4x1x1_g1_tensor16x8x16_aligna8_alignc8"),
            8);
  EXPECT_EQ(AlignmentOf("volta_sgemm_128x64_nn"), 0);
  EXPECT_EQ(AlignmentOf("align"), 0);
}

}  // namespace
}  // namespace ampprof::analyzers
