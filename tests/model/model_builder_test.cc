#include "src/model/model_builder.h"

#include <gtest/gtest.h>

#include "collectors/records/ampt_reader.h"
#include "collectors/records/record_set.h"
#include "src/model/queries.h"
#include "tests/testing/record_builder.h"

namespace ampprof::model {
namespace {

using records::ApiDomain;
using records::RecordSet;
using testing::RecordBuilder;

std::string_view LaunchName(const TraceModel& model, KernelRow kernel) {
  const ApiCallRow launch = model.kernels().launch[kernel];
  return launch.valid() ? model.Text(model.api_calls().name[launch]) : std::string_view("<none>");
}

TEST(ModelBuilder, LinksKernelsToTheirLaunchingCall) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Launch("k1", {100, 110}, {120, 200});
  b.Launch("k2", {130, 140}, {200, 260});
  b.Kernel("orphan", 300, 310, /*correlation=*/999);
  const TraceModel model = std::move(builder).Build();

  ASSERT_EQ(model.kernels().size(), 3u);
  EXPECT_EQ(model.KernelName(KernelRow(0)), "k1");
  EXPECT_EQ(model.api_calls().start[LaunchingCall(model, KernelRow(0))], 100);
  EXPECT_EQ(model.api_calls().start[LaunchingCall(model, KernelRow(1))], 130);
  EXPECT_FALSE(LaunchingCall(model, KernelRow(2)).valid());
  EXPECT_EQ(model.stats().Get(base::Stat::kKernelUnmatchedCorrelation), 1);
}

TEST(ModelBuilder, EveryKernelOfAGraphLaunchPointsAtTheGraphLaunch) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  const uint32_t graph = b.NextCorrelation();
  b.ApiCall("cudaGraphLaunch", 100, 108, graph);
  for (int node = 0; node < 5; ++node) b.Kernel("node", 120 + node * 10, 125 + node * 10, graph);
  const TraceModel model = std::move(builder).Build();
  for (uint32_t k = 0; k < 5; ++k) EXPECT_EQ(LaunchName(model, KernelRow(k)), "cudaGraphLaunch");
  EXPECT_EQ(model.stats().Get(base::Stat::kKernelUnmatchedCorrelation), 0);
}

TEST(ModelBuilder, PrefersTheRuntimeCallWhenADriverCallSharesItsCorrelation) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.ApiCall("cuLaunchKernel", 102, 106, 7, ApiDomain::kDriver);  // inside the runtime call
  b.ApiCall("cudaLaunchKernel", 100, 110, 7, ApiDomain::kRuntime);
  b.Kernel("k", 120, 130, 7);
  const TraceModel model = std::move(builder).Build();
  EXPECT_EQ(LaunchName(model, KernelRow(0)), "cudaLaunchKernel");
  EXPECT_EQ(model.stats().Get(base::Stat::kApiDuplicateCorrelation), 1);
}

// A wait whose API call was not recorded (on the H100, event synchronisations made inside a library:
// docs/validation/h100.md) is counted as a synchronisation, not as a copy.
TEST(ModelBuilder, CountsSyncsAndCopiesWithoutTheirCallSeparately) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.ApiCall("cudaStreamSynchronize", 100, 200, 5);
  b.Sync(records::SyncKind::kStreamSynchronize, 110, 190, 5);
  b.Sync(records::SyncKind::kEventSynchronize, 300, 320, 77);
  b.Memcpy(records::MemcpyKind::kDeviceToHost, 4, 400, 410, 78);
  const TraceModel model = std::move(builder).Build();
  EXPECT_EQ(model.stats().Get(base::Stat::kSyncUnmatchedCorrelation), 1);
  EXPECT_EQ(model.stats().Get(base::Stat::kCopyUnmatchedCorrelation), 1);
  EXPECT_TRUE(model.syncs().launch[SyncRow(0)].valid());
}

