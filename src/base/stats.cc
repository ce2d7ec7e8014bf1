#include "src/base/stats.h"

#include "src/base/check.h"

namespace ampprof::base {
namespace {

constexpr StatInfo kCatalog[] = {
#define AMPPROF_STAT_INFO(enumerator, name, severity, description) \
  {name, StatSeverity::severity, description},
    AMPPROF_STATS_CATALOG(AMPPROF_STAT_INFO)
#undef AMPPROF_STAT_INFO
};
static_assert(std::size(kCatalog) == kStatCount);

}  // namespace

const StatInfo& GetStatInfo(Stat stat) {
  const auto index = static_cast<size_t>(stat);
  AMPPROF_CHECK(index < kStatCount);
  return kCatalog[index];
}

std::optional<Stat> FindStat(std::string_view name) {
  for (size_t i = 0; i < kStatCount; ++i) {
    if (kCatalog[i].name == name) return static_cast<Stat>(i);
  }
  return std::nullopt;
}

std::string_view SeverityName(StatSeverity severity) {
  switch (severity) {
    case StatSeverity::kInfo: return "info";
    case StatSeverity::kDataLoss: return "data-loss";
    case StatSeverity::kError: return "error";
  }
  return "unknown";
}

void Stats::MergeFrom(const Stats& other) {
  for (size_t i = 0; i < kStatCount; ++i) values_[i] += other.values_[i];
}

bool Stats::HasDataLoss() const {
  for (size_t i = 0; i < kStatCount; ++i) {
    if (values_[i] != 0 && kCatalog[i].severity == StatSeverity::kDataLoss) return true;
  }
  return false;
}

std::vector<StatEntry> Stats::NonZero() const {
  std::vector<StatEntry> entries;
  for (size_t i = 0; i < kStatCount; ++i) {
    if (values_[i] != 0) entries.push_back({static_cast<Stat>(i), &kCatalog[i], values_[i]});
  }
  return entries;
}

}  // namespace ampprof::base
