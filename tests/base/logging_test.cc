#include "src/base/logging.h"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "src/base/status.h"

namespace ampprof::base {
namespace {

constexpr LogLevel kDefaultLevel = LogLevel::kWarning;

// Restores the default level after each test so that tests do not leak state into each other.
class LoggingTest : public ::testing::Test {
 protected:
  void TearDown() override { SetLogLevel(kDefaultLevel); }
};

TEST_F(LoggingTest, DefaultLevelIsWarning) { EXPECT_EQ(GetLogLevel(), LogLevel::kWarning); }

TEST_F(LoggingTest, ParseLogLevelAcceptsKnownNames) {
  struct Case {
    std::string_view name;
    LogLevel level;
  };
  const Case cases[] = {
      {"trace", LogLevel::kTrace},     {"debug", LogLevel::kDebug},  {"info", LogLevel::kInfo},
      {"warning", LogLevel::kWarning}, {"warn", LogLevel::kWarning}, {"error", LogLevel::kError},
      {"off", LogLevel::kOff},
  };
  for (const Case& c : cases) {
    const StatusOr<LogLevel> level = ParseLogLevel(c.name);
    ASSERT_TRUE(level.ok()) << c.name << ": " << level.status().ToString();
    EXPECT_EQ(*level, c.level) << c.name;
  }
}

TEST_F(LoggingTest, ParseLogLevelRejectsUnknownNames) {
  const StatusOr<LogLevel> level = ParseLogLevel("verbose");
  ASSERT_FALSE(level.ok());
  EXPECT_EQ(level.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(level.status().message().find("verbose"), std::string::npos)
      << level.status().message();

  for (const std::string_view bad : {"", "INFO", "Warning", "warn ", "err"}) {
    EXPECT_EQ(ParseLogLevel(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST_F(LoggingTest, SetAndGetLogLevel) {
  for (const LogLevel level : {LogLevel::kTrace, LogLevel::kDebug, LogLevel::kInfo,
                               LogLevel::kWarning, LogLevel::kError, LogLevel::kOff}) {
    SetLogLevel(level);
    EXPECT_EQ(GetLogLevel(), level);
  }
}

TEST_F(LoggingTest, ShouldLogAtWarning) {
  SetLogLevel(LogLevel::kWarning);
  EXPECT_FALSE(ShouldLog(LogLevel::kTrace));
  EXPECT_FALSE(ShouldLog(LogLevel::kDebug));
  EXPECT_FALSE(ShouldLog(LogLevel::kInfo));
  EXPECT_TRUE(ShouldLog(LogLevel::kWarning));
  EXPECT_TRUE(ShouldLog(LogLevel::kError));
}

TEST_F(LoggingTest, ShouldLogAtTrace) {
  SetLogLevel(LogLevel::kTrace);
  EXPECT_TRUE(ShouldLog(LogLevel::kTrace));
  EXPECT_TRUE(ShouldLog(LogLevel::kDebug));
  EXPECT_TRUE(ShouldLog(LogLevel::kInfo));
  EXPECT_TRUE(ShouldLog(LogLevel::kWarning));
  EXPECT_TRUE(ShouldLog(LogLevel::kError));
}

TEST_F(LoggingTest, OffNeverLogs) {
  for (const LogLevel level : {LogLevel::kTrace, LogLevel::kDebug, LogLevel::kInfo,
                               LogLevel::kWarning, LogLevel::kError, LogLevel::kOff}) {
    SetLogLevel(level);
    EXPECT_FALSE(ShouldLog(LogLevel::kOff)) << static_cast<int>(level);
  }
  SetLogLevel(LogLevel::kOff);
  EXPECT_FALSE(ShouldLog(LogLevel::kTrace));
  EXPECT_FALSE(ShouldLog(LogLevel::kInfo));
  EXPECT_FALSE(ShouldLog(LogLevel::kError));
}

TEST_F(LoggingTest, LoggingWhenDisabledDoesNotFormat) {
  SetLogLevel(LogLevel::kOff);
  // Nothing is printed and nothing crashes; the arguments are not formatted when the level is off.
  LogError("suppressed {}", 1);
  LogWarning("suppressed {}", 2);
  LogInfo("suppressed {}", 3);
  LogDebug("suppressed {}", 4);
  SUCCEED();
}

}  // namespace
}  // namespace ampprof::base
