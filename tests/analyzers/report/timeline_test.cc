#include "analyzers/report/timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>

#include "src/model/model_builder.h"
#include "tests/analyzers/synthetic_run.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using records::RangeCategory;
using testing::BuildRun;
using testing::kFill;
using testing::kFp16TensorCoreGemm;
using testing::kH100;
using testing::kScaleUpdate;

using testing::Text;

struct Built {
  model::TraceModel model;
  std::unique_ptr<AnalysisInput> input;
  std::optional<Timeline> timeline;
};

Built Build(model::ModelBuilder&& builder) {
  Built built{std::move(builder).Build(), nullptr, std::nullopt};
  built.input = std::make_unique<AnalysisInput>(built.model);
  built.timeline = BuildTimeline(*built.input);
  return built;
}

uint64_t KernelsOf(const Timeline& timeline) {
  return std::accumulate(timeline.items.begin(), timeline.items.end(), uint64_t{0},
                         [](uint64_t sum, const TimelineItem& item) { return sum + item.kernels; });
}

// Five ProfilerStep ranges; step i launches i + 2 GEMMs (so the steps differ in length), each 10 us
// on the GPU and launched 30 us after the one before: the GPU waits about 20 us for every launch.
model::ModelBuilder FiveLaunchBoundSteps() {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  base::TimeNs t = 0;
  for (int step = 0; step < 5; ++step) {
    const base::TimeNs step_start = t;
    for (int k = 0; k < step + 2; ++k) {
      b.Launch(kFp16TensorCoreGemm, {t, t + 25'000}, {t + 24'000, t + 34'000});
      t += 30'000;
    }
    b.Range("ProfilerStep#" + std::to_string(step), step_start, t, RangeCategory::kUserAnnotation);
  }
  return builder;
}

TEST(BuildTimeline, ShowsTheMedianStepWithItsLaunchWaits) {
  const Built built = Build(FiveLaunchBoundSteps());
  ASSERT_TRUE(built.timeline);
  const Timeline& timeline = *built.timeline;
  // Steps launch 2..6 kernels; the median of the measured steps launches 4: the third step.
  EXPECT_EQ(timeline.kernels, 4u);
  EXPECT_EQ(timeline.items.size(), 4u);
  EXPECT_EQ(Text(timeline.window_label), "measured step 3 of 5, the median step: 120 us");
  // The step's period (step_account.h): from the end of the step before's last kernel (the GPU was busy
  // when this step's range began) to the end of its own last kernel.
  EXPECT_EQ(timeline.window.duration(), 4 * 30'000);
  ASSERT_EQ(timeline.lanes.size(), 1u);
  EXPECT_EQ(timeline.lanes[0].kernels, 4u);
  ASSERT_EQ(timeline.categories.size(), 1u);
  EXPECT_EQ(timeline.categories[0], "GEMM on Tensor Cores");
  // Four gaps of 20 us, before each of the four kernels, each waiting for its launch.
  ASSERT_EQ(timeline.gaps.size(), 4u);
  for (const TimelineGap& gap : timeline.gaps) {
    EXPECT_EQ(gap.cause, GapCause::kHostLaunch);
    EXPECT_EQ(gap.interval.duration(), 20'000);
  }
  EXPECT_EQ(timeline.idle[GapCause::kHostLaunch], 80'000);
  // The same numbers as the step account's for that step.
  const DeviceAccount& gpu = built.input->account().devices.at(0);
  EXPECT_EQ(timeline.window, gpu.periods[gpu.MedianStepIndex()]);
  EXPECT_EQ(timeline.idle[GapCause::kHostLaunch], gpu.per_step[gpu.MedianStepIndex()].idle[GapCause::kHostLaunch]);
  EXPECT_EQ(timeline.resolution_ns, 0) << "nothing to merge";
}

TEST(BuildTimeline, ShowsTheWholeRunWhenItHasNoStepsAndFewKernels) {
  const testing::SyntheticRun run = BuildRun({{kFill, 1'000, 50}}, {kH100});
  const std::optional<Timeline> timeline = BuildTimeline(run.input());
  ASSERT_TRUE(timeline);
  EXPECT_EQ(timeline->device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(timeline->kernels, 50u);
  EXPECT_EQ(timeline->items.size(), 50u);
  EXPECT_EQ(timeline->window.duration(), 50 * 1'000);
  EXPECT_EQ(Text(timeline->window_label), "the analysed window (no training loop of 3 or more steps): 50.0 us");
}

TEST(BuildTimeline, TakesAStretchFromTheMiddleOfALongRunWithoutSteps) {
  const testing::SyntheticRun run = BuildRun({{kFill, 1'000, 10'000}});
  const std::optional<Timeline> timeline = BuildTimeline(run.input());
  ASSERT_TRUE(timeline);
  EXPECT_EQ(timeline->kernels, kMaxTimelineItems);
  EXPECT_EQ(timeline->window.start, 3'000 * 1'000) << "kernels 3,001 to 7,000 of 10,000";
  EXPECT_NE(Text(timeline->window_label).find("kernels 3,001 to 7,000 of 10,000"), std::string::npos);
}

TEST(BuildTimeline, MergesTinyKernelsOfALongStepWithinItsBound) {
  // Steps end with GradScaler's update: 4 steps of 20,000 one-microsecond kernels each.
  const testing::SyntheticRun run = BuildRun({{kFill, 1'000, 20'000},
                                              {kScaleUpdate, 2'000},
                                              {kFill, 1'000, 20'000},
                                              {kScaleUpdate, 2'000},
                                              {kFill, 1'000, 20'000},
                                              {kScaleUpdate, 2'000},
                                              {kFill, 1'000, 20'000},
                                              {kScaleUpdate, 2'000}});
  const std::optional<Timeline> timeline = BuildTimeline(run.input());
  ASSERT_TRUE(timeline);
  EXPECT_GT(timeline->kernels, 20'000u);
  EXPECT_GT(timeline->resolution_ns, 0);
  EXPECT_LE(timeline->items.size(), kMaxTimelineItems + timeline->lanes.size());
  EXPECT_GT(timeline->items.size(), kMaxTimelineItems / 2) << "merged no more than it had to";
  EXPECT_EQ(KernelsOf(*timeline), timeline->kernels) << "every kernel is in one item";
  for (size_t i = 1; i < timeline->items.size(); ++i) {
    EXPECT_LE(timeline->items[i - 1].interval.start, timeline->items[i].interval.start);
  }
  // The kernels run back to back: no gaps.
  EXPECT_TRUE(timeline->gaps.empty());
  EXPECT_EQ(timeline->all_gaps, 0u);
}

TEST(CoarsenTimeline, MergesToTheRequestedBoundAndKeepsOnlyTheNamesItUses) {
  const testing::SyntheticRun run =
      BuildRun({{kFill, 1'000, 1'000}, {kFp16TensorCoreGemm, 1'000'000}, {kFill, 1'000, 1'000}});
  const std::optional<Timeline> timeline = BuildTimeline(run.input());
  ASSERT_TRUE(timeline);
  ASSERT_EQ(timeline->items.size(), 2'001u);
  const Timeline coarse = CoarsenTimeline(*timeline, 100);
  EXPECT_LE(coarse.items.size(), 101u);
  EXPECT_EQ(KernelsOf(coarse), 2'001u);
  EXPECT_GT(coarse.resolution_ns, 0);
  // The 1 ms GEMM names the item it is in: the longest member names a merged item.
  const auto gemm = std::find_if(
      coarse.items.begin(), coarse.items.end(),
      [&](const TimelineItem& item) { return coarse.names[item.name] == kFp16TensorCoreGemm; });
  ASSERT_NE(gemm, coarse.items.end());
  EXPECT_GE(gemm->kernel_ns, 1'000'000);
  EXPECT_EQ(coarse.names.size(), 2u);
  EXPECT_EQ(CoarsenTimeline(*timeline, 5'000).items.size(), 2'001u) << "under the bound: unchanged";
}

TEST(BuildTimeline, ShortensLongNamesInTheMiddle) {
  const std::string name = "void cutlass::Kernel<" + std::string(1'000, 'x') + ">(Params)";
  const testing::SyntheticRun run = BuildRun({{name, 1'000, 3}});
  const std::optional<Timeline> timeline = BuildTimeline(run.input());
  ASSERT_TRUE(timeline);
  ASSERT_EQ(timeline->names.size(), 1u);
  EXPECT_LE(timeline->names[0].size(), kMaxTimelineNameLength);
  EXPECT_TRUE(timeline->names[0].starts_with("void cutlass::Kernel<"));
  EXPECT_TRUE(timeline->names[0].ends_with(">(Params)"));
}

TEST(BuildTimeline, NoKernelsNoTimeline) {
  const testing::SyntheticRun run = BuildRun({});
  EXPECT_FALSE(BuildTimeline(run.input()));
}

}  // namespace
}  // namespace ampprof::analyzers