TEST(ModelBuilder, SortsUnsortedInputByDeviceAndStart) {
  RecordSet records;
  RecordBuilder b(records);
  b.device = 1;
  b.Launch("d1-late", {500, 505}, {900, 950});
  b.device = 0;
  b.Launch("d0-late", {400, 405}, {800, 850});
  b.stream = 13;
  b.Launch("d0-early-other-stream", {50, 55}, {60, 70});
  b.device = 1;
  b.stream = 7;
  b.Launch("d1-early", {10, 15}, {20, 30});
  ModelBuilder builder;
  records.ReplayInto(builder);
  const TraceModel model = std::move(builder).Build();

  ASSERT_EQ(model.devices().size(), 2u);
  std::vector<std::string_view> order;
  for (const Device& device : model.devices()) {
    for (KernelRow k : device.kernels) order.push_back(model.KernelName(k));
  }
  // Devices are numbered in order of appearance: device 1 first here.
  EXPECT_EQ(order, (std::vector<std::string_view>{"d1-early", "d1-late", "d0-early-other-stream",
                                                  "d0-late"}));
  // Launch links survive the sort.
  for (uint32_t k = 0; k < model.kernels().size(); ++k) {
    EXPECT_LT(model.api_calls().start[LaunchingCall(model, KernelRow(k))], model.kernels().start[KernelRow(k)]);
  }
  // Per-stream lists are in start order and cover every kernel once.
  size_t listed = 0;
  for (const Stream& stream : model.streams()) {
    listed += stream.kernels.size();
    for (size_t i = 1; i < stream.kernels.size(); ++i) {
      EXPECT_LE(model.kernels().start[stream.kernels[i - 1]], model.kernels().start[stream.kernels[i]]);
    }
  }
  EXPECT_EQ(listed, 4u);
  EXPECT_EQ(model.streams().size(), 3u);
}

TEST(ModelBuilder, GroupsApiCallsByThreadInStartOrder) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.tid = 2;
  b.ApiCall("cudaMalloc", 300, 310, 0);
  b.tid = 1;
  b.ApiCall("cudaMalloc", 200, 210, 0);
  b.tid = 2;
  b.ApiCall("cudaFree", 100, 110, 0);
  const TraceModel model = std::move(builder).Build();
  ASSERT_EQ(model.threads().size(), 2u);
  const Thread& t2 = model.threads()[0];
  ASSERT_EQ(t2.tid, 2u);
  ASSERT_EQ(t2.api_calls.size(), 2u);
  EXPECT_EQ(model.api_calls().start[*t2.api_calls.begin()], 100);
  EXPECT_EQ(model.thread(model.api_calls().thread[*t2.api_calls.begin()]).tid, 2u);
}

TEST(ModelBuilder, NestsRangesPerThread) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Range("inner", 20, 30);
  b.Range("step", 0, 100);
  b.Range("op", 10, 50);
  b.Range("op2", 60, 90);
  b.tid = 999;
  b.Range("other-thread", 15, 25);
  const TraceModel model = std::move(builder).Build();

  const RangeTable& ranges = model.ranges();
  auto find = [&](std::string_view name) {
    for (uint32_t i = 0; i < ranges.size(); ++i) {
      if (model.RangeName(RangeRow(i)) == name) return RangeRow(i);
    }
    return RangeRow();
  };
  EXPECT_FALSE(ranges.parent[find("step")].valid());
  EXPECT_EQ(ranges.parent[find("op")], find("step"));
  EXPECT_EQ(ranges.parent[find("inner")], find("op"));
  EXPECT_EQ(ranges.parent[find("op2")], find("step"));
  EXPECT_EQ(ranges.depth[find("inner")], 2);
  EXPECT_FALSE(ranges.parent[find("other-thread")].valid());
  EXPECT_EQ(model.stats().Get(base::Stat::kRangeImproperNesting), 0);
}

