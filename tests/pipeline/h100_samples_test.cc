// The first traces ampprof's CUPTI collector recorded on a real GPU: the CUDA samples (samples/cuda) on an
// H100 (driver 580, CUDA 13, cuDNN 9.19), kept in samples/traces/h100/<run name>.ampt. Each sample printed
// its own step time from CUDA events recorded on its stream at every step boundary (quoted below); these
// tests pin what ampprof makes of the same runs. No NVTX range reached these traces, so the steps come
// from kernels: GradScaler's updates in mixed precision, a repeating kernel sequence in FP32.

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/pipeline/analysis.h"

namespace ampprof::pipeline {
namespace {

const std::filesystem::path kH100Traces = std::filesystem::path(AMPPROF_SOURCE_DIR) / "samples/traces/h100";

analyzers::Report AnalyzeSample(const std::string& run) {
  const base::StatusOr<LoadedTrace> trace = LoadAndBuild((kH100Traces / (run + ".ampt")).string());
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  if (!trace.ok()) return {};
  return Analyze(*trace);
}

std::vector<std::string> FindingIds(const analyzers::Report& report) {
  std::vector<std::string> ids;
  for (const analyzers::Finding& finding : report.findings) ids.push_back(finding.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool Has(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Within 2% of the sample's own median step time.
void ExpectMedianNear(const analyzers::Report& report, double sample_ms) {
  const double median_ms = static_cast<double>(report.summary.median_step_ns) / 1e6;
  EXPECT_NEAR(median_ms, sample_ms, 0.02 * sample_ms);
}

TEST(H100Samples, Fp32MlpStepsAreTheLoopsIterations) {
  // recipe_mlp --precision fp32: 3 x Linear(4096, 4096), 10 warm-up + 150 timed steps; the sample's
  // median 3.3378 ms. Before the step finder compared the kernel sequence with itself a period later,
  // this run had no steps at all (the most common kernel count was a layer's, 3 per step).
  const analyzers::Report report = AnalyzeSample("cuda.recipe_mlp.fp32");
  EXPECT_EQ(report.summary.step_source, "a repeating kernel sequence");
  EXPECT_EQ(report.summary.steps, 159u) << "160 iterations bound 159 steps";
  ExpectMedianNear(report, 3.3378);
}

TEST(H100Samples, MisalignedFp32GemmStepsAreTheLoopsIterations) {
  // misaligned_gemm --precision fp32: 10 + 100 steps; the sample's median 3.9210 ms.
  const analyzers::Report report = AnalyzeSample("cuda.misaligned_gemm.fp32");
  EXPECT_EQ(report.summary.steps, 109u);
  ExpectMedianNear(report, 3.9210);
}

TEST(H100Samples, Fp32DoubleOptimizerStepIsFoundFromKernels) {
  // double_step --precision fp32: 10 + 100 steps, each with two SGD launches over the same parameters
  // (the sample's median 0.2981 ms). Without steps the detector had nothing to count in; with them, every
  // measured step has its optimizer kernels twice over.
  const analyzers::Report report = AnalyzeSample("cuda.double_step.fp32");
  EXPECT_EQ(report.summary.steps, 109u);
  ExpectMedianNear(report, 0.2981);
  EXPECT_TRUE(Has(FindingIds(report), "amp.double_optimizer_step"));
  for (const analyzers::Finding& finding : report.findings) {
    if (finding.id != "amp.double_optimizer_step") continue;
    EXPECT_EQ(finding.verdict.text.find("scaler.step"), std::string::npos)
        << "no GradScaler in this run: " << finding.verdict.text;
  }
}

TEST(H100Samples, Fp32RunsThatNeverWaitOnTheHostAreNotHostBound) {
  // The FP32 samples synchronise only before and after the timed loop: the host runs ahead and the GPU
  // never waits on it inside a step. Analysed as a whole run (no steps), a 121 ms gap of host work before
  // the first step (cuBLAS's first calls) made gpu.host_bound fire on recipe_mlp and misaligned_gemm.
  for (const char* run : {"cuda.recipe_mlp.fp32", "cuda.misaligned_gemm.fp32"}) {
    SCOPED_TRACE(run);
    const std::vector<std::string> ids = FindingIds(AnalyzeSample(run));
    EXPECT_FALSE(Has(ids, "gpu.host_bound"));
    EXPECT_TRUE(Has(ids, "amp.opportunity")) << "FP32 GEMMs on CUDA cores, never tried in reduced precision";
  }
}

TEST(H100Samples, ConvolutionStepsFollowCudnnsAlgorithmSearch) {
  // conv_layout --precision fp32 --layout nchw: cuDNN's algorithm search (270 kernels) before 10 + 100
  // steps of 5 kernels, so the loop spans 67% of the kernels; the sample's median 0.8892 ms. Analysed as
  // a whole run for want of steps, the search's host time made gpu.host_bound critical.
  const analyzers::Report report = AnalyzeSample("cuda.conv_layout.fp32.nchw");
  EXPECT_EQ(report.summary.steps, 109u);
  ExpectMedianNear(report, 0.8892);
  const std::vector<std::string> ids = FindingIds(report);
  EXPECT_FALSE(Has(ids, "gpu.host_bound"));
  EXPECT_FALSE(Has(ids, "bench.warmup_in_window"));
}

TEST(H100Samples, TheFirstConvolutionRunsOnCudaCoresInEitherLayout) {
  // conv_layout --precision fp16: cuDNN runs the forward convolution of the 3-channel input on CUDA cores
  // in both layouts (NCHW: implicit_convolve_sgemm<__half, ...>, 212 us of a 1.07 ms step; NHWC:
  // convolve_common_engine_float_NHWC<__half, ...>, 251 us of 0.832 ms, a name no rule knew). NHWC pads
  // the channels for the Tensor-Core weight gradient (nhwcAddPaddingKernel): a padding, not a conversion.
  const std::vector<std::string> nchw = FindingIds(AnalyzeSample("cuda.conv_layout.fp16.nchw"));
  EXPECT_TRUE(Has(nchw, "tensor_cores.fp32_math"));
  EXPECT_TRUE(Has(nchw, "layout.nchw_nhwc"));
  const std::vector<std::string> nhwc = FindingIds(AnalyzeSample("cuda.conv_layout.fp16.nhwc"));
  EXPECT_TRUE(Has(nhwc, "tensor_cores.fp32_math"));
  EXPECT_FALSE(Has(nhwc, "layout.nchw_nhwc"));
}

}  // namespace
}  // namespace ampprof::pipeline
