#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "src/base/format.h"
#include "src/base/time.h"

namespace ampprof::base {
namespace {

TEST(FormatDurationTest, Nanoseconds) {
  EXPECT_EQ(FormatDuration(0), "0 ns");
  EXPECT_EQ(FormatDuration(1), "1 ns");
  EXPECT_EQ(FormatDuration(850), "850 ns");
  EXPECT_EQ(FormatDuration(999), "999 ns");
}

TEST(FormatDurationTest, Microseconds) {
  EXPECT_EQ(FormatDuration(1000), "1.00 us");
  EXPECT_EQ(FormatDuration(3500), "3.50 us");
  EXPECT_EQ(FormatDuration(12345), "12.3 us");
  EXPECT_EQ(FormatDuration(123456), "123 us");
}

TEST(FormatDurationTest, Milliseconds) {
  EXPECT_EQ(FormatDuration(kNsPerMs), "1.00 ms");
  EXPECT_EQ(FormatDuration(4'560'000), "4.56 ms");
  EXPECT_EQ(FormatDuration(45'600'000), "45.6 ms");
  EXPECT_EQ(FormatDuration(456'000'000), "456 ms");
}

TEST(FormatDurationTest, Seconds) {
  EXPECT_EQ(FormatDuration(kNsPerS), "1.00 s");
  EXPECT_EQ(FormatDuration(1'234'567'890), "1.23 s");
  EXPECT_EQ(FormatDuration(75 * kNsPerS), "75.0 s");
  EXPECT_EQ(FormatDuration(1'234'500'000'000), "1234.5 s");
  EXPECT_EQ(FormatDuration(100 * kNsPerS), "100.0 s");
}

TEST(FormatDurationTest, NegativeKeepsSign) {
  EXPECT_EQ(FormatDuration(-1), "-1 ns");
  EXPECT_EQ(FormatDuration(-999), "-999 ns");
  EXPECT_EQ(FormatDuration(-12345), "-12.3 us");
  EXPECT_EQ(FormatDuration(-4'560'000), "-4.56 ms");
  EXPECT_EQ(FormatDuration(-1'234'567'890), "-1.23 s");
}

// The header promises three significant digits in the largest unit that keeps the value >= 1, so a
// value that rounds up to 1000 of one unit must move to the next unit, and 9.999 must not become
// "10.00" (four significant digits).
TEST(FormatDurationTest, RoundingAtUnitBoundaryKeepsThreeSignificantDigits) {
  EXPECT_EQ(FormatDuration(999'499), "999 us");
  EXPECT_EQ(FormatDuration(9'999), "10.0 us");
  EXPECT_EQ(FormatDuration(99'999), "100 us");
  EXPECT_EQ(FormatDuration(999'500), "1.00 ms");
  EXPECT_EQ(FormatDuration(999'999), "1.00 ms");
  EXPECT_EQ(FormatDuration(9'999'999), "10.0 ms");
  EXPECT_EQ(FormatDuration(999'999'999), "1.00 s");
  EXPECT_EQ(FormatDuration(9'999'999'999), "10.0 s");
}

TEST(FormatDurationTest, Int64Max) {
  EXPECT_EQ(FormatDuration(std::numeric_limits<int64_t>::max()), "9223372036.9 s");
}

// Run in a child process: negating INT64_MIN overflows, and the implementation may recurse forever.
TEST(FormatDurationDeathTest, Int64MinKeepsSignAndDoesNotCrash) {
  EXPECT_EXIT(
      {
        alarm(2);  // fail instead of hanging if the formatter loops
        const std::string text = FormatDuration(std::numeric_limits<int64_t>::min());
        std::fprintf(stderr, "got '%s'\n", text.c_str());
        std::_Exit(text == "-9223372036.9 s" ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(IntervalTest, Duration) {
  EXPECT_EQ((Interval{.start = 1'000, .end = 4'500}).duration(), 3'500);
  EXPECT_EQ((Interval{.start = 7, .end = 7}).duration(), 0);
  EXPECT_EQ(Interval{}.duration(), 0);
  EXPECT_EQ(FormatDuration(Interval{.start = 1'000, .end = 4'500}.duration()), "3.50 us");
}

TEST(IntervalTest, ContainsIsHalfOpen) {
  const Interval interval{.start = 10, .end = 20};
  EXPECT_FALSE(interval.Contains(9));
  EXPECT_TRUE(interval.Contains(10));
  EXPECT_TRUE(interval.Contains(15));
  EXPECT_TRUE(interval.Contains(19));
  EXPECT_FALSE(interval.Contains(20));
  EXPECT_FALSE(interval.Contains(21));
  const Interval empty{.start = 10, .end = 10};
  EXPECT_FALSE(empty.Contains(10));
}

TEST(IntervalTest, Overlaps) {
  const Interval a{.start = 10, .end = 20};
  EXPECT_TRUE(a.Overlaps(a));
  EXPECT_TRUE(a.Overlaps({.start = 15, .end = 25}));
  EXPECT_TRUE((Interval{.start = 15, .end = 25}).Overlaps(a));
  EXPECT_TRUE(a.Overlaps({.start = 12, .end = 13}));  // contained
  EXPECT_TRUE(a.Overlaps({.start = 0, .end = 30}));   // containing
  EXPECT_TRUE(a.Overlaps({.start = 19, .end = 21}));
  // Adjacent half-open intervals share no point.
  EXPECT_FALSE(a.Overlaps({.start = 20, .end = 30}));
  EXPECT_FALSE((Interval{.start = 20, .end = 30}).Overlaps(a));
  EXPECT_FALSE(a.Overlaps({.start = 0, .end = 10}));
  EXPECT_FALSE(a.Overlaps({.start = 30, .end = 40}));
}

TEST(IntervalTest, Equality) {
  EXPECT_EQ((Interval{.start = 1, .end = 2}), (Interval{.start = 1, .end = 2}));
  EXPECT_NE((Interval{.start = 1, .end = 2}), (Interval{.start = 1, .end = 3}));
}

TEST(FormatCountTest, Values) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(7), "7");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(1000), "1,000");
  EXPECT_EQ(FormatCount(100000), "100,000");
  EXPECT_EQ(FormatCount(1234567), "1,234,567");
  EXPECT_EQ(FormatCount(-999), "-999");
  EXPECT_EQ(FormatCount(-1000), "-1,000");
  EXPECT_EQ(FormatCount(-1234567), "-1,234,567");
}

TEST(FormatCountTest, Extremes) {
  EXPECT_EQ(FormatCount(std::numeric_limits<int64_t>::min()), "-9,223,372,036,854,775,808");
  EXPECT_EQ(FormatCount(std::numeric_limits<int64_t>::max()), "9,223,372,036,854,775,807");
}

TEST(FormatBytesTest, Values) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1024), "1.00 KiB");
  EXPECT_EQ(FormatBytes(1536), "1.50 KiB");
  EXPECT_EQ(FormatBytes(4096), "4.00 KiB");
  EXPECT_EQ(FormatBytes(10ull << 20), "10.0 MiB");
  EXPECT_EQ(FormatBytes(1536ull << 20), "1.50 GiB");
  EXPECT_EQ(FormatBytes(150ull << 30), "150 GiB");
  EXPECT_EQ(FormatBytes(2ull << 40), "2.00 TiB");
}

// Three significant digits, as for durations: a value that rounds up to 1024 moves to the next
// unit.
TEST(FormatBytesTest, RoundingAtUnitBoundaryKeepsThreeSignificantDigits) {
  EXPECT_EQ(FormatBytes(10239), "10.0 KiB");
  EXPECT_EQ(FormatBytes(102399), "100 KiB");
  EXPECT_EQ(FormatBytes(1048575), "1.00 MiB");
}

TEST(FormatBytesTest, LargestUnitIsPebibytes) {
  EXPECT_EQ(FormatBytes(1ull << 50), "1.00 PiB");
  // Past the last unit the value grows instead of switching unit; it must not crash.
  EXPECT_EQ(FormatBytes(std::numeric_limits<uint64_t>::max()), "16384 PiB");
}

TEST(FormatPercentTest, Values) {
  EXPECT_EQ(FormatPercent(0.61234), "61.2%");
  EXPECT_EQ(FormatPercent(0.0), "0.0%");
  EXPECT_EQ(FormatPercent(1.0), "100.0%");
  EXPECT_EQ(FormatPercent(0.5), "50.0%");
}

}  // namespace
}  // namespace ampprof::base

namespace ampprof::base {
namespace {

TEST(WrapTextTest, BreaksAtSpacesWithinTheWidth) {
  EXPECT_EQ(WrapText("the quick brown fox jumps", 10),
            (std::vector<std::string>{"the quick", "brown fox", "jumps"}));
  EXPECT_EQ(WrapText("", 10), std::vector<std::string>{});
  EXPECT_EQ(WrapText("averyveryverylongword and more", 8),
            (std::vector<std::string>{"averyveryverylongword", "and more"}));
}

}  // namespace
}  // namespace ampprof::base

namespace ampprof::base {
namespace {

TEST(ParseMicrosecondsToNs, IsExact) {
  EXPECT_EQ(ParseMicrosecondsToNs("1419247332972.313"), 1419247332972313);
  EXPECT_EQ(ParseMicrosecondsToNs("1712867402348256"), 1712867402348256000);
  EXPECT_EQ(ParseMicrosecondsToNs("68.0"), 68000);
  EXPECT_EQ(ParseMicrosecondsToNs("0.001"), 1);
  EXPECT_EQ(ParseMicrosecondsToNs("0"), 0);
  EXPECT_EQ(ParseMicrosecondsToNs("-2.5"), -2500);
  EXPECT_EQ(ParseMicrosecondsToNs("4.5e3"), 4'500'000);
  EXPECT_EQ(ParseMicrosecondsToNs("1.5E-3"), 2);  // 1.5 ns rounds half away from zero
  EXPECT_EQ(ParseMicrosecondsToNs("0.0004"), 0);
  EXPECT_EQ(ParseMicrosecondsToNs("0.0005"), 1);
  EXPECT_EQ(ParseMicrosecondsToNs("2.0000000000000000000000000001"), 2000);
}

TEST(ParseMicrosecondsToNs, NeverLetsAnEndRoundBeforeItsStart) {
  // Floating point would turn 1419247332972.313 + 0.001 into 1419247332972.3140..., or ...3139...;
  // exact parsing keeps every nanosecond.
  const TimeNs start = *ParseMicrosecondsToNs("1419247332972.313");
  const TimeNs end = *ParseMicrosecondsToNs("1419247332972.314");
  EXPECT_EQ(end - start, 1);
}

TEST(ParseMicrosecondsToNs, RejectsWhatIsNotANumber) {
  for (std::string_view bad : {"", "-", ".", "1.2.3", "12a", "1e", "1e+", "NaN", "\"12\"", " 12"}) {
    EXPECT_FALSE(ParseMicrosecondsToNs(bad).has_value()) << bad;
  }
  EXPECT_FALSE(ParseMicrosecondsToNs("1e30").has_value()) << "overflows int64 nanoseconds";
  EXPECT_FALSE(ParseMicrosecondsToNs("99999999999999999999").has_value());
}

}  // namespace
}  // namespace ampprof::base
