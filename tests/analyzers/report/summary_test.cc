#include "analyzers/report/summary.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::analyzers {
namespace {

using ampprof::testing::RecordBuilder;

TraceSummary Summarize(const model::TraceModel& model) {
  const AnalysisInput input(model);
  return analyzers::Summarize(input);
}

TEST(Summarize, BusyFractionIsTheKernelUnionOverTheAnalysedWindow) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Device(0, "NVIDIA H100 80GB HBM3", 9, 0);
  b.Launch("gemm", {0, 5}, {10, 60});
  b.Launch("relu", {70, 75}, {100, 110});
  b.stream = 9;
  b.Launch("overlap", {8, 9}, {50, 80});  // overlaps gemm on another stream
  const model::TraceModel model = std::move(builder).Build();

  const TraceSummary summary = Summarize(model);
  ASSERT_EQ(summary.devices.size(), 1u);
  const DeviceSummary& device = summary.devices[0];
  EXPECT_EQ(device.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(device.kernels, 3u);
  EXPECT_EQ(device.streams_with_kernels, 2u);
  ASSERT_TRUE(device.span.has_value());
  EXPECT_EQ(*device.span, (base::Interval{10, 110}));
  ASSERT_TRUE(device.account.has_value());
  EXPECT_EQ(device.account->basis, "whole run");
  EXPECT_EQ(device.account->window, *device.span) << "no steps: the window is the span";
  EXPECT_EQ(device.account->busy_ns, 80);  // [10, 80) + [100, 110)
  EXPECT_DOUBLE_EQ(device.account->busy_fraction, 0.8);
  EXPECT_EQ(summary.kernels, 3u);
  EXPECT_EQ(summary.api_calls, 3u);
  EXPECT_EQ(summary.kernel_time_ns, 50 + 10 + 30);
}

TEST(Summarize, RanksKernelsByTotalTimeAcrossLaunches) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 10; ++i) b.Kernel("short", i * 100, i * 100 + 5);  // 50 ns in all
  b.Kernel("long", 2000, 2040);                                          // 40 ns
  const model::TraceModel model = std::move(builder).Build();
  const TraceSummary summary = Summarize(model);
  ASSERT_EQ(summary.top_kernels.size(), 2u);
  EXPECT_EQ(summary.top_kernels[0].name, "short");
  EXPECT_EQ(summary.top_kernels[0].count, 10u);
  EXPECT_EQ(summary.top_kernels[0].total_ns, 50);
  EXPECT_NEAR(summary.top_kernels[0].share_of_kernel_time, 50.0 / 90.0, 1e-12);
  EXPECT_EQ(summary.top_kernels[1].name, "long");
  EXPECT_TRUE(summary.devices[0].name.empty()) << "no device record: name unknown, not guessed";
}

TEST(Summarize, CountsProfilerStepsAndTheirMedian) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  // Back-to-back steps, each launching one kernel: the steps' periods are their ranges.
  const base::Interval steps[] = {{0, 900}, {900, 1000}, {1000, 1110}};  // the first: warm-up, slow
  for (size_t i = 0; i < 3; ++i) {
    b.Range(fmt::format("ProfilerStep#{}", i), steps[i].start, steps[i].end, records::RangeCategory::kUserAnnotation);
    b.Launch("gemm", {steps[i].start + 1, steps[i].start + 2}, {steps[i].start + 3, steps[i].start + 9});
  }
  const model::TraceModel model = std::move(builder).Build();
  const TraceSummary summary = Summarize(model);
  EXPECT_EQ(summary.steps, 3u);
  EXPECT_EQ(summary.warmup_steps, 1u) << "900 ns is more than 1.5x the median of the others";
  EXPECT_EQ(summary.step_source, "ProfilerStep ranges");
  EXPECT_EQ(summary.median_step_ns, 110) << "over the measured steps";
  ASSERT_EQ(summary.step_times.size(), 3u);
  EXPECT_EQ(summary.step_times[0].index, 0u);
  EXPECT_EQ(summary.step_times[0].interval, (base::Interval{0, 900}));
  EXPECT_TRUE(summary.step_times[0].warmup);
  EXPECT_EQ(summary.step_times[2].interval, (base::Interval{1000, 1110}));
  EXPECT_FALSE(summary.step_times[2].warmup);
}

