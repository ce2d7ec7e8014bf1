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

TEST(DiagnosisTimeline, FindingLabelSaysSeverityIdAndVerdict) {
  EXPECT_EQ(FindingLabel(ExportTestFinding()),
            "warning gpu.launch_bound: GPU 0 is idle 60.1% of the time waiting for the host to "
            "launch \"kernels\"");
}

}  // namespace
}  // namespace ampprof::reports
