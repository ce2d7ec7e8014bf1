// ChromeEventWriter's memory stays at one buffer whatever happens to its stream: once a write
// failed it kept every later event in memory, so `export -o /dev/full` of a 10^6-kernel trace grew
// to 1.5 GB (17 GB at 10^7) before it said anything.

#include "reports/export/chrome_event_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

namespace ampprof::reports {
namespace {

TEST(ChromeEventWriter, AFailedStreamHoldsNoMoreThanOneBuffer) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);  // as a full disk leaves it after the first write
  ChromeEventWriter writer(out);
  writer.BeginDocument("");
  for (int64_t i = 0; i < 100000; ++i) {  // about 10 MB of events
    writer.Complete("void gemm_kernel<float, 128, 128>(float const*, float*)", "kernel", {1, 7},
                    {i * 10, i * 10 + 5}, [](ChromeArgs& args) { args.Int("stream", 7); });
  }
  EXPECT_TRUE(writer.failed());
  EXPECT_LE(writer.buffered_bytes(), size_t{1} << 21);
  EXPECT_FALSE(writer.EndDocument().ok());
}

TEST(ChromeEventWriter, AGoodStreamGetsEveryEvent) {
  std::ostringstream out;
  ChromeEventWriter writer(out);
  writer.BeginDocument("");
  for (int64_t i = 0; i < 30000; ++i) {
    writer.Complete("k", "kernel", {1, 7}, {i * 10, i * 10 + 5}, [](ChromeArgs&) {});
  }
  ASSERT_TRUE(writer.EndDocument().ok());
  EXPECT_FALSE(writer.failed());
  EXPECT_EQ(writer.buffered_bytes(), 0u);
  const std::string text = out.str();
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), 30000u + 2);
}

}  // namespace
}  // namespace ampprof::reports
