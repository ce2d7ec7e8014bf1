#include "src/pipeline/job_analysis.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analyzers/ranks/job_report.h"
#include "analyzers/ranks/job_statements.h"
#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "reports/common/statement_text.h"
#include "reports/json/job_json.h"
#include "reports/json/json_writer.h"
#include "reports/json/rank_summary_json.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

using ::testing::HasSubstr;

struct JobShape {
  int32_t ranks = 8;
  int32_t first_rank = 0;
  int32_t world_size = 8;
  int32_t straggler = -1;
  double slowdown = 1.5;
  bool host_straggler = false;
  double imbalance = 0.0;  // rank r's kernels take 1 + imbalance * r / (ranks - 1) times as long
};

// A synthetic synchronous job written as one .ampt per rank, as `ampprof-synth --ranks` writes it.
void WriteJob(const std::string& directory, const JobShape& shape) {
  std::vector<synthetic::SyntheticTraceOptions> ranks;
  for (int32_t r = shape.first_rank; r < shape.first_rank + shape.ranks; ++r) {
    synthetic::SyntheticTraceOptions options;
    options.kernels = 4'000;
    options.seed = 7 + static_cast<uint64_t>(r);
    options.rank = r;
    options.world_size = shape.world_size;
    if (shape.ranks > 1) options.compute_scale = 1.0 + shape.imbalance * (r - shape.first_rank) / (shape.ranks - 1);
    if (r == shape.straggler) (shape.host_straggler ? options.host_scale : options.compute_scale) = shape.slowdown;
    ranks.push_back(options);
  }
  auto ends = synthetic::SyntheticCollectiveEnds(ranks);
  ASSERT_TRUE(ends.ok()) << ends.status().message();
  for (const synthetic::SyntheticTraceOptions& rank : ranks) {
    auto writer = records::AmptWriter::Create(fmt::format("{}/rank-{}.ampt", directory, rank.rank), {});
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    ASSERT_TRUE(synthetic::GenerateSyntheticRank(rank, *ends, **writer).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
}

std::string JobJson(const analyzers::JobReport& job) {
  std::ostringstream out;
  reports::JsonWriter json(out);
  reports::WriteJob(json, job);
  return out.str();
}

analyzers::JobReport Reduce(const std::vector<std::string>& paths, unsigned jobs = 1) {
  auto analysis = AnalyzeJob(paths, {.jobs = jobs});
  EXPECT_TRUE(analysis.ok()) << analysis.status().message();
  if (!analysis.ok()) return {};
  EXPECT_TRUE(analyzers::IsJob(analysis->summaries));
  return analyzers::ReduceRanks(analysis->summaries);
}

TEST(JobAnalysisTest, InjectedGpuStragglerIsNamedWithTheWaitItCauses) {
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 8, .straggler = 5, .slowdown = 3.0});
  const analyzers::JobReport job = Reduce({dir.path()});
  EXPECT_EQ(job.ranks, 8u);
  EXPECT_EQ(job.world_size, 8);
  EXPECT_THAT(job.notes, ::testing::IsEmpty());
  ASSERT_TRUE(job.stragglers.judged) << job.stragglers.not_judged;
  ASSERT_EQ(job.stragglers.stragglers.size(), 1u) << reports::RenderStatement(analyzers::DescribeJob(job));
  const analyzers::Straggler& straggler = job.stragglers.stragglers.front();
  EXPECT_EQ(straggler.rank, 5);
  EXPECT_GT(straggler.wait_ns, 0);
  EXPECT_GE(static_cast<double>(straggler.wait_ns), analyzers::kMinWaitShare * static_cast<double>(straggler.excess_ns));
  EXPECT_THAT(reports::RenderStatement(analyzers::DescribeJob(job)), HasSubstr("rank 5 of 8 is a straggler"));
}

TEST(JobAnalysisTest, InjectedHostStragglerIsNamed) {
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 6, .world_size = 6, .straggler = 2, .slowdown = 1.6, .host_straggler = true});
  const analyzers::JobReport job = Reduce({dir.path()});
  ASSERT_EQ(job.stragglers.stragglers.size(), 1u) << reports::RenderStatement(analyzers::DescribeJob(job));
  EXPECT_EQ(job.stragglers.stragglers.front().rank, 2);
  EXPECT_EQ(job.stragglers.stragglers.front().cause, analyzers::StragglerCause::kHost);
}

TEST(JobAnalysisTest, InjectedImbalanceIsUnevenWorkNotAStraggler) {
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 5, .world_size = 5, .imbalance = 0.8});
  const analyzers::JobReport job = Reduce({dir.path()});
  EXPECT_THAT(job.stragglers.stragglers, ::testing::IsEmpty());
  ASSERT_TRUE(job.stragglers.imbalance) << reports::RenderStatement(analyzers::DescribeJob(job));
  EXPECT_EQ(job.stragglers.imbalance->cause, analyzers::StragglerCause::kCompute);
  EXPECT_EQ(job.stragglers.imbalance->min_label, "rank 0 of 5");
  EXPECT_EQ(job.stragglers.imbalance->max_label, "rank 4 of 5");
  EXPECT_GT(job.stragglers.imbalance->wait_ns, 0);
}

