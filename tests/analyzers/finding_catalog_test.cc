#include "analyzers/finding_catalog.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ampprof::analyzers {
namespace {

// The ids of ARCHITECTURE.md's "Findings" table, in its order. Ids are stable forever: this list
// only ever grows at the end.
constexpr std::string_view kDocumentedIds[] = {
    "gpu.launch_bound",       "gpu.sync_stall",          "layout.nchw_nhwc",
    "tensor_cores.fp32_math", "tensor_cores.misaligned", "tensor_cores.unavailable",
    "conv.grouped_fallback",  "amp.scaler_overhead",     "amp.cast_overhead",
    "amp.slower_than_fp32",   "bench.warmup_in_window",  "amp.double_optimizer_step",
};

struct NamedField {
  std::string_view name;
  std::string_view text;
};

std::vector<NamedField> TextFields(const FindingInfo& info) {
  return {
      {"id", info.id},
      {"title", info.title},
      {"meaning", info.meaning},
      {"detection", info.detection},
      {"evidence", info.evidence},
      {"fix", info.fix},
      {"seen_in", info.seen_in},
  };
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (true) {
    const size_t newline = text.find('\n', at);
    if (newline == std::string_view::npos) {
      lines.push_back(text.substr(at));
      return lines;
    }
    lines.push_back(text.substr(at, newline - at));
    at = newline + 1;
  }
}

TEST(FindingCatalogTest, HasTheDocumentedIdsInOrder) {
  const auto catalog = FindingCatalog();
  ASSERT_EQ(catalog.size(), std::size(kDocumentedIds));
  for (size_t i = 0; i < catalog.size(); ++i) {
    EXPECT_EQ(catalog[i].id, kDocumentedIds[i]) << "at index " << i;
  }
}

TEST(FindingCatalogTest, IdsAreUnique) {
  std::set<std::string_view> seen;
  for (const FindingInfo& info : FindingCatalog()) {
    EXPECT_TRUE(seen.insert(info.id).second) << "duplicate id " << info.id;
  }
}

TEST(FindingCatalogTest, IdsAreDottedLowerSnakeCase) {
  const std::regex pattern("^[a-z_]+\\.[a-z0-9_]+$");
  for (const FindingInfo& info : FindingCatalog()) {
    EXPECT_TRUE(std::regex_match(std::string(info.id), pattern)) << info.id;
  }
}

TEST(FindingCatalogTest, EveryFieldIsFilled) {
  for (const FindingInfo& info : FindingCatalog()) {
    for (const NamedField& field : TextFields(info)) {
      EXPECT_FALSE(field.text.empty()) << info.id << "." << field.name;
    }
  }
}

TEST(FindingCatalogTest, TextIsPlainAsciiWithoutStrayWhitespace) {
  for (const FindingInfo& info : FindingCatalog()) {
    for (const NamedField& field : TextFields(info)) {
      const std::string_view text = field.text;
      if (text.empty()) continue;  // reported by EveryFieldIsFilled
      for (const char c : text) {
        const bool printable = c >= 0x20 && c < 0x7f;
        EXPECT_TRUE(printable || c == '\n')
            << info.id << "." << field.name << " has byte " << static_cast<int>(c);
      }
      EXPECT_NE(text.front(), ' ') << info.id << "." << field.name;
      EXPECT_NE(text.back(), ' ') << info.id << "." << field.name;
      EXPECT_NE(text.back(), '\n') << info.id << "." << field.name;
    }
  }
}

TEST(FindingCatalogTest, ProseFieldsAreSingleParagraphs) {
  // The terminal wraps these; only `fix` is preformatted.
  for (const FindingInfo& info : FindingCatalog()) {
    EXPECT_EQ(info.title.find('\n'), std::string_view::npos) << info.id;
    EXPECT_EQ(info.meaning.find('\n'), std::string_view::npos) << info.id;
    EXPECT_EQ(info.detection.find('\n'), std::string_view::npos) << info.id;
    EXPECT_EQ(info.evidence.find('\n'), std::string_view::npos) << info.id;
    EXPECT_EQ(info.seen_in.find('\n'), std::string_view::npos) << info.id;
  }
}

TEST(FindingCatalogTest, EveryFixHasCodeToPaste) {
  for (const FindingInfo& info : FindingCatalog()) {
    EXPECT_NE(info.fix.find("torch"), std::string_view::npos) << info.id;
    EXPECT_NE(info.fix.find('('), std::string_view::npos) << info.id;
    // Code sits on its own lines, indented, so it can be copied as is.
    bool has_indented_line = false;
    for (std::string_view line : Lines(info.fix)) {
      if (line.substr(0, 4) == "    ") has_indented_line = true;
    }
    EXPECT_TRUE(has_indented_line) << info.id;
  }
}

TEST(FindingCatalogTest, FixLinesFitATerminal) {
  // `ampprof explain` indents each line by two columns.
  for (const FindingInfo& info : FindingCatalog()) {
    for (std::string_view line : Lines(info.fix)) {
      EXPECT_LE(line.size() + 2, 100u) << info.id << ": " << line;
    }
  }
}

TEST(FindingCatalogTest, FindFindingReturnsTheCatalogEntry) {
  for (const FindingInfo& info : FindingCatalog()) {
    const FindingInfo* found = FindFinding(info.id);
    ASSERT_NE(found, nullptr) << info.id;
    EXPECT_EQ(found, &info);
    EXPECT_EQ(found->id, info.id);
  }
  for (std::string_view id : kDocumentedIds) {
    EXPECT_NE(FindFinding(id), nullptr) << id;
  }
}

TEST(FindingCatalogTest, FindFindingRejectsUnknownIds) {
  EXPECT_EQ(FindFinding("gpu.nope"), nullptr);
  EXPECT_EQ(FindFinding(""), nullptr);
  EXPECT_EQ(FindFinding("gpu"), nullptr);
  EXPECT_EQ(FindFinding("GPU.LAUNCH_BOUND"), nullptr);
  EXPECT_EQ(FindFinding("gpu.launch_bound "), nullptr);
}

TEST(FindingCatalogTest, FindFindingMatchesIdsThatAreNotLiterals) {
  const std::string id = std::string("amp.") + "double_optimizer_step";
  const FindingInfo* found = FindFinding(id);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->id, "amp.double_optimizer_step");
}

TEST(FindingCatalogTest, SeverityNames) {
  EXPECT_EQ(SeverityName(Severity::kInfo), "info");
  EXPECT_EQ(SeverityName(Severity::kWarning), "warning");
  EXPECT_EQ(SeverityName(Severity::kCritical), "critical");
}

TEST(FindingCatalogTest, DefaultSeveritiesFollowTheCatalogRule) {
  // Correctness bugs, the comparison verdict and step-dominating problems are critical; the cost
  // inherent to autocast (casts) is informational.
  const struct {
    std::string_view id;
    Severity severity;
  } cases[] = {
      {"amp.double_optimizer_step", Severity::kCritical},
      {"amp.slower_than_fp32", Severity::kCritical},
      {"gpu.launch_bound", Severity::kCritical},
      {"tensor_cores.unavailable", Severity::kCritical},
      {"amp.cast_overhead", Severity::kInfo},
      {"layout.nchw_nhwc", Severity::kWarning},
  };
  for (const auto& c : cases) {
    const FindingInfo* info = FindFinding(c.id);
    ASSERT_NE(info, nullptr) << c.id;
    EXPECT_EQ(SeverityName(info->default_severity), SeverityName(c.severity)) << c.id;
  }
}

}  // namespace
}  // namespace ampprof::analyzers
