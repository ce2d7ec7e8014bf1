#include "src/base/edit_distance.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace ampprof::base {

size_t EditDistance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table: row[j] is the distance between the prefix of `a` seen
  // so far and the first j characters of `b`.
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];  // distance(a[0, i-1), b[0, j-1))
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace ampprof::base
