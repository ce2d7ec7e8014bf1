#include "analyzers/findings/finding_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
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
    "gpu.host_bound",         "comm.exposed",            "amp.opportunity",
};

// The sections of every page, in this order (docs/findings/README.md, "Writing a page").
constexpr std::string_view kSections[] = {
    "What it means", "How ampprof detects it", "Evidence in the report",
    "What fixing it saves", "How to fix it", "Where it was seen",
};
constexpr size_t kDetectionSection = 1;
constexpr size_t kSavingSection = 3;
constexpr size_t kFixSection = 4;

// Code in a page fits an 80-column terminal where `ampprof explain` indents it by six columns.
constexpr size_t kMaxCodeLine = 74;

const std::filesystem::path kDocsDir =
    std::filesystem::path(AMPPROF_SOURCE_DIR) / "docs" / "findings";

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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

// A page cut at its "## " headings: the heading texts, and the lines under each.
struct Section {
  std::string_view heading;
  std::vector<std::string_view> lines;
};

std::vector<Section> Sections(std::string_view markdown) {
  std::vector<Section> sections;
  bool in_code = false;
  for (std::string_view line : Lines(markdown)) {
    if (line.starts_with("```")) in_code = !in_code;
    if (!in_code && line.starts_with("## ")) {
      sections.push_back({line.substr(3), {}});
    } else if (!sections.empty()) {
      sections.back().lines.push_back(line);
    }
  }
  return sections;
}

bool HasText(const Section& section) {
  return std::any_of(section.lines.begin(), section.lines.end(), [](std::string_view line) {
    return line.find_first_not_of(' ') != std::string_view::npos;
  });
}

std::string Joined(const Section& section) {
  std::string text;
  for (std::string_view line : section.lines) {
    text += line;
    text += '\n';
  }
  return text;
}

// ---- The catalog: what code needs ----

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

TEST(FindingCatalogTest, TitlesArePlainOneLiners) {
  for (const FindingInfo& info : FindingCatalog()) {
    EXPECT_FALSE(info.title.empty()) << info.id;
    EXPECT_LE(info.title.size(), 90u) << info.id;
    for (const char c : info.title) {
      EXPECT_TRUE(c >= 0x20 && c < 0x7f) << info.id << " has byte " << static_cast<int>(c);
    }
    EXPECT_NE(info.title.front(), ' ') << info.id;
    EXPECT_NE(info.title.back(), ' ') << info.id;
    EXPECT_NE(info.title.back(), '.') << info.id;
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

// ---- "Did you mean" ----

TEST(ClosestFindingIdTest, SuggestsTheIdATypoMeant) {
  EXPECT_EQ(ClosestFindingId("gpu.launchbound"), "gpu.launch_bound");
  EXPECT_EQ(ClosestFindingId("gpu.lanch_bound"), "gpu.launch_bound");
  EXPECT_EQ(ClosestFindingId("amp.double_optimiser_step"), "amp.double_optimizer_step");
  EXPECT_EQ(ClosestFindingId("tensor_cores.fp32"), "tensor_cores.fp32_math");
  EXPECT_EQ(ClosestFindingId("layout.nhwc"), "layout.nchw_nhwc");
}

TEST(ClosestFindingIdTest, IgnoresCaseAndAMissingPrefix) {
  EXPECT_EQ(ClosestFindingId("GPU.LAUNCH_BOUND"), "gpu.launch_bound");
  EXPECT_EQ(ClosestFindingId("launch_bound"), "gpu.launch_bound");
  EXPECT_EQ(ClosestFindingId("scaler_overhead"), "amp.scaler_overhead");
  EXPECT_EQ(ClosestFindingId("tensor_cores.unavailble"), "tensor_cores.unavailable");
}

TEST(ClosestFindingIdTest, TakesAFragmentThatNamesOneId) {
  EXPECT_EQ(ClosestFindingId("sync"), "gpu.sync_stall");
  EXPECT_EQ(ClosestFindingId("warmup"), "bench.warmup_in_window");
  EXPECT_EQ(ClosestFindingId("grouped"), "conv.grouped_fallback");
}

TEST(ClosestFindingIdTest, SuggestsNothingForUnrelatedWords) {
  EXPECT_EQ(ClosestFindingId("gpu.nope"), "");
  EXPECT_EQ(ClosestFindingId("frobnicate"), "");
  EXPECT_EQ(ClosestFindingId(""), "");
  EXPECT_EQ(ClosestFindingId("tensor_cores"), "");  // three ids share it: no guess
  EXPECT_EQ(ClosestFindingId("amp"), "");
}

// ---- The pages: docs/findings/<id>.md, embedded ----

TEST(FindingDocsTest, EveryCatalogIdHasAPage) {
  for (const FindingInfo& info : FindingCatalog()) {
    EXPECT_FALSE(FindingDoc(info.id).empty())
        << "no docs/findings/" << info.id << ".md in the build";
  }
  EXPECT_TRUE(FindingDoc("gpu.nope").empty());
}

TEST(FindingDocsTest, EveryPageHasACatalogId) {
  std::set<std::string_view> ids;
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    EXPECT_NE(FindFinding(doc.id), nullptr)
        << "docs/findings/" << doc.id << ".md has no catalog entry";
    EXPECT_TRUE(ids.insert(doc.id).second) << doc.id << " embedded twice";
  }
  EXPECT_EQ(ids.size(), FindingCatalog().size());
}

TEST(FindingDocsTest, PagesAreEmbeddedInCatalogOrder) {
  // The catalog is taken from the pages, in the order analyzers/findings/CMakeLists.txt lists them.
  const auto docs = EmbeddedFindingDocs();
  const auto catalog = FindingCatalog();
  ASSERT_EQ(docs.size(), catalog.size());
  for (size_t i = 0; i < docs.size(); ++i) EXPECT_EQ(docs[i].id, catalog[i].id) << "at index " << i;
}

TEST(FindingDocsTest, EveryPageInTheFolderIsEmbeddedAsItIsOnDisk) {
  // analyzers/findings/CMakeLists.txt lists the pages; a page added to the folder but not to the list would
  // be on GitHub and missing from `ampprof explain`. An embedded text that differs from the file
  // means a stale build.
  ASSERT_TRUE(std::filesystem::is_directory(kDocsDir)) << kDocsDir;
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(kDocsDir)) {
    const std::string name = entry.path().filename().string();
    if (name == "README.md" || entry.path().extension() != ".md") continue;
    on_disk.insert(entry.path().stem().string());
  }
  std::set<std::string> embedded;
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    embedded.emplace(doc.id);
    EXPECT_EQ(doc.markdown, ReadFile(kDocsDir / (std::string(doc.id) + ".md"))) << doc.id;
  }
  EXPECT_EQ(on_disk, embedded);
}

