// The synthetic loop written as Kineto JSON and as an nsys SQLite export must read back, through the
// real importers, as the same trace the generator gives directly: benchmarks compare the importers on
// these files, so any difference between them would be a difference in the inputs, not the importers.

#include <gtest/gtest.h>

#include "collectors/kineto/kineto_importer.h"
#include "collectors/nsys/nsys_importer.h"
#include "collectors/synthetic/kineto_json_writer.h"
#include "collectors/synthetic/nsys_sqlite_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "src/model/model_builder.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::synthetic {
namespace {

SyntheticTraceOptions Options() {
  SyntheticTraceOptions options;
  options.kernels = 4000;
  return options;
}

model::TraceModel Direct() {
  model::ModelBuilder builder;
  EXPECT_TRUE(GenerateSyntheticTrace(Options(), builder).ok());
  return std::move(builder).Build();
}

int64_t KernelTime(const model::TraceModel& model) {
  int64_t total = 0;
  for (size_t i = 0; i < model.kernels().size(); ++i) {
    total += model.kernels().end[model::KernelRow(i)] - model.kernels().start[model::KernelRow(i)];
  }
  return total;
}

// What both formats must keep exactly: every kernel with its time, every API call, every copy and sync,
// every range (steps included), and the links between launches and kernels.
void ExpectSameTrace(const model::TraceModel& read, const model::TraceModel& direct) {
  EXPECT_EQ(read.kernels().size(), direct.kernels().size());
  EXPECT_EQ(KernelTime(read), KernelTime(direct));
  EXPECT_EQ(read.GpuSpan(), direct.GpuSpan());
  EXPECT_EQ(read.api_calls().size(), direct.api_calls().size());
  EXPECT_EQ(read.memcpys().size(), direct.memcpys().size());
  EXPECT_EQ(read.syncs().size(), direct.syncs().size());
  EXPECT_EQ(read.ranges().size(), direct.ranges().size());
  EXPECT_EQ(read.streams().size(), direct.streams().size());
  EXPECT_FALSE(read.stats().HasDataLoss());
  for (size_t i = 0; i < read.kernels().size(); ++i) {
    ASSERT_TRUE(read.kernels().launch[model::KernelRow(i)].valid()) << "kernel " << i << " lost its launch";
  }
}

TEST(TraceFormatWriters, KinetoJsonReadsBackAsTheSameTrace) {
  testing::TempDir dir;
  const std::string path = dir.File("synthetic.json");
  auto writer = KinetoJsonWriter::Create(path);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  ASSERT_TRUE(GenerateSyntheticTrace(Options(), **writer).ok());
  ASSERT_TRUE((*writer)->Close().ok());

  model::ModelBuilder builder;
  const base::Status imported = kineto::ImportKinetoTrace(path, builder);
  ASSERT_TRUE(imported.ok()) << imported.message();
  ExpectSameTrace(std::move(builder).Build(), Direct());
}

TEST(TraceFormatWriters, NsysSqliteReadsBackAsTheSameTrace) {
  testing::TempDir dir;
  const std::string path = dir.File("synthetic.sqlite");
  auto writer = NsysSqliteWriter::Create(path);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  ASSERT_TRUE(GenerateSyntheticTrace(Options(), **writer).ok());
  ASSERT_TRUE((*writer)->Close().ok());

  model::ModelBuilder builder;
  const base::Status imported = nsys::ImportNsysSqlite(path, builder);
  ASSERT_TRUE(imported.ok()) << imported.message();
  ExpectSameTrace(std::move(builder).Build(), Direct());
}

TEST(TraceFormatWriters, ACreateErrorNamesTheFile) {
  const auto kineto = KinetoJsonWriter::Create("/nonexistent-dir/x.json");
  ASSERT_FALSE(kineto.ok());
  EXPECT_NE(kineto.status().message().find("/nonexistent-dir/x.json"), std::string::npos);
  const auto nsys = NsysSqliteWriter::Create("/nonexistent-dir/x.sqlite");
  ASSERT_FALSE(nsys.ok());
  EXPECT_NE(nsys.status().message().find("/nonexistent-dir/x.sqlite"), std::string::npos);
}

}  // namespace
}  // namespace ampprof::synthetic
