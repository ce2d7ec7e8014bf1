#include "analyzers/facts/substring_matcher.h"

#include <algorithm>
#include <deque>

namespace ampprof::analyzers {
namespace {

uint8_t Lower(uint8_t byte) { return byte >= 'A' && byte <= 'Z' ? static_cast<uint8_t>(byte - 'A' + 'a') : byte; }

}  // namespace

SubstringMatcher::SubstringMatcher(const std::vector<Pattern>& patterns) {
  // Symbol classes: one per distinct (lower-cased) byte the patterns use, so that the transition table
  // is states x ~60 rather than states x 256.
  for (const Pattern& pattern : patterns) {
    for (char c : pattern.text) {
      const uint8_t byte = Lower(static_cast<uint8_t>(c));
      if (class_of_[byte] == 0) class_of_[byte] = static_cast<uint8_t>(classes_++);
    }
  }
  for (int byte = 'A'; byte <= 'Z'; ++byte) class_of_[byte] = class_of_[Lower(static_cast<uint8_t>(byte))];

  // The trie. State 0 is the root; kNone marks a missing edge until the failure links fill it.
  constexpr uint32_t kNone = UINT32_MAX;
  next_.assign(classes_, kNone);
  std::vector<std::vector<uint32_t>> outputs(1);
  for (uint32_t index = 0; index < patterns.size(); ++index) {
    uint32_t state = 0;
    for (char c : patterns[index].text) {
      const uint32_t symbol = class_of_[static_cast<uint8_t>(c)];
      if (next_[state * classes_ + symbol] == kNone) {
        next_[state * classes_ + symbol] = static_cast<uint32_t>(outputs.size());
        outputs.emplace_back();
        next_.resize(next_.size() + classes_, kNone);
      }
      state = next_[state * classes_ + symbol];
    }
    outputs[state].push_back(index);
    pattern_lengths_.push_back(static_cast<uint32_t>(patterns[index].text.size()));
    anchored_.push_back(patterns[index].anchored);
  }

  // Failure links in breadth-first order, turning the trie into a complete automaton: a missing edge
  // goes where the failure state's edge goes, and each state reports its failure state's patterns too.
  std::vector<uint32_t> fail(outputs.size(), 0);
  std::deque<uint32_t> queue;
  for (uint32_t symbol = 0; symbol < classes_; ++symbol) {
    uint32_t& child = next_[symbol];
    if (child == kNone) {
      child = 0;
    } else {
      queue.push_back(child);
    }
  }
  while (!queue.empty()) {
    const uint32_t state = queue.front();
    queue.pop_front();
    const std::vector<uint32_t>& inherited = outputs[fail[state]];
    outputs[state].insert(outputs[state].end(), inherited.begin(), inherited.end());
    for (uint32_t symbol = 0; symbol < classes_; ++symbol) {
      uint32_t& child = next_[state * classes_ + symbol];
      const uint32_t via_fail = next_[fail[state] * classes_ + symbol];
      if (child == kNone) {
        child = via_fail;
      } else {
        fail[child] = via_fail;
        queue.push_back(child);
      }
    }
  }

  out_begin_.reserve(outputs.size() + 1);
  for (const std::vector<uint32_t>& state_outputs : outputs) {
    out_begin_.push_back(static_cast<uint32_t>(out_.size()));
    out_.insert(out_.end(), state_outputs.begin(), state_outputs.end());
  }
  out_begin_.push_back(static_cast<uint32_t>(out_.size()));
}

void SubstringMatcher::FindAll(std::string_view text, std::span<uint64_t> found) const {
  std::fill(found.begin(), found.end(), 0);
  if (pattern_lengths_.empty()) return;
  uint32_t state = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    state = next_[state * classes_ + class_of_[static_cast<uint8_t>(text[i])]];
    for (uint32_t k = out_begin_[state]; k < out_begin_[state + 1]; ++k) {
      const uint32_t pattern = out_[k];
      if (anchored_[pattern] && i + 1 != pattern_lengths_[pattern]) continue;
      found[pattern / 64] |= uint64_t{1} << (pattern % 64);
    }
  }
}

}  // namespace ampprof::analyzers