TEST(FindingDocsTest, PagesArePlainAsciiWithoutStrayWhitespace) {
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    for (const char c : doc.markdown) {
      EXPECT_TRUE((c >= 0x20 && c < 0x7f) || c == '\n')
          << doc.id << " has byte " << static_cast<int>(c);
    }
    ASSERT_FALSE(doc.markdown.empty());
    EXPECT_TRUE(doc.markdown.ends_with("\n")) << doc.id;
    EXPECT_FALSE(doc.markdown.ends_with("\n\n")) << doc.id;
    for (std::string_view line : Lines(doc.markdown)) {
      EXPECT_FALSE(line.ends_with(" ")) << doc.id << ": '" << line << "'";
    }
  }
}

TEST(FindingDocsTest, PagesOpenWithTheCatalogTitleIdAndSeverity) {
  for (const FindingInfo& info : FindingCatalog()) {
    const std::vector<std::string_view> lines = Lines(FindingDoc(info.id));
    ASSERT_GE(lines.size(), 3u) << info.id;
    EXPECT_EQ(lines[0], "# " + std::string(info.title)) << info.id;
    EXPECT_EQ(lines[1], "") << info.id;
    EXPECT_EQ(lines[2], "Finding id `" + std::string(info.id) + "`, default severity **" +
                            std::string(SeverityName(info.default_severity)) + "**.")
        << info.id;
    bool in_code = false;  // "# " in a code block is a Python comment
    for (size_t i = 1; i < lines.size(); ++i) {
      if (lines[i].starts_with("```")) in_code = !in_code;
      EXPECT_TRUE(in_code || !lines[i].starts_with("# "))
          << info.id << ": a second title on line " << i + 1;
    }
  }
}

TEST(FindingDocsTest, PagesHaveTheRequiredSectionsInOrder) {
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    const std::vector<Section> sections = Sections(doc.markdown);
    ASSERT_EQ(sections.size(), std::size(kSections)) << doc.id;
    for (size_t i = 0; i < sections.size(); ++i) {
      EXPECT_EQ(sections[i].heading, kSections[i]) << doc.id;
      EXPECT_TRUE(HasText(sections[i])) << doc.id << ": '" << kSections[i] << "' is empty";
    }
  }
}

TEST(FindingDocsTest, EveryFixHasCodeToPaste) {
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    const std::vector<Section> sections = Sections(doc.markdown);
    ASSERT_EQ(sections.size(), std::size(kSections)) << doc.id;
    const std::string fix = Joined(sections[kFixSection]);
    EXPECT_NE(fix.find("```python\n"), std::string::npos) << doc.id;
    EXPECT_NE(fix.find("torch"), std::string::npos) << doc.id;
  }
}