TEST(ModelBuilder, KeepsOverlappingRangesWithoutMakingThemParents) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Range("outer", 0, 100);
  b.Range("a", 10, 50);
  b.Range("b-crosses-a", 40, 70);  // nvtxRangeStart/End may cross
  const TraceModel model = std::move(builder).Build();
  EXPECT_EQ(model.stats().Get(base::Stat::kRangeImproperNesting), 1);
  const RangeTable& ranges = model.ranges();
  EXPECT_EQ(model.RangeName(RangeRow(2)), "b-crosses-a");
  EXPECT_EQ(model.RangeName(ranges.parent[RangeRow(2)]), "outer");
}

TEST(ModelBuilder, PairsRangeMarksAndClosesRangesLeftOpen) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.RangeEnd(1, 50);          // the end may arrive before the start (separate CUPTI buffers)
  b.RangeStart(1, "step 0", 10);
  b.RangeStart(2, "step 1", 60);  // the process died inside step 1
  b.RangeEnd(77, 5);          // its start was before tracing began
  b.Kernel("last", 70, 400);
  b.Mark("checkpoint", 65);
  const TraceModel model = std::move(builder).Build();

  const RangeTable& ranges = model.ranges();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(model.RangeName(RangeRow(0)), "step 0");
  EXPECT_EQ(ranges.end[RangeRow(0)], 50);
  EXPECT_EQ(model.RangeName(RangeRow(1)), "step 1");
  EXPECT_EQ(ranges.end[RangeRow(1)], 400);  // closed at the end of the trace
  EXPECT_EQ(model.stats().Get(base::Stat::kRangeUnclosed), 1);
  EXPECT_EQ(model.stats().Get(base::Stat::kRangeEndWithoutStart), 1);
  ASSERT_EQ(model.marks().size(), 1u);
  EXPECT_EQ(model.Text(model.marks().name[MarkRow(0)]), "checkpoint");
}

TEST(ModelBuilder, RepairsEndBeforeStartAndDropsKernelsWithoutTimestamps) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Kernel("backwards", 100, 90);
  b.Kernel("incomplete", 0, 0);
  const TraceModel model = std::move(builder).Build();
  ASSERT_EQ(model.kernels().size(), 1u);
  EXPECT_EQ(model.kernels().duration(KernelRow(0)), 0);
  EXPECT_EQ(model.stats().Get(base::Stat::kRecordNegativeDuration), 1);
  EXPECT_EQ(model.stats().Get(base::Stat::kKernelMissingTimestamps), 1);
}

TEST(ModelBuilder, DropsRecordsWithTimestampsOutsideTheTraceRange) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.Kernel("negative", -5, 10);
  b.Kernel("far future", 1, base::kMaxTraceTime);
  b.Kernel("fine", 1, 2);
  b.ApiCall("cudaLaunchKernel", INT64_MIN, INT64_MAX, 1);  // end - start would overflow
  const TraceModel model = std::move(builder).Build();
  EXPECT_EQ(model.kernels().size(), 1u);
  EXPECT_EQ(model.api_calls().size(), 0u);
  EXPECT_EQ(model.stats().Get(base::Stat::kRecordTimeOutOfRange), 3);
}

// Found by tests/fuzz: a damaged chunk header claimed ~7 GB of rows, which the builder reserved up front.
TEST(ModelBuilder, FuzzRegressionReservesOnlyWhatTheFileCanHold) {
  ModelBuilder builder;
  const base::Status status = records::ReadAmptFile(
      std::string(AMPPROF_SOURCE_DIR) + "/tests/data/fuzz/ampt-oom-huge-reserve.ampt", builder);
  EXPECT_TRUE(status.ok()) << status.ToString();
  const TraceModel model = std::move(builder).Build();
  EXPECT_LT(model.MemoryBytes(), size_t{16} << 20);
}

