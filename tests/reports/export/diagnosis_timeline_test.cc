#include "reports/export/diagnosis_timeline.h"

#include <gtest/gtest.h>

#include "tests/reports/export/export_test_trace.h"

namespace ampprof::reports {
namespace {

TEST(DiagnosisTimeline, FindingsSpanTheMeasuredSteps) {
  const ExportTestTrace trace;
  const DiagnosisTimeline timeline = PlanDiagnosis(trace.input());
  ASSERT_EQ(timeline.steps.size(), 4u);
  EXPECT_EQ(timeline.steps[2].number, 2u);
  EXPECT_EQ(timeline.steps[2].interval, (base::Interval{kTestOrigin + 2 * kTestStepNs,
                                                        kTestOrigin + 2 * kTestStepNs + 90'000}));
  EXPECT_EQ(timeline.window, (base::Interval{kTestOrigin, kTestOrigin + 3 * kTestStepNs + 90'000}));
  EXPECT_EQ(timeline.window_description, "the 4 measured steps");
  EXPECT_EQ(timeline.loop_thread.pid, 100u);
  EXPECT_EQ(timeline.loop_thread.tid, 101u);
}

TEST(DiagnosisTimeline, WarmUpStepsAreMarkedAndLeftOutOfTheWindow) {
  const model::TraceModel model = BuildExportTestModel();
  std::optional<analyzers::Steps> steps = analyzers::Steps{};
  steps->intervals = {{0, 900}, {1000, 1100}, {1200, 1300}, {1400, 1500}};
  steps->warmup = 1;
  const DiagnosisTimeline timeline = PlanDiagnosis({model, steps, {}, "run.ampt"});
  ASSERT_EQ(timeline.steps.size(), 4u);
  EXPECT_TRUE(timeline.steps[0].warmup);
  EXPECT_FALSE(timeline.steps[1].warmup);
  EXPECT_EQ(StepLabel(timeline.steps[0]), "step 0 (warm-up)");
  EXPECT_EQ(StepLabel(timeline.steps[1]), "step 1");
  EXPECT_EQ(timeline.window, (base::Interval{1000, 1500}));
  EXPECT_EQ(timeline.window_description, "the 3 measured steps");
}

TEST(DiagnosisTimeline, WithoutStepsTheWindowIsTheGpuActivity) {
  const model::TraceModel model = BuildExportTestModel();
  const std::optional<analyzers::Steps> no_steps;
  const DiagnosisTimeline timeline = PlanDiagnosis({model, no_steps, {}, "run.ampt"});
  EXPECT_TRUE(timeline.steps.empty());
  EXPECT_EQ(timeline.window, *model.GpuSpan());
  EXPECT_EQ(timeline.window_description, "the GPU activity");
}

TEST(DiagnosisTimeline, AnEmptyTraceHasAnEmptyWindow) {
  const model::TraceModel model = model::ModelBuilder().Build();
  const std::optional<analyzers::Steps> no_steps;
  const DiagnosisTimeline timeline = PlanDiagnosis({model, no_steps, {}, "empty.ampt"});
  EXPECT_EQ(timeline.window, base::Interval{});
  EXPECT_EQ(timeline.loop_thread.pid, 0u);
}

analyzers::Location At(base::TimeNs start, base::TimeNs end, std::string label) {
  return {{start, end}, analyzers::LocationKind::kKernel, 0, 7, std::move(label)};
}

TEST(DiagnosisTimeline, OverlappingLocationsGoOnRowsOfTheirOwn) {
  analyzers::Finding finding;
  finding.id = "layout.nchw_nhwc";
  // Longest first, as the analyzers give them; the rows are in time order.
  finding.locations = {At(50, 150, "b"), At(0, 100, "a"), At(100, 200, "c"), At(120, 130, "d"),
                       At(200, 200, "e")};
  const auto lanes = LocationLanes(finding);
  ASSERT_EQ(lanes.size(), 3u);
  std::vector<std::string> first;
  for (const analyzers::Location* location : lanes[0]) first.push_back(location->label);
  EXPECT_EQ(first, (std::vector<std::string>{"a", "c", "e"})) << "c starts where a ends";
  std::vector<std::string> second;
  for (const analyzers::Location* location : lanes[1]) second.push_back(location->label);
  EXPECT_EQ(second, (std::vector<std::string>{"b"}));
  ASSERT_EQ(lanes[2].size(), 1u);
  EXPECT_EQ(lanes[2][0]->label, "d") << "d overlaps c in row 1 and b in row 2";
  EXPECT_EQ(LocationLabel(finding, finding.locations[0]), "layout.nchw_nhwc: b");
}

TEST(DiagnosisTimeline, FindingLabelSaysSeverityIdAndVerdict) {
  EXPECT_EQ(FindingLabel(ExportTestFinding()),
            "warning gpu.launch_bound: GPU 0 is idle 60.1% of the time waiting for the host to "
            "launch \"kernels\"");
}

}  // namespace
}  // namespace ampprof::reports
