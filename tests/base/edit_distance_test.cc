#include "src/base/edit_distance.h"

#include <gtest/gtest.h>

namespace ampprof::base {
namespace {

TEST(EditDistanceTest, EqualStringsAreZeroApart) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("gpu.launch_bound", "gpu.launch_bound"), 0u);
}

TEST(EditDistanceTest, FromEmptyIsTheLength) {
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("abcd", ""), 4u);
}

TEST(EditDistanceTest, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(EditDistance("gpu.launchbound", "gpu.launch_bound"), 1u);    // insertion
  EXPECT_EQ(EditDistance("gpu.launch__bound", "gpu.launch_bound"), 1u);  // deletion
  EXPECT_EQ(EditDistance("gpu.lounch_bound", "gpu.launch_bound"), 1u);   // substitution
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("flaw", "lawn"), 2u);
}

TEST(EditDistanceTest, IsSymmetric) {
  EXPECT_EQ(EditDistance("layout.nhwc", "layout.nchw_nhwc"),
            EditDistance("layout.nchw_nhwc", "layout.nhwc"));
  EXPECT_EQ(EditDistance("sunday", "saturday"), 3u);
  EXPECT_EQ(EditDistance("saturday", "sunday"), 3u);
}

TEST(EditDistanceTest, IsCaseSensitive) { EXPECT_EQ(EditDistance("GPU", "gpu"), 3u); }

}  // namespace
}  // namespace ampprof::base
