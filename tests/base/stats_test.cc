#include "src/base/stats.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace ampprof::base {
namespace {

bool IsLowerSnakeCase(std::string_view name) {
  if (name.empty() || name.front() == '_' || name.back() == '_') return false;
  if (!(name.front() >= 'a' && name.front() <= 'z')) return false;
  char previous = '\0';
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
    if (c == '_' && previous == '_') return false;
    previous = c;
  }
  return true;
}

std::vector<Stat> AllStats() {
  std::vector<Stat> stats;
  for (size_t i = 0; i < kStatCount; ++i) stats.push_back(static_cast<Stat>(i));
  return stats;
}

TEST(StatsCatalogTest, NamesAreUniqueNonEmptyLowerSnakeCase) {
  ASSERT_GT(kStatCount, 0u);
  std::set<std::string_view> names;
  for (const Stat stat : AllStats()) {
    const StatInfo& info = GetStatInfo(stat);
    EXPECT_FALSE(info.name.empty());
    EXPECT_TRUE(IsLowerSnakeCase(info.name)) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate name " << info.name;
  }
  EXPECT_EQ(names.size(), kStatCount);
}

TEST(StatsCatalogTest, FindStatRoundTrips) {
  for (const Stat stat : AllStats()) {
    const StatInfo& info = GetStatInfo(stat);
    const std::optional<Stat> found = FindStat(info.name);
    ASSERT_TRUE(found.has_value()) << info.name;
    EXPECT_EQ(*found, stat) << info.name;
    EXPECT_EQ(&GetStatInfo(*found), &info);
  }
}

TEST(StatsCatalogTest, FindStatUnknown) {
  EXPECT_EQ(FindStat("nope"), std::nullopt);
  EXPECT_EQ(FindStat(""), std::nullopt);
  EXPECT_EQ(FindStat("AMPT_TRUNCATED_TAIL"), std::nullopt);
  EXPECT_EQ(FindStat("ampt_truncated_tail "), std::nullopt);
}

TEST(StatsCatalogTest, KnownEntries) {
  const StatInfo& truncated = GetStatInfo(Stat::kAmptTruncatedTail);
  EXPECT_EQ(truncated.name, "ampt_truncated_tail");
  EXPECT_EQ(truncated.severity, StatSeverity::kDataLoss);
  const StatInfo& unknown_chunks = GetStatInfo(Stat::kAmptUnknownChunks);
  EXPECT_EQ(unknown_chunks.name, "ampt_unknown_chunks");
  EXPECT_EQ(unknown_chunks.severity, StatSeverity::kInfo);
  EXPECT_EQ(GetStatInfo(Stat::kRecordNegativeDuration).severity, StatSeverity::kError);
  EXPECT_EQ(FindStat("ampt_truncated_tail"), Stat::kAmptTruncatedTail);
}

TEST(StatsCatalogTest, SeverityNames) {
  EXPECT_EQ(SeverityName(StatSeverity::kInfo), "info");
  EXPECT_EQ(SeverityName(StatSeverity::kDataLoss), "data-loss");
  EXPECT_EQ(SeverityName(StatSeverity::kError), "error");
}

TEST(StatsTest, StartsAtZero) {
  const Stats stats;
  for (const Stat stat : AllStats()) EXPECT_EQ(stats.Get(stat), 0);
  EXPECT_TRUE(stats.NonZero().empty());
  EXPECT_FALSE(stats.HasDataLoss());
}

TEST(StatsTest, IncrementSetGet) {
  Stats stats;
  stats.Increment(Stat::kKernelUnmatchedCorrelation);
  EXPECT_EQ(stats.Get(Stat::kKernelUnmatchedCorrelation), 1);
  stats.Increment(Stat::kKernelUnmatchedCorrelation, 10);
  EXPECT_EQ(stats.Get(Stat::kKernelUnmatchedCorrelation), 11);
  stats.Set(Stat::kKernelUnmatchedCorrelation, 3);
  EXPECT_EQ(stats.Get(Stat::kKernelUnmatchedCorrelation), 3);
  stats.Set(Stat::kTableRowLimit, 1'000'000'000'000);
  EXPECT_EQ(stats.Get(Stat::kTableRowLimit), 1'000'000'000'000);
  EXPECT_EQ(stats.Get(Stat::kAmptTruncatedTail), 0);
}

