#include "src/model/queries.h"

#include <gtest/gtest.h>

#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::model {
namespace {

using base::Interval;
using testing::RecordBuilder;

TEST(BusyIntervals, MergesOverlappingKernelsAcrossStreams) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Kernel("a", 0, 10);
  b.Kernel("b", 20, 30);
  b.stream = 13;
  b.Kernel("c", 25, 40);   // overlaps b on another stream
  b.Kernel("d", 40, 45);   // touches c: one interval
  b.Kernel("e", 100, 110);
  b.device = 1;
  b.Kernel("other-device", 0, 1000);
  const TraceModel model = std::move(builder).Build();

  const std::vector<Interval> busy = BusyIntervals(model, DeviceRow(0), GpuWork::kKernels);
  EXPECT_EQ(busy, (std::vector<Interval>{{0, 10}, {20, 45}, {100, 110}}));
  EXPECT_EQ(TotalDuration(busy), 45);
  EXPECT_EQ(BusyTime(model, DeviceRow(0), GpuWork::kKernels), 45);
  EXPECT_EQ(BusyTime(model, DeviceRow(1), GpuWork::kKernels), 1000);
}

TEST(BusyIntervals, CountsCopiesOnlyWhenAsked) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Kernel("a", 0, 10);
  b.Memcpy(records::MemcpyKind::kDeviceToHost, 4, 50, 60);
  const TraceModel model = std::move(builder).Build();
  EXPECT_EQ(TotalDuration(BusyIntervals(model, DeviceRow(0), GpuWork::kKernels)), 10);
  EXPECT_EQ(BusyIntervals(model, DeviceRow(0), GpuWork::kKernelsAndCopies),
            (std::vector<Interval>{{0, 10}, {50, 60}}));
}

TEST(InnermostRangeAt, WalksUpToTheEnclosingRange) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Range("step", 0, 100);
  b.Range("op1", 10, 20);
  b.Range("inner", 12, 15);
  b.Range("op2", 30, 60);
  b.tid = 5;
  b.Range("elsewhere", 0, 100);
  const TraceModel model = std::move(builder).Build();
  const ThreadRow main_thread(0);
  ASSERT_EQ(model.thread(main_thread).tid, 101u);
  auto name_at = [&](base::TimeNs t) {
    const RangeRow row = InnermostRangeAt(model, main_thread, t);
    return row.valid() ? std::string(model.RangeName(row)) : std::string("<none>");
  };
  EXPECT_EQ(name_at(-1), "<none>");
  EXPECT_EQ(name_at(0), "step");
  EXPECT_EQ(name_at(13), "inner");
  EXPECT_EQ(name_at(15), "op1");   // half-open: inner ended at 15
  EXPECT_EQ(name_at(25), "step");  // after op1, before op2
  EXPECT_EQ(name_at(59), "op2");
  EXPECT_EQ(name_at(100), "<none>");
}

TEST(StepRanges, FindsProfilerStepsInStartOrder) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Range("ProfilerStep#2", 300, 400, records::RangeCategory::kUserAnnotation);
  b.Range("ProfilerStep#1", 100, 250, records::RangeCategory::kUserAnnotation);
  b.Range("aten::linear", 110, 120, records::RangeCategory::kCpuOp);
  b.Range("NotAProfilerStep#3", 500, 600);
  const TraceModel model = std::move(builder).Build();
  const std::vector<RangeRow> steps = StepRanges(model);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(model.RangeName(steps[0]), "ProfilerStep#1");
  EXPECT_EQ(model.RangeName(steps[1]), "ProfilerStep#2");
}

TEST(InnermostRangeAt, AttributesAKernelToTheOpThatLaunchedIt) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Range("aten::addmm", 100, 200, records::RangeCategory::kCpuOp);
  b.Launch("volta_sgemm_128x64_nn", {150, 160}, {300, 400});
  const TraceModel model = std::move(builder).Build();
  const ApiCallRow launch = LaunchingCall(model, KernelRow(0));
  ASSERT_TRUE(launch.valid());
  const RangeRow op = InnermostRangeAt(model, model.api_calls().thread[launch], model.api_calls().start[launch]);
  ASSERT_TRUE(op.valid());
  EXPECT_EQ(model.RangeName(op), "aten::addmm");
}

}  // namespace
}  // namespace ampprof::model
