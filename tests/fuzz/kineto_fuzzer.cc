// libFuzzer target: the PyTorch profiler (Kineto) JSON importer, plain and gzip, into a model, then every analyzer and report format.
// Any input must give a Status or records, never a crash, a hang or a sanitizer report.

#include "collectors/kineto/kineto_importer.h"
#include "src/model/model_builder.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ampprof::fuzz::FuzzInputFile file(data, size);
  ampprof::model::ModelBuilder builder;
  if (ampprof::kineto::ImportKinetoTrace(file.path(), builder).ok()) {
    ampprof::fuzz::AnalyzeAndReport(std::move(builder).Build(), ampprof::pipeline::TraceFormat::kKinetoJson);
  }
  return 0;
}
