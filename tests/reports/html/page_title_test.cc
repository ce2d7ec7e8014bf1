#include "reports/html/page_title.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ampprof::reports {
namespace {

analyzers::Report ReportOf(std::string workload, int32_t rank, std::string path = "/runs/ampprof-pid4242.ampt") {
  analyzers::Report report;
  report.label = rank >= 0 ? fmt::format("rank {}", rank) : "pid 4242";
  report.rank = rank;
  report.summary.workload = std::move(workload);
  report.inputs = {{std::move(path), "ampt 1.1"}};
  return report;
}

TEST(PageTitle, NamesTheWorkloadAndTheRankNotTheProcessId) {
  EXPECT_EQ(PageTitle(std::vector{ReportOf("python train.py", 3)}), "ampprof: python train.py, rank 3");
  EXPECT_EQ(PageTitle(std::vector{ReportOf("python train.py", -1)}), "ampprof: python train.py");
}

TEST(PageTitle, WithoutAWorkloadNamesTheTraceFile) {
  EXPECT_EQ(PageTitle(std::vector{ReportOf("", -1)}), "ampprof: ampprof-pid4242.ampt");
}

TEST(PageTitle, RanksOfOneWorkloadAreCounted) {
  EXPECT_EQ(PageTitle(std::vector{ReportOf("torchrun train.py", 0), ReportOf("torchrun train.py", 1)}),
            "ampprof: torchrun train.py, 2 ranks");
  EXPECT_EQ(PageTitle(std::vector{ReportOf("a.py", -1), ReportOf("b.py", -1)}), "ampprof: 2 traces");
}

TEST(PageTitle, ALongWorkloadIsCutAtAWordNeverInsideACharacter) {
  const std::string title = PageTitle(std::vector{ReportOf(
      "python train.py --model resnet50 --batch-size 256 --precision bf16 --epochs 90 --data /datasets/imagenet", 0)});
  EXPECT_EQ(title, "ampprof: python train.py --model resnet50 --batch-size 256..., rank 0");
  // 59 ASCII bytes, then a 3-byte character across the 60-byte limit, without a space to cut at.
  const std::string unbroken = std::string(59, 'x') + "\xe2\x86\x92" + std::string(10, 'y');
  EXPECT_EQ(PageTitle(std::vector{ReportOf(unbroken, -1)}), "ampprof: " + std::string(59, 'x') + "...");
}

// The heading over each report on the page: the same names, with the process when no rank says who it is.
TEST(ReportHeading, NamesTheWorkloadAndRankAndKeepsTheProcessWhereItAddsSomething) {
  EXPECT_EQ(ReportHeading(ReportOf("python train.py", 3)), "python train.py, rank 3");
  EXPECT_EQ(ReportHeading(ReportOf("python train.py", -1)), "python train.py (pid 4242)");
  EXPECT_EQ(ReportHeading(ReportOf("", -1)), "ampprof-pid4242.ampt (pid 4242)");
}

}  // namespace
}  // namespace ampprof::reports
