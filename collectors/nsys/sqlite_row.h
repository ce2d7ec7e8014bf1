#ifndef AMPPROF_COLLECTORS_NSYS_SQLITE_ROW_H_
#define AMPPROF_COLLECTORS_NSYS_SQLITE_ROW_H_

// SqliteRow: typed access to the current row of a query, that notices values of the wrong type.
//
// SQLite stores any value in any column, and its conversions hide damage: sqlite3_column_int64 reads
// NULL, a text that is not a number and a blob as 0, "12abc" as 12 and 1.5 as 1. So every read asks
// the value's type first, through sqlite3_column_value (one lookup of the column, as
// sqlite3_column_int64 alone makes; asking sqlite3_column_type and then sqlite3_column_int64 made two,
// and took a quarter of the import). A value of the wrong type, or NULL where the record needs a
// value, marks the row invalid; the importer then skips the row and counts it.
//
//   const int64_t start = row.RequiredInt(0);   // NULL or not an integer: row invalid
//   const int64_t grid = row.Int(9);            // NULL: 0; not an integer: row invalid
//   if (!row.valid()) { count it; return; }

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace ampprof::nsys {

class SqliteRow {
 public:
  explicit SqliteRow(sqlite3_stmt* statement) : statement_(statement) {}

  // An integer column: NULL reads as `if_null`.
  int64_t Int(int column, int64_t if_null = 0) const {
    sqlite3_value* value = sqlite3_column_value(statement_, column);
    const int type = sqlite3_value_type(value);
    if (type == SQLITE_INTEGER) [[likely]] return sqlite3_value_int64(value);
    if (type != SQLITE_NULL) invalid_ = true;
    return if_null;
  }
  std::optional<int64_t> MaybeInt(int column) const {
    sqlite3_value* value = sqlite3_column_value(statement_, column);
    const int type = sqlite3_value_type(value);
    if (type == SQLITE_INTEGER) [[likely]] return sqlite3_value_int64(value);
    if (type != SQLITE_NULL) invalid_ = true;
    return std::nullopt;
  }
  // An integer the record cannot do without: NULL makes the row invalid too.
  int64_t RequiredInt(int column) const {
    sqlite3_value* value = sqlite3_column_value(statement_, column);
    if (sqlite3_value_type(value) == SQLITE_INTEGER) [[likely]] return sqlite3_value_int64(value);
    invalid_ = true;
    return 0;
  }
  // A text column: NULL reads as "". The view is valid until the next row.
  std::string_view Text(int column) const {
    sqlite3_value* value = sqlite3_column_value(statement_, column);
    const int type = sqlite3_value_type(value);
    if (type != SQLITE_TEXT) {
      if (type != SQLITE_NULL) invalid_ = true;
      return {};
    }
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
    if (text == nullptr) return {};  // out of memory while converting
    return std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(value)));
  }
  bool IsNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

  // False once a read met a value of the wrong type, or NULL where one was required.
  bool valid() const { return !invalid_; }
  void Reset() { invalid_ = false; }

 private:
  sqlite3_stmt* statement_;
  mutable bool invalid_ = false;
};

}  // namespace ampprof::nsys

#endif  // AMPPROF_COLLECTORS_NSYS_SQLITE_ROW_H_
