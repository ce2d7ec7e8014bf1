// analyze --baseline through the pipeline: synthetic FP32 and AMP traces written to files, rank-by-rank
// pairing of directories, the first-of-each fallback, a bad baseline path, and the shared ResNet-50 pair
// (two FP32 runs, so the "AMP" side is not mixed precision at all).

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "reports/common/statement_text.h"
#include "src/pipeline/analysis.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

using synthetic::SyntheticPrecision;

void WriteSynthetic(const std::string& path, SyntheticPrecision precision, uint64_t seed = 1) {
  synthetic::SyntheticTraceOptions options;
  options.kernels = 2000;
  options.precision = precision;
  options.seed = seed;
  auto writer = records::AmptWriter::Create(path, {});
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE(synthetic::GenerateSyntheticTrace(options, **writer).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

std::string Text(const analyzers::Statement& statement) { return reports::RenderStatement(statement); }

bool HasNote(const analyzers::Comparison& comparison, std::string_view text) {
  return std::any_of(comparison.notes.begin(), comparison.notes.end(),
                     [&](const analyzers::Statement& note) { return Text(note).find(text) != std::string::npos; });
}

std::string Notes(const analyzers::Comparison& comparison) {
  std::string all;
  for (const analyzers::Statement& note : comparison.notes) all += Text(note) + "\n";
  return all;
}

const analyzers::Finding* FindingOf(const analyzers::Report& report, std::string_view id) {
  for (const analyzers::Finding& finding : report.findings) {
    if (finding.id == id) return &finding;
  }
  return nullptr;
}

TEST(ComparisonPipeline, ComparesTheAmpTraceWithItsFp32Baseline) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("amp.ampt"), SyntheticPrecision::kAmp);
  WriteSynthetic(dir.File("fp32.ampt"), SyntheticPrecision::kFp32);
  const auto reports = AnalyzeTraces({dir.File("amp.ampt")}, {.baseline = dir.File("fp32.ampt")});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 1u);
  const analyzers::Report& report = reports->front();
  ASSERT_TRUE(report.comparison.has_value());
  const analyzers::Comparison& c = *report.comparison;
  EXPECT_EQ(c.basis, analyzers::CompareBasis::kMedianStep);
  EXPECT_EQ(c.baseline.trace, dir.File("fp32.ampt"));
  EXPECT_EQ(c.candidate.trace, dir.File("amp.ampt"));
  EXPECT_EQ(c.baseline.label, "pid 4242");
  EXPECT_FALSE(c.baseline.reduced_precision);
  EXPECT_TRUE(c.candidate.reduced_precision);
  EXPECT_NE(std::find(report.checks_run.begin(), report.checks_run.end(), "amp.slower_than_fp32"),
            report.checks_run.end());
  EXPECT_EQ(c.pair, analyzers::RunPair::kFp32VsMixed);
  // The synthetic FP32 loop never waits for its GPU: its step ranges (about 0.67 ms) time the launches,
  // while the GPU needs about 1.5 ms per step of SIMT GEMMs. The steps' periods follow the GPU
  // (step_account.h), and AMP is faster.
  EXPECT_GT(c.baseline.time_ns, 2 * 666'000);
  EXPECT_GT(c.speedup, analyzers::kMinUsefulSpeedup);
  EXPECT_EQ(FindingOf(report, "amp.slower_than_fp32"), nullptr);
}

TEST(ComparisonPipeline, KeepsATimelineOfAMedianStepOfEachRun) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("amp.ampt"), SyntheticPrecision::kAmp);
  WriteSynthetic(dir.File("fp32.ampt"), SyntheticPrecision::kFp32);
  const auto reports = AnalyzeTraces({dir.File("amp.ampt")}, {.baseline = dir.File("fp32.ampt")});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Report& report = reports->front();
  ASSERT_TRUE(report.timeline && report.baseline_timeline);
  const auto has_category = [](const analyzers::Timeline& timeline, std::string_view category) {
    return std::find(timeline.categories.begin(), timeline.categories.end(), category) != timeline.categories.end();
  };
  // One step each: the FP32 step's GEMMs on CUDA cores, the AMP step's on Tensor Cores, with GradScaler.
  EXPECT_TRUE(has_category(*report.baseline_timeline, "GEMM on CUDA cores"));
  EXPECT_FALSE(has_category(*report.baseline_timeline, "GEMM on Tensor Cores"));
  EXPECT_TRUE(has_category(*report.timeline, "GEMM on Tensor Cores"));
  EXPECT_TRUE(has_category(*report.timeline, "GradScaler"));
  EXPECT_NE(Text(report.timeline->window_label).find("the median step"), std::string::npos)
      << Text(report.timeline->window_label);
  // The timelines' steps are about the median steps the comparison times.
  EXPECT_NEAR(static_cast<double>(report.timeline->window.duration()),
              static_cast<double>(report.comparison->candidate.time_ns), 0.1 * report.comparison->candidate.time_ns);
  EXPECT_NEAR(static_cast<double>(report.baseline_timeline->window.duration()),
              static_cast<double>(report.comparison->baseline.time_ns), 0.1 * report.comparison->baseline.time_ns);
}

TEST(ComparisonPipeline, WithoutABaselineThereIsNoComparison) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("amp.ampt"), SyntheticPrecision::kAmp);
  const auto reports = AnalyzeTraces({dir.File("amp.ampt")});
  ASSERT_TRUE(reports.ok());
  EXPECT_FALSE(reports->front().comparison.has_value());
  EXPECT_TRUE(reports->front().timeline.has_value());
  EXPECT_FALSE(reports->front().baseline_timeline.has_value());
  EXPECT_EQ(std::find(reports->front().checks_run.begin(), reports->front().checks_run.end(), "amp.slower_than_fp32"),
            reports->front().checks_run.end());
}

