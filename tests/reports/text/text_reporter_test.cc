#include "reports/text/text_reporter.h"

#include <sstream>

#include <gtest/gtest.h>

namespace ampprof::reports {
namespace {

analyzers::Report SampleReport() {
  analyzers::Report report;
  report.inputs.push_back({"run.ampt", "ampprof trace, format 1.0"});
  report.summary.workload = "python train.py";
  report.summary.processes = 1;
  report.summary.threads = 2;
  report.summary.kernels = 1234;
  report.summary.api_calls = 1300;
  report.summary.gpu_span = base::Interval{0, 2'000'000};
  report.summary.kernel_time_ns = 1'000'000;
  analyzers::DeviceSummary device;
  device.device_id = 0;
  device.pid = 77;
  device.name = "NVIDIA H100 80GB HBM3";
  device.compute_major = 9;
  device.sm_count = 132;
  device.kernels = 1234;
  device.streams_with_kernels = 2;
  device.span = base::Interval{0, 2'000'000};
  device.busy_ns = 1'000'000;
  device.busy_fraction = 0.5;
  report.summary.devices.push_back(device);
  report.summary.top_kernels.push_back(
      {std::string(300, 'x') + "_tail", "GEMM, Tensor Cores, FP16, cuBLASLt", 1234, 1'000'000, 1.0});
  report.summary.categories.push_back({"GEMM on Tensor Cores", 1234, 1'000'000, 1.0});
  return report;
}

std::string Render(const analyzers::Report& report) {
  std::ostringstream out;
  RenderText(report, out, {});
  return out.str();
}

TEST(RenderText, ShowsDevicesBusyTimeAndTopKernels) {
  const std::string text = Render(SampleReport());
  EXPECT_NE(text.find("trace     run.ampt\nformat    ampprof trace, format 1.0\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU 0 (pid 77): NVIDIA H100 80GB HBM3, sm_90, 132 SMs"), std::string::npos) << text;
  EXPECT_NE(text.find("kernels   1,234 on 2 streams"), std::string::npos) << text;
  EXPECT_NE(text.find("busy      50.0% of 2.00 ms (1.00 ms idle between kernels)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("_tail"), std::string::npos) << "long names keep their tail";
  EXPECT_NE(text.find("Data quality: no records lost or repaired."), std::string::npos);
}

TEST(RenderText, ShowsTimeByCategoryAndWhatEachTopKernelIs) {
  const std::string text = Render(SampleReport());
  EXPECT_NE(text.find("Kernel time by category\n  100.0%     1.00 ms      1,234  GEMM on Tensor Cores\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    (GEMM, Tensor Cores, FP16, cuBLASLt)\n"), std::string::npos) << text;
}

TEST(RenderText, FitsOneHundredColumns) {
  analyzers::Report report = SampleReport();
  report.stats.Increment(base::Stat::kAmptTruncatedTail);
  report.stats.Increment(base::Stat::kAmptSalvagedRecords, 1234567);
  std::istringstream lines(Render(report));
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
}

TEST(RenderText, ListsNonZeroStatsWithSeverity) {
  analyzers::Report report = SampleReport();
  report.stats.Increment(base::Stat::kCollectorDroppedRecords, 42);
  const std::string text = Render(report);
  EXPECT_NE(text.find("data-loss            42  collector_dropped_records"), std::string::npos) << text;
  EXPECT_NE(text.find("no buffer was available"), std::string::npos) << text;
}

TEST(RenderText, ShowsKernelNamesWithoutReturnTypeAndParameters) {
  analyzers::Report report = SampleReport();
  report.summary.top_kernels[0].name =
      "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
      "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)";
  const std::string text = Render(report);
  // 100 characters without "void " and the parameters: too wide beside the numbers, so it gets its own
  // line, with nested template arguments collapsed.
  EXPECT_NE(text.find("\n    at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<...>, "
                      "std::array<...> >\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("(int, at::native"), std::string::npos) << text;
}

TEST(RenderText, CollapsesNestedTemplateArgumentsOfVeryLongNames) {
  analyzers::Report report = SampleReport();
  report.summary.top_kernels[0].name =
      "void at::native::vectorized_elementwise_kernel<4, at::native::float16_copy_kernel_cuda("
      "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, "
      "at::native::float16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
      "std::array<char*, 2ul>)";
  const std::string text = Render(report);
  // Still 118 characters when collapsed: the middle is elided, both ends stay.
  EXPECT_NE(text.find("\n    at::native::vectorized_elementwise_kernel<4, at::native::float"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#1}, std::array<...> >\n"), std::string::npos) << text;
}

TEST(RenderText, ListsDevicesWithoutKernelsOnOneLineAndShowsTheRank) {
  analyzers::Report report = SampleReport();
  for (uint32_t id = 1; id <= 3; ++id) {
    analyzers::DeviceSummary idle;
    idle.device_id = id;
    idle.name = "NVIDIA H100 80GB HBM3";
    report.summary.devices.push_back(idle);
  }
  report.summary.process_list.push_back({77, "python train.py", 3, 8});
  const std::string text = Render(report);
  EXPECT_NE(text.find("\nNo kernels on GPUs 1, 2, 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("process   pid 77: rank 3 of 8\n"), std::string::npos) << text;
}

TEST(RenderText, SaysWhenNoGpuWorkWasRecorded) {
  analyzers::Report report;
  EXPECT_NE(Render(report).find("No GPU activity was recorded."), std::string::npos);
}

}  // namespace
}  // namespace ampprof::reports
