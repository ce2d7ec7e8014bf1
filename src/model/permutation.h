#ifndef AMPPROF_SRC_MODEL_PERMUTATION_H_
#define AMPPROF_SRC_MODEL_PERMUTATION_H_

// Sorting struct-of-arrays tables. Internal to the model builder.
//
// Traces arrive nearly sorted: CUPTI returns each buffer in time order, and buffers of different streams
// interleave. SortRows() costs O(n) for rows already in order, O(n + m log m) when m rows are out of
// place, and O(n log n) at worst. Extra memory: the row order (4 bytes a row, plus the outliers and the
// merge buffer) and one column of scratch while the order is applied column by column.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ampprof::model::internal {

// column[i] = old column[order[i]].
template <typename T>
void ApplyPermutation(std::vector<T>& column, const std::vector<uint32_t>& order) {
  if (order.empty()) return;
  std::vector<T> sorted;
  sorted.reserve(column.size());
  for (uint32_t from : order) sorted.push_back(column[from]);
  column.swap(sorted);
}

// Sorts the rows of `table` (which has a static ForEachColumn) and of the parallel `extra` vectors by
// `less(row_a, row_b)`, stably.
template <typename Table, typename Less, typename... Extra>
void SortRows(Table& table, size_t rows, Less less, std::vector<Extra>&... extra) {
  // Split the rows into those that continue the ascending run so far and the outliers that do not.
  // Nearly sorted input has few outliers (a late buffer of one stream, a parent range recorded after
  // its children), so only they pay for a comparison sort.
  std::vector<uint32_t> order;
  order.reserve(rows);
  std::vector<uint32_t> outliers;
  for (uint32_t row = 0; row < rows; ++row) {
    if (order.empty() || !less(row, order.back())) {
      order.push_back(row);
    } else {
      outliers.push_back(row);
    }
  }
  if (outliers.empty()) return;  // already in order: nothing moves
  // Ties broken by row index make the order total, so the result is the stable sort of the input.
  auto stable_less = [&](uint32_t a, uint32_t b) {
    if (less(a, b)) return true;
    if (less(b, a)) return false;
    return a < b;
  };
  std::sort(outliers.begin(), outliers.end(), stable_less);
  const auto kept = static_cast<std::ptrdiff_t>(order.size());
  order.insert(order.end(), outliers.begin(), outliers.end());
  std::vector<uint32_t>().swap(outliers);
  std::inplace_merge(order.begin(), order.begin() + kept, order.end(), stable_less);
  Table::ForEachColumn(table, [&](auto& column) { ApplyPermutation(column.storage(), order); });
  (ApplyPermutation(extra, order), ...);
}

}  // namespace ampprof::model::internal

#endif  // AMPPROF_SRC_MODEL_PERMUTATION_H_
