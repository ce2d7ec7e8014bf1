// nsys exports of PyTorch runs under emit_nvtx: the NVTX op ranges give the op table its ops and shapes,
// and backward kernels their forward op through the sequence number (docs/importers.md).
// tests/data/nsys/emit_nvtx_export.sql is the database, in the range format PyTorch writes.

#include <sqlite3.h>

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "src/pipeline/analysis.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

std::string ExportSql() {
  std::ifstream in(std::string(AMPPROF_SOURCE_DIR) + "/tests/data/nsys/emit_nvtx_export.sql");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(NsysNvtxOps, TheOpTableHasEmitNvtxOpsWithShapesAndBackwardKernelsTheirForwardOp) {
  testing::TempDir dir;
  const std::string path = dir.File("report.sqlite");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  ASSERT_EQ(sqlite3_exec(db, ExportSql().c_str(), nullptr, nullptr, &error), SQLITE_OK) << error;
  sqlite3_close(db);

  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_TRUE(reports->front().ops.has_value());
  const analyzers::OpTable& table = *reports->front().ops;
  EXPECT_EQ(table.kernels, 4u);
  EXPECT_EQ(table.attributed_kernels, 3u) << "the fill kernel was launched outside any op";
  ASSERT_EQ(table.rows.size(), 3u);
  // By kernel time: the forward addmm (10 us), then the two backward mms (8 us each, by description).
  EXPECT_EQ(table.rows[0].name, "aten::addmm");
  EXPECT_EQ(table.rows[0].shapes, "[1000], [64, 1024], [1024, 1000]");
  EXPECT_FALSE(table.rows[0].backward);
  EXPECT_EQ(table.rows[0].unit, "CUDA cores");
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(table.rows[i].name, "aten::mm");
    EXPECT_TRUE(table.rows[i].backward);
    EXPECT_EQ(table.rows[i].forward, "aten::addmm [1000], [64, 1024], [1024, 1000]");
  }
  EXPECT_EQ(table.rows[1].shapes, "[64, 1000], [1000, 1024]");
  EXPECT_EQ(table.rows[2].shapes, "[1000, 64], [64, 1024]");
}

}  // namespace
}  // namespace ampprof::pipeline
