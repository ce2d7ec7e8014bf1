// libFuzzer target: the Nsight Systems SQLite importer, into a model.

#include "collectors/nsys/nsys_importer.h"
#include "src/model/model_builder.h"
#include "tests/fuzz/fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ampprof::fuzz::FuzzInputFile file(data, size);
  ampprof::model::ModelBuilder builder;
  if (ampprof::nsys::ImportNsysSqlite(file.path(), builder).ok()) {
    const ampprof::model::TraceModel model = std::move(builder).Build();
    static_cast<void>(model.GpuSpan());
  }
  return 0;
}
