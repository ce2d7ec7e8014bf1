#ifndef AMPPROF_COLLECTORS_NSYS_SQLITE_DATABASE_H_
#define AMPPROF_COLLECTORS_NSYS_SQLITE_DATABASE_H_

// A read-only SQLite database with the one query shape the Nsight Systems importer needs: "these
// columns of that table, whichever of them exist". Nsight Systems versions add, rename and drop
// columns, and export tables lazily (a table with no events may be absent), so the importer asks for
// what it can use and gets NULL for what the file does not have.
//
//   ASSIGN_OR_RETURN(auto db, SqliteDatabase::Open("report.sqlite"));
//   RETURN_IF_ERROR(db->ForEachRow("CUPTI_ACTIVITY_KIND_KERNEL", {"start", "end", "gridX"},
//                                  [&](const SqliteRow& row) { ... row.Int(0) ... }));

#include <sqlite3.h>

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "src/base/status.h"

namespace ampprof::nsys {

class SqliteRow {
 public:
  explicit SqliteRow(sqlite3_stmt* statement) : statement_(statement) {}
  bool IsNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  int64_t Int(int column, int64_t otherwise = 0) const {
    // sqlite3_column_int64 reads NULL as 0 itself: asking the type first only pays when NULL means
    // something else (a quarter of the import's time went to sqlite3_column_type before).
    if (otherwise == 0) return sqlite3_column_int64(statement_, column);
    return IsNull(column) ? otherwise : sqlite3_column_int64(statement_, column);
  }
  std::optional<int64_t> MaybeInt(int column) const {
    if (IsNull(column)) return std::nullopt;
    return sqlite3_column_int64(statement_, column);
  }
  std::string_view Text(int column) const;

 private:
  sqlite3_stmt* statement_;
};

class SqliteDatabase {
 public:
  static base::StatusOr<std::unique_ptr<SqliteDatabase>> Open(const std::string& path);
  ~SqliteDatabase();
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  bool HasTable(std::string_view table) const { return tables_.count(std::string(table)) > 0; }
  const std::set<std::string>& tables() const { return tables_; }

  // Calls `row` for every row of `table` (optionally filtered by a WHERE clause), with `columns` in
  // that order; a column the table lacks reads as NULL. A missing table is no rows, not an error.
  base::Status ForEachRow(std::string_view table, std::initializer_list<std::string_view> columns,
                          const std::function<void(const SqliteRow&)>& row,
                          std::string_view where = "") const;

 private:
  SqliteDatabase(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  base::StatusOr<std::set<std::string>> Columns(std::string_view table) const;
  base::Status Error(std::string_view what) const;

  sqlite3* db_;
  std::string path_;
  std::set<std::string> tables_;
};

}  // namespace ampprof::nsys

#endif  // AMPPROF_COLLECTORS_NSYS_SQLITE_DATABASE_H_
