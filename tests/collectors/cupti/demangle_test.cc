#include "collectors/cupti/demangle.h"

#include <string>

#include <gtest/gtest.h>

namespace ampprof::cupti {
namespace {

TEST(DemangleTest, ItaniumNamesAreDemangled) {
  EXPECT_EQ(Demangle("_Z6kernelPf"), "kernel(float*)");
  // The cuDNN 9.19 layout kernel from CUPTI-NOTES.md §6.3.
  EXPECT_EQ(
      Demangle("_ZN5cudnn19engines_precompiled16nchwToNhwcKernelI6__halfS2_"
               "fLb0ELb0EL21cudnnKernelDataType_"
               "t0EEEvNS0_18nchw2nhwc_params_tIT1_EEPKT_PT0_"),
      "void cudnn::engines_precompiled::nchwToNhwcKernel<__half, __half, float, false, false, "
      "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, __half "
      "const*, "
      "__half*)");
}

TEST(DemangleTest, OtherNamesAreKept) {
  for (const char* name :
       {"nvjet_hsh_192x192_64x3_2x1_v_bz_coopB_NTN",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
        "execute_segment_k_off_kernel__5x_cublas",
        "_Z", "_Znot a mangled name", "", "Z6kernelPf"}) {
    EXPECT_EQ(Demangle(name), name);
  }
}

TEST(DemangleTest, OverlongNamesAreKeptWithoutDemangling) {
  std::string name = "_Z6kernelPf";
  name.append(kMaxDemangledInput, 'f');
  EXPECT_EQ(Demangle(name), name);
}

}  // namespace
}  // namespace ampprof::cupti
