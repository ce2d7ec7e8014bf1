#ifndef AMPPROF_COLLECTORS_NSYS_NSYS_STRINGS_H_
#define AMPPROF_COLLECTORS_NSYS_NSYS_STRINGS_H_

// NsysStrings: the export's StringIds table (id -> text, the names every other table refers to by
// id), read lazily: only the ids the imported rows name are looked up, each once, and interned into
// the sink's pool, cut to records::kMaxStringBytes. An export may hold millions of strings that no
// imported table uses, and ids need not be dense: memory follows the names used, never the table or
// its largest id.
//
//   ASSIGN_OR_RETURN(auto strings, NsysStrings::Open(db, sink));
//   kernel.name = strings->Get(row.MaybeInt(7));
//   RETURN_IF_ERROR(strings->status());     // after each table: a lookup that failed
//
// Lookups go through the table's rowid or an index on id (an export's id is its INTEGER PRIMARY
// KEY). A table without one (hand-made databases) is read once in full instead, as each lookup would
// scan it. An id the table does not hold reads as "<string id N missing>", counted in
// Stat::kNsysMissingStrings at every reference; a NULL id is the empty string.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "collectors/nsys/sqlite_database.h"
#include "collectors/records/record_sink.h"
#include "src/base/status.h"

namespace ampprof::nsys {

class NsysStrings {
 public:
  static base::StatusOr<std::unique_ptr<NsysStrings>> Open(const SqliteDatabase& db, records::RecordSink& sink);

  base::StringId Get(std::optional<int64_t> id);
  // Whether the last Get() named an id the table does not hold.
  bool last_missing() const { return last_missing_; }
  // The first lookup that failed (SQLite's error), if any; Get() returns empty strings after it.
  const base::Status& status() const { return status_; }

 private:
  struct Entry {
    base::StringId text;
    bool missing = false;
  };

  NsysStrings(records::RecordSink& sink, std::unique_ptr<SqliteLookup> lookup)
      : sink_(sink), lookup_(std::move(lookup)) {}
  base::Status LoadWholeTable(const SqliteDatabase& db);
  Entry Lookup(int64_t id);

  records::RecordSink& sink_;
  std::unique_ptr<SqliteLookup> lookup_;  // null: the whole table is in entries_
  std::unordered_map<int64_t, Entry> entries_;
  // The names of a table's rows are a few hundred strings used over and over: a direct-mapped cache
  // in front of entries_ answers nearly every row without hashing.
  struct Cached {
    int64_t id = 0;
    bool valid = false;
    Entry entry;
  };
  static constexpr size_t kCacheSlots = 1024;
  std::array<Cached, kCacheSlots> cache_{};
  bool last_missing_ = false;
  base::Status status_;
};

}  // namespace ampprof::nsys

#endif  // AMPPROF_COLLECTORS_NSYS_NSYS_STRINGS_H_
