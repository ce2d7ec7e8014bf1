// libFuzzer target: the PyTorch profiler (Kineto) JSON importer, plain and gzip, into a model.
// Any input must give a Status or records, never a crash, a hang or a sanitizer report.

#include "collectors/kineto/kineto_importer.h"
#include "src/model/model_builder.h"
#include "tests/fuzz/fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ampprof::fuzz::FuzzInputFile file(data, size);
  ampprof::model::ModelBuilder builder;
  if (ampprof::kineto::ImportKinetoTrace(file.path(), builder).ok()) {
    const ampprof::model::TraceModel model = std::move(builder).Build();
    static_cast<void>(model.GpuSpan());
  }
  return 0;
}
