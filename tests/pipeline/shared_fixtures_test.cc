// Every trace in ../shared/fixtures (real traces from public projects, recorded on V100 ... B300: Kineto
// JSON and Nsight Systems SQLite) imports with the kernel count, GPU, compute capability, rank and busy
// fraction that ../shared/fixtures/README.md lists for it (counted there by an independent script).

#include <cctype>
#include <algorithm>
#include <filesystem>
#include <vector>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "analyzers/facts/analysis_input.h"
#include "src/model/queries.h"
#include "src/pipeline/analysis.h"

namespace ampprof::pipeline {
namespace {

struct Expected {
  const char* path;  // under ../shared/fixtures
  uint64_t kernels;
  const char* gpu;   // "" when the trace does not describe its GPU
  uint32_t compute_major;
  uint32_t compute_minor;
  int32_t rank;      // -1 when the trace has no distributedInfo
  double busy;       // first GPU: kernel union / span, to 3 decimals; < 0 when the README gives none
  // Every finding the trace must produce, comma-separated, and no other: precision matters as much as
  // recall. A finding a fixture produces says why next to it. None of the twelve has a grouped or
  // depthwise convolution kernel, an FP32<->FP16/BF16 cast kernel or GradScaler (README, blind spots):
  // those analyzers' positive cases are synthetic (tests/analyzers).
  const char* findings;
};

constexpr Expected kFixtures[] = {
    // ResNet-50 FP32 training on a V100 with the DataLoader in the main process: each ProfilerStep starts
    // with ~70 ms of enumerate(DataLoader)...__next__ while the GPU idles (host_bound, a third of the step),
    // and FP32 convolutions and GEMMs on CUDA cores take about 40% of it (amp.opportunity: 2x to 8x on
    // V100 Tensor Cores).
    {"pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
     8772, "Tesla V100-DGXS-32GB", 7, 0, -1, 0.595, "amp.opportunity,gpu.host_bound"},
    // The same model with four DataLoader workers: the host-busy gaps are gone; AMP would save about a
    // quarter to two fifths of the step, and 18% of it is the GPU waiting for Python to launch kernels.
    {"pytorch__kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
     8868, "Tesla V100-DGXS-32GB", 7, 0, -1, 0.746, "amp.opportunity,gpu.launch_bound"},
    // The README calls its GPU unknown: it has no deviceProperties, but its 2021-era
    // "computeProperties" describe a V100.
    {"pytorch__kineto/tb_plugin/test/gpu_metrics_input.json", 30, "Tesla V100-DGXS-32GB", 7, 0, -1, 0.004, ""},
    // A PARAM benchmark of AlexNet on an A100: 79 kernels in 12.8 s, the GPU idle 99.9% of the time while
    // the host is inside its "[param|cuda]" range. Its NCHW<->NHWC conversions (2.6% of kernel time) and
    // FP32 GEMMs save nothing worth saying against a step that is all idle.
    {"facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/"
     "benchmark_result_2869224_1695835535_trace.json.gz",
     79, "NVIDIA A100-PG509-200", 8, 0, 0, 0.001, "gpu.host_bound"},
    // Rank 0 of 128 of a recommendation model: SendRecv kernels that nothing overlaps take 28% of the
    // time (one of them 42 ms at the median, 12 ms at the shortest: the rank waits for its peers), and
    // the GPU idles 27% more while the host works outside any range. Its unaligned TF32 GEMMs (5.9% of
    // kernel time) are under 3% of the time.
    {"facebookresearch__HolisticTraceAnalysis/tests/data/timeline_analysis/sampled_rank-0.json.gz", 1154,
     "", 0, 0, 0, 0.448, "comm.exposed,gpu.host_bound"},
    // Launch-bound: 26 kernels per step, median 2 us each against 8 us launch calls; 3.8% busy. A GP100
    // has no Tensor Cores (an FP32 run: said as info). Its eight cudaStreamSynchronize calls leave the GPU
    // idle 7% of the steps while the host refills the queue.
    {"facebookresearch__HolisticTraceAnalysis/tests/data/with_gpu_user_annotation/"
     "step_based_trace_2543932.json.gz",
     130, "Quadro GP100", 6, 0, 0, 0.038, "gpu.launch_bound,gpu.sync_stall,tensor_cores.unavailable"},
    // Three FP32 sgemm kernels in 19.5 ms: a probe, too few kernels to diagnose.
    {"facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/cuda_event_sync_multi_stream/"
     "event_sync_trace.json.gz",
     3, "NVIDIA A100-PG509-200", 8, 0, 0, -1, ""},
    // BERT-small inference at a small batch on an H100: 60 kernels in 3.9 ms, the GPU idle 88% of it
    // waiting for the next launch. Its unaligned BF16 MLM head (13.4% of kernel time) is about 1% of the
    // time.
    {"AMD-AGI__TraceLens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz", 60,
     "NVIDIA H100 80GB HBM3", 9, 0, -1, 0.079, "gpu.launch_bound"},
    {"AMD-AGI__TraceLens/evals/unit_tests_nv/moe/moe_01_many_experts_few_tokens_analysis_output/"
     "moe_01_many_experts_few_tokens.json.gz",
     36, "NVIDIA B300 SXM6 AC", 10, 3, -1, 0.15, ""},
    // An MLP of Linear+ReLU layers trained with SGD for 40 iterations on an RTX 2080 Ti: launch-bound, idle
    // 59% of the measured steps waiting for launches; its FP32 sgemm kernels (28% of the time) would gain
    // from FP16 Tensor Cores, second to the launch waits.
    {"facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz", 8716,
     "NVIDIA GeForce RTX 2080 Ti", 7, 5, -1, 0.366, "amp.opportunity,gpu.launch_bound"},
    {"NVIDIA__Fuser/report2.sqlite", 19, "NVIDIA H200", 9, 0, -1, 0.001, ""},
    // A non-ML control: five saxpy kernels, nothing to say.
    {"hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite", 5,
     "NVIDIA A100-SXM4-40GB", 8, 0, -1, 0.085, ""},
};

class SharedFixtures : public ::testing::TestWithParam<Expected> {};

TEST_P(SharedFixtures, MatchTheirReadme) {
  const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent (a fresh clone)";
  const Expected& expected = GetParam();
  const std::string path = (root / expected.path).string();
  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 1u);
  const analyzers::Report* report = &reports->front();
  const analyzers::TraceSummary& summary = report->summary;

