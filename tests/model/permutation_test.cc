#include "src/model/permutation.h"

#include <numeric>

#include <gtest/gtest.h>

#include "src/model/tables.h"

namespace ampprof::model::internal {
namespace {

// A two-column table: key and payload. The payload records where each row started.
MarkTable MakeTable(const std::vector<TimeNs>& keys) {
  MarkTable table;
  for (size_t i = 0; i < keys.size(); ++i) {
    table.timestamp.storage().push_back(keys[i]);
    table.thread.storage().push_back(ThreadRow(static_cast<uint32_t>(i)));
    table.domain.storage().push_back(base::StringId{});
    table.name.storage().push_back(base::StringId{});
  }
  return table;
}

void SortAndCheck(std::vector<TimeNs> keys) {
  MarkTable table = MakeTable(keys);
  std::vector<uint32_t> extra(keys.size());
  for (uint32_t i = 0; i < extra.size(); ++i) extra[i] = i * 10;
  const auto times = table.timestamp.values();
  SortRows(table, keys.size(), [&](uint32_t a, uint32_t b) { return times[a] < times[b]; }, extra);

  std::vector<uint32_t> expected_origin(keys.size());
  std::iota(expected_origin.begin(), expected_origin.end(), 0u);
  std::stable_sort(expected_origin.begin(), expected_origin.end(),
                   [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  for (uint32_t i = 0; i < keys.size(); ++i) {
    const uint32_t origin = table.thread[MarkRow(i)].value;
    ASSERT_EQ(origin, expected_origin[i]) << "row " << i << " (stable order)";
    ASSERT_EQ(table.timestamp[MarkRow(i)], keys[origin]);
    ASSERT_EQ(extra[i], origin * 10) << "extra vectors move with their rows";
  }
}

TEST(SortRows, NearlySortedInputWithTies) {
  // Two interleaved streams delivered in batches, as CUPTI buffers arrive.
  std::vector<TimeNs> keys;
  for (int batch = 0; batch < 50; ++batch) {
    for (int i = 0; i < 100; ++i) keys.push_back(batch * 1000 + i * 10);
    for (int i = 0; i < 10; ++i) keys.push_back(batch * 1000 + i * 95);
  }
  SortAndCheck(keys);
}

TEST(SortRows, ReversedInputFallsBackToTheFullSort) {
  std::vector<TimeNs> keys;
  for (int i = 20'000; i > 0; --i) keys.push_back(i % 777);
  SortAndCheck(keys);
}

TEST(SortRows, FarDisplacedRowFallsBackToTheFullSort) {
  std::vector<TimeNs> keys;
  for (int i = 0; i < 10'000; ++i) keys.push_back(i + 5);
  keys.push_back(0);  // belongs 10,000 rows back
  SortAndCheck(keys);
}

TEST(SortRows, EmptyAndSingleRow) {
  SortAndCheck({});
  SortAndCheck({42});
}

}  // namespace
}  // namespace ampprof::model::internal
