#include "analyzers/findings/layout_analyzer.h"

#include <gtest/gtest.h>

#include "tests/analyzers/synthetic_run.h"

#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

constexpr const char* kToNhwc =
    "void cudnn::engines_precompiled::nchwToNhwcKernel<__half, __half, float, false, false, "
    "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, __half const*, __half*)";
constexpr const char* kToNchw =
    "void cudnn::engines_precompiled::nhwcToNchwKernel<__half, __half, float, true, false, "
    "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nhwc2nchw_params_t<float>, __half const*, __half*)";
constexpr const char* kConvolution =
    "sm90_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x256x32_warpgroupsize2x1x1_g1_"
    "execute_segment_k_off_kernel__5x_cudnn";

// One convolution step: input to NHWC, the convolution, output back to NCHW.
std::vector<Finding> Analyze(base::DurationNs conversion_ns, base::DurationNs convolution_ns, int steps = 10) {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int i = 0; i < steps; ++i) {
    if (conversion_ns > 0) b.Kernel(kToNhwc, t, t + conversion_ns / 2);
    t += conversion_ns / 2 + 1;
    b.Kernel(kConvolution, t, t + convolution_ns);
    t += convolution_ns + 1;
    if (conversion_ns > 0) b.Kernel(kToNchw, t, t + conversion_ns / 2);
    t += conversion_ns / 2 + 1;
  }
  const model::TraceModel model = std::move(builder).Build();
  return AnalyzeLayout(AnalysisInput(model));
}

TEST(LayoutAnalyzer, FlagsConversionsAroundConvolutions) {
  const std::vector<Finding> findings = Analyze(/*conversion_ns=*/10'000, /*convolution_ns=*/90'000);
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.id, "layout.nchw_nhwc");
  EXPECT_EQ(finding.severity, Severity::kWarning) << "10% of the step: under the critical bar of 25%";
  EXPECT_EQ(testing::Text(finding.verdict),
            "20 NCHW<->NHWC conversion kernels take 10.0% of GPU 0's time (100 us over the analysed window)");
  EXPECT_EQ(finding.saving.ns, 100'000) << "channels-last removes them all";
  EXPECT_NEAR(finding.saving.fraction, 0.10, 0.001);
  ASSERT_EQ(finding.examples.size(), 2u);
  EXPECT_EQ(testing::EvidenceText(finding, "convolution kernels they serve"), "10, 900 us over the analysed window");
}

TEST(LayoutAnalyzer, LocatesTheLongestConversionKernels) {
  // Ten steps whose conversions grow: step i converts for 2 x (5 + i) us.
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int i = 0; i < 10; ++i) {
    const base::DurationNs half = 5'000 + i * 1'000;
    b.Kernel(kToNhwc, t, t + half);
    t += half + 1;
    b.Kernel(kConvolution, t, t + 80'000);
    t += 80'000 + 1;
    b.Kernel(kToNchw, t, t + half);
    t += half + 1;
  }
  const model::TraceModel model = std::move(builder).Build();
  const std::vector<Finding> findings = AnalyzeLayout(AnalysisInput(model));
  ASSERT_EQ(findings.size(), 1u);
  const Finding& finding = findings[0];
  ASSERT_EQ(finding.locations.size(), kMaxLocations);
  EXPECT_EQ(finding.locations_left_out, 20 - kMaxLocations);
  // The longest first: step 9's two conversions, then step 8's, ...; the four of steps 0 and 1 left out.
  for (size_t i = 0; i < finding.locations.size(); ++i) {
    const Location& location = finding.locations[i];
    const base::TimeNs step = 9 - static_cast<base::TimeNs>(i / 2);
    EXPECT_EQ(location.interval.duration(), 5'000 + step * 1'000) << i;
    EXPECT_EQ(location.kind, LocationKind::kKernel);
    // Exactly one conversion kernel of the trace, named by its own name.
    bool is_conversion = false;
    for (uint32_t k = 0; k < model.kernels().size(); ++k) {
      const model::KernelRow kernel(k);
      if (model.kernels().start[kernel] != location.interval.start) continue;
      is_conversion = model.kernels().end[kernel] == location.interval.end &&
                      model.KernelName(kernel).find("To") != std::string_view::npos;
    }
    EXPECT_TRUE(is_conversion) << location.label;
    EXPECT_TRUE(location.label.starts_with(i % 2 == 0 ? "cudnn::engines_precompiled::nchwToNhwcKernel<"
                                                      : "cudnn::engines_precompiled::nhwcToNchwKernel<"))
        << location.label;
  }
}

TEST(LayoutAnalyzer, CriticalFromAQuarterOfTheStep) {
  const std::vector<Finding> findings = Analyze(30'000, 70'000);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
}

TEST(LayoutAnalyzer, StaysQuietBelowOnePercentOrWithoutConversions) {
  EXPECT_TRUE(Analyze(800, 99'200).empty());
  EXPECT_TRUE(Analyze(0, 100'000).empty());
}

}  // namespace
}  // namespace ampprof::analyzers
