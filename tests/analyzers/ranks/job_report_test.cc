#include "analyzers/ranks/job_report.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analyzers/ranks/job_statements.h"
#include "reports/common/statement_text.h"

namespace ampprof::analyzers {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr int64_t kSteps = 10;
constexpr base::DurationNs kStep = 10'000'000;  // 10 ms

// One rank of a synchronous job, as its summary says: per-step compute, host wait and collective time
// (totals over kSteps steps), the rest of the step idle for other reasons.
struct RankShape {
  int32_t rank = 0;
  base::DurationNs compute = 6'000'000;
  base::DurationNs host_wait = 1'000'000;
  base::DurationNs collectives = 2'000'000;
  base::DurationNs step = kStep;
};

RankSummary Rank(const RankShape& shape, int32_t world_size = 8) {
  RankSummary s;
  s.rank = shape.rank;
  s.world_size = world_size;
  s.label = fmt::format("rank {} of {}", shape.rank, world_size);
  s.trace = fmt::format("rank{}.ampt", shape.rank);
  s.backend = "nccl";
  s.fingerprint = fmt::format("{:016x}", 1000 + shape.rank);
  s.basis = "measured steps";
  s.steps = kSteps;
  s.window_ns = shape.step * kSteps;
  s.median_step_ns = shape.step;
  s.compute_ns = shape.compute * kSteps;
  s.exposed_communication_ns = shape.collectives * kSteps;
  s.idle[GapCause::kHostLaunch] = shape.host_wait * kSteps;
  s.communication.push_back({"AllReduce", kSteps, shape.collectives * kSteps, shape.collectives * kSteps, 0,
                             shape.collectives, shape.collectives});
  return s;
}

RankFinding HostBound(double fraction) {
  RankFinding finding;
  finding.id = "gpu.host_bound";
  finding.severity = Severity::kWarning;
  finding.verdict = Statement("the GPU waits for its host {share} of the step", {Fraction("share", fraction)});
  finding.saving = Saving::Exact(static_cast<base::DurationNs>(fraction * kStep), fraction, "");
  return finding;
}

std::vector<RankSummary> EvenJob(int32_t ranks) {
  std::vector<RankSummary> job;
  for (int32_t r = 0; r < ranks; ++r) {
    // Small differences, as real ranks have.
    job.push_back(Rank({.rank = r, .compute = 6'000'000 + 20'000 * (r % 3), .collectives = 2'000'000 - 10'000 * (r % 2)}));
  }
  return job;
}

TEST(RankRangesTest, CollapsesRuns) {
  const std::vector<int32_t> ranks = {0, 1, 2, 3, 5, 7, 8, 9};
  EXPECT_EQ(RankRanges(ranks), "0-3, 5, 7-9");
  EXPECT_EQ(RankRanges(std::vector<int32_t>{4}), "4");
  EXPECT_EQ(RankRanges(std::vector<int32_t>{}), "");
}

TEST(IsJobTest, NeedsTwoRankedTraces) {
  std::vector<RankSummary> one = {Rank({.rank = 0})};
  EXPECT_FALSE(IsJob(one));
  RankSummary unranked = Rank({.rank = 1});
  unranked.rank = -1;
  one.push_back(unranked);
  EXPECT_FALSE(IsJob(one));
  EXPECT_TRUE(IsJob(EvenJob(2)));
  // Two single-GPU runs, each "rank 0 of 1" (an AMP and an FP32 run of one script): not a job.
  const std::vector<RankSummary> two_runs = {Rank({.rank = 0}, 1), Rank({.rank = 0}, 1)};
  EXPECT_FALSE(IsJob(two_runs));
  EXPECT_TRUE(IsJob(std::vector<RankSummary>{Rank({.rank = 0}, 0), Rank({.rank = 1}, 0)})) << "world size unknown";
}

TEST(StragglerTest, ComputeStragglerIsNamedWithThePeersWait) {
  std::vector<RankSummary> summaries = EvenJob(8);
  // Rank 5 computes 1.5 ms more per step; the seven others wait for it in their all-reduce.
  summaries[5] = Rank({.rank = 5, .compute = 7'500'000, .collectives = 600'000});
  for (int32_t r = 0; r < 8; ++r) {
    if (r != 5) summaries[static_cast<size_t>(r)].communication[0].kernel_ns += 1'400'000 * kSteps;
  }
  const JobReport job = ReduceRanks(summaries);
  ASSERT_TRUE(job.stragglers.judged) << job.stragglers.not_judged;
  ASSERT_EQ(job.stragglers.stragglers.size(), 1u);
  const Straggler& s = job.stragglers.stragglers.front();
  EXPECT_EQ(s.rank, 5);
  EXPECT_EQ(s.cause, StragglerCause::kCompute);
  EXPECT_EQ(s.own_ns, 7'500'000);
  EXPECT_EQ(s.collectives_ns, 600'000);
  EXPECT_GE(s.wait_ns, 2'790'000);  // the peers' 3.39-3.40 ms against its 0.6 ms
  EXPECT_LE(s.wait_ns, 2'800'000);
  EXPECT_FALSE(job.stragglers.imbalance);
  const std::string headline = reports::RenderStatement(DescribeJob(job));
  EXPECT_THAT(headline, HasSubstr("rank 5 of 8 is a straggler"));
  // Its peers' exposed communication is their wait for it: the headline starts with the straggler.
  EXPECT_THAT(headline, HasSubstr("start with rank 5 of 8, which the other ranks wait for"));
  EXPECT_THAT(reports::RenderStatement(DescribeStraggler(s)), HasSubstr("wait for it in collective kernels"));
}

TEST(StragglerTest, HostStragglerIsNamed) {
  std::vector<RankSummary> summaries = EvenJob(16);
  summaries[2] = Rank({.rank = 2, .host_wait = 3'000'000, .collectives = 500'000});
  const JobReport job = ReduceRanks(summaries);
  ASSERT_EQ(job.stragglers.stragglers.size(), 1u);
  EXPECT_EQ(job.stragglers.stragglers.front().rank, 2);
  EXPECT_EQ(job.stragglers.stragglers.front().cause, StragglerCause::kHost);
}

TEST(StragglerTest, AnOutlierNobodyWaitsForIsNoStraggler) {
  std::vector<RankSummary> summaries = EvenJob(8);
  // More compute, but its collectives take as long as everyone's: the extra work hides in idle time.
  summaries[3] = Rank({.rank = 3, .compute = 7'500'000});
  const JobReport job = ReduceRanks(summaries);
  EXPECT_TRUE(job.stragglers.judged);
  EXPECT_THAT(job.stragglers.stragglers, IsEmpty());
  EXPECT_THAT(reports::RenderStatement(DescribeNoStraggler(job.stragglers)), HasSubstr("no straggler"));
}

TEST(StragglerTest, EvenJobHasNone) {
  const JobReport job = ReduceRanks(EvenJob(8));
  EXPECT_TRUE(job.stragglers.judged);
  EXPECT_THAT(job.stragglers.stragglers, IsEmpty());
  EXPECT_FALSE(job.stragglers.imbalance);
}

TEST(StragglerTest, SpreadWorkIsAnImbalanceNotAStraggler) {
  std::vector<RankSummary> summaries;
  // Compute grows from 5 ms to 7.8 ms across eight ranks; the ranks with less work wait longer.
  for (int32_t r = 0; r < 8; ++r) {
    summaries.push_back(Rank({.rank = r, .compute = 5'000'000 + 400'000 * r, .collectives = 3'400'000 - 400'000 * r}));
  }
  const JobReport job = ReduceRanks(summaries);
  EXPECT_THAT(job.stragglers.stragglers, IsEmpty());
  ASSERT_TRUE(job.stragglers.imbalance);
  EXPECT_EQ(job.stragglers.imbalance->min_label, "rank 0 of 8");
  EXPECT_EQ(job.stragglers.imbalance->max_label, "rank 7 of 8");
  EXPECT_EQ(job.stragglers.imbalance->wait_ns, 2'800'000);
}

TEST(StragglerTest, TooFewRanksAreNotJudged) {
  const JobReport job = ReduceRanks(EvenJob(2));
  EXPECT_FALSE(job.stragglers.judged);
  EXPECT_THAT(job.stragglers.not_judged, HasSubstr("at least 3 ranks"));
}

TEST(MergedFindingsTest, OneFindingOnManyRanksWithTheRangeOfItsSaving) {
  std::vector<RankSummary> summaries = EvenJob(16);
  for (int32_t r = 0; r < 16; ++r) summaries[static_cast<size_t>(r)].findings.push_back(HostBound(0.18 + 0.04 * r / 15));
  RankFinding fp32_gemm;
  fp32_gemm.id = "amp.fp32_gemm";
  fp32_gemm.severity = Severity::kCritical;
  fp32_gemm.saving = Saving::Exact(100, 0.01, "");
  summaries[9].findings.insert(summaries[9].findings.begin(), fp32_gemm);
  const JobReport job = ReduceRanks(summaries);
  ASSERT_EQ(job.findings.size(), 2u);
  EXPECT_EQ(job.findings[0].id, "amp.fp32_gemm");  // most severe first
  EXPECT_THAT(job.findings[0].ranks, ElementsAre(9));
  const MergedFinding& host = job.findings[1];
  EXPECT_EQ(host.id, "gpu.host_bound");
  EXPECT_EQ(host.ranks.size(), 16u);
  EXPECT_DOUBLE_EQ(host.low_fraction, 0.18);
  EXPECT_DOUBLE_EQ(host.high_fraction, 0.22);
  EXPECT_EQ(host.verdict_label, "rank 15 of 8");  // the largest saving's words
  EXPECT_EQ(DescribeRanks(host, job), "all 16 ranks");
  EXPECT_EQ(DescribeRanks(job.findings[0], job), "rank 9");
  EXPECT_EQ(job.rows[9].top_finding->id, "amp.fp32_gemm");
}

TEST(CoherenceTest, NamesTracesThatDoNotBelongTogether) {
  std::vector<RankSummary> summaries = EvenJob(4);
  summaries.push_back(Rank({.rank = 4}, 16));  // another world size
  RankSummary copy = summaries[1];            // the same trace under another name
  copy.trace = "copy-of-rank1.ampt";
  summaries.push_back(copy);
  RankSummary twice = Rank({.rank = 2});  // rank 2 again, a different trace
  twice.trace = "other-rank2.ampt";
  twice.fingerprint = "ffffffffffffffff";
  summaries.push_back(twice);
  const JobReport job = ReduceRanks(summaries);
  std::vector<std::string> notes;
  for (const Statement& note : job.notes) notes.push_back(reports::RenderStatement(note));
  ASSERT_EQ(notes.size(), 3u) << ::testing::PrintToString(notes);
  EXPECT_THAT(notes[0], HasSubstr("different world sizes: 8 (ranks 0-3) and 16 (rank 4)"));
  EXPECT_THAT(notes[1], HasSubstr("rank1.ampt is the same trace as copy-of-rank1.ampt"));
  EXPECT_THAT(notes[2], HasSubstr("rank 2 is in 2 traces"));
  EXPECT_EQ(job.traces, 7u);
  EXPECT_EQ(job.ranks, 5u);
  const auto duplicates = std::count_if(job.rows.begin(), job.rows.end(), [](const RankRow& row) { return row.duplicate; });
  EXPECT_EQ(duplicates, 1);
  EXPECT_EQ(job.world_size, 0);  // they disagree
}

TEST(CoherenceTest, NamesDifferentGpuModels) {
  std::vector<RankSummary> summaries = EvenJob(4);
  for (RankSummary& s : summaries) s.gpu = "NVIDIA H100 80GB HBM3";
  summaries[2].gpu = "NVIDIA A100-SXM4-40GB";
  const JobReport job = ReduceRanks(summaries);
  ASSERT_EQ(job.notes.size(), 1u);
  EXPECT_EQ(reports::RenderStatement(job.notes[0]),
            "the traces ran on different GPU models: NVIDIA A100-SXM4-40GB (rank 2) and NVIDIA H100 80GB HBM3 "
            "(ranks 0-1, 3)");
}

TEST(CoherenceTest, StepsTooFarApartAreNamed) {
  std::vector<RankSummary> summaries = EvenJob(4);
  summaries[3] = Rank({.rank = 3, .step = 3 * kStep});
  const JobReport job = ReduceRanks(summaries);
  ASSERT_EQ(job.notes.size(), 1u);
  EXPECT_THAT(reports::RenderStatement(job.notes[0]), HasSubstr("are not the same steps of one job"));
  EXPECT_FALSE(job.stragglers.judged);
}

TEST(ReduceRanksTest, OrderOfSummariesDoesNotMatter) {
  std::vector<RankSummary> summaries = EvenJob(6);
  summaries[4].findings.push_back(HostBound(0.2));
  const JobReport forward = ReduceRanks(summaries);
  std::reverse(summaries.begin(), summaries.end());
  const JobReport backward = ReduceRanks(summaries);
  ASSERT_EQ(forward.rows.size(), backward.rows.size());
  for (size_t i = 0; i < forward.rows.size(); ++i) {
    EXPECT_EQ(forward.rows[i].rank, static_cast<int32_t>(i));
    EXPECT_EQ(forward.rows[i].rank, backward.rows[i].rank);
    EXPECT_EQ(forward.rows[i].per_step, backward.rows[i].per_step);
  }
  EXPECT_EQ(reports::RenderStatement(DescribeJob(forward)), reports::RenderStatement(DescribeJob(backward)));
}

TEST(RankRowTest, PerStepMeasuresFromTheAccount) {
  const RankRow row = MakeRankRow(Rank({.rank = 1, .compute = 6'000'000, .host_wait = 1'000'000, .collectives = 2'000'000}));
  EXPECT_EQ(row.Of(Measure::kStep), kStep);
  EXPECT_EQ(row.Of(Measure::kCompute), 6'000'000);
  EXPECT_EQ(row.Of(Measure::kHostWait), 1'000'000);
  EXPECT_EQ(row.Of(Measure::kCollectives), 2'000'000);
  EXPECT_EQ(row.Of(Measure::kIdle), 1'000'000);
  EXPECT_DOUBLE_EQ(row.busy_fraction, 0.8);
}

}  // namespace
}  // namespace ampprof::analyzers
