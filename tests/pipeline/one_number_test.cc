// One fact, one number: the same trace rendered in every format (text, verbose text, JSON, Markdown,
// HTML) gives the same busy fraction, median step and span wherever each appears, and each finding the
// same saving. The JSON's numbers are the truth the others are checked against, formatted the one way
// reports/common formats them.

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "reports/common/statement_text.h"
#include "reports/html/html_reporter.h"
#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/base/format.h"
#include "src/base/time.h"
#include "src/pipeline/analysis.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

struct Rendered {
  std::string text;
  std::string verbose;
  std::string json;
  std::string markdown;
  std::string html;
};

Rendered RenderAll(const std::vector<analyzers::Report>& reports) {
  Rendered rendered;
  std::ostringstream text;
  reports::RenderText(reports, text, {});
  rendered.text = text.str();
  std::ostringstream verbose;
  reports::RenderText(reports, verbose, {.verbose = true});
  rendered.verbose = verbose.str();
  std::ostringstream json;
  reports::RenderJson(reports, json, {});
  rendered.json = json.str();
  std::ostringstream markdown;
  reports::RenderMarkdown(reports, markdown);
  rendered.markdown = markdown.str();
  std::ostringstream html;
  reports::RenderHtml(reports, html, {});
  rendered.html = html.str();
  return rendered;
}

// Every text the first group of `pattern` captures in `text`.
std::set<std::string> Captures(const std::string& text, const std::string& pattern) {
  std::set<std::string> found;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    found.insert((*it)[1].str());
  }
  return found;
}

// What the JSON says of the report's primary GPU and of its findings.
struct Truth {
  double busy_fraction = 0;
  base::DurationNs window_ns = 0;
  base::DurationNs median_step_ns = 0;  // 0 without steps
  base::DurationNs span_ns = 0;         // the trace's GPU span
  std::vector<std::string> savings;     // DescribeSaving of each finding, in order
  bool per_step = false;
};

Truth ReadTruth(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(simdjson::padded_string(json)).get(doc), simdjson::SUCCESS);
  const simdjson::dom::element report = doc["reports"].at(0).value();
  const simdjson::dom::element summary = report["summary"].value();
  Truth truth;
  const simdjson::dom::element account =
      summary["devices"].at(static_cast<size_t>(0))["account"].value();
  truth.busy_fraction = account["busy_fraction"].get_double().value();
  truth.window_ns = account["window"]["duration_ns"].get_int64().value();
  truth.per_step = summary["account_basis"].get_string().value() == "measured steps";
  if (truth.per_step) truth.median_step_ns = summary["steps"]["median_ns"].get_int64().value();
  truth.span_ns = summary["gpu_span"]["duration_ns"].get_int64().value();
  const simdjson::dom::array findings = report["findings"].get_array().value();  // a local: value() of a temporary dangles
  for (simdjson::dom::element finding : findings) {
    const simdjson::dom::element saving = finding["saving"].value();
    analyzers::Saving value;
    value.ns = saving["high_ns"].get_int64().value();
    value.low_ns = saving["low_ns"].get_int64().value();
    value.fraction = saving["high_fraction"].get_double().value();
    value.low_fraction = saving["low_fraction"].get_double().value();
    truth.savings.push_back(reports::DescribeSaving(value, truth.per_step));
  }
  return truth;
}