TEST(FindingDocsTest, CodeBlocksAreClosedAndFitATerminal) {
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    bool in_code = false;
    for (std::string_view line : Lines(doc.markdown)) {
      if (line.starts_with("```")) {
        in_code = !in_code;
        continue;
      }
      if (in_code) {
        EXPECT_LE(line.size(), kMaxCodeLine) << doc.id << ": " << line;
      }
    }
    EXPECT_FALSE(in_code) << doc.id << ": a code block is not closed";
  }
}

TEST(FindingDocsTest, DetectionDescribesTheMethodNotThresholds) {
  // The detection is the method; the numbers are quoted once, under "What fixing it saves", where the
  // next test holds them to the code that applies them.
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    const std::vector<Section> sections = Sections(doc.markdown);
    ASSERT_EQ(sections.size(), std::size(kSections)) << doc.id;
    EXPECT_EQ(Joined(sections[kDetectionSection]).find('%'), std::string::npos) << doc.id;
  }
}

TEST(FindingDocsTest, QuotedConstantsHaveTheirValuesInTheCode) {
  // "What fixing it saves" names the thresholds as the code does: `kWarningShare` = 0.15, with the
  // files that declare them in backquotes. Each such constant must be declared with that value in one
  // of the files the section names, so that a tuned analyzer fails here until its page is updated.
  const std::regex constant("`(k[A-Za-z0-9]+)` = ([0-9][0-9.']*[0-9]|[0-9])");
  const std::regex source("`(analyzers/[a-z0-9_/]+\\.(cc|h))`");
  size_t quoted = 0;
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    const std::vector<Section> sections = Sections(doc.markdown);
    ASSERT_EQ(sections.size(), std::size(kSections)) << doc.id;
    const std::string saves = Joined(sections[kSavingSection]);
    std::vector<std::string> files;
    for (auto match = std::sregex_iterator(saves.begin(), saves.end(), source); match != std::sregex_iterator();
         ++match) {
      const std::string text = ReadFile(std::filesystem::path(AMPPROF_SOURCE_DIR) / (*match)[1].str());
      EXPECT_FALSE(text.empty()) << doc.id << " names " << (*match)[1] << ", which does not exist";
      files.push_back(text);
    }
    for (auto match = std::sregex_iterator(saves.begin(), saves.end(), constant); match != std::sregex_iterator();
         ++match) {
      ++quoted;
      const std::string declaration = (*match)[1].str() + " = " + (*match)[2].str() + ";";
      const bool declared = std::any_of(files.begin(), files.end(), [&](const std::string& text) {
        return text.find(declaration) != std::string::npos;
      });
      EXPECT_TRUE(declared) << doc.id << ": no file its saving section names declares " << declaration;
    }
  }
  EXPECT_GT(quoted, 0u) << "the pattern matched no constant: the test no longer reads the pages";
}

TEST(FindingDocsTest, LinksBetweenPagesResolve) {
  const std::regex link("\\]\\(([^)]+)\\)");
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    const std::string text(doc.markdown);
    for (auto match = std::sregex_iterator(text.begin(), text.end(), link);
         match != std::sregex_iterator(); ++match) {
      const std::string target = (*match)[1];
      if (target.find("://") != std::string::npos) continue;
      ASSERT_TRUE(target.ends_with(".md")) << doc.id << " links to " << target;
      if (target.starts_with("../")) {  // a page of docs/ itself
        EXPECT_TRUE(std::filesystem::is_regular_file(kDocsDir / target)) << doc.id << " links to " << target;
        continue;
      }
      EXPECT_FALSE(FindingDoc(target.substr(0, target.size() - 3)).empty())
          << doc.id << " links to " << target;
    }
  }
}

TEST(FindingDocsTest, TheIndexListsEveryIdWithItsSeverityAndTitle) {
  const std::string index = ReadFile(kDocsDir / "README.md");
  ASSERT_FALSE(index.empty()) << kDocsDir / "README.md";
  for (const FindingInfo& info : FindingCatalog()) {
    const std::string row = "| [`" + std::string(info.id) + "`](" + std::string(info.id) +
                            ".md) | " + std::string(SeverityName(info.default_severity)) + " | " +
                            std::string(info.title) + " |\n";
    EXPECT_NE(index.find(row), std::string::npos) << "docs/findings/README.md lacks the row\n"
                                                  << row;
  }
}

}  // namespace
}  // namespace ampprof::analyzers
