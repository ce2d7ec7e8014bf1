#include "reports/json/rank_summary_json.h"

#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ampprof::reports {
namespace {

using ::testing::HasSubstr;

analyzers::RankSummary SampleSummary() {
  analyzers::RankSummary s;
  s.trace = "traces/rank3.json.gz";
  s.format = "PyTorch profiler (Kineto) JSON";
  s.label = "rank 3 of 8";
  s.rank = 3;
  s.world_size = 8;
  s.backend = "nccl";
  s.hostname = "node-07";
  s.pid = 4242;
  s.workload = "python train.py --amp \"fast\"";
  s.gpu = "NVIDIA H100 80GB HBM3";
  s.fingerprint = "0123456789abcdef";
  s.basis = "measured steps";
  s.step_source = "ProfilerStep ranges";
  s.steps = 12;
  s.window_ns = 120'000'000;
  s.median_step_ns = 9'999'999;
  s.p90_step_ns = 10'500'000;
  s.compute_ns = 80'000'000;
  s.exposed_communication_ns = 10'000'000;
  s.overlapped_communication_ns = 3'000'000;
  s.copy_ns = 1'000;
  s.idle[analyzers::GapCause::kHostLaunch] = 20'000'000;
  s.idle[analyzers::GapCause::kUnattributed] = 9'999'000;
  s.communication.push_back({"AllReduce", 12, 13'000'000, 10'000'000, 3'000'000, 900'000, 1'000'000});
  analyzers::RankFinding finding;
  finding.id = "gpu.host_bound";
  finding.severity = analyzers::Severity::kCritical;
  finding.device_id = 0;
  finding.verdict = analyzers::Statement("the GPU waits {share} of the step for {calls:launch}",
                                         {analyzers::Fraction("share", 0.1 + 0.2), analyzers::Count("calls", 3)});
  finding.saving = analyzers::Saving::Range(1'000'000, 2'000'000, 1.0 / 3.0, 0.2, "launching fewer kernels");
  s.findings.push_back(finding);
  s.checks_run = {"gpu.host_bound", "amp.fp32_gemm"};
  s.data_loss = true;
  s.stats = {{"records_dropped", 17}};
  return s;
}

std::string Write(const std::vector<analyzers::RankSummary>& summaries) {
  std::ostringstream out;
  WriteRankSummaries(summaries, out, {.generator = "ampprof test"});
  return out.str();
}

TEST(RankSummaryJson, RoundTripsFieldForField) {
  const std::vector<analyzers::RankSummary> summaries = {SampleSummary(), SampleSummary()};
  const std::string first = Write(summaries);
  auto read = ParseRankSummaries(first, "ranks.json");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->size(), 2u);
  const analyzers::RankSummary& back = read->front();
  EXPECT_EQ(back.workload, "python train.py --amp \"fast\"");
  EXPECT_EQ(back.idle[analyzers::GapCause::kUnattributed], 9'999'000);
  EXPECT_EQ(back.communication, summaries.front().communication);
  ASSERT_EQ(back.findings.size(), 1u);
  EXPECT_EQ(back.findings[0].severity, analyzers::Severity::kCritical);
  EXPECT_EQ(back.findings[0].saving.low_fraction, 1.0 / 3.0);  // doubles exactly
  EXPECT_EQ(back.findings[0].verdict.values[0].value, 0.1 + 0.2);
  EXPECT_EQ(back.stats, summaries.front().stats);
  // Written again, it is the same bytes: nothing lost or changed on the way.
  EXPECT_EQ(Write(*read), first);
}

TEST(RankSummaryJson, IsRecognisedByItsFirstMember) {
  const std::string text = Write({SampleSummary()});
  EXPECT_TRUE(LooksLikeRankSummary(text.substr(0, 64)));
  EXPECT_TRUE(LooksLikeRankSummary("\xEF\xBB\xBF \n{ \"schema\" : \"ampprof.rank_summary\""));
  EXPECT_FALSE(LooksLikeRankSummary("{\"traceEvents\": []}"));
  EXPECT_FALSE(LooksLikeRankSummary("{\"schema\": \"something.else\"}"));
}

TEST(RankSummaryJson, RefusesWhatItCannotReadWithOneLine) {
  auto newer = ParseRankSummaries(R"({"schema": "ampprof.rank_summary", "schema_version": 2, "ranks": []})", "s.json");
  ASSERT_FALSE(newer.ok());
  EXPECT_THAT(newer.status().message(), HasSubstr("s.json: rank summary schema version 2"));

  auto other = ParseRankSummaries(R"({"traceEvents": []})", "t.json");
  ASSERT_FALSE(other.ok());
  EXPECT_THAT(other.status().message(), HasSubstr("t.json: not an ampprof rank summary"));

  auto broken = ParseRankSummaries("{\"schema\": ", "b.json");
  ASSERT_FALSE(broken.ok());
  EXPECT_THAT(broken.status().message(), HasSubstr("b.json: invalid JSON"));

  std::string missing = Write({SampleSummary()});
  missing.replace(missing.find("\"median_step_ns\""), 16, "\"median_step_xx\"");
  auto incomplete = ParseRankSummaries(missing, "m.json");
  ASSERT_FALSE(incomplete.ok());
  EXPECT_THAT(incomplete.status().message(), HasSubstr("m.json: ranks[0].account.median_step_ns: missing"));

  std::string wrong = Write({SampleSummary()});
  wrong.replace(wrong.find("\"steps\": 12"), 11, "\"steps\": -1");
  auto negative = ParseRankSummaries(wrong, "w.json");
  ASSERT_FALSE(negative.ok());
  EXPECT_THAT(negative.status().message(), HasSubstr("ranks[0].account.steps: expected an unsigned integer"));
}

// A summary is input from elsewhere: times a reduction would add up past 64 bits (or negative ones)
// are refused where they are read, not overflowed in the reduction.
TEST(RankSummaryJson, RefusesTimesOutsideZeroToAYear) {
  std::string huge = Write({SampleSummary()});
  const std::string compute = "\"compute_ns\": 80000000";
  huge.replace(huge.find(compute), compute.size(), "\"compute_ns\": 9223372036854775807");
  auto overflowing = ParseRankSummaries(huge, "h.json");
  ASSERT_FALSE(overflowing.ok());
  EXPECT_THAT(overflowing.status().message(),
              HasSubstr("h.json: ranks[0].account.compute_ns: 9223372036854775807 ns is not a duration from 0 to a year"));

  std::string negative = Write({SampleSummary()});
  const std::string launch_waits = "\"launch_waits\": 20000000";
  negative.replace(negative.find(launch_waits), launch_waits.size(), "\"launch_waits\": -20000000");
  auto below = ParseRankSummaries(negative, "n.json");
  ASSERT_FALSE(below.ok());
  EXPECT_THAT(below.status().message(), HasSubstr("ranks[0].account.idle_ns.launch_waits: -20000000 ns"));
}

}  // namespace
}  // namespace ampprof::reports