  EXPECT_EQ(summary.kernels, expected.kernels);
  ASSERT_FALSE(summary.devices.empty());
  const analyzers::DeviceSummary& gpu = summary.devices.front();
  EXPECT_EQ(gpu.kernels, expected.kernels) << "all kernels are on the first GPU";
  EXPECT_EQ(gpu.name, expected.gpu);
  EXPECT_EQ(gpu.compute_major, expected.compute_major);
  EXPECT_EQ(gpu.compute_minor, expected.compute_minor);
  if (expected.busy >= 0) {
    // The README's busy is over the device span (first kernel to last); the report's is over the
    // analysed window (the measured steps), so the cross-check reads the model.
    const auto trace = LoadAndBuild(path);
    ASSERT_TRUE(trace.ok());
    ASSERT_TRUE(gpu.span.has_value());
    const double span_busy =
        static_cast<double>(model::BusyTime(trace->model, model::DeviceRow(0), model::GpuWork::kKernels)) /
        static_cast<double>(gpu.span->duration());
    EXPECT_NEAR(span_busy, expected.busy, 0.0006);
  }
  ASSERT_EQ(summary.process_list.size(), 1u);
  EXPECT_EQ(summary.process_list[0].rank, expected.rank);
  // Real traces link nearly every kernel to its launch: the unmatched are the few whose launch fell
  // outside the profiling window.
  EXPECT_LE(report->stats.Get(base::Stat::kKernelUnmatchedCorrelation),
            static_cast<int64_t>(expected.kernels / 100 + 2));
  EXPECT_EQ(report->stats.Get(base::Stat::kJsonInvalidEvents), 0);
  EXPECT_EQ(report->stats.Get(base::Stat::kJsonTruncated), 0);

  std::vector<std::string> ids;
  for (const analyzers::Finding& finding : report->findings) ids.push_back(finding.id);
  std::sort(ids.begin(), ids.end());
  std::string joined;
  for (const std::string& id : ids) joined += (joined.empty() ? "" : ",") + id;
  EXPECT_EQ(joined, expected.findings);
}

INSTANTIATE_TEST_SUITE_P(Readme, SharedFixtures, ::testing::ValuesIn(kFixtures),
                         [](const ::testing::TestParamInfo<Expected>& param_info) {
                           std::string name =
                               std::filesystem::path(param_info.param.path).filename().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(SharedFixtureAccounts, TheBucketsTileEveryTrace) {
  const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent (a fresh clone)";
  size_t traces = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || path.ends_with(".md")) continue;
    const auto trace = LoadAndBuild(path);
    ASSERT_TRUE(trace.ok()) << path;
    const analyzers::AnalysisInput input(trace->model);
    SCOPED_TRACE(path);
    for (const analyzers::DeviceAccount& gpu : input.account().devices) {
      analyzers::AccountTotals sum;
      for (size_t i = 0; i < gpu.periods.size(); ++i) {
        EXPECT_EQ(gpu.per_step[i].total_ns(), gpu.periods[i].duration()) << "period " << i;
        sum += gpu.per_step[i];
      }
      EXPECT_EQ(sum.total_ns(), gpu.window_ns());
    }
    ++traces;
  }
  EXPECT_EQ(traces, 12u);
}

TEST(SharedFixtureAccounts, TheDataLoaderShowsInHostBusyTimeOnTheResNetPair) {
  const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent (a fresh clone)";
  auto host_busy_share = [&](const char* workers) {
    const std::string dir = (root / "pytorch__kineto/tb_plugin/samples" / workers).string();
    const auto files = ExpandTraceInputs({dir});
    EXPECT_TRUE(files.ok());
    const auto trace = LoadAndBuild(*files->begin());
    EXPECT_TRUE(trace.ok());
    const analyzers::AnalysisInput input(trace->model);
    const analyzers::DeviceAccount& gpu = input.account().devices.at(0);
    return gpu.Share(gpu.total.idle[analyzers::GapCause::kHostOther]);
  };
  const double without_workers = host_busy_share("resnet50_num_workers_0");
  const double with_workers = host_busy_share("resnet50_num_workers_4");
  EXPECT_GT(without_workers, 0.30) << "the DataLoader runs in the main process";
  EXPECT_LT(with_workers, without_workers / 3) << "four workers load ahead";
  EXPECT_LT(with_workers, 0.10) << "under gpu.host_bound's bar: no finding";
}

}  // namespace
}  // namespace ampprof::pipeline
