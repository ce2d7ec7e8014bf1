// The library logs of `run --library-logs` feed the findings (issue 20, item 3): the real log lines of
// tests/data/liblogs, copied beside a synthetic trace whose process, thread and kernels match them, as a
// run directory holds them. Each test fails without the logs' attachment (the finding said "the trace has
// no GEMM dimensions", or named no call).

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/text/text_reporter.h"
#include "src/pipeline/analysis.h"
#include "tests/pipeline/kineto_writer.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

using ::ampprof::testing::KinetoWriter;

const std::filesystem::path kLogs = std::filesystem::path(AMPPROF_SOURCE_DIR) / "tests/data/liblogs";

// Real kernel names: CUTLASS FP16 Tensor-Core GEMMs with 4-byte (align2) and 16-byte (align8) loads
// (CUPTI-NOTES §4.1, HTA V100), a TF32 one (HTA sampled_rank-0), cuDNN's grouped direct FP16 convolution
// and an FP16 cuBLAS GEMM (H100).
constexpr std::string_view kFp16Align2 =
    "void cutlass::Kernel<cutlass_80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align2>(cutlass_80_tensorop_f16_"
    "s16816gemm_f16_256x128_32x3_nn_align2::Params)";
constexpr std::string_view kFp16Align8 =
    "void cutlass::Kernel<cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8>(cutlass_70_wmma_"
    "tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8::Params)";
constexpr std::string_view kTf32Align4 =
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>(cutlass_80_tensorop_s1688gemm_64x64_"
    "16x6_nt_align4::Params)";
constexpr std::string_view kGroupedDirectFp16 =
    "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, __half, __half, float, "
    "float, float>(cudnn::cnn::GroupedDirectFpropParams, __half const*, __half const*, __half*, float, float, float "
    "const*, float const*, float const*, cudnnActivationStruct)";
constexpr std::string_view kNchwToNhwc =
    "void cudnn::engines_precompiled::nchwToNhwcKernel<__half, __half, float, false, false, (cudnnKernelDataType_t)0>"
    "(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, __half const*, __half*)";
constexpr std::string_view kNhwcToNchw =
    "void cudnn::engines_precompiled::nhwcToNchwKernel<__half, __half, float, true, false, (cudnnKernelDataType_t)0>"
    "(cudnn::engines_precompiled::nhwc2nchw_params_t<float>, __half const*, __half*)";
constexpr std::string_view kFp16NhwcFprop =
    "sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize128x128x32_stage4_warpsize2x2x1_g1_"
    "tensor16x8x16_execute_kernel__5x_cudnn";
constexpr std::string_view kFp16TensorCoreGemm =
    "sm90_xmma_gemm_f16f16_f16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_"
    "cublas";

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

const analyzers::Finding* FindingOf(const analyzers::Report& report, std::string_view id) {
  for (const analyzers::Finding& finding : report.findings) {
    if (finding.id == id) return &finding;
  }
  return nullptr;
}

std::vector<std::string> EvidenceOf(const analyzers::Finding& finding, std::string_view label) {
  std::vector<std::string> texts;
  for (const analyzers::Evidence& evidence : finding.evidence) {
    if (evidence.label == label) texts.push_back(evidence.value.text);
  }
  return texts;
}

bool Contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// cublas.log's cublasGemmEx (Process=14102, Thread=22711): FP16 A and B, m=2 n=3 k=4, B transposed. The
// trace holds no ops at all (an .ampt without --torch-ops would be the same): its one unaligned FP16 GEMM
// kernel, launched by that thread, is the call's.
TEST(LibraryLogs, TheMisalignedFindingNamesTheGemmOfACublasLogLine) {
  testing::TempDir dir;
  KinetoWriter trace(14102, 22711);
  trace.Launch(kFp16Align2, 100).Launch(kFp16Align8, 300);
  const std::string path = dir.File("trace.json");
  WriteText(path, trace.Json());
  std::filesystem::copy_file(kLogs / "cublas.log", dir.File("cublas.14102.log"));
  WriteText(dir.File("cublas.999.log"), "not read: another process's log");

  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Report& report = reports->front();
  const analyzers::Finding* finding = FindingOf(report, "tensor_cores.misaligned");
  ASSERT_NE(finding, nullptr);
  const std::vector<std::string> calls = EvidenceOf(*finding, "library call");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0],
            "cublasGemmEx m=2 n=3 k=4, FP16 operands, FP32 output, compute CUBLAS_COMPUTE_32F, B transposed; m = 2, "
            "n = 3, k = 4 are not a multiple of 8: {time} over the analysed window, {kernels:kernel}");
  EXPECT_EQ(finding->fix,
            "Pad the GEMM cublasGemmEx (m from 2 to 8, n from 3 to 8, k from 4 to 8) to multiples of 8: the library "
            "then runs aligned Tensor-Core kernels (cuBLAS's m and n are the output's columns and rows of PyTorch's "
            "row-major tensors)");
  const std::vector<std::string> source = EvidenceOf(*finding, "source");
  ASSERT_EQ(source.size(), 1u);
  EXPECT_TRUE(Contains(source[0], "the trace has no op shapes; the GEMMs' m, n and k from the cuBLASLt/cuBLAS/cuDNN "
                                  "API logs of run --library-logs"))
      << source[0];
  // The log is one of the report's inputs, with what was attached from it; the other process's is not.
  ASSERT_EQ(report.inputs.size(), 2u);
  EXPECT_EQ(report.inputs[1].path, dir.File("cublas.14102.log"));
  EXPECT_EQ(report.inputs[1].format, "cuBLAS API log: 1 of 1 call attached to kernels");
  EXPECT_TRUE(report.inputs[1].library_log);
  std::ostringstream text;
  reports::RenderText(*reports, text, {.width = 200});
  EXPECT_TRUE(Contains(text.str(), "log       " + dir.File("cublas.14102.log"))) << text.str();
}