TEST(ComparisonPipeline, ATraceAgainstItselfIsNoSpeedup) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("amp.ampt"), SyntheticPrecision::kAmp);
  const auto reports = AnalyzeTraces({dir.File("amp.ampt")}, {.baseline = dir.File("amp.ampt")});
  ASSERT_TRUE(reports.ok());
  const analyzers::Report& report = reports->front();
  EXPECT_DOUBLE_EQ(report.comparison->speedup, 1.0);
  EXPECT_EQ(report.comparison->pair, analyzers::RunPair::kBothMixed);
  EXPECT_EQ(FindingOf(report, "amp.slower_than_fp32"), nullptr) << "there is no FP32 run to be slower than";
  EXPECT_TRUE(HasNote(*report.comparison, "it is not an FP32 baseline")) << Notes(*report.comparison);
}

TEST(ComparisonPipeline, ComparesRankByRankWhenBothRunsHaveTheSameRanks) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.File("amp"));
  std::filesystem::create_directories(dir.File("fp32"));
  for (int rank = 0; rank < 2; ++rank) {
    WriteSynthetic(dir.File("amp/trace_rank" + std::to_string(rank) + ".ampt"), SyntheticPrecision::kAmp,
                   static_cast<uint64_t>(rank + 1));
    WriteSynthetic(dir.File("fp32/trace_rank" + std::to_string(rank) + ".ampt"), SyntheticPrecision::kFp32,
                   static_cast<uint64_t>(rank + 1));
  }
  const auto reports = AnalyzeTraces({dir.File("amp")}, {.baseline = dir.File("fp32")});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 2u);
  for (int rank = 0; rank < 2; ++rank) {
    const analyzers::Report& report = (*reports)[static_cast<size_t>(rank)];
    ASSERT_TRUE(report.comparison.has_value()) << rank;
    EXPECT_EQ(report.comparison->baseline.trace, dir.File("fp32/trace_rank" + std::to_string(rank) + ".ampt"));
    EXPECT_TRUE(HasNote(*report.comparison, "compared rank by rank: this is rank " + std::to_string(rank)))
        << Notes(*report.comparison);
  }
}

TEST(ComparisonPipeline, DifferentRanksCompareTheFirstOfEachAndSaySo) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.File("amp"));
  WriteSynthetic(dir.File("amp/trace_rank0.ampt"), SyntheticPrecision::kAmp);
  WriteSynthetic(dir.File("amp/trace_rank1.ampt"), SyntheticPrecision::kAmp, 2);
  WriteSynthetic(dir.File("fp32.ampt"), SyntheticPrecision::kFp32);
  const auto reports = AnalyzeTraces({dir.File("amp")}, {.baseline = dir.File("fp32.ampt")});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 2u);
  ASSERT_TRUE((*reports)[0].comparison.has_value());
  EXPECT_TRUE(HasNote(*(*reports)[0].comparison,
                      "the runs do not have the same ranks (AMP: 0, 1; FP32: none): compared the first trace of "
                      "each, AMP rank 0 (from the file name) with FP32 pid 4242"))
      << Notes(*(*reports)[0].comparison);
  EXPECT_FALSE((*reports)[1].comparison.has_value());
}

TEST(ComparisonPipeline, ABadBaselineFailsNamingIt) {
  testing::TempDir dir;
  WriteSynthetic(dir.File("amp.ampt"), SyntheticPrecision::kAmp);
  const auto missing = AnalyzeTraces({dir.File("amp.ampt")}, {.baseline = dir.File("missing.ampt")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message().rfind("baseline " + dir.File("missing.ampt") + ": no such file", 0), 0u)
      << missing.status().message();
  testing::WriteFileBytes(dir.File("empty.ampt"), {});
  const auto empty = AnalyzeTraces({dir.File("amp.ampt")}, {.baseline = dir.File("empty.ampt")});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty.ampt: file is empty"), std::string::npos)
      << empty.status().message();
}

// Both ResNet-50 traces are FP32 (the second has four data-loader workers): whichever is called the AMP
// run, it is not one, and the comparison says so; neither direction states a mixed-precision speed-up.
TEST(ComparisonPipeline, SharedResNetPairIsTwoFp32Runs) {
  const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent (a fresh clone)";
  const std::string workers0 =
      (root / "pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz").string();
  const std::string workers4 =
      (root / "pytorch__kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz").string();

  const auto faster = AnalyzeTraces({workers4}, {.baseline = workers0});
  ASSERT_TRUE(faster.ok()) << faster.status().ToString();
  const analyzers::Comparison& c = *faster->front().comparison;
  EXPECT_EQ(c.pair, analyzers::RunPair::kBothFp32);
  EXPECT_TRUE(HasNote(c, "both runs are FP32")) << Notes(c);
  EXPECT_FALSE(c.baseline.reduced_precision);
  EXPECT_FALSE(c.candidate.reduced_precision);
  EXPECT_FALSE(HasNote(c, "different GPUs"));
  EXPECT_GT(c.speedup, analyzers::kMinUsefulSpeedup) << "four workers keep the GPU busier";
  EXPECT_EQ(FindingOf(faster->front(), "amp.slower_than_fp32"), nullptr);

  const auto slower = AnalyzeTraces({workers0}, {.baseline = workers4});
  ASSERT_TRUE(slower.ok()) << slower.status().ToString();
  EXPECT_EQ(FindingOf(slower->front(), "amp.slower_than_fp32"), nullptr)
      << "two FP32 runs: no mixed-precision run to be slower";
  EXPECT_EQ(slower->front().comparison->pair, analyzers::RunPair::kBothFp32);
}

}  // namespace
}  // namespace ampprof::pipeline