TEST(StatsTest, NonZeroListsOnlyNonZeroInCatalogOrder) {
  Stats stats;
  // Set in reverse catalog order.
  stats.Set(Stat::kTableRowLimit, 2);
  stats.Increment(Stat::kKernelUnmatchedCorrelation, 5);
  stats.Set(Stat::kAmptSalvagedRecords, 7);
  stats.Set(Stat::kAmptTruncatedTail, 1);
  stats.Set(Stat::kAmptTruncatedTail, 0);  // back to zero: not listed

  const std::vector<StatEntry> entries = stats.NonZero();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].stat, Stat::kAmptSalvagedRecords);
  EXPECT_EQ(entries[0].value, 7);
  EXPECT_EQ(entries[0].info, &GetStatInfo(Stat::kAmptSalvagedRecords));
  EXPECT_EQ(entries[0].info->name, "ampt_salvaged_records");
  EXPECT_EQ(entries[1].stat, Stat::kKernelUnmatchedCorrelation);
  EXPECT_EQ(entries[1].value, 5);
  EXPECT_EQ(entries[2].stat, Stat::kTableRowLimit);
  EXPECT_EQ(entries[2].value, 2);
  EXPECT_EQ(entries[2].info->severity, StatSeverity::kDataLoss);
}

TEST(StatsTest, NonZeroIncludesNegativeValues) {
  Stats stats;
  stats.Set(Stat::kRangeUnclosed, -1);
  const std::vector<StatEntry> entries = stats.NonZero();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].value, -1);
}

TEST(StatsTest, MergeFromSums) {
  Stats a;
  a.Set(Stat::kAmptUnknownChunks, 2);
  a.Set(Stat::kRangeUnclosed, 4);
  Stats b;
  b.Set(Stat::kAmptUnknownChunks, 3);
  b.Set(Stat::kCollectorDroppedRecords, 9);
  a.MergeFrom(b);
  EXPECT_EQ(a.Get(Stat::kAmptUnknownChunks), 5);
  EXPECT_EQ(a.Get(Stat::kRangeUnclosed), 4);
  EXPECT_EQ(a.Get(Stat::kCollectorDroppedRecords), 9);
  EXPECT_EQ(a.Get(Stat::kTableRowLimit), 0);
  // The source is unchanged.
  EXPECT_EQ(b.Get(Stat::kAmptUnknownChunks), 3);
  EXPECT_EQ(b.Get(Stat::kRangeUnclosed), 0);

  Stats empty;
  const Stats before = a;
  a.MergeFrom(empty);
  EXPECT_EQ(a, before);
}

TEST(StatsTest, HasDataLoss) {
  Stats stats;
  EXPECT_FALSE(stats.HasDataLoss());
  stats.Increment(Stat::kAmptUnknownChunks);  // info
  EXPECT_FALSE(stats.HasDataLoss());
  stats.Increment(Stat::kRecordNegativeDuration);  // error, not data loss
  EXPECT_FALSE(stats.HasDataLoss());
  stats.Increment(Stat::kAmptTruncatedTail);  // data loss
  EXPECT_TRUE(stats.HasDataLoss());
  stats.Set(Stat::kAmptTruncatedTail, 0);
  EXPECT_FALSE(stats.HasDataLoss());

  // Every data-loss stat counts on its own.
  for (size_t i = 0; i < kStatCount; ++i) {
    const auto stat = static_cast<Stat>(i);
    Stats single;
    single.Increment(stat);
    EXPECT_EQ(single.HasDataLoss(), GetStatInfo(stat).severity == StatSeverity::kDataLoss)
        << GetStatInfo(stat).name;
  }
}

TEST(StatsTest, Equality) {
  Stats a;
  Stats b;
  EXPECT_EQ(a, b);
  a.Increment(Stat::kAmptUnknownStats);
  EXPECT_NE(a, b);
  EXPECT_FALSE(a == b);
  b.Set(Stat::kAmptUnknownStats, 1);
  EXPECT_EQ(a, b);
  b.Increment(Stat::kTableRowLimit);
  EXPECT_NE(a, b);
}

TEST(StatsDeathTest, GetStatInfoOutOfRangeAborts) {
  EXPECT_DEATH((void)GetStatInfo(static_cast<Stat>(kStatCount)), "CHECK failed");
}

}  // namespace
}  // namespace ampprof::base
