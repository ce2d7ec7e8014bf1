// libFuzzer target: the Nsight Systems SQLite importer, into a model, then every analyzer and report format.

#include "collectors/nsys/nsys_importer.h"
#include "src/model/model_builder.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ampprof::fuzz::FuzzInputFile file(data, size, ampprof::fuzz::FuzzInputFile::Backing::kShmFile);
  ampprof::model::ModelBuilder builder;
  if (ampprof::nsys::ImportNsysSqlite(file.path(), builder).ok()) {
    ampprof::fuzz::AnalyzeAndReport(std::move(builder).Build(), ampprof::pipeline::TraceFormat::kNsysSqlite);
  }
  return 0;
}
