// tensor_cores.fp32_math and amp.opportunity say, per op, whether autocast covers the ops whose matrix
// kernels ran on CUDA cores (issue 20, item 2): PyTorch's cast lists (analyzers/facts/autocast_lists.h), the
// op's input type and what else the run did. Synthetic Kineto traces, and the shared ResNet-50 FP32 trace.

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/pipeline/analysis.h"
#include "tests/pipeline/kineto_writer.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

using ::ampprof::testing::KinetoWriter;

// Real names: cuBLAS SGEMM on CUDA cores (HTA A100 fixtures), an FP16 cuBLAS Tensor-Core GEMM (H100).
constexpr std::string_view kSgemm = "ampere_sgemm_128x64_nn";
constexpr std::string_view kFp16TensorCoreGemm =
    "sm90_xmma_gemm_f16f16_f16f32_f32_nt_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_"
    "cublas";

std::vector<std::string> Autocast(const std::vector<analyzers::Report>& reports, std::string_view id) {
  std::vector<std::string> lines;
  for (const analyzers::Finding& finding : reports.front().findings) {
    if (finding.id != id) continue;
    for (const analyzers::Evidence& evidence : finding.evidence) {
      if (evidence.label == "autocast") lines.push_back(evidence.value.text);
    }
  }
  return lines;
}

// "id: verdict" of every finding, for failure messages.
std::string Findings(const std::vector<analyzers::Report>& reports) {
  std::string text;
  for (const analyzers::Finding& finding : reports.front().findings) {
    text += finding.id + ": " + finding.verdict.text + "\n";
    for (const analyzers::Evidence& evidence : finding.evidence) text += "  " + evidence.label + ": " + evidence.value.text + "\n";
  }
  return text;
}

std::vector<analyzers::Report> AnalyzeJson(const testing::TempDir& dir, const std::string& json) {
  const std::string path = dir.File("trace.json");
  std::ofstream(path, std::ios::binary) << json;
  auto reports = AnalyzeTraces({path});
  EXPECT_TRUE(reports.ok()) << reports.status().ToString();
  return reports.ok() ? std::move(*reports) : std::vector<analyzers::Report>{};
}

// A mixed-precision run: the model's linear layers in FP16 under autocast, a head's aten::mm in FP32 (on
// autocast's list, so outside the region), and an aten::mm inside aten::cdist (kept in FP32 by design).
TEST(AutocastCoverage, AMixedRunSaysWhichOpsRanOutsideTheRegionAndWhichStayFp32ByDesign) {
  testing::TempDir dir;
  KinetoWriter trace(7, 7);
  for (int i = 0; i < 5; ++i) {
    trace.Op("aten::linear", "[[512, 1024], [1024, 1024]]", R"(["c10::Half", "c10::Half"])")
        .Launch(kFp16TensorCoreGemm, 100);
    trace.Op("aten::mm", "[[512, 1000], [1000, 1000]]", R"(["float", "float"])").Launch(kSgemm, 200);
    trace.Op("aten::mm", "[[64, 16], [16, 64]]", R"(["float", "float"])", "aten::cdist").Launch(kSgemm, 100);
  }
  const std::vector<analyzers::Report> reports = AnalyzeJson(dir, trace.Json());
  ASSERT_FALSE(reports.empty());
  const std::vector<std::string> lines = Autocast(reports, "tensor_cores.fp32_math");
  ASSERT_EQ(lines.size(), 2u) << Findings(reports);
  EXPECT_EQ(lines[0],
            "aten::mm [512, 1000], [1000, 1000] (FP32): on autocast's lower-precision list, yet it ran in FP32 while "
            "other GEMMs and convolutions of this run ran in reduced precision: it ran outside an enabled autocast "
            "region");
  EXPECT_EQ(lines[1], "aten::mm [64, 16], [16, 64] (FP32): inside aten::cdist, which autocast keeps in FP32 by design");
}

// Without input types the trace cannot show whether autocast covered the op: the line says so.
TEST(AutocastCoverage, WithoutInputTypesAMixedRunClaimsNothingAboutTheRegion) {
  testing::TempDir dir;
  KinetoWriter trace(7, 7);
  for (int i = 0; i < 5; ++i) {
    trace.Op("aten::addmm").Launch(kFp16TensorCoreGemm, 100);
    trace.Op("aten::addmm").Launch(kSgemm, 200);
  }
  const std::vector<analyzers::Report> reports = AnalyzeJson(dir, trace.Json());
  ASSERT_FALSE(reports.empty());
  const std::vector<std::string> lines = Autocast(reports, "tensor_cores.fp32_math");
  ASSERT_EQ(lines.size(), 1u) << Findings(reports);
  EXPECT_EQ(lines[0], "aten::addmm: on autocast's lower-precision list; the trace records no input types, so whether "
                      "autocast covered it is not shown");
}

// An FP32 run: autocast would cast the op, and nothing of the run was.
TEST(AutocastCoverage, AnFp32RunSaysAutocastWouldCastTheOp) {
  testing::TempDir dir;
  KinetoWriter trace(7, 7);
  for (int i = 0; i < 5; ++i) {
    trace.Op("aten::addmm", "[[1000], [512, 1000], [1000, 1000]]", R"(["float", "float", "float"])")
        .Launch(kSgemm, 200);
    trace.Op("aten::cumsum", "[[512, 1000]]", R"(["float"])").Launch(kSgemm, 10);
  }
  const std::vector<analyzers::Report> reports = AnalyzeJson(dir, trace.Json());
  ASSERT_FALSE(reports.empty());
  const std::vector<std::string> lines = Autocast(reports, "amp.opportunity");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "aten::addmm [1000], [512, 1000], [1000, 1000] (FP32): on autocast's lower-precision list: autocast would "
            "run it in FP16/BF16; no GEMM or convolution of this run ran in reduced precision, so autocast is off or "
            "its region holds none of them");
  EXPECT_EQ(lines[1], "aten::cumsum [512, 1000] (FP32): autocast keeps it in FP32 by design");
}

// The shared ResNet-50 FP32 training trace (V100, record_shapes): its convolutions, forward and backward,
// are under aten::conv2d, which autocast would run in FP16 (a backward one through its forward op).
TEST(AutocastCoverage, TheSharedResnet50TraceNamesConv2dAsCovered) {
  const std::string fixture = std::string(AMPPROF_SHARED_FIXTURES_DIR) +
                              "/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt."
                              "trace.json.gz";
  if (!std::filesystem::exists(fixture)) GTEST_SKIP() << "no shared fixtures";
  const auto reports = AnalyzeTraces({fixture});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const std::vector<std::string> lines = Autocast(*reports, "amp.opportunity");
  ASSERT_EQ(lines.size(), 3u);
  for (const std::string& line : lines) {
    EXPECT_NE(line.find("inside aten::conv2d, which is on autocast's lower-precision list: autocast would run it in "
                        "FP16/BF16"),
              std::string::npos)
        << line;
    // A backward convolution is judged by its forward op, and says so.
    EXPECT_EQ(line.find("backward of") != std::string::npos, line.find("its forward op is inside") != std::string::npos)
        << line;
  }
}

}  // namespace
}  // namespace ampprof::pipeline