void ExpectOneNumberEverywhere(const std::vector<analyzers::Report>& reports) {
  ASSERT_EQ(reports.size(), 1u);
  const Rendered rendered = RenderAll(reports);
  const Truth truth = ReadTruth(rendered.json);
  const std::string busy = base::FormatPercent(truth.busy_fraction);
  const std::string window = base::FormatDuration(truth.window_ns);

  // The busy fraction: the header, the device details, the findings' evidence, the Markdown context, the
  // HTML card. Every "busy N%" anywhere is the one number.
  for (const auto& [name, text] : {std::pair{"text", &rendered.text}, std::pair{"verbose", &rendered.verbose},
                                   std::pair{"markdown", &rendered.markdown}}) {
    const std::set<std::string> found = Captures(*text, R"(busy:? +([0-9.]+%))");
    EXPECT_EQ(found, std::set<std::string>{busy}) << name;
  }
  EXPECT_EQ(Captures(rendered.html, R"(GPU 0 busy</div><div class="value">([0-9.]+%))"), std::set<std::string>{busy});
  EXPECT_EQ(Captures(rendered.text, R"(busy [0-9.]+% of the analysed ([0-9.]+ [mun]?s))"), std::set<std::string>{window});
  EXPECT_EQ(Captures(rendered.html, R"(of the analysed ([0-9.]+ [mun]?s))"), std::set<std::string>{window});

  // The median step: the header, the findings' "examined" lines, the step table, Markdown and HTML.
  if (truth.per_step) {
    const std::string median = base::FormatDuration(truth.median_step_ns);
    for (const auto& [name, text] : {std::pair{"text", &rendered.text}, std::pair{"verbose", &rendered.verbose},
                                     std::pair{"markdown", &rendered.markdown}}) {
      EXPECT_EQ(Captures(*text, R"(median ([0-9.]+ [mun]?s))"), std::set<std::string>{median}) << name;
    }
    EXPECT_EQ(Captures(rendered.html, R"(median step</div><div class="value">([0-9.]+ [mun]?s))"),
              std::set<std::string>{median});
    EXPECT_EQ(Captures(rendered.html, R"(median ([0-9.]+ [mun]?s))"), std::set<std::string>{median});
  }

  // The trace's span, where the views print it.
  EXPECT_EQ(Captures(rendered.text, R"(span +([0-9.]+ [mun]?s) of GPU activity)"),
            std::set<std::string>{base::FormatDuration(truth.span_ns)});

  // Each finding's saving, in the order of the findings, in every view.
  ASSERT_FALSE(truth.savings.empty()) << "a trace with no finding tests nothing here";
  size_t text_at = 0;
  size_t markdown_at = 0;
  size_t html_at = 0;
  for (const std::string& saving : truth.savings) {
    if (saving.empty()) continue;  // a finding that is not about step time
    text_at = rendered.text.find("saves: " + saving, text_at);
    EXPECT_NE(text_at, std::string::npos) << "text: " << saving;
    markdown_at = rendered.markdown.find("| " + saving + " |", markdown_at);
    EXPECT_NE(markdown_at, std::string::npos) << "markdown: " << saving;
    html_at = rendered.html.find("Saves " + saving, html_at);
    EXPECT_NE(html_at, std::string::npos) << "html: " << saving;
  }
}

TEST(OneNumber, ASyntheticAmpTrainingLoop) {
  testing::TempDir dir;
  synthetic::SyntheticTraceOptions options;
  options.kernels = 3000;
  auto writer = records::AmptWriter::Create(dir.File("amp.ampt"), {});
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(synthetic::GenerateSyntheticTrace(options, **writer).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  const auto reports = AnalyzeTraces({dir.File("amp.ampt")});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ExpectOneNumberEverywhere(*reports);
}

class OneNumberOnFixtures : public ::testing::TestWithParam<const char*> {};

TEST_P(OneNumberOnFixtures, EveryFormatAgrees) {
  const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent (a fresh clone)";
  const auto reports = AnalyzeTraces({(root / GetParam()).string()});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ExpectOneNumberEverywhere(*reports);
}

INSTANTIATE_TEST_SUITE_P(
    Traces, OneNumberOnFixtures,
    ::testing::Values(
        // Steps and a host-bound input pipeline.
        "pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
        // No loop of three steps: the whole run, with exposed communication.
        "facebookresearch__HolisticTraceAnalysis/tests/data/timeline_analysis/sampled_rank-0.json.gz",
        // Steps from a repeating kernel sequence, launch-bound, and a saving range.
        "facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz"),
    [](const ::testing::TestParamInfo<const char*>& fixture) { return std::to_string(fixture.index); });

}  // namespace
}  // namespace ampprof::pipeline
