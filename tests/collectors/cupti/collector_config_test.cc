#include "collectors/cupti/collector_config.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>

#include "tests/testing/fake_environment.h"

namespace ampprof::cupti {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

using ampprof::testing::FakeEnvironment;

TEST(CollectorConfigTest, NothingSetRecordsTheWholeRunIntoTheWorkingDirectory) {
  const auto config = ReadCollectorConfig(FakeEnvironment({}));
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->output_dir, ".");
  EXPECT_EQ(config->capture_range, CaptureRange::kWholeRun);
  EXPECT_EQ(config->delay, nanoseconds(0));
  EXPECT_FALSE(config->duration.has_value());
  EXPECT_EQ(config->api_calls, ApiCallSet::kAnalysed);
}

TEST(CollectorConfigTest, ReadsEveryVariable) {
  const auto config =
      ReadCollectorConfig(FakeEnvironment({{"AMPPROF_OUTPUT_DIR", "/tmp/run"},
                                           {"AMPPROF_CAPTURE_RANGE", "cudaProfilerApi"},
                                           {"AMPPROF_DELAY_S", "1.5"},
                                           {"AMPPROF_DURATION_S", "20"},
                                           {"AMPPROF_API_CALLS", "all"}}));
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->output_dir, "/tmp/run");
  EXPECT_EQ(config->capture_range, CaptureRange::kCudaProfilerApi);
  EXPECT_EQ(config->delay, milliseconds(1500));
  EXPECT_EQ(config->duration, seconds(20));
  EXPECT_EQ(config->api_calls, ApiCallSet::kAll);
}

TEST(CollectorConfigTest, EmptyValuesMeanUnset) {
  const auto config = ReadCollectorConfig(FakeEnvironment(
      {{"AMPPROF_OUTPUT_DIR", ""}, {"AMPPROF_CAPTURE_RANGE", ""}, {"AMPPROF_DURATION_S", ""}}));
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->output_dir, ".");
  EXPECT_EQ(config->capture_range, CaptureRange::kWholeRun);
  EXPECT_FALSE(config->duration.has_value());
}

TEST(CollectorConfigTest, RejectsWhatItCannotUnderstandNamingTheVariable) {
  for (const auto& [name, value] : std::map<std::string, std::string>{
           {"AMPPROF_CAPTURE_RANGE", "nvtx"},
           {"AMPPROF_DELAY_S", "soon"},
           {"AMPPROF_DELAY_S", "-1"},
           {"AMPPROF_DELAY_S", "2s"},
           {"AMPPROF_DURATION_S", "nan"},
           {"AMPPROF_DURATION_S", "1e12"},
           {"AMPPROF_DURATION_S", "0"},
           {"AMPPROF_API_CALLS", "everything"},
       }) {
    const auto config = ReadCollectorConfig(FakeEnvironment({{name, value}}));
    ASSERT_FALSE(config.ok()) << name << "=" << value;
    EXPECT_EQ(config.status().code(), base::StatusCode::kInvalidArgument);
    EXPECT_NE(config.status().message().find(name), std::string::npos) << config.status().message();
  }
}

TEST(CollectorConfigTest, CaptureRangeNamesAreTheVariableValues) {
  EXPECT_EQ(CaptureRangeName(CaptureRange::kWholeRun), "none");
  EXPECT_EQ(CaptureRangeName(CaptureRange::kCudaProfilerApi), "cudaProfilerApi");
  EXPECT_EQ(ApiCallSetName(ApiCallSet::kAnalysed), "analysed");
  EXPECT_EQ(ApiCallSetName(ApiCallSet::kAll), "all");
}

}  // namespace
}  // namespace ampprof::cupti
