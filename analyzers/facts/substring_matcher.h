#ifndef AMPPROF_ANALYZERS_SUBSTRING_MATCHER_H_
#define AMPPROF_ANALYZERS_SUBSTRING_MATCHER_H_

// Which of a fixed set of patterns occur in a text, found in one pass over the text however many
// patterns there are (an Aho-Corasick automaton, built once). Matching ignores ASCII case. A pattern
// marked `anchored` counts only where it starts the text.
//
//   SubstringMatcher matcher({{"sgemm", false}, {"nccl", true}});
//   std::vector<uint64_t> found(matcher.WordsPerSet());
//   matcher.FindAll("volta_sgemm_128x64_nn", found);   // bit 0 set, bit 1 not
//
// The kernel classifier runs every rule's words through one matcher: a trace can hold a million
// distinct kernel names, and looking for each word separately cost more than everything else.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ampprof::analyzers {

class SubstringMatcher {
 public:
  struct Pattern {
    std::string text;  // not empty
    bool anchored = false;
  };

  SubstringMatcher() = default;
  explicit SubstringMatcher(const std::vector<Pattern>& patterns);

  size_t PatternCount() const { return pattern_lengths_.size(); }
  // The size of the bit set FindAll fills: one bit per pattern, in 64-bit words.
  size_t WordsPerSet() const { return (PatternCount() + 63) / 64; }

  // Sets the bit of every pattern found in `text` (bit i of word i / 64 for pattern i); clears the
  // others. `found` must hold WordsPerSet() words.
  void FindAll(std::string_view text, std::span<uint64_t> found) const;

  static bool Has(std::span<const uint64_t> found, uint32_t pattern) {
    return (found[pattern / 64] >> (pattern % 64) & 1) != 0;
  }

 private:
  uint32_t classes_ = 1;             // input symbol classes; class 0 is every byte no pattern uses
  uint8_t class_of_[256] = {};       // byte -> class, upper case folded onto lower case
  std::vector<uint32_t> next_;       // state * classes_ + class -> state (a complete DFA)
  std::vector<uint32_t> out_begin_;  // state -> its patterns, out_[out_begin_[s] .. out_begin_[s + 1])
  std::vector<uint32_t> out_;
  std::vector<uint32_t> pattern_lengths_;
  std::vector<bool> anchored_;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_SUBSTRING_MATCHER_H_