TEST(JobAnalysisTest, EvenJobHasNoStragglerAndMergesItsFindings) {
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 4, .world_size = 4});
  const analyzers::JobReport job = Reduce({dir.path()});
  EXPECT_TRUE(job.stragglers.judged);
  EXPECT_THAT(job.stragglers.stragglers, ::testing::IsEmpty());
  ASSERT_FALSE(job.findings.empty());
  // The synthetic loop is launch-bound on every rank: one finding on all four, not four.
  EXPECT_EQ(job.findings.front().ranks, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(analyzers::DescribeRanks(job.findings.front(), job), "all 4 ranks");
}

TEST(JobAnalysisTest, SummariesReduceToTheSameReportAsTheTraces) {
  testing::TempDir traces;
  WriteJob(traces.path(), {.ranks = 6, .world_size = 6, .straggler = 1, .slowdown = 3.0});
  auto analysis = AnalyzeJob({traces.path()}, {.jobs = 1});
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  const std::string direct = JobJson(analyzers::ReduceRanks(analysis->summaries));

  // The map elsewhere: one summary file per rank (as `ampprof analyze rank-N.ampt --summary-only` writes),
  // then the reduce from the summaries alone.
  testing::TempDir summaries;
  std::vector<std::string> files;
  for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(traces.path())) {
    auto one = AnalyzeJob({entry.path().string()}, {.jobs = 1});
    ASSERT_TRUE(one.ok()) << one.status().message();
    files.push_back(summaries.File(entry.path().filename().string() + ".summary.json"));
    std::ofstream out(files.back());
    reports::WriteRankSummaries(one->summaries, out, {});
  }
  auto reduced = AnalyzeJob(files, {.jobs = 1});
  ASSERT_TRUE(reduced.ok()) << reduced.status().message();
  EXPECT_EQ(reduced->from_summary_files, 6u);
  EXPECT_TRUE(reduced->reports.empty());
  EXPECT_EQ(JobJson(analyzers::ReduceRanks(reduced->summaries)), direct);
  // The summary of the straggler job says so after the round trip too.
  EXPECT_THAT(direct, HasSubstr("\"rank\": 1"));
}

TEST(JobAnalysisTest, ThreadsGiveTheSameReport) {
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 5, .world_size = 5, .straggler = 3, .slowdown = 3.0});
  EXPECT_EQ(JobJson(Reduce({dir.path()}, 1)), JobJson(Reduce({dir.path()}, 3)));
}

TEST(JobAnalysisTest, KeepsOnlyTheReportsAskedFor) {
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 4, .world_size = 4});
  auto none = AnalyzeJob({dir.path()}, {.jobs = 2});
  ASSERT_TRUE(none.ok());
  EXPECT_LE(none->reports.size(), 1u);  // at most the first ranked trace's, before it was known to be a job
  auto one = AnalyzeJob({dir.path()}, {.jobs = 2, .rank = 2});
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(std::any_of(one->reports.begin(), one->reports.end(), [](const analyzers::Report& r) { return r.rank == 2; }));
  auto all = AnalyzeJob({dir.path()}, {.jobs = 2, .all_reports = true});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->reports.size(), 4u);
  for (int32_t r = 0; r < 4; ++r) EXPECT_EQ(all->reports[static_cast<size_t>(r)].rank, r);
}

TEST(JobAnalysisTest, SameFileTwiceIsNamed) {
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 3, .world_size = 3});
  std::filesystem::copy_file(dir.File("rank-1.ampt"), dir.File("copy.ampt"));
  const analyzers::JobReport job = Reduce({dir.path()});
  std::string notes;
  for (const analyzers::Statement& note : job.notes) notes += reports::RenderStatement(note) + "\n";
  EXPECT_THAT(notes, HasSubstr("is the same trace as"));
  EXPECT_EQ(job.ranks, 3u);
}

// The shared sampled_rank-0 trace (HTA's, an A100 rank of a real job) with synthetic ranks 1-3: one
// cross-rank report, whose notes say what does not match (the synthetic ranks are another job).
TEST(JobAnalysisTest, SharedRankZeroWithSyntheticRanksGiveOneCrossRankReport) {
  const std::string fixture = std::string(AMPPROF_SHARED_FIXTURES_DIR) +
                              "/facebookresearch__HolisticTraceAnalysis/tests/data/timeline_analysis/sampled_rank-0.json.gz";
  if (!std::filesystem::exists(fixture)) GTEST_SKIP() << "no shared fixtures";
  testing::TempDir dir;
  WriteJob(dir.path(), {.ranks = 3, .first_rank = 1, .world_size = 4});
  const analyzers::JobReport job = Reduce({fixture, dir.path()});
  EXPECT_EQ(job.traces, 4u);
  EXPECT_EQ(job.ranks, 4u);
  ASSERT_EQ(job.rows.size(), 4u);
  EXPECT_EQ(job.rows[0].rank, 0);
  EXPECT_THAT(job.rows[0].trace, HasSubstr("sampled_rank-0.json.gz"));
  ASSERT_FALSE(job.findings.empty());
  for (const analyzers::MergedFinding& finding : job.findings) EXPECT_FALSE(finding.ranks.empty()) << finding.id;
  // Merged findings name their ranks: some finding is on more than one rank.
  EXPECT_TRUE(std::any_of(job.findings.begin(), job.findings.end(),
                          [](const analyzers::MergedFinding& f) { return f.ranks.size() > 1; }));
  std::string notes;
  for (const analyzers::Statement& note : job.notes) notes += reports::RenderStatement(note) + "\n";
  EXPECT_FALSE(notes.empty()) << "a real A100 rank and three synthetic H100 ranks are not one job";
}

}  // namespace
}  // namespace ampprof::pipeline
