#ifndef AMPPROF_COLLECTORS_NSYS_SQLITE_DATABASE_H_
#define AMPPROF_COLLECTORS_NSYS_SQLITE_DATABASE_H_

// A read-only SQLite database with the query shapes the Nsight Systems importer needs: "these columns
// of that table", and "the value of this key". Nsight Systems versions add, rename and drop columns,
// and export tables lazily (a table with no events may be absent), so the importer names the columns
// it reads, each required or optional: an optional column the table lacks reads as NULL.
//
//   ASSIGN_OR_RETURN(auto db, SqliteDatabase::Open("report.sqlite"));
//   RETURN_IF_ERROR(db->ForEachRow("CUPTI_ACTIVITY_KIND_KERNEL",
//                                  {Required("start"), Required("end"), Optional("gridX")},
//                                  [&](const SqliteRow& row) { ... row.RequiredInt(0) ... }));
//
// An SQLite file is a program as much as data, so nothing in it is trusted:
//   - it is opened read-only and immutable (no locks, no journal, no write), through a URI;
//   - every table read must be a plain table in sqlite_master: a view (which can be a recursive query
//     that never ends), a virtual table or a computed column is an error naming the file and the table;
//   - a required column that is missing, or any column read whose declared type cannot hold its values
//     (TEXT where an integer belongs), is an error naming the file, the table and the column;
//   - values are type-checked row by row (SqliteRow);
//   - a progress handler stops any statement that runs for kQueryStallLimit without returning a row,
//     with an error naming the table, and no single value may exceed kMaxSqliteValueBytes.

#include <sqlite3.h>

#include <chrono>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "collectors/nsys/sqlite_row.h"
#include "src/base/status.h"

namespace ampprof::nsys {

enum class ColumnType : uint8_t { kInteger, kText };

struct Column {
  std::string_view name;
  ColumnType type = ColumnType::kInteger;
  bool required = false;
};
constexpr Column Required(std::string_view name, ColumnType type = ColumnType::kInteger) {
  return {name, type, true};
}
constexpr Column Optional(std::string_view name, ColumnType type = ColumnType::kInteger) {
  return {name, type, false};
}

// How long one statement may run without returning a row before it is stopped as runaway. A scan
// of a real export returns rows all the time; the slowest legitimate wait, a filtered scan of a large
// NVTX_EVENTS table, passes about 10^7 rows a second, so this is room for 3x10^8 of them.
inline constexpr std::chrono::seconds kQueryStallLimit{30};
// The largest string or blob SQLite may hand over (SQLITE_LIMIT_LENGTH): far above any name, far
// below SQLite's own default of 10^9.
inline constexpr int kMaxSqliteValueBytes = 64 << 20;

struct SqliteOptions {
  std::chrono::milliseconds stall_limit = kQueryStallLimit;
};

class SqliteLookup;

class SqliteDatabase {
 public:
  static base::StatusOr<std::unique_ptr<SqliteDatabase>> Open(const std::string& path,
                                                               const SqliteOptions& options = {});
  ~SqliteDatabase();
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  // Whether the schema holds a table, view or other object of this name (SQLite names ignore case).
  bool Has(std::string_view name) const;
  const std::string& path() const { return path_; }

  // Calls `row(const SqliteRow&)` for every row of `table` (optionally filtered by a WHERE clause),
  // with `columns` in that order. A missing table is no rows, not an error (exports omit empty
  // tables). A template, so that the per-row call inlines: the importer reads millions of rows.
  template <typename RowFunction>
  base::Status ForEachRow(std::string_view table, std::initializer_list<Column> columns, RowFunction&& row,
                          std::string_view where = "") const {
    if (!Has(table)) return base::OkStatus();
    ASSIGN_OR_RETURN(const Statement statement, PrepareSelect(table, columns, where));
    SqliteRow current(statement.get());
    for (;;) {
      const int step = Step(statement.get());
      if (step == SQLITE_DONE) return base::OkStatus();
      if (step != SQLITE_ROW) return StepError(table);
      current.Reset();
      row(static_cast<const SqliteRow&>(current));
    }
  }

