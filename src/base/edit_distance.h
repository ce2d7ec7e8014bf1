#ifndef AMPPROF_SRC_BASE_EDIT_DISTANCE_H_
#define AMPPROF_SRC_BASE_EDIT_DISTANCE_H_

// The Levenshtein distance between two strings: the fewest single-character insertions, deletions
// and substitutions that turn one into the other. For "did you mean" hints on short names (finding
// ids, command names); it costs O(|a| * |b|) time and O(|b|) memory.
//
//   EditDistance("gpu.launchbound", "gpu.launch_bound") == 1

#include <cstddef>
#include <string_view>

namespace ampprof::base {

size_t EditDistance(std::string_view a, std::string_view b);

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_EDIT_DISTANCE_H_