// The same trace read from its directory, as `analyze DIR` does after a run: the log is found beside it
// and not taken for a trace.
TEST(LibraryLogs, ADirectoryOfARunReadsItsLogs) {
  testing::TempDir dir;
  KinetoWriter trace(14102, 22711);
  trace.Launch(kFp16Align2, 100).Launch(kFp16Align8, 300);
  WriteText(dir.File("trace.json"), trace.Json());
  std::filesystem::copy_file(kLogs / "cublas.log", dir.File("cublas.14102.log"));
  const auto reports = AnalyzeTraces({dir.path()});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 1u);
  const analyzers::Finding* finding = FindingOf(reports->front(), "tensor_cores.misaligned");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(EvidenceOf(*finding, "library call").size(), 1u);
}

// A log that is no library's, empty, a broken link or a named pipe is skipped (with a warning, but the empty
// one); the trace is analysed as without it.
TEST(LibraryLogs, ALogThatCannotBeParsedIsLeftOut) {
  testing::TempDir dir;
  KinetoWriter trace(14102, 22711);
  trace.Launch(kFp16Align2, 100).Launch(kFp16Align8, 300);
  const std::string path = dir.File("trace.json");
  WriteText(path, trace.Json());
  WriteText(dir.File("cudnn.14102.log"), "garbage\n");
  WriteText(dir.File("cublaslt.14102.log"), "");  // a library that was loaded and never called
  std::filesystem::create_symlink(dir.File("gone"), dir.File("cublas.14102.log"));  // a broken link
  ASSERT_EQ(::mkfifo(dir.File("cublas.%i.log").c_str(), 0600), 0);                // would block a read
  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  EXPECT_EQ(reports->front().inputs.size(), 1u);
  const analyzers::Finding* finding = FindingOf(reports->front(), "tensor_cores.misaligned");
  ASSERT_NE(finding, nullptr);
  EXPECT_TRUE(EvidenceOf(*finding, "library call").empty());
  EXPECT_TRUE(Contains(EvidenceOf(*finding, "source")[0], "the trace has no GEMM dimensions"));
}

