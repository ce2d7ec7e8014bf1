// The HTML report in a real browser: headless Chromium loads the page from a file, with no network,
// runs its script and takes a screenshot. The page must log nothing to the console (no error, no
// uncaught exception), its script must run to the end (it marks <html data-ready="true">), the key
// elements must be in the DOM, and the screenshot must show a page, not a blank. Skipped, saying
// why, where no Chromium is installed (.ci/setup installs Debian's `chromium`; AMPPROF_CHROMIUM
// names another).

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/reports/html/sample_reports.h"

namespace ampprof::reports {
namespace {

std::optional<std::string> FindChromium() {
  if (const char* named = std::getenv("AMPPROF_CHROMIUM"); named != nullptr && *named != '\0')
    return named;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::vector<std::string> folders;
  for (std::string dir; std::getline(dirs, dir, ':');) folders.push_back(dir);
  for (const char* name :
       {"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}) {
    for (const std::string& dir : folders) {
      const std::filesystem::path candidate = std::filesystem::path(dir) / name;
      std::error_code error;
      if (std::filesystem::is_regular_file(candidate, error)) return candidate.string();
    }
  }
  return std::nullopt;
}

std::string ReadText(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

struct BrowserRun {
  int status = -1;
  std::string log;  // Chromium's stderr, where --enable-logging=stderr puts console messages
  std::string dom;  // the DOM after the page's script ran (--dump-dom)
};

// Headless Chromium on `page`: its DOM, or a screenshot of `width` x `height` into `screenshot`.
BrowserRun RunChromium(const std::string& chromium, const std::string& page,
                       const std::string& work, const std::string& screenshot = "",
                       int width = 1280, int height = 2000) {
  const std::string log = work + "/chromium.log";
  const std::string dom = work + "/dom.html";
  // No sandbox: CI runs as root, where Chromium refuses its sandbox; the page is our own file. No
  // /dev/shm: containers give it 64 MB, which Chromium can outgrow. A profile of its own per test, so
  // that tests run in parallel.
  std::string command = fmt::format(
      "timeout 120 '{}' --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run "
      "--hide-scrollbars --disable-extensions --user-data-dir='{}/profile' --enable-logging=stderr "
      "--v=0 --window-size={},{} ",
      chromium, work, width, height);
  command += screenshot.empty() ? "--dump-dom " : fmt::format("--screenshot='{}' ", screenshot);
  command += fmt::format("'file://{}' > '{}' 2> '{}'", page, dom, log);
  BrowserRun run;
  run.status = std::system(command.c_str());
  run.log = ReadText(log);
  run.dom = ReadText(dom);
  return run;
}

// What the page said on its console: lines like
//   [619:619:1121/150701.854350:INFO:CONSOLE:1] "boom", source: file:///tmp/t.html (1)
std::vector<std::string> ConsoleMessages(const std::string& log) {
  std::vector<std::string> messages;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(":CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos) {
      messages.push_back(line);
    }
  }
  return messages;
}

// An 8-bit RGB or RGBA PNG, decoded: what Chromium writes for a screenshot.
struct Image {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint32_t> pixels;  // 0xRRGGBB
};

uint32_t BigEndian(const std::string& bytes, size_t at) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at])) << 24) |
         (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 1])) << 16) |
         (static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 2])) << 8) |
         static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + 3]));
}

uint8_t Paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<uint8_t>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

