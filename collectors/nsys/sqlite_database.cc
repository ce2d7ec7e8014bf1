#include "collectors/nsys/sqlite_database.h"

#include <fmt/format.h>

namespace ampprof::nsys {

std::string_view SqliteRow::Text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
  if (text == nullptr) return {};
  return std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(statement_, column)));
}

base::StatusOr<std::unique_ptr<SqliteDatabase>> SqliteDatabase::Open(const std::string& path) {
  sqlite3* db = nullptr;
  const int opened = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  std::unique_ptr<SqliteDatabase> database(new SqliteDatabase(db, path));
  if (opened != SQLITE_OK) return database->Error("cannot open");
  // A damaged file can make SQLite spin on a busy lock; fail instead of hanging.
  sqlite3_busy_timeout(db, 1000);
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')", -1,
                         &statement, nullptr) != SQLITE_OK) {
    return database->Error("not a readable SQLite database");
  }
  int step;
  while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
    database->tables_.insert(std::string(SqliteRow(statement).Text(0)));
  }
  sqlite3_finalize(statement);
  if (step != SQLITE_DONE) return database->Error("cannot list its tables");
  return database;
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close_v2(db_); }

base::Status SqliteDatabase::Error(std::string_view what) const {
  return base::InvalidDataError("{}: {}: {}", path_, what, db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory");
}

base::StatusOr<std::set<std::string>> SqliteDatabase::Columns(std::string_view table) const {
  std::set<std::string> columns;
  sqlite3_stmt* statement = nullptr;
  const std::string sql = fmt::format("SELECT name FROM pragma_table_info('{}')", table);
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    return Error(fmt::format("cannot read the columns of {}", table));
  }
  while (sqlite3_step(statement) == SQLITE_ROW) columns.insert(std::string(SqliteRow(statement).Text(0)));
  sqlite3_finalize(statement);
  return columns;
}

base::Status SqliteDatabase::ForEachRow(std::string_view table, std::initializer_list<std::string_view> columns,
                                        const std::function<void(const SqliteRow&)>& row,
                                        std::string_view where) const {
  if (!HasTable(table)) return base::OkStatus();
  ASSIGN_OR_RETURN(const std::set<std::string> existing, Columns(table));
  std::string select;
  for (std::string_view column : columns) {
    if (!select.empty()) select += ", ";
    select += existing.count(std::string(column)) ? fmt::format("\"{}\"", column) : std::string("NULL");
  }
  std::string sql = fmt::format("SELECT {} FROM \"{}\"", select, table);
  if (!where.empty()) sql += fmt::format(" WHERE {}", where);
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    return Error(fmt::format("cannot read table {}", table));
  }
  const SqliteRow current(statement);
  int step;
  while ((step = sqlite3_step(statement)) == SQLITE_ROW) row(current);
  sqlite3_finalize(statement);
  if (step != SQLITE_DONE) return Error(fmt::format("reading table {} failed", table));
  return base::OkStatus();
}

}  // namespace ampprof::nsys
