// SqliteDatabase treats the file as untrusted: views, virtual tables and computed columns are refused
// by name, declared types and values are checked, and a query that stops returning rows is stopped.

#include "collectors/nsys/sqlite_database.h"

#include <sqlite3.h>

#include <chrono>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tests/testing/temp_dir.h"

namespace ampprof::nsys {
namespace {

using testing::TempDir;

void MakeDatabase(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << error;
  sqlite3_close(db);
}

// Every row of `table`'s `columns` as text ("NULL" for NULL), and whether each row was valid.
base::Status ReadAll(const SqliteDatabase& db, std::string_view table, std::initializer_list<Column> columns,
                     std::vector<std::string>& rows) {
  const size_t count = columns.size();
  return db.ForEachRow(table, columns, [&](const SqliteRow& row) {
    std::string text;
    for (size_t i = 0; i < count; ++i) {
      const int column = static_cast<int>(i);
      text += i == 0 ? "" : " ";
      text += row.IsNull(column) ? "NULL" : std::to_string(row.Int(column));
    }
    rows.push_back(text + (row.valid() ? "" : " invalid"));
  });
}

TEST(SqliteDatabase, RefusesAViewNamingTheFileAndTheView) {
  TempDir dir;
  const std::string path = dir.File("views.sqlite");
  // A recursive view never ends: read as a table, it made the importer run forever.
  MakeDatabase(path,
               "CREATE VIEW StringIds AS WITH RECURSIVE n(id, value) AS (SELECT 0, 'x' UNION ALL "
               "SELECT id + 1, value FROM n) SELECT id, value FROM n;"
               "CREATE TABLE kernels (start INTEGER, end INTEGER);"
               "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT start, end FROM kernels;");
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  for (const std::string_view view : {"StringIds", "CUPTI_ACTIVITY_KIND_KERNEL"}) {
    std::vector<std::string> rows;
    const base::Status status = ReadAll(**db, view, {Required("start")}, rows);
    EXPECT_EQ(status.message(), path + ": " + std::string(view) +
                                    " is a view, not a table (an Nsight Systems export stores its data "
                                    "in tables; a view is a query, which can run forever)");
  }
}

TEST(SqliteDatabase, RefusesAComputedColumn) {
  TempDir dir;
  const std::string path = dir.File("computed.sqlite");
  MakeDatabase(path, "CREATE TABLE t (a INTEGER, b INTEGER AS (a * 2)); INSERT INTO t (a) VALUES (1);");
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok());
  std::vector<std::string> rows;
  EXPECT_EQ(ReadAll(**db, "t", {Required("b")}, rows).message(),
            path + ": column b of table t is computed, not stored data");
}

// A legitimate scan returns rows all the time; one that goes the stall limit without any is stopped.
TEST(SqliteDatabase, StopsAQueryThatRunsWithoutReturningARow) {
  TempDir dir;
  const std::string path = dir.File("slow.sqlite");
  MakeDatabase(path,
               "CREATE TABLE t (v INTEGER);"
               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
               "INSERT INTO t SELECT i FROM n;");
  auto db = SqliteDatabase::Open(path, {.stall_limit = std::chrono::milliseconds(0)});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  int rows = 0;
  // The filter matches nothing: the scan of 200,000 rows returns none.
  const base::Status status = (*db)->ForEachRow("t", {Required("v")}, [&](const SqliteRow&) { ++rows; }, "v < 0");
  EXPECT_EQ(status.message(), path + ": reading t was stopped after 0 s without a row (a damaged database, "
                                     "or a query that never ends)");
  // With the default limit the same scan finishes.
  auto patient = SqliteDatabase::Open(path);
  ASSERT_TRUE(patient.ok());
  EXPECT_TRUE((*patient)->ForEachRow("t", {Required("v")}, [&](const SqliteRow&) { ++rows; }, "v < 0").ok());
  EXPECT_EQ(rows, 0);
}

TEST(SqliteDatabase, AMissingRequiredColumnIsAnErrorAndAMissingOptionalOneIsNull) {
  TempDir dir;
  const std::string path = dir.File("columns.sqlite");
  MakeDatabase(path, "CREATE TABLE t (startTime INTEGER, other INTEGER); INSERT INTO t VALUES (1, 2);");
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok());
  std::vector<std::string> rows;
  EXPECT_EQ(ReadAll(**db, "t", {Required("start")}, rows).message(),
            path + ": table t has no column start (an Nsight Systems export has it)");
  ASSERT_TRUE(ReadAll(**db, "t", {Optional("start"), Required("OTHER")}, rows).ok()) << "names ignore case";
  EXPECT_EQ(rows, std::vector<std::string>{"NULL 2"});
}

