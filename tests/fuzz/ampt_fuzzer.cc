// libFuzzer target: the .ampt reader, into a model, then every analyzer and report format.

#include "collectors/records/ampt_reader.h"
#include "src/model/model_builder.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/fuzz_input_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ampprof::fuzz::FuzzInputFile file(data, size);
  ampprof::model::ModelBuilder builder;
  if (ampprof::records::ReadAmptFile(file.path(), builder).ok()) {
    ampprof::fuzz::AnalyzeAndReport(std::move(builder).Build(), ampprof::pipeline::TraceFormat::kAmpt);
  }
  return 0;
}
