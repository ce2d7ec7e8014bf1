#include "collectors/nsys/nsys_importer.h"

#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "collectors/records/record_set.h"
#include "collectors/records/string_cap.h"
#include "src/model/model_builder.h"
#include "src/model/queries.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::nsys {
namespace {

using records::RecordSet;
using testing::TempDir;

// Builds a database at `path` from SQL text.
void MakeDatabase(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << error;
  sqlite3_close(db);
}

std::string MinimalExportSql() {
  std::ifstream in(std::string(AMPPROF_SOURCE_DIR) + "/tests/data/nsys/minimal_export.sql");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(NsysImporter, ReadsEveryTableItKnows) {
  TempDir dir;
  const std::string path = dir.File("report.sqlite");
  MakeDatabase(path, MinimalExportSql());
  RecordSet records;
  const base::Status status = ImportNsysSqlite(path, records);
  ASSERT_TRUE(status.ok()) << status.ToString();

  ASSERT_EQ(records.kernels.size(), 2u);
  const records::KernelRecord& gemm = records.kernels[0];
  EXPECT_EQ(records.Text(gemm.name), "ampere_sgemm_128x64_nn");
  EXPECT_EQ(records.Text(records.kernels[1].name), "sgemm") << "shortName when demangledName is NULL";
  EXPECT_EQ(gemm.pid, 1000u) << "globalPid decoded";
  EXPECT_EQ(gemm.grid_y, 16u);
  EXPECT_EQ(gemm.static_shared_bytes, 12544u);

  ASSERT_EQ(records.api_calls.size(), 4u);
  EXPECT_EQ(records.Text(records.api_calls[0].name), "cudaLaunchKernel") << "version suffix dropped";
  EXPECT_EQ(records.api_calls[0].tid, 1001u);
  EXPECT_EQ(records.api_calls[0].domain, records::ApiDomain::kRuntime);
  EXPECT_EQ(records.api_calls[1].domain, records::ApiDomain::kDriver);
  EXPECT_EQ(records.api_calls[0].return_code, 0) << "a column this version lacks reads as NULL";

  ASSERT_EQ(records.memcpys.size(), 1u);
  EXPECT_EQ(records.memcpys[0].kind, records::MemcpyKind::kDeviceToHost);
  EXPECT_EQ(records.memcpys[0].src_kind, records::MemoryKind::kDevice);
  EXPECT_EQ(records.memcpys[0].dst_kind, records::MemoryKind::kPinned);
  ASSERT_EQ(records.syncs.size(), 1u);
  EXPECT_EQ(records.syncs[0].kind, records::SyncKind::kStreamSynchronize);

  ASSERT_EQ(records.ranges.size(), 1u);
  EXPECT_EQ(records.Text(records.ranges[0].name), "train step") << "text from textId";
  EXPECT_EQ(records.Text(records.ranges[0].domain), "ampprof");
  ASSERT_EQ(records.marks.size(), 2u);  // the mark, and the start of the range left open

  ASSERT_EQ(records.devices.size(), 1u);
  EXPECT_EQ(records.Text(records.devices[0].name), "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(records.devices[0].sm_count, 108u);
  EXPECT_EQ(records.devices[0].core_clock_khz, 1'410'000u);
  ASSERT_EQ(records.processes.size(), 1u) << "only processes that used CUDA";
  EXPECT_EQ(records.Text(records.processes[0].command), "python3 train.py");
  ASSERT_GE(records.threads.size(), 1u);
  EXPECT_EQ(records.Text(records.threads.back().name), "pt_main_thread");
}

TEST(NsysImporter, BuildsALinkedModel) {
  TempDir dir;
  const std::string path = dir.File("report.sqlite");
  MakeDatabase(path, MinimalExportSql());
  model::ModelBuilder builder;
  ASSERT_TRUE(ImportNsysSqlite(path, builder).ok());
  const model::TraceModel model = std::move(builder).Build();
  EXPECT_EQ(model.Text(model.api_calls().name[model::LaunchingCall(model, model::KernelRow(0))]),
            "cudaLaunchKernel");
  EXPECT_EQ(model.Text(model.api_calls().name[model::LaunchingCall(model, model::KernelRow(1))]),
            "cuLaunchKernel");
  EXPECT_EQ(model.thread(model.syncs().thread[model::SyncRow(0)]).tid, 1001u);
  EXPECT_EQ(model.stats().Get(base::Stat::kRangeUnclosed), 1);
  EXPECT_EQ(model.stats().Get(base::Stat::kKernelUnmatchedCorrelation), 0);
}

TEST(NsysImporter, MissingTablesAreNormal) {
  TempDir dir;
  const std::string path = dir.File("report.sqlite");
  MakeDatabase(path, "CREATE TABLE StringIds (id INTEGER, value TEXT); CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT);"
                     "INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H100');");
  RecordSet records;
  ASSERT_TRUE(ImportNsysSqlite(path, records).ok());
  EXPECT_EQ(records.devices.size(), 1u);
  EXPECT_EQ(records.kernels.size(), 0u);
}

TEST(NsysImporter, RefusesOtherDatabases) {
  TempDir dir;
  const std::string path = dir.File("notes.sqlite");
  MakeDatabase(path, "CREATE TABLE notes (id INTEGER, text TEXT);");
  RecordSet records;
  EXPECT_EQ(ImportNsysSqlite(path, records).message(),
            path + ": an SQLite database, but not an Nsight Systems export (no StringIds and "
                   "CUPTI_ACTIVITY_KIND_* tables)");
}

TEST(NsysImporter, ReportsADamagedDatabase) {
  TempDir dir;
  const std::string path = dir.File("report.sqlite");
  MakeDatabase(path, MinimalExportSql());
  std::vector<uint8_t> bytes = testing::ReadFileBytes(path);
  for (size_t i = 100; i < bytes.size(); i += 3) bytes[i] ^= 0x6b;  // ruin every page after the header
  testing::WriteFileBytes(path, bytes);
  RecordSet records;
  const base::Status status = ImportNsysSqlite(path, records);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind(path, 0), 0u) << status.message();
}

// StringIds and the kernel table of an export, its start column declared as a test wants.
std::string KernelTable(std::string_view start_column = "start INTEGER") {
  return fmt::format(
      "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
      "INSERT INTO StringIds VALUES (1, 'volta_sgemm_128x64_nn');"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL ({}, end INTEGER, deviceId INTEGER, contextId INTEGER,"
      "  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
      "  shortName INTEGER, gridX INTEGER);",
      start_column);
}

base::Status Import(const TempDir& dir, const std::string& sql, RecordSet& records) {
  const std::string path = dir.File("report.sqlite");
  MakeDatabase(path, sql);
  return ImportNsysSqlite(path, records);
}

// A kernel table whose start column was renamed or dropped read as zeros: every kernel from 0 to its
// end, "busy 100.0%", and no data-quality counter.
TEST(NsysImporter, AMissingRequiredColumnIsAnErrorNamingTheTableAndColumn) {
  TempDir dir;
  RecordSet records;
  const base::Status status = Import(dir, KernelTable("startTime INTEGER"), records);
  EXPECT_EQ(status.message(), dir.File("report.sqlite") +
                                  ": table CUPTI_ACTIVITY_KIND_KERNEL has no column start (an Nsight "
                                  "Systems export has it)");
}

TEST(NsysImporter, AColumnDeclaredAsTextIsAnError) {
  TempDir dir;
  RecordSet records;
  const base::Status status = Import(dir, KernelTable("start TEXT"), records);
  EXPECT_EQ(status.message(), dir.File("report.sqlite") +
                                  ": column start of table CUPTI_ACTIVITY_KIND_KERNEL is declared TEXT, not "
                                  "INTEGER as in an Nsight Systems export");
}

// Values of the wrong type used to read as 0 (or as a prefix of a text): now the row is skipped and
// counted, and never becomes a kernel starting at 0.
TEST(NsysImporter, RowsWithValuesOfTheWrongTypeAreSkippedAndCounted) {
  TempDir dir;
  RecordSet records;
  const base::Status status =
      Import(dir,
             KernelTable() +
                 "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
                 "  (1000, 2000, 0, 1, 7, 1, 16777216000, 1, 1, 4),"       // fine
                 "  ('soon', 2000, 0, 1, 7, 2, 16777216000, 1, 1, 4),"     // text start
                 "  (1000, X'0102', 0, 1, 7, 3, 16777216000, 1, 1, 4),"    // blob end
                 "  (1000.5, 2000, 0, 1, 7, 4, 16777216000, 1, 1, 4),"     // real start
                 "  (NULL, 2000, 0, 1, 7, 5, 16777216000, 1, 1, 4),"       // no start
                 "  (1000, 2000, 0, 1, 7, 6, 16777216000, 1, 1, 'four'),"  // text in an optional column
                 "  (1000, 2000, 0, 1, 7, 7, 16777216000, NULL, 1, 4);",   // shortName stands in
             records);
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(records.kernels.size(), 2u);
  EXPECT_EQ(records.kernels[0].correlation_id, 1u);
  EXPECT_EQ(records.kernels[1].correlation_id, 7u);
  EXPECT_EQ(records.Text(records.kernels[1].name), "volta_sgemm_128x64_nn");
  EXPECT_EQ(records.stats().Get(base::Stat::kNsysInvalidRows), 5);
}

// A string id StringIds does not hold was an empty name, silently.
TEST(NsysImporter, MissingStringsAreNamedAndCountedAtEveryReference) {
  TempDir dir;
  RecordSet records;
  const base::Status status =
      Import(dir,
             KernelTable() +
                 "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 1, 16777216000, 42, 42, 1),"
                 "  (3000, 4000, 0, 1, 7, 2, 16777216000, 42, 42, 1);"
                 "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,"
                 "  correlationId INTEGER, nameId INTEGER);"
                 "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (900, 950, 16777217001, 1, 77),"
                 "  (2900, 2950, 16777217001, 2, 77);",
             records);
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(records.kernels.size(), 2u);
  EXPECT_EQ(records.Text(records.kernels[1].name), "<string id 42 missing>");
  ASSERT_EQ(records.api_calls.size(), 2u);
  EXPECT_EQ(records.Text(records.api_calls[1].name), "<string id 77 missing>");
  EXPECT_EQ(records.stats().Get(base::Stat::kNsysMissingStrings), 4);
}

// StringIds was read whole into an array sized by its largest id (refusing ids over 10^8): millions
// of unused strings, or one id of 10^8, cost hundreds of MB. Now only the ids rows name are read.
TEST(NsysImporter, ReadsOnlyTheStringsTheImportedRowsName) {
  TempDir dir;
  RecordSet records;
  const base::Status status =
      Import(dir,
             KernelTable() +
                 "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
                 "INSERT INTO StringIds SELECT i, 'unused_' || i FROM n;"
                 "INSERT INTO StringIds VALUES (1000000000000, 'named_by_a_huge_id');"
                 "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 1, 16777216000,"
                 "  1000000000000, 1, 1), (3000, 4000, 0, 1, 7, 2, 16777216000, 1, 1, 1);",
             records);
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(records.kernels.size(), 2u);
  EXPECT_EQ(records.Text(records.kernels[0].name), "named_by_a_huge_id");
  EXPECT_EQ(records.Text(records.kernels[1].name), "volta_sgemm_128x64_nn");
  EXPECT_EQ(records.strings().Find("unused_7"), std::nullopt);
  EXPECT_LT(records.strings().size(), 20u);
}

// Hand-made databases may have StringIds without a primary key: it is then read once, not scanned
// at every lookup.
TEST(NsysImporter, ReadsAStringTableWithoutAnIndexInFull) {
  TempDir dir;
  RecordSet records;
  std::string sql = KernelTable();
  sql.replace(sql.find("id INTEGER PRIMARY KEY"), 22, "id INTEGER");
  ASSERT_TRUE(Import(dir, sql + "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 1,"
                                "  16777216000, 1, 1, 1), (3000, 4000, 0, 1, 7, 2, 16777216000, 9, 9, 1);",
                     records)
                  .ok());
  ASSERT_EQ(records.kernels.size(), 2u);
  EXPECT_EQ(records.Text(records.kernels[0].name), "volta_sgemm_128x64_nn");
  EXPECT_EQ(records.Text(records.kernels[1].name), "<string id 9 missing>");
}

TEST(NsysImporter, StringsLongerThanTheCapAreCutAndCounted) {
  TempDir dir;
  RecordSet records;
  ASSERT_TRUE(Import(dir,
                     KernelTable() +
                         "INSERT INTO StringIds VALUES (2, 'cutlass_' || printf('%.*c', 100000, 'x'));"
                         "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 1, 16777216000,"
                         "  2, 2, 1);",
                     records)
                  .ok());
  ASSERT_EQ(records.kernels.size(), 1u);
  const std::string_view name = records.Text(records.kernels[0].name);
  EXPECT_EQ(name.size(), records::kMaxStringBytes);
  EXPECT_EQ(name.substr(0, 9), "cutlass_x");
  EXPECT_EQ(name.substr(name.size() - 5), "[...]");
  EXPECT_EQ(records.stats().Get(base::Stat::kStringsTruncated), 1);
}

TEST(NsysImporter, AViewInPlaceOfAStringTableIsAnError) {
  TempDir dir;
  RecordSet records;
  const base::Status status =
      Import(dir,
             "CREATE VIEW StringIds AS WITH RECURSIVE n(id, value) AS (SELECT 0, 'x' UNION ALL "
             "SELECT id + 1, value FROM n) SELECT id, value FROM n;"
             "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
             "  streamId INTEGER, shortName INTEGER);"
             "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 0, 7, 0);",
             records);
  EXPECT_NE(status.message().find(dir.File("report.sqlite") + ": StringIds is a view, not a table"),
            std::string::npos)
      << status.message();
}

}  // namespace
}  // namespace ampprof::nsys
