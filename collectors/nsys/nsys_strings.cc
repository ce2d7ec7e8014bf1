#include "collectors/nsys/nsys_strings.h"

#include <fmt/format.h>

#include "collectors/records/string_cap.h"

namespace ampprof::nsys {
namespace {

constexpr Column kId = Required("id");
constexpr Column kValue = Required("value", ColumnType::kText);

}  // namespace

base::StatusOr<std::unique_ptr<NsysStrings>> NsysStrings::Open(const SqliteDatabase& db,
                                                               records::RecordSink& sink) {
  if (!db.Has("StringIds")) return std::unique_ptr<NsysStrings>(new NsysStrings(sink, nullptr));
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteLookup> lookup, db.PrepareLookup("StringIds", kId, kValue));
  const bool whole_table = lookup == nullptr;
  std::unique_ptr<NsysStrings> strings(new NsysStrings(sink, std::move(lookup)));
  if (whole_table) RETURN_IF_ERROR(strings->LoadWholeTable(db));
  return strings;
}

base::Status NsysStrings::LoadWholeTable(const SqliteDatabase& db) {
  return db.ForEachRow("StringIds", {kId, kValue}, [&](const SqliteRow& row) {
    const int64_t id = row.RequiredInt(0);
    const std::string_view text = row.Text(1);
    if (!row.valid()) {
      sink_.stats().Increment(base::Stat::kNsysInvalidRows);
      return;
    }
    entries_.try_emplace(id, Entry{records::InternCapped(sink_, text)});  // the first row of an id wins
  });
}

NsysStrings::Entry NsysStrings::Lookup(int64_t id) {
  if (const auto it = entries_.find(id); it != entries_.end()) return it->second;
  Entry entry;
  bool found = false;
  if (lookup_ != nullptr && status_.ok()) {
    auto looked_up = lookup_->Find(id, [&](const SqliteRow& row) {
      const std::string_view text = row.Text(0);
      if (row.valid()) {
        entry.text = records::InternCapped(sink_, text);
        found = true;
      } else {
        sink_.stats().Increment(base::Stat::kNsysInvalidRows);
      }
    });
    if (!looked_up.ok()) status_ = looked_up.status();
  }
  if (!found) {
    entry.text = sink_.strings().Intern(fmt::format("<string id {} missing>", id));
    entry.missing = true;
  }
  entries_.emplace(id, entry);
  return entry;
}

base::StringId NsysStrings::Get(std::optional<int64_t> id) {
  last_missing_ = false;
  if (!id) return base::kEmptyStringId;
  Cached& cached = cache_[static_cast<uint64_t>(*id) % kCacheSlots];
  if (!cached.valid || cached.id != *id) cached = Cached{*id, true, Lookup(*id)};
  last_missing_ = cached.entry.missing;
  if (last_missing_) sink_.stats().Increment(base::Stat::kNsysMissingStrings);
  return cached.entry.text;
}

}  // namespace ampprof::nsys
