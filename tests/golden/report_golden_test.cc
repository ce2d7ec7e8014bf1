// Golden reports: real traces from ../shared/fixtures through the whole pipeline and each view (text,
// JSON, Markdown), compared line by line with tests/golden/<case>.<ext>. The views render one Report,
// so a change in what they show shows up here as a reviewable diff of the expected files.
//
// In an expected file, "{{*}}" matches any text within its line: for what may legitimately vary, so that a
// golden pins the layout and the numbers that must not move. To rewrite the files after an intended
// change, run the test with AMPPROF_UPDATE_GOLDEN=1 and review the diff (it writes exact output, so
// put the wildcards back where they were).

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/pipeline/analysis.h"

namespace ampprof {
namespace {

struct GoldenCase {
  const char* name;     // tests/golden/<name>.<ext>
  const char* fixture;  // relative to ../shared/fixtures
};

constexpr GoldenCase kCases[] = {
    // A launch-bound FP32 MLP: many short kernels between host gaps.
    {"param_linear", "facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz"},
    // TF32 convolutions with cuDNN layout conversions on an A100.
    {"hta_alexnet",
     "facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/"
     "benchmark_result_2869224_1695835535_trace.json.gz"},
    // Not machine learning at all (Nsight Systems export): no AMP finding must appear.
    {"pipit_saxpy", "hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"},
};

// Test names and failure messages say which case, not the struct's bytes.
void PrintTo(const GoldenCase& golden, std::ostream* out) { *out << golden.name; }

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// `line` matches `pattern` where each "{{*}}" of the pattern stands for any text.
bool LineMatches(std::string_view line, std::string_view pattern) {
  constexpr std::string_view kAny = "{{*}}";
  const size_t any = pattern.find(kAny);
  if (any == std::string_view::npos) return line == pattern;
  if (line.substr(0, any) != pattern.substr(0, any)) return false;
  const std::string_view rest = pattern.substr(any + kAny.size());
  for (size_t from = any; from <= line.size(); ++from) {
    if (LineMatches(line.substr(from), rest)) return true;
  }
  return false;
}

void ExpectMatchesGolden(const std::string& actual, const std::filesystem::path& golden) {
  if (const char* update = std::getenv("AMPPROF_UPDATE_GOLDEN"); update != nullptr && *update == '1') {
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(golden)) << golden << " is missing (AMPPROF_UPDATE_GOLDEN=1 writes it)";
  const std::vector<std::string> expected = Lines(ReadFile(golden));
  const std::vector<std::string> got = Lines(actual);
  for (size_t i = 0; i < std::max(expected.size(), got.size()); ++i) {
    const std::string want = i < expected.size() ? expected[i] : "<end of file>";
    const std::string have = i < got.size() ? got[i] : "<end of output>";
    if (!LineMatches(have, want)) {
      ADD_FAILURE() << golden.filename() << " line " << i + 1 << "\n  expected: " << want << "\n  actual:   " << have
                    << "\n(whole output:)\n" << actual;
      return;  // the first difference says it; the rest usually follows from it
    }
  }
}

class GoldenReport : public ::testing::TestWithParam<GoldenCase> {
 protected:
  void SetUp() override {
    const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
    if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent (a fresh clone)";
    auto reports = pipeline::AnalyzeTraces({(root / GetParam().fixture).string()});
    ASSERT_TRUE(reports.ok()) << reports.status().message();
    reports_ = std::move(*reports);
    // The path as a reader of the fixtures README knows it, wherever the checkout is.
    for (analyzers::Report& report : reports_) {
      for (analyzers::ReportInput& input : report.inputs) input.path = GetParam().fixture;
    }
  }

  std::filesystem::path Golden(const char* extension) const {
    return std::filesystem::path(AMPPROF_SOURCE_DIR) / "tests/golden" / (std::string(GetParam().name) + extension);
  }

  std::vector<analyzers::Report> reports_;
};

TEST_P(GoldenReport, Text) {
  std::ostringstream out;
  reports::RenderText(reports_, out, {.verbose = false});
  ExpectMatchesGolden(out.str(), Golden(".txt"));
}

TEST_P(GoldenReport, VerboseTextFitsOneHundredColumns) {
  std::ostringstream out;
  reports::RenderText(reports_, out, {.verbose = true});
  ExpectMatchesGolden(out.str(), Golden(".verbose.txt"));
  for (const std::string& line : Lines(out.str())) {
    EXPECT_LE(line.size(), 100u) << line;
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space: '" << line << "'";
  }
}

TEST_P(GoldenReport, Json) {
  std::ostringstream out;
  reports::RenderJson(reports_, out, {});
  ExpectMatchesGolden(out.str(), Golden(".json"));
}

TEST_P(GoldenReport, Markdown) {
  std::ostringstream out;
  reports::RenderMarkdown(reports_, out);
  ExpectMatchesGolden(out.str(), Golden(".md"));
}

INSTANTIATE_TEST_SUITE_P(SharedFixtures, GoldenReport, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<GoldenCase>& golden) { return std::string(golden.param.name); });

TEST(LineMatches, WildcardsMatchAnyTextWithinTheLine) {
  EXPECT_TRUE(LineMatches("busy 64.6% of 82.9 ms", "busy {{*}} of 82.9 ms"));
  EXPECT_TRUE(LineMatches("abc", "{{*}}"));
  EXPECT_TRUE(LineMatches("a1b2c", "a{{*}}b{{*}}c"));
  EXPECT_FALSE(LineMatches("busy 64.6% of 82.9 ms", "busy {{*}} of 83.0 ms"));
  EXPECT_FALSE(LineMatches("abc", "abd"));
}

}  // namespace
}  // namespace ampprof