TEST(SqliteDatabase, AColumnDeclaredWithAnotherTypeIsAnError) {
  TempDir dir;
  const std::string path = dir.File("types.sqlite");
  MakeDatabase(path, "CREATE TABLE t (start TEXT, name BLOB, plain, count NUMERIC, big BIGINT, label VARCHAR(8));");
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok());
  std::vector<std::string> rows;
  EXPECT_EQ(ReadAll(**db, "t", {Required("start")}, rows).message(),
            path + ": column start of table t is declared TEXT, not INTEGER as in an Nsight Systems export");
  EXPECT_EQ((*db)->ForEachRow("t", {Optional("name", ColumnType::kText)}, [](const SqliteRow&) {}).message(),
            path + ": column name of table t is declared BLOB, not TEXT as in an Nsight Systems export");
  // SQLite's affinity rules: no type, NUMERIC and any type holding "INT" keep integers; "CHAR" is text.
  EXPECT_TRUE(ReadAll(**db, "t", {Required("plain"), Required("count"), Required("big")}, rows).ok());
  EXPECT_TRUE((*db)->ForEachRow("t", {Required("label", ColumnType::kText)}, [](const SqliteRow&) {}).ok());
}

// SQLite converts silently: text, blobs and reals read as integers (0, or a prefix). Each read checks.
TEST(SqliteDatabase, ValuesOfTheWrongTypeMakeTheRowInvalid) {
  TempDir dir;
  const std::string path = dir.File("values.sqlite");
  MakeDatabase(path,
               "CREATE TABLE t (a INTEGER, b INTEGER, s TEXT);"
               "INSERT INTO t VALUES (1, NULL, 'x'), ('12abc', 2, 'x'), (1.5, 2, 'x'), (X'3132', 2, 'x'),"
               "  (1, 2, X'00'), (NULL, 2, NULL);");
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok());
  std::vector<std::string> verdicts;
  ASSERT_TRUE((*db)->ForEachRow("t", {Required("a"), Optional("b"), Optional("s", ColumnType::kText)},
                                [&](const SqliteRow& row) {
                                  const int64_t a = row.RequiredInt(0);
                                  const int64_t b = row.Int(1, -1);
                                  const std::string text(row.Text(2));
                                  verdicts.push_back(row.valid() ? fmt::format("{} {} {}", a, b, text) : "invalid");
                                })
                  .ok());
  EXPECT_EQ(verdicts, (std::vector<std::string>{"1 -1 x", "invalid", "invalid", "invalid", "invalid", "invalid"}));
}

TEST(SqliteDatabase, OpensFilesWhoseNamesLookLikeUriSyntax) {
  TempDir dir;
  const std::string path = dir.File("report?mode=rw#1%20.sqlite");
  MakeDatabase(path, "CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (7);");
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  std::vector<std::string> rows;
  ASSERT_TRUE(ReadAll(**db, "t", {Required("v")}, rows).ok());
  EXPECT_EQ(rows, std::vector<std::string>{"7"});
}

TEST(SqliteDatabase, LooksUpKeysOnlyThroughAnIndex) {
  TempDir dir;
  const std::string path = dir.File("lookup.sqlite");
  MakeDatabase(path,
               "CREATE TABLE keyed (id INTEGER PRIMARY KEY, value TEXT);"
               "INSERT INTO keyed VALUES (3, 'three'), (1000000000000, 'far');"
               "CREATE TABLE plain (id INTEGER, value TEXT);");
  auto db = SqliteDatabase::Open(path);
  ASSERT_TRUE(db.ok());
  auto lookup = (*db)->PrepareLookup("keyed", Required("id"), Required("value", ColumnType::kText));
  ASSERT_TRUE(lookup.ok()) << lookup.status().ToString();
  ASSERT_NE(*lookup, nullptr);
  std::string found;
  const auto capture = [&](const SqliteRow& row) { found = row.Text(0); };
  EXPECT_TRUE(*(*lookup)->Find(1'000'000'000'000, capture));
  EXPECT_EQ(found, "far");
  EXPECT_TRUE(*(*lookup)->Find(3, capture));
  EXPECT_EQ(found, "three");
  EXPECT_FALSE(*(*lookup)->Find(4, capture));
  auto scan = (*db)->PrepareLookup("plain", Required("id"), Required("value", ColumnType::kText));
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ(*scan, nullptr) << "each lookup would scan the table";
}

}  // namespace
}  // namespace ampprof::nsys
