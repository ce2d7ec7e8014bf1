#include "src/cli/progress_bar.h"

#include <chrono>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace ampprof::cli {
namespace {

using std::chrono::milliseconds;

// A clock the test moves by hand.
struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  ProgressBar::Clock AsClock() {
    return [this] { return now; };
  }
};

TEST(ProgressBar, SilentDuringTheFirstSecond) {
  FakeClock clock;
  std::ostringstream out;
  ProgressBar bar(out, 80, clock.AsClock());
  bar.Update("reading a.json", 0, 4);
  clock.now += milliseconds(900);
  bar.Tick();
  bar.Update("analyzing a.json", 1, 4);
  bar.Done();
  EXPECT_EQ(out.str(), "") << "a quick job prints nothing, not even an erase";
}

TEST(ProgressBar, DrawsAfterTheDelayAndErasesItselfWhenDone) {
  FakeClock clock;
  std::ostringstream out;
  ProgressBar bar(out, 80, clock.AsClock());
  bar.Update("reading a.json", 0, 4);
  clock.now += milliseconds(1200);
  bar.Tick();
  EXPECT_EQ(out.str(), "\r\x1b[K[------------------------]   0%  reading a.json  1.2 s");
  out.str("");
  bar.Update("analyzing a.json", 1, 4);
  EXPECT_EQ(out.str(), "\r\x1b[K[######------------------]  25%  analyzing a.json  1.2 s")
      << "a new task is drawn at once";
  out.str("");
  bar.Done();
  EXPECT_EQ(out.str(), "\r\x1b[K");
  out.str("");
  bar.Update("late", 2, 4);
  bar.Tick();
  EXPECT_EQ(out.str(), "") << "nothing after Done";
}

// The task names a file, which may be named anything: shown, not obeyed, and never cut inside a
// UTF-8 character.
TEST(ProgressBar, EscapesTheFileName) {
  FakeClock clock;
  std::ostringstream out;
  ProgressBar bar(out, 80, clock.AsClock());
  bar.Update("reading \x1b]0;pwned\x07.json", 0, 4);
  clock.now += milliseconds(1200);
  bar.Tick();
  EXPECT_EQ(out.str(),
            "\r\x1b[K[------------------------]   0%  reading \\x1b]0;pwned\\x07.json  1.2 s");
  std::string name = "reading ";
  for (int i = 0; i < 40; ++i)
    name += "\xe2\x80\xa6";  // U+2026, whose second byte alone is a C1 control
  for (const size_t width : {60, 61, 62}) {
    std::ostringstream narrow;
    ProgressBar cut(narrow, width, clock.AsClock());
    clock.now += milliseconds(1200);
    cut.Update(name, 0, 4);
    const std::string line = narrow.str();
    const size_t task = line.find("reading ");
    const size_t dots = line.find("...", task);
    ASSERT_NE(dots, std::string::npos) << line;
    EXPECT_EQ((dots - task - 8) % 3, 0u) << "cut inside a character at width " << width;
  }
}

TEST(ProgressBar, RedrawsAtMostTenTimesASecond) {
  FakeClock clock;
  std::ostringstream out;
  ProgressBar bar(out, 80, clock.AsClock());
  bar.Update("reading big.json.gz", 0, 2);
  clock.now += milliseconds(1000);
  bar.Tick();
  const std::string first = out.str();
  clock.now += milliseconds(50);
  bar.Tick();
  EXPECT_EQ(out.str(), first) << "50 ms later: not yet";
  clock.now += milliseconds(60);
  bar.Tick();
  EXPECT_EQ(out.str(), first + "\r\x1b[K[------------------------]   0%  reading big.json.gz  1.1 s")
      << "the elapsed time moves while a long read gives no update";
}

TEST(ProgressBar, NeverWiderThanTheTerminal) {
  FakeClock clock;
  std::ostringstream out;
  ProgressBar bar(out, 50, clock.AsClock());
  clock.now += milliseconds(1500);
  bar.Update("reading " + std::string(100, 'x') + ".json.gz", 3, 4);
  const std::string line = out.str().substr(std::string_view("\r\x1b[K").size());
  EXPECT_EQ(line.size(), 49u) << line;
  EXPECT_EQ(line, "[##################------]  75%  readin...  1.5 s");
}

}  // namespace
}  // namespace ampprof::cli