  // A prepared "SELECT value FROM table WHERE key = ?" for lookups one key at a time; nullptr when
  // SQLite could not answer it from an index (the key is neither the rowid nor indexed), where each
  // lookup would scan the table. Errors as ForEachRow's (both columns required).
  base::StatusOr<std::unique_ptr<SqliteLookup>> PrepareLookup(std::string_view table, Column key,
                                                              Column value) const;

 private:
  friend class SqliteLookup;
  enum class ObjectKind : uint8_t { kTable, kVirtualTable, kView, kOther };
  struct ColumnInfo {
    std::string declared_type;
    bool computed = false;  // a virtual generated column: an expression evaluated on every read
  };

  struct Finalize {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
  };
  using Statement = std::unique_ptr<sqlite3_stmt, Finalize>;

  SqliteDatabase(sqlite3* db, std::string path, const SqliteOptions& options)
      : db_(db), path_(std::move(path)), options_(options) {}
  base::StatusOr<Statement> PrepareSelect(std::string_view table, std::initializer_list<Column> columns,
                                          std::string_view where) const;
  base::Status ReadSchema();
  // The table's columns by lower-case name; errors when `table` is not a plain table.
  base::StatusOr<std::map<std::string, ColumnInfo>> CheckedColumns(std::string_view table) const;
  // The SELECT list for `columns` ("NULL" for optional ones the table lacks), after the checks.
  base::StatusOr<std::string> SelectList(std::string_view table, std::initializer_list<Column> columns) const;
  base::StatusOr<Statement> Prepare(const std::string& sql, std::string_view table) const;
  // Steps `statement` once under the stall limit: SQLite's result code.
  int Step(sqlite3_stmt* statement) const {
    ++steps_;
    stalled_ = false;
    return sqlite3_step(statement);
  }
  // The error for a step that returned neither SQLITE_ROW nor SQLITE_DONE, naming `table`.
  base::Status StepError(std::string_view table) const;
  // Steps `statement` through its rows, calling `row` for each (the statements of the checks).
  template <typename RowFunction>
  base::Status ForEachResult(sqlite3_stmt* statement, std::string_view table, RowFunction&& row) const {
    const SqliteRow current(statement);
    for (;;) {
      const int step = Step(statement);
      if (step == SQLITE_DONE) return base::OkStatus();
      if (step != SQLITE_ROW) return StepError(table);
      row(current);
    }
  }
  base::Status Error(std::string_view what) const;
  static int OnProgress(void* self);

  sqlite3* db_;
  std::string path_;
  SqliteOptions options_;
  std::map<std::string, ObjectKind> objects_;  // by lower-case name
  // The progress handler's view of the statement being stepped: Step() counts calls, and the handler
  // restarts its clock whenever the count moved, so only time spent inside one step counts.
  mutable uint64_t steps_ = 0;
  mutable uint64_t steps_seen_ = ~uint64_t{0};
  mutable std::chrono::steady_clock::time_point waiting_since_;
  mutable bool stalled_ = false;
};

// One prepared lookup (SqliteDatabase::PrepareLookup).
class SqliteLookup {
 public:
  ~SqliteLookup();
  SqliteLookup(const SqliteLookup&) = delete;
  SqliteLookup& operator=(const SqliteLookup&) = delete;

  // Calls `row` with the value of `key` (column 0) if the table has it; returns whether it had.
  base::StatusOr<bool> Find(int64_t key, const std::function<void(const SqliteRow&)>& row);

 private:
  friend class SqliteDatabase;
  SqliteLookup(const SqliteDatabase& db, sqlite3_stmt* statement, std::string table)
      : db_(db), statement_(statement), table_(std::move(table)) {}

  const SqliteDatabase& db_;
  sqlite3_stmt* statement_;
  std::string table_;
};

}  // namespace ampprof::nsys

#endif  // AMPPROF_COLLECTORS_NSYS_SQLITE_DATABASE_H_
