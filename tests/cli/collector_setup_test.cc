#include "src/cli/collector_setup.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <map>
#include <string>

#include "tests/testing/fake_environment.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::cli {
namespace {

using ::testing::Contains;
using ::testing::Pair;

using ampprof::testing::FakeEnvironment;

const CollectorFiles kCollector{"/opt/ampprof/lib/libampprof_inject.so",
                                "/usr/local/cuda/lib64/libcupti.so.13", "/opt/ampprof/lib/python",
                                "the CUDA toolkit"};

TEST(CollectorSetupTest, PointsCudaAndNvtxAtTheCollectorAndPassesTheSettings) {
  CaptureOptions capture;
  capture.output_dir = "/work/out";
  capture.range = CaptureRangeOption::kCudaProfilerApi;
  capture.duration_seconds = 2.5;
  capture.all_api_calls = true;
  const TracedEnvironment traced = TracedRunEnvironment(capture, kCollector, FakeEnvironment({}));
  EXPECT_FALSE(traced.other_tool.has_value());
  EXPECT_THAT(traced.variables,
              Contains(Pair("CUDA_INJECTION64_PATH", kCollector.injection_library)));
  // The collector forwards NVTX to the libcupti the process uses (one copy, one CUPTI subscriber).
  EXPECT_THAT(traced.variables,
              Contains(Pair("NVTX_INJECTION64_PATH", kCollector.injection_library)));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_OUTPUT_DIR", "/work/out")));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_CAPTURE_RANGE", "cudaProfilerApi")));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_DURATION_S", "2.5")));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_API_CALLS", "all")));
  for (const auto& [name, value] : traced.variables) EXPECT_NE(name, "AMPPROF_DELAY_S");
}

TEST(CollectorSetupTest, WholeRunIsTheDefault) {
  CaptureOptions capture;
  capture.output_dir = "/o";
  capture.delay_seconds = 10;
  const TracedEnvironment traced = TracedRunEnvironment(capture, kCollector, FakeEnvironment({}));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_CAPTURE_RANGE", "none")));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_DELAY_S", "10")));
  // Only the analysed calls unless asked: the collector's default, without a variable.
  for (const auto& [name, value] : traced.variables) EXPECT_NE(name, "AMPPROF_API_CALLS");
}

TEST(CollectorSetupTest, AnotherToolKeepsItsPlace) {
  // Nsight Systems, or a second ampprof: CUDA and NVTX accept one tool per process.
  for (const auto& [name, value] : std::map<std::string, std::string>{
           {"CUDA_INJECTION64_PATH", "/opt/nsys/target-linux-x64/libToolsInjection64.so"},
           {"NVTX_INJECTION64_PATH", "/opt/nsys/target-linux-x64/libToolsInjection64.so"}}) {
    const TracedEnvironment traced =
        TracedRunEnvironment({}, kCollector, FakeEnvironment({{name, value}}));
    ASSERT_TRUE(traced.other_tool.has_value()) << name;
    EXPECT_EQ(*traced.other_tool, name + "=" + value);
    EXPECT_TRUE(traced.variables.empty());
  }
}

TEST(CollectorSetupTest, NoneOrOurOwnCollectorIsNotAnotherTool) {
  for (const auto& environment : std::vector<std::map<std::string, std::string>>{
           {{"CUDA_INJECTION64_PATH", "none"}},
           {{"CUDA_INJECTION64_PATH", ""}},
           {{"CUDA_INJECTION64_PATH", kCollector.injection_library},
            {"NVTX_INJECTION64_PATH", kCollector.injection_library}},
           {{"NVTX_INJECTION64_PATH", kCollector.cupti_library}}}) {
    const TracedEnvironment traced =
        TracedRunEnvironment({}, kCollector, FakeEnvironment(environment));
    EXPECT_FALSE(traced.other_tool.has_value());
    EXPECT_FALSE(traced.variables.empty());
  }
}

TEST(CollectorSetupTest, ThePythonShimGoesAheadOfTheInheritedPath) {
  CaptureOptions capture;
  capture.torch_ops = true;
  const TracedEnvironment traced =
      TracedRunEnvironment(capture, kCollector, FakeEnvironment({{"PYTHONPATH", "/home/me/lib"}}));
  EXPECT_THAT(traced.variables,
              Contains(Pair("PYTHONPATH", "/opt/ampprof/lib/python:/home/me/lib")));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_SHIM", "1")));
  EXPECT_THAT(traced.variables, Contains(Pair("AMPPROF_TORCH_OPS", "1")));

  const TracedEnvironment alone = TracedRunEnvironment({}, kCollector, FakeEnvironment({}));
  EXPECT_THAT(alone.variables, Contains(Pair("PYTHONPATH", "/opt/ampprof/lib/python")));
  for (const auto& [name, value] : alone.variables) EXPECT_NE(name, "AMPPROF_TORCH_OPS");
}

TEST(CollectorSetupTest, WithoutTheShimPythonRunsAsItIs) {
  CollectorFiles no_shim = kCollector;
  no_shim.python_shim_dir.clear();
  const TracedEnvironment traced = TracedRunEnvironment({}, no_shim, FakeEnvironment({}));
  for (const auto& [name, value] : traced.variables) {
    EXPECT_NE(name, "PYTHONPATH");
    EXPECT_NE(name, "AMPPROF_SHIM");
  }
}

