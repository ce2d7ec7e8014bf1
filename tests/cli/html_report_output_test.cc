// The HTML page that `run` and `compare` write beside their traces goes through the same checked,
// atomic output as every other file ampprof writes: a failed write is said with its reason, and a
// page that could not be finished never replaces the one already there.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzers/report/report.h"
#include "src/cli/traced_run.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::cli {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<analyzers::Report> OneEmptyReport() {
  std::vector<analyzers::Report> reports(1);
  reports.front().label = "pid 42";
  return reports;
}

TEST(HtmlReportOutput, WritesThePageAndSaysWhere) {
  testing::TempDir dir;
  const std::string path = dir.File("report.html");
  ::testing::internal::CaptureStderr();
  WriteHtmlReport(OneEmptyReport(), path, "run");
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(said, "ampprof run: HTML report: " + path + "\n");
  EXPECT_NE(ReadFile(path).find("</html>"), std::string::npos);
}

TEST(HtmlReportOutput, AFullDeviceIsSaidWithItsReason) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  ::testing::internal::CaptureStderr();
  WriteHtmlReport(OneEmptyReport(), "/dev/full", "compare");
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("ampprof compare: the HTML report: /dev/full"), std::string::npos) << said;
  EXPECT_NE(said.find("No space left on device"), std::string::npos) << said;
}

TEST(HtmlReportOutput, AMissingDirectoryLeavesNothingAndSaysWhy) {
  testing::TempDir dir;
  const std::string path = dir.File("no/such/dir/report.html");
  ::testing::internal::CaptureStderr();
  WriteHtmlReport(OneEmptyReport(), path, "run");
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("the HTML report:"), std::string::npos) << said;
  EXPECT_EQ(said.find("HTML report: " + path + "\n"), std::string::npos) << said;
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace ampprof::cli
