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
    {"pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
     8772, "Tesla V100-DGXS-32GB", 7, 0, -1, 0.595, ""},
    {"pytorch__kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
     8868, "Tesla V100-DGXS-32GB", 7, 0, -1, 0.746, ""},
    // The README calls its GPU unknown: it has no deviceProperties, but its 2021-era
    // "computeProperties" describe a V100.
    {"pytorch__kineto/tb_plugin/test/gpu_metrics_input.json", 30, "Tesla V100-DGXS-32GB", 7, 0, -1, 0.004, ""},
    // fp32_math (info, TF32 opportunity): an FP32 run on an A100. Its classifier's aten::linear runs
    // ampere_sgemm_32x32_sliced1x4_tn (FP32 SIMT, 24.5% of kernel time; with ampere_gcgemm_64x64_nt, the
    // complex GEMM of a cuDNN FFT convolution that the classifier calls a GEMM, 30.6%). Some of its
    // convolutions run TF32 (cuDNN's default), none of its GEMMs (matmul TF32 is off by default).
    {"facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/"
     "benchmark_result_2869224_1695835535_trace.json.gz",
     79, "NVIDIA A100-PG509-200", 8, 0, 0, 0.001, "layout.nchw_nhwc,tensor_cores.fp32_math"},
    // misaligned: 65% of its TF32 Tensor-Core GEMM time (5.9% of kernel time) runs cutlass s1688gemm
    // align1 variants. The trace's aten::mm/addmm/bmm input dims behind them are not multiples of 4
    // (3906, 125, 110, 18030, 38377, 7); those behind its align4 variants are (256, 200, 512, 160).
    // cast_overhead (info): FBGEMM's FP8 quantize/dequantize kernels around its embedding exchange
    // (_compute_FP8_quantize_cuda_kernel, _FP8rowwise_to_float_cuda_kernel) take 2.1% of kernel time.
    {"facebookresearch__HolisticTraceAnalysis/tests/data/timeline_analysis/sampled_rank-0.json.gz", 1154,
     "", 0, 0, 0, 0.448, "amp.cast_overhead,tensor_cores.misaligned"},
    {"facebookresearch__HolisticTraceAnalysis/tests/data/with_gpu_user_annotation/"
     "step_based_trace_2543932.json.gz",
     // Launch-bound too: 26 kernels per step, median 2 us each against 8 us launch calls; 3.8% busy.
     130, "Quadro GP100", 6, 0, 0, 0.038, "gpu.launch_bound,tensor_cores.unavailable"},
    // fp32_math (info, TF32 opportunity): its whole GPU work is three FP32 ampere_sgemm_128x64_nn on an
    // A100 (369 us); TF32 would run them on Tensor Cores.
    {"facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/cuda_event_sync_multi_stream/"
     "event_sync_trace.json.gz",
     3, "NVIDIA A100-PG509-200", 8, 0, 0, -1, "tensor_cores.fp32_math"},
    // BERT-small at a small batch on an H100: 60 kernels in 3.9 ms, the GPU idle 92% of it waiting for
    // the next launch. misaligned: the MLM head, aten::addmm of [141, 512] x [512, 30522] in BF16
    // (vocabulary 30522 is not a multiple of 8), runs cutlass_80_tensorop_bf16_s16816gemm_..._align2:
    // 13.4% of kernel time, the AMP recipe's "multiples of 8" case.
    {"AMD-AGI__TraceLens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz", 60,
     "NVIDIA H100 80GB HBM3", 9, 0, -1, 0.079, "gpu.launch_bound,tensor_cores.misaligned"},
    {"AMD-AGI__TraceLens/evals/unit_tests_nv/moe/moe_01_many_experts_few_tokens_analysis_output/"
     "moe_01_many_experts_few_tokens.json.gz",
     36, "NVIDIA B300 SXM6 AC", 10, 3, -1, 0.15, ""},
    // An MLP of Linear+ReLU layers trained with SGD for 40 iterations on an RTX 2080 Ti: launch-bound, idle
    // 59% of the measured steps waiting for launches.
    {"facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz", 8716,
     "NVIDIA GeForce RTX 2080 Ti", 7, 5, -1, 0.366, "gpu.launch_bound"},
    {"NVIDIA__Fuser/report2.sqlite", 19, "NVIDIA H200", 9, 0, -1, 0.001, ""},
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
    EXPECT_NEAR(gpu.busy_fraction, expected.busy, 0.0006);
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

}  // namespace
}  // namespace ampprof::pipeline