std::optional<Image> DecodePng(const std::string& png) {
  if (png.size() < 33 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return std::nullopt;
  Image image;
  int channels = 0;
  std::string compressed;
  for (size_t at = 8; at + 12 <= png.size();) {
    const uint32_t length = BigEndian(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (at + 12 + length > png.size()) return std::nullopt;
    if (type == "IHDR") {
      image.width = BigEndian(png, at + 8);
      image.height = BigEndian(png, at + 12);
      const auto depth = static_cast<uint8_t>(png[at + 16]);
      const auto color = static_cast<uint8_t>(png[at + 17]);
      const auto interlace = static_cast<uint8_t>(png[at + 20]);
      if (depth != 8 || (color != 2 && color != 6) || interlace != 0) return std::nullopt;
      channels = color == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      compressed += png.substr(at + 8, length);
    }
    at += 12 + length;
  }
  if (channels == 0 || image.width == 0 || image.height == 0) return std::nullopt;
  const size_t stride = static_cast<size_t>(image.width) * static_cast<size_t>(channels);
  std::vector<uint8_t> raw((stride + 1) * image.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(compressed.data()),
                 compressed.size()) != Z_OK ||
      raw_size != raw.size()) {
    return std::nullopt;
  }
  std::vector<uint8_t> previous(stride, 0);
  std::vector<uint8_t> row(stride);
  for (uint32_t y = 0; y < image.height; ++y) {
    const uint8_t* line = raw.data() + y * (stride + 1);
    const uint8_t filter = line[0];
    for (size_t x = 0; x < stride; ++x) {
      const int a = x >= static_cast<size_t>(channels) ? row[x - static_cast<size_t>(channels)] : 0;
      const int b = previous[x];
      const int c =
          x >= static_cast<size_t>(channels) ? previous[x - static_cast<size_t>(channels)] : 0;
      int predicted = 0;
      switch (filter) {
        case 0:
          predicted = 0;
          break;
        case 1:
          predicted = a;
          break;
        case 2:
          predicted = b;
          break;
        case 3:
          predicted = (a + b) / 2;
          break;
        case 4:
          predicted = Paeth(a, b, c);
          break;
        default:
          return std::nullopt;
      }
      row[x] = static_cast<uint8_t>(line[1 + x] + predicted);
    }
    for (uint32_t x = 0; x < image.width; ++x) {
      const uint8_t* p = row.data() + static_cast<size_t>(x) * static_cast<size_t>(channels);
      image.pixels.push_back((static_cast<uint32_t>(p[0]) << 16) |
                             (static_cast<uint32_t>(p[1]) << 8) | p[2]);
    }
    previous = row;
  }
  return image;
}

class HtmlInBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (!chromium_)
      GTEST_SKIP() << "no Chromium found (chromium, chromium-browser, google-chrome on PATH, or "
                      "AMPPROF_CHROMIUM): .ci/setup installs Debian's chromium";
  }

  // Writes the page, loads it, and checks what every page must satisfy; returns the DOM.
  std::string LoadPage(const std::vector<analyzers::Report>& reports) {
    const std::string page = dir_.File("report.html");
    std::ofstream(page, std::ios::binary) << testing::RenderPage(reports);
    const BrowserRun run = RunChromium(*chromium_, page, dir_.path());
    EXPECT_EQ(run.status, 0) << run.log;
    EXPECT_EQ(ConsoleMessages(run.log), std::vector<std::string>{})
        << "the page wrote to the console";
    EXPECT_NE(run.dom.find("data-ready=\"true\""), std::string::npos)
        << "the script did not run to its end";
    return run.dom;
  }

  ampprof::testing::TempDir dir_;
  std::optional<std::string> chromium_;
};

TEST_F(HtmlInBrowser, AComparisonLoadsCleanlyAndDrawsItsTimelines) {
  const std::string dom = LoadPage(testing::SyntheticComparison(dir_, {.kernels = 3000}));
  for (const char* element : {"id=\"r0-verdict\"", "id=\"r0-compare\"", "id=\"r0-timeline-fp32\"",
                              "id=\"r0-timeline-amp\"", "id=\"r0-findings\"",
                              "id=\"r0-top-kernels\"", "id=\"r0-quality\""}) {
    EXPECT_NE(dom.find(element), std::string::npos) << element;
  }
  // The script drew each timeline's axis: more tick labels than the two the page is written with.
  const size_t axis = dom.find("class=\"tl-axis\"");
  ASSERT_NE(axis, std::string::npos);
  const size_t axis_end = dom.find("</div>", axis);
  size_t ticks = 0;
  for (size_t at = dom.find("<span", axis); at < axis_end; at = dom.find("<span", at + 1)) ++ticks;
  EXPECT_GT(ticks, 3u);
}

TEST_F(HtmlInBrowser, TheScreenshotShowsAPage) {
  const std::string page = dir_.File("report.html");
  std::ofstream(page, std::ios::binary)
      << testing::RenderPage(testing::SyntheticComparison(dir_, {.kernels = 3000}));
  const std::string screenshot = dir_.File("report.png");
  const BrowserRun run = RunChromium(*chromium_, page, dir_.path(), screenshot, 1280, 1600);
  ASSERT_EQ(run.status, 0) << run.log;
  EXPECT_EQ(ConsoleMessages(run.log), std::vector<std::string>{});
  const std::optional<Image> image = DecodePng(ReadText(screenshot));
  ASSERT_TRUE(image) << screenshot << " is not an 8-bit RGB(A) PNG";
  EXPECT_EQ(image->width, 1280u);
  EXPECT_EQ(image->height, 1600u);
  const uint32_t background = image->pixels.front();
  size_t drawn = 0;
  std::set<uint32_t> colors;
  for (uint32_t pixel : image->pixels) {
    if (pixel != background) ++drawn;
    colors.insert(pixel);
  }
  // Text, cards, bars and timelines cover well over a tenth of the page, in the report's palette.
  EXPECT_GT(drawn, image->pixels.size() / 10);
  EXPECT_GT(colors.size(), 50u);
}

TEST_F(HtmlInBrowser, ASharedFixtureLoadsCleanly) {
  const std::string path = testing::SharedFixture(testing::kLinearFixture);
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent (a fresh clone)";
  const auto reports = pipeline::AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const std::string dom = LoadPage(*reports);
  EXPECT_NE(dom.find("id=\"r0-finding-gpu.launch_bound\""), std::string::npos);
  EXPECT_NE(dom.find("class=\"tl-svg\""), std::string::npos);
}

}  // namespace
}  // namespace ampprof::reports