TEST(ModelBuilder, DeduplicatesKernelSignatures) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 100; ++i) b.Kernel(i % 2 ? "a" : "b", i * 10, i * 10 + 5);
  const TraceModel model = std::move(builder).Build();
  EXPECT_EQ(model.kernels().size(), 100u);
  EXPECT_EQ(model.kernel_signatures().size(), 2u);
}

TEST(ModelBuilder, DeduplicatesRangeLabelsAndKeepsArguments) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  for (int i = 0; i < 100; ++i) {
    b.Range(i % 2 ? "aten::linear" : "aten::relu", i * 10, i * 10 + 5, records::RangeCategory::kCpuOp);
  }
  records::RangeRecord with_args;
  with_args.pid = b.pid;
  with_args.tid = b.tid;
  with_args.category = records::RangeCategory::kCpuOp;
  with_args.name = b.Intern("aten::linear");
  with_args.args = b.Intern("sizes = [[20, 128], [128, 128]]");
  with_args.start = 2000;
  with_args.end = 2010;
  builder.Add(with_args);
  b.RangeStart(1, "aten::linear", 3000);  // an NVTX range of the same name is another label
  b.RangeEnd(1, 3010);
  const TraceModel model = std::move(builder).Build();

  EXPECT_EQ(model.ranges().size(), 102u);
  EXPECT_EQ(model.range_labels().size(), 4u);
  const RangeRow last_cpu_op(100);
  EXPECT_EQ(model.RangeName(last_cpu_op), "aten::linear");
  EXPECT_EQ(model.Text(model.label(last_cpu_op).args), "sizes = [[20, 128], [128, 128]]");
  EXPECT_EQ(model.label(RangeRow(101)).category, records::RangeCategory::kNvtx);
}

TEST(ModelBuilder, SyncTakesItsThreadFromItsApiCall) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.tid = 42;
  const uint32_t c = b.NextCorrelation();
  b.ApiCall("cudaStreamSynchronize", 100, 900, c);
  b.Sync(records::SyncKind::kStreamSynchronize, 100, 900, c);  // CUPTI sync records carry no thread
  const TraceModel model = std::move(builder).Build();
  ASSERT_EQ(model.syncs().size(), 1u);
  EXPECT_EQ(model.thread(model.syncs().thread[SyncRow(0)]).tid, 42u);
  EXPECT_EQ(model.stream(model.syncs().stream[SyncRow(0)]).stream_id, 7u);
}

TEST(ModelBuilder, AppliesDeviceRecordsWithoutPidToEveryProcess) {
  ModelBuilder builder;
  RecordBuilder b(builder);
  b.pid = 0;
  b.Device(0, "NVIDIA A100-SXM4-40GB", 8, 0);
  b.pid = 11;
  b.Kernel("k", 1, 2);
  b.pid = 12;
  b.Kernel("k", 1, 2);
  const TraceModel model = std::move(builder).Build();
  ASSERT_EQ(model.devices().size(), 2u);
  for (const Device& device : model.devices()) {
    EXPECT_TRUE(device.has_properties);
    EXPECT_EQ(model.Text(device.name), "NVIDIA A100-SXM4-40GB");
    EXPECT_EQ(device.compute_major, 8u);
  }
  EXPECT_EQ(model.processes().size(), 2u);
}

TEST(ModelBuilder, MergesSeveralSourcesIntoOneModel) {
  RecordSet rank0, rank1;
  RecordBuilder b0(rank0), b1(rank1);
  b0.pid = 1;
  b1.pid = 2;
  b0.Launch("k", {0, 5}, {10, 20});
  b1.Launch("k", {0, 5}, {12, 22});  // same correlation id 1, different process
  ModelBuilder builder;
  rank0.ReplayInto(builder);
  rank1.ReplayInto(builder);
  const TraceModel model = std::move(builder).Build();
  EXPECT_EQ(model.kernels().size(), 2u);
  EXPECT_EQ(model.devices().size(), 2u);
  EXPECT_EQ(model.processes().size(), 2u);
}

}  // namespace
}  // namespace ampprof::model