TEST(Summarize, ListsOnlyTheFirstStepsOfALongRun) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  const int steps = static_cast<int>(kMaxStepTimes) + 8;
  for (int i = 0; i < steps; ++i) {
    b.Range(fmt::format("ProfilerStep#{}", i), i * 1000, i * 1000 + 500 + i,
            records::RangeCategory::kUserAnnotation);
    b.Launch("gemm", {i * 1000 + 1, i * 1000 + 2}, {i * 1000 + 3, i * 1000 + 9});
  }
  const model::TraceModel model = std::move(builder).Build();
  const TraceSummary summary = Summarize(model);
  EXPECT_EQ(summary.steps, static_cast<uint32_t>(steps));
  ASSERT_EQ(summary.step_times.size(), kMaxStepTimes);
  EXPECT_EQ(summary.step_times.back().index, kMaxStepTimes - 1);
  // A step's period runs to the next step's start: the host's time between ranges is the step's.
  EXPECT_EQ(summary.step_times.back().interval.duration(), 1000);
}

TEST(Summarize, TheStepAccountSplitsComputeByCategoryUnitAndType) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Kernel("volta_sgemm_128x64_nn", 0, 120);                              // GEMM, CUDA cores
  b.Kernel("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn", 200, 250);  // Tensor Cores
  b.Kernel("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn", 300, 350);
  b.Kernel("void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>"
           "(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)", 400, 410);
  b.Kernel("my_kernel", 500, 505);
  const model::TraceModel model = std::move(builder).Build();
  const TraceSummary summary = Summarize(model);
  ASSERT_TRUE(summary.devices.at(0).account.has_value());
  const std::vector<AccountRow>& rows = summary.devices[0].account->rows;
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].label, "GEMM on CUDA cores, FP32");
  EXPECT_EQ(rows[0].total_ns, 120);
  EXPECT_EQ(rows[1].label, "GEMM on Tensor Cores, FP16");
  EXPECT_EQ(rows[1].kernels, 2u);
  EXPECT_EQ(rows[2].label, "layout transform, FP32");
  EXPECT_EQ(rows[3].label, "unknown");
  EXPECT_EQ(rows[4].label, "idle: launch call not recorded");
  EXPECT_EQ(rows[4].total_ns, 80 + 50 + 50 + 90);
  base::DurationNs sum = 0;
  for (const AccountRow& row : rows) sum += row.total_ns;
  EXPECT_EQ(sum, 505) << "the rows add up to the window";
  EXPECT_EQ(summary.top_kernels[0].kind, "GEMM, CUDA cores, FP32, cuBLAS");
}

TEST(Summarize, EmptyModel) {
  const model::TraceModel model = model::ModelBuilder().Build();
  const TraceSummary summary = Summarize(model);
  EXPECT_TRUE(summary.devices.empty());
  EXPECT_FALSE(summary.gpu_span.has_value());
  EXPECT_TRUE(summary.top_kernels.empty());
}

TEST(Summarize, PeakDeviceMemoryAndPageableCopies) {
  model::ModelBuilder builder;
  RecordBuilder b(builder);
  b.Launch("gemm", {0, 5}, {10, 60});
  auto memory = [&](base::TimeNs at, records::MemoryOperation operation, uint64_t bytes,
                    records::MemoryKind kind = records::MemoryKind::kDevice) {
    records::MemoryRecord record;
    record.timestamp = at;
    record.pid = b.pid;
    record.device_id = 0;
    record.operation = operation;
    record.memory_kind = kind;
    record.bytes = bytes;
    builder.Add(record);
  };
  memory(1, records::MemoryOperation::kAllocate, 100);
  memory(2, records::MemoryOperation::kAllocate, 50);
  memory(3, records::MemoryOperation::kRelease, 100);
  memory(4, records::MemoryOperation::kAllocate, 70);                                  // 120 now, peak 150
  memory(5, records::MemoryOperation::kAllocate, 1000, records::MemoryKind::kPinned);  // host memory
  records::MemcpyRecord copy;
  copy.pid = b.pid;
  copy.stream_id = b.stream;
  copy.kind = records::MemcpyKind::kDeviceToHost;
  copy.dst_kind = records::MemoryKind::kPageable;
  copy.bytes = 4;
  copy.start = 70;
  copy.end = 72;
  builder.Add(copy);
  b.ApiCall("cudaStreamSynchronize", 80, 90, b.NextCorrelation());
  const model::TraceModel model = std::move(builder).Build();
  const TraceSummary summary = Summarize(model);
  ASSERT_EQ(summary.devices.size(), 1u);
  EXPECT_EQ(summary.devices[0].peak_allocated_bytes, std::optional<uint64_t>(150));
  EXPECT_EQ(summary.pageable_copies, 1u);
  EXPECT_EQ(summary.pageable_copy_bytes, 4u);
  EXPECT_EQ(summary.synchronize_calls, 1u);
}

}  // namespace
}  // namespace ampprof::analyzers
