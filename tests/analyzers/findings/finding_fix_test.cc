#include "analyzers/findings/finding_fix.h"

#include <gtest/gtest.h>

#include "analyzers/findings/finding_catalog.h"

namespace ampprof::analyzers {
namespace {

TEST(FindingFix, QuotesTheFirstSentenceOfThePagesFix) {
  EXPECT_EQ(FindingFix("gpu.launch_bound"), "Give the GPU more work per launch, or launch fewer kernels from Python.");
  EXPECT_EQ(FindingFix("layout.nchw_nhwc"), "Convert the model and its inputs to channels-last once, before training.")
      << "the ':' that introduces the page's code block becomes a full stop";
  EXPECT_EQ(FindingFix("amp.double_optimizer_step"),
            "Call only scaler.step(optimizer): it runs optimizer.step() itself, and skips it on overflow.")
      << "code markup removed";
}

TEST(FindingFix, EveryCatalogIdHasAOneSentenceFix) {
  for (const FindingInfo& info : FindingCatalog()) {
    const std::string fix = FindingFix(info.id);
    EXPECT_FALSE(fix.empty()) << info.id;
    EXPECT_LE(fix.size(), 200u) << info.id << ": " << fix;
    EXPECT_EQ(fix.find('`'), std::string::npos) << info.id;
    EXPECT_EQ(fix.find('\n'), std::string::npos) << info.id;
  }
  EXPECT_EQ(FindingFix("no.such_id"), "");
}

TEST(FirstSentenceAsPlainText, StopsAtTheFirstSentenceAndDropsLinkTargets) {
  EXPECT_EQ(FirstSentenceAsPlainText("Keep values on the GPU. For example, accumulate\nthe loss."),
            "Keep values on the GPU.");
  EXPECT_EQ(FirstSentenceAsPlainText("Remove syncs, see [gpu.sync_stall](gpu.sync_stall.md), e.g. this one"),
            "Remove syncs, see gpu.sync_stall, e.g. this one");
  EXPECT_EQ(FirstSentenceAsPlainText(""), "");
}

}  // namespace
}  // namespace ampprof::analyzers
