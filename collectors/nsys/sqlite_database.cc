#include "collectors/nsys/sqlite_database.h"

#include <fmt/format.h>

#include <cctype>

namespace ampprof::nsys {
namespace {

// How many SQLite virtual-machine instructions pass between two calls of the progress handler:
// well under a millisecond.
constexpr int kProgressPeriod = 10'000;

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// "file:" URI of `path`, every byte outside the unreserved set percent-encoded, so that '?', '#' and
// '%' in a file name stay part of it.
std::string FileUri(const std::string& path, std::string_view parameters) {
  std::string uri = "file:";
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += fmt::format("%{:02X}", c);
    }
  }
  uri += parameters;
  return uri;
}

// SQLite's column affinity rules (https://www.sqlite.org/datatype3.html, 3.1), in their order.
enum class Affinity { kInteger, kText, kBlob, kReal, kNumeric };
Affinity AffinityOf(std::string_view declared) {
  const std::string type = Lower(declared);
  const auto has = [&](std::string_view part) { return type.find(part) != std::string::npos; };
  if (has("int")) return Affinity::kInteger;
  if (has("char") || has("clob") || has("text")) return Affinity::kText;
  if (has("blob") || type.empty()) return Affinity::kBlob;
  if (has("real") || has("floa") || has("doub")) return Affinity::kReal;
  return Affinity::kNumeric;
}

// Whether a column declared `declared` keeps the values of `type` that an export stores there. A
// column without a declared type keeps anything.
bool DeclaredTypeFits(std::string_view declared, ColumnType type) {
  if (declared.empty()) return true;
  const Affinity affinity = AffinityOf(declared);
  return type == ColumnType::kInteger ? affinity == Affinity::kInteger || affinity == Affinity::kNumeric
                                      : affinity == Affinity::kText;
}

std::string_view TypeName(ColumnType type) { return type == ColumnType::kInteger ? "INTEGER" : "TEXT"; }