TEST(CollectorSetupTest, LibraryLogsGoToTheOutputDirectory) {
  CaptureOptions capture;
  capture.output_dir = "/work/out";
  capture.library_logs = true;
  const TracedEnvironment traced = TracedRunEnvironment(capture, kCollector, FakeEnvironment({}));
  EXPECT_THAT(traced.variables, Contains(Pair("CUBLASLT_LOG_FILE", "/work/out/cublaslt.%i.log")));
  EXPECT_THAT(traced.variables, Contains(Pair("CUDNN_LOGDEST_DBG", "/work/out/cudnn.%i.log")));
}

// Every way of naming the collector's files finds the shim too: with AMPPROF_CUPTI_LIBRARY set, the
// shim was left out and Python workloads ran without it.
TEST(CollectorSetupTest, FindsThePythonShimWhateverNamesLibcupti) {
  const ampprof::testing::TempDir dir;
  std::ofstream(dir.File("libampprof_inject.so")) << "";
  std::ofstream(dir.File("libcupti.so.13")) << "";
  std::ofstream(dir.File("sitecustomize.py")) << "";
  setenv("AMPPROF_INJECTION_LIBRARY", dir.File("libampprof_inject.so").c_str(), 1);
  setenv("AMPPROF_PYTHON_SHIM_DIR", dir.path().c_str(), 1);
  setenv("AMPPROF_CUPTI_LIBRARY", dir.File("libcupti.so.13").c_str(), 1);
  const base::StatusOr<CollectorFiles> found = FindCollector();
  unsetenv("AMPPROF_INJECTION_LIBRARY");
  unsetenv("AMPPROF_PYTHON_SHIM_DIR");
  unsetenv("AMPPROF_CUPTI_LIBRARY");
  if (!found.ok() && found.status().code() == base::StatusCode::kUnsupported) {
    GTEST_SKIP() << "a build without the collector";
  }
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->cupti_library, dir.File("libcupti.so.13"));
  EXPECT_EQ(found->cupti_source, "AMPPROF_CUPTI_LIBRARY");
  EXPECT_EQ(found->python_shim_dir, dir.path());
}

// A pip installation: <site-packages>/ampprof/_bin/ampprof, and PyTorch's CUDA 13 wheels put libcupti
// in <site-packages>/nvidia/cu13/lib. The toolkit's copy wins where there is one.
TEST(CollectorSetupTest, FindsLibcuptiInTheToolkitThenInTheNvidiaCuptiWheel) {
  const ampprof::testing::TempDir site;
  const std::filesystem::path bin = std::filesystem::path(site.path()) / "ampprof" / "_bin";
  const std::filesystem::path wheel_lib = std::filesystem::path(site.path()) / "nvidia" / "cu13" / "lib";
  std::filesystem::create_directories(bin);
  const std::string toolkit_cupti = site.File("toolkit-libcupti.so.13");
  const std::string missing = site.File("no-such-libcupti.so.13");
  const std::string_view nowhere[] = {"", missing};
  EXPECT_EQ(FindCupti(nowhere, bin), std::nullopt);

  std::filesystem::create_directories(wheel_lib);
  std::ofstream(wheel_lib / "libcupti.so.13") << "";
  const std::optional<CuptiLocation> from_wheel = FindCupti(nowhere, bin);
  ASSERT_TRUE(from_wheel.has_value());
  EXPECT_EQ(from_wheel->path, (wheel_lib / "libcupti.so.13").string());
  EXPECT_EQ(from_wheel->source, "the nvidia-cuda-cupti wheel");
  EXPECT_EQ(CuptiDescription({"", from_wheel->path, "", from_wheel->source}),
            "libcupti from the nvidia-cuda-cupti wheel: " + from_wheel->path);

  std::ofstream(toolkit_cupti) << "";
  const std::string_view toolkit[] = {missing, toolkit_cupti};
  const std::optional<CuptiLocation> from_toolkit = FindCupti(toolkit, bin);
  ASSERT_TRUE(from_toolkit.has_value());
  EXPECT_EQ(from_toolkit->path, toolkit_cupti);
  EXPECT_EQ(from_toolkit->source, "the CUDA toolkit");
}

// A pip installation without the toolkit says where libcupti came from; the usual toolkit copy stays
// out of the run's stderr (the end-to-end tests hold a failed run to one line).
TEST(CollectorSetupTest, SaysWhenTheWheelsLibcuptiIsUsed) {
  std::ostringstream said;
  std::streambuf* const original = std::cerr.rdbuf(said.rdbuf());
  SayWhichCupti({"", "/site/nvidia/cu13/lib/libcupti.so.13", "", std::string(kCuptiWheelSource)}, "run");
  const std::string from_wheel = said.str();
  said.str("");
  SayWhichCupti({"", "/usr/local/cuda/lib64/libcupti.so.13", "", std::string(kCuptiToolkitSource)}, "run");
  std::cerr.rdbuf(original);
  EXPECT_EQ(from_wheel, "ampprof run: libcupti from the nvidia-cuda-cupti wheel: /site/nvidia/cu13/lib/libcupti.so.13\n");
  EXPECT_EQ(said.str(), "");
}

}  // namespace
}  // namespace ampprof::cli
