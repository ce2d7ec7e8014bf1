#include "collectors/nsys/nsys_importer.h"

#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "collectors/records/record_set.h"
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

}  // namespace
}  // namespace ampprof::nsys
