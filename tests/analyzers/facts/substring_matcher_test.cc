// The classifier's multi-word matcher against a plain search for each word.

#include "analyzers/facts/substring_matcher.h"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace ampprof::analyzers {
namespace {

std::vector<bool> Found(const SubstringMatcher& matcher, std::string_view text) {
  std::vector<uint64_t> bits(matcher.WordsPerSet());
  matcher.FindAll(text, bits);
  std::vector<bool> found;
  for (uint32_t i = 0; i < matcher.PatternCount(); ++i) found.push_back(SubstringMatcher::Has(bits, i));
  return found;
}

TEST(SubstringMatcher, FindsOverlappingAndNestedWordsIgnoringCase) {
  const SubstringMatcher matcher({{"gemm", false}, {"sgemm", false}, {"em", false}, {"nccl", true}, {"xyz", false}});
  EXPECT_EQ(Found(matcher, "volta_SGEMM_128x64_nn"), (std::vector<bool>{true, true, true, false, false}));
  EXPECT_EQ(Found(matcher, "ncclKernel_em"), (std::vector<bool>{false, false, true, true, false}));
  // An anchored word counts only at the start.
  EXPECT_EQ(Found(matcher, "my_nccl"), (std::vector<bool>{false, false, false, false, false}));
  EXPECT_EQ(Found(matcher, ""), (std::vector<bool>{false, false, false, false, false}));
}

TEST(SubstringMatcher, AgreesWithASearchForEachWord) {
  std::mt19937 random(7);
  const std::string alphabet = "abAB_<:";
  std::vector<SubstringMatcher::Pattern> patterns;
  for (int i = 0; i < 150; ++i) {  // more than 64, so the bit set spans words
    std::string word;
    for (int n = 1 + static_cast<int>(random() % 4); n > 0; --n) word += alphabet[random() % alphabet.size()];
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    patterns.push_back({word, i % 7 == 0});
  }
  const SubstringMatcher matcher(patterns);
  for (int trial = 0; trial < 200; ++trial) {
    std::string text;
    for (int n = static_cast<int>(random() % 40); n > 0; --n) text += alphabet[random() % alphabet.size()];
    std::string lower = text;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::vector<bool> found = Found(matcher, text);
    for (size_t i = 0; i < patterns.size(); ++i) {
      const bool expected =
          patterns[i].anchored ? lower.starts_with(patterns[i].text) : lower.find(patterns[i].text) != std::string::npos;
      ASSERT_EQ(found[i], expected) << "text '" << text << "' word '" << patterns[i].text << "'";
    }
  }
}

TEST(SubstringMatcher, NoPatternsFindNothing) {
  const SubstringMatcher matcher(std::vector<SubstringMatcher::Pattern>{});
  EXPECT_EQ(matcher.WordsPerSet(), 0u);
  std::vector<uint64_t> bits;
  matcher.FindAll("anything", bits);
}

}  // namespace
}  // namespace ampprof::analyzers