std::string Quoted(std::string_view name) {
  std::string quoted = "\"";
  for (const char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

base::StatusOr<std::unique_ptr<SqliteDatabase>> SqliteDatabase::Open(const std::string& path,
                                                                     const SqliteOptions& options) {
  sqlite3* db = nullptr;
  // immutable=1: the file is read as it is, without locks or a look for a journal, and never changed.
  const int opened = sqlite3_open_v2(FileUri(path, "?mode=ro&immutable=1").c_str(), &db,
                                     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  std::unique_ptr<SqliteDatabase> database(new SqliteDatabase(db, path, options));
  if (opened != SQLITE_OK) return database->Error("cannot open");
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, kMaxSqliteValueBytes);
  sqlite3_progress_handler(db, kProgressPeriod, &SqliteDatabase::OnProgress, database.get());
  RETURN_IF_ERROR(database->ReadSchema());
  return database;
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close_v2(db_); }

int SqliteDatabase::OnProgress(void* self) {
  const auto* db = static_cast<const SqliteDatabase*>(self);
  const auto now = std::chrono::steady_clock::now();
  if (db->steps_ != db->steps_seen_) {
    db->steps_seen_ = db->steps_;
    db->waiting_since_ = now;
    return 0;
  }
  db->stalled_ = now - db->waiting_since_ > db->options_.stall_limit;
  return db->stalled_ ? 1 : 0;
}

base::Status SqliteDatabase::Error(std::string_view what) const {
  return base::InvalidDataError("{}: {}: {}", path_, what, db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory");
}

base::Status SqliteDatabase::ReadSchema() {
  auto statement = Prepare("SELECT type, name, sql FROM sqlite_master", "sqlite_master");
  if (!statement.ok()) return Error("not a readable SQLite database");
  return ForEachResult(statement->get(), "sqlite_master", [&](const SqliteRow& row) {
    const std::string type = Lower(row.Text(0));
    const std::string sql = Lower(row.Text(2).substr(0, 64));
    ObjectKind kind = ObjectKind::kOther;
    if (type == "view") kind = ObjectKind::kView;
    if (type == "table") kind = sql.rfind("create virtual", 0) == 0 ? ObjectKind::kVirtualTable : ObjectKind::kTable;
    objects_[Lower(row.Text(1))] = kind;
  });
}

bool SqliteDatabase::Has(std::string_view name) const { return objects_.count(Lower(name)) > 0; }

base::StatusOr<SqliteDatabase::Statement> SqliteDatabase::Prepare(const std::string& sql,
                                                                  std::string_view table) const {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    sqlite3_finalize(statement);
    return Error(fmt::format("cannot read table {}", table));
  }
  return Statement(statement);
}

base::Status SqliteDatabase::StepError(std::string_view table) const {
  if (stalled_) {
    return base::InvalidDataError(
        "{}: reading {} was stopped after {} s without a row (a damaged database, or a query that "
        "never ends)",
        path_, table, std::chrono::duration<double>(options_.stall_limit).count());
  }
  return Error(fmt::format("reading table {} failed", table));
}

base::StatusOr<std::map<std::string, SqliteDatabase::ColumnInfo>> SqliteDatabase::CheckedColumns(
    std::string_view table) const {
  const auto object = objects_.find(Lower(table));
  if (object == objects_.end()) return base::InvalidDataError("{}: there is no table {}", path_, table);
  switch (object->second) {
    case ObjectKind::kTable: break;
    case ObjectKind::kView:
      return base::InvalidDataError(
          "{}: {} is a view, not a table (an Nsight Systems export stores its data in tables; a view "
          "is a query, which can run forever)",
          path_, table);
    case ObjectKind::kVirtualTable:
    case ObjectKind::kOther:
      return base::InvalidDataError("{}: {} is not a plain table (an Nsight Systems export stores its data "
                                    "in tables)", path_, table);
  }
  ASSIGN_OR_RETURN(const Statement statement, Prepare("SELECT name, type, hidden FROM pragma_table_xinfo(?1)", table));
  sqlite3_bind_text(statement.get(), 1, table.data(), static_cast<int>(table.size()), SQLITE_TRANSIENT);
  std::map<std::string, ColumnInfo> columns;
  RETURN_IF_ERROR(ForEachResult(statement.get(), table, [&](const SqliteRow& row) {
    // hidden: 2 is a virtual generated column, computed at every read; 3 is stored, 1 belongs to a
    // virtual table (refused above).
    columns[Lower(row.Text(0))] = ColumnInfo{std::string(row.Text(1)), row.Int(2) == 2};
  }));
  return columns;
}

base::StatusOr<std::string> SqliteDatabase::SelectList(std::string_view table,
                                                       std::initializer_list<Column> columns) const {
  ASSIGN_OR_RETURN(const auto existing, CheckedColumns(table));
  std::string select;
  for (const Column& column : columns) {
    if (!select.empty()) select += ", ";
    const auto it = existing.find(Lower(column.name));
    if (it == existing.end()) {
      if (column.required) {
        return base::InvalidDataError("{}: table {} has no column {} (an Nsight Systems export has it)",
                                      path_, table, column.name);
      }
      select += "NULL";
      continue;
    }
    if (it->second.computed) {
      return base::InvalidDataError("{}: column {} of table {} is computed, not stored data", path_,
                                    column.name, table);
    }
    if (!DeclaredTypeFits(it->second.declared_type, column.type)) {
      return base::InvalidDataError("{}: column {} of table {} is declared {}, not {} as in an Nsight "
                                    "Systems export",
                                    path_, column.name, table, it->second.declared_type, TypeName(column.type));
    }
    select += Quoted(column.name);
  }
  return select;
}

base::StatusOr<SqliteDatabase::Statement> SqliteDatabase::PrepareSelect(std::string_view table,
                                                                        std::initializer_list<Column> columns,
                                                                        std::string_view where) const {
  ASSIGN_OR_RETURN(const std::string select, SelectList(table, columns));
  std::string sql = fmt::format("SELECT {} FROM {}", select, Quoted(table));
  if (!where.empty()) sql += fmt::format(" WHERE {}", where);
  return Prepare(sql, table);
}

base::StatusOr<std::unique_ptr<SqliteLookup>> SqliteDatabase::PrepareLookup(std::string_view table,
                                                                          Column key, Column value) const {
  key.required = true;
  value.required = true;
  ASSIGN_OR_RETURN(const std::string select, SelectList(table, {value, key}));
  const std::string sql = fmt::format("SELECT {} FROM {} WHERE {} = ?1", select, Quoted(table), Quoted(key.name));
  // Whether SQLite finds the key through the rowid or an index ("SEARCH"), or reads the table ("SCAN").
  ASSIGN_OR_RETURN(const Statement plan, Prepare("EXPLAIN QUERY PLAN " + sql, table));
  bool indexed = true;
  RETURN_IF_ERROR(ForEachResult(plan.get(), table, [&](const SqliteRow& row) {
    if (row.Text(3).rfind("SCAN", 0) == 0) indexed = false;
  }));
  if (!indexed) return std::unique_ptr<SqliteLookup>();
  ASSIGN_OR_RETURN(Statement statement, Prepare(sql, table));
  return std::unique_ptr<SqliteLookup>(new SqliteLookup(*this, statement.release(), std::string(table)));
}

SqliteLookup::~SqliteLookup() { sqlite3_finalize(statement_); }

base::StatusOr<bool> SqliteLookup::Find(int64_t key, const std::function<void(const SqliteRow&)>& row) {
  sqlite3_reset(statement_);
  sqlite3_bind_int64(statement_, 1, key);
  const int step = db_.Step(statement_);
  if (step == SQLITE_DONE) return false;
  if (step != SQLITE_ROW) return db_.StepError(table_);
  row(SqliteRow(statement_));
  return true;
}

}  // namespace ampprof::nsys
