#ifndef AMPPROF_SRC_MODEL_PERMUTATION_H_
#define AMPPROF_SRC_MODEL_PERMUTATION_H_

// Sorting struct-of-arrays tables: compute the permutation that orders the rows, then apply it to each
// column in turn. Peak extra memory is the permutation (4 bytes a row) plus one column's worth of scratch.
// Internal to the model builder.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace ampprof::model::internal {

// The row order that sorts rows by `less(a, b)` (row indices), stable. Empty when the rows are already
// in order, which is the common case for traces (CUPTI delivers records nearly in time order) and lets
// callers skip the copy.
template <typename Less>
std::vector<uint32_t> SortingPermutation(size_t rows, Less less) {
  bool sorted = true;
  for (size_t i = 1; i < rows && sorted; ++i) {
    sorted = !less(static_cast<uint32_t>(i), static_cast<uint32_t>(i - 1));
  }
  if (sorted) return {};
  std::vector<uint32_t> order(rows);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), less);
  return order;
}

// column[i] = old column[order[i]].
template <typename T>
void ApplyPermutation(std::vector<T>& column, const std::vector<uint32_t>& order) {
  if (order.empty()) return;
  std::vector<T> sorted;
  sorted.reserve(column.size());
  for (uint32_t from : order) sorted.push_back(column[from]);
  column.swap(sorted);
}

// new_row_of[old] = new row, the inverse of `order`, for rewriting references into a sorted table.
inline std::vector<uint32_t> InversePermutation(const std::vector<uint32_t>& order) {
  std::vector<uint32_t> inverse(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) inverse[order[i]] = i;
  return inverse;
}

}  // namespace ampprof::model::internal

#endif  // AMPPROF_SRC_MODEL_PERMUTATION_H_