// cublaslt.log's cublasLtSSSMatmul (pid 3794797, no thread: matched process-wide): torch.matmul in FP32
// with TF32 allowed, m=n=k=1000. An FP32 run, so amp.opportunity, whose evidence gives the compute type,
// and the op's autocast rule.
TEST(LibraryLogs, AmpOpportunityGivesTheComputeTypeOfACublasLtLogLine) {
  testing::TempDir dir;
  KinetoWriter trace(3794797, 3794797);
  trace.Op("aten::mm", "[[1000, 1000], [1000, 1000]]", R"(["float", "float"])").Launch(kTf32Align4, 500);
  const std::string path = dir.File("trace.json");
  WriteText(path, trace.Json());
  std::filesystem::copy_file(kLogs / "cublaslt.log", dir.File("cublaslt.3794797.log"));
  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Finding* finding = FindingOf(reports->front(), "amp.opportunity");
  ASSERT_NE(finding, nullptr);
  const std::vector<std::string> calls = EvidenceOf(*finding, "library call");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_TRUE(Contains(calls[0], "aten::mm: cublasLtSSSMatmul m=1000 n=1000 k=1000, FP32 operands, compute "
                                 "CUBLAS_COMPUTE_32F_FAST_TF32: "))
      << calls[0];
  EXPECT_EQ(reports->front().inputs[1].format, "cuBLASLt API log: 1 of 1 call attached to kernels")
      << "the FP16 and FP8 lines are other processes'";
}

// cudnn.log's legacy cudnnConvolutionForward (Process=7001, Thread=7002), made grouped: the same block with
// groupCount 32 and the filter's input channels 896 / 32 = 28. conv.grouped_fallback gives the groups and
// channels from it, on a trace that records no shapes.
TEST(LibraryLogs, TheGroupedFallbackGivesGroupsAndChannelsOfACudnnLogBlock) {
  testing::TempDir dir;
  KinetoWriter trace(7001, 7002);
  for (int i = 0; i < 3; ++i) trace.Launch(kGroupedDirectFp16, 100).Launch(kFp16TensorCoreGemm, 100);
  const std::string path = dir.File("trace.json");
  WriteText(path, trace.Json());
  std::string log = ReadText(kLogs / "cudnn.log");
  const auto replace = [&](std::string_view from, std::string_view to) {
    const size_t at = log.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    log.replace(at, from.size(), to);
  };
  replace("groupCount: type=int; val=1;", "groupCount: type=int; val=32;");
  replace("dimA: type=int; val=[1792,896,1,19];", "dimA: type=int; val=[1792,28,1,19];");
  WriteText(dir.File("cudnn.7001.log"), log);
  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Finding* finding = FindingOf(reports->front(), "conv.grouped_fallback");
  ASSERT_NE(finding, nullptr);
  const std::vector<std::string> calls = EvidenceOf(*finding, "library call");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0],
            "cudnnConvolutionForward x [32, 896, 1, 832] w [1792, 28, 1, 19], 32 groups of 28 input channels (896 in, "
            "1792 out), FP16 NCHW, compute CUDNN_DATA_FLOAT, math CUDNN_TENSOR_OP_MATH: {time} over the analysed "
            "window, {kernels:kernel}");
}

// cudnn.log's legacy cudnnConvolutionForward as it is (Process=7001, Thread=7002): FP16 tensors packed
// NCHW, the filter's format CUDNN_TENSOR_NCHW. The trace: cuDNN's NHWC Tensor-Core kernel between the two
// conversions it needs for NCHW tensors, no ops. layout.nchw_nhwc says which convolution and that its
// tensors came NCHW, which is what channels_last changes.
TEST(LibraryLogs, TheLayoutFindingGivesTheLayoutsACudnnLogBlockWasGiven) {
  testing::TempDir dir;
  KinetoWriter trace(7001, 7002);
  trace.Launch(kNchwToNhwc, 50).Launch(kFp16NhwcFprop, 100).Launch(kNhwcToNchw, 50);
  const std::string path = dir.File("trace.json");
  WriteText(path, trace.Json());
  std::filesystem::copy_file(kLogs / "cudnn.log", dir.File("cudnn.7001.log"));
  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Finding* finding = FindingOf(reports->front(), "layout.nchw_nhwc");
  ASSERT_NE(finding, nullptr);
  const std::vector<std::string> calls = EvidenceOf(*finding, "library call");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0],
            "cudnnConvolutionForward x [32, 896, 1, 832] w [1792, 896, 1, 19], 1 group, FP16 NCHW, compute "
            "CUDNN_DATA_FLOAT, math CUDNN_TENSOR_OP_MATH; input NCHW, filter NCHW (channels_last makes them NHWC): "
            "{time} over the analysed window, {kernels:kernel}");
}

}  // namespace
}  // namespace ampprof::pipeline
