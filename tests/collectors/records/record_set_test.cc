#include "collectors/records/record_set.h"

#include <gtest/gtest.h>

#include "tests/testing/record_builder.h"

namespace ampprof::records {
namespace {

TEST(RecordSet, ReplayReinternsStringsIntoTheTargetPool) {
  RecordSet source;
  testing::RecordBuilder b(source);
  b.Launch("gemm", {0, 10}, {20, 30});
  source.stats().Increment(base::Stat::kCollectorDroppedRecords, 2);
  source.SetMetadata("command", "python x.py");

  RecordSet target;
  // Different strings first, so that ids differ between the pools.
  target.strings().Intern("something else");
  target.strings().Intern("and another thing");
  source.ReplayInto(target);

  ASSERT_EQ(target.kernels.size(), 1u);
  EXPECT_EQ(target.Text(target.kernels[0].name), "gemm");
  EXPECT_NE(target.kernels[0].name, source.kernels[0].name);
  EXPECT_EQ(target.Text(target.api_calls[0].name), "cudaLaunchKernel");
  EXPECT_EQ(target.stats().Get(base::Stat::kCollectorDroppedRecords), 2);
  EXPECT_EQ(target.metadata.at("command"), "python x.py");
  EXPECT_EQ(target.record_count(), 2u);
}

}  // namespace
}  // namespace ampprof::records
