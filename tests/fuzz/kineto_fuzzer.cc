// libFuzzer target: the PyTorch profiler (Kineto) JSON importer, plain and gzip, into a model, then every analyzer and report format.
// Any input must give a Status or records, never a crash, a hang or a sanitizer report. The import split
// into blocks on threads (event_blocks.h), on windows small enough that every input is several, must
// give the one-thread import's error or the same records and counts: a difference is a finding (a trap).

#include <cstdlib>

#include "collectors/kineto/kineto_importer.h"
#include "collectors/records/record_set.h"
#include "src/model/model_builder.h"
#include "tests/fuzz/fuzz_analysis.h"
#include "tests/fuzz/fuzz_input_file.h"

namespace {

bool SameImport(const ampprof::base::Status& one_status, const ampprof::records::RecordSet& one,
                const ampprof::base::Status& many_status, const ampprof::records::RecordSet& many) {
  if (one_status.message() != many_status.message()) return false;
  if (!one_status.ok()) return true;
  if (one.record_count() != many.record_count()) return false;
#define AMPPROF_SAME_STAT(enumerator, name, severity, description) \
  if (one.stats().Get(ampprof::base::Stat::enumerator) != many.stats().Get(ampprof::base::Stat::enumerator)) return false;
  AMPPROF_STATS_CATALOG(AMPPROF_SAME_STAT)
#undef AMPPROF_SAME_STAT
  for (size_t i = 0; i < one.kernels.size(); ++i) {
    if (one.kernels[i].start != many.kernels[i].start || one.Text(one.kernels[i].name) != many.Text(many.kernels[i].name)) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ampprof::fuzz::FuzzInputFile file(data, size);
  ampprof::records::RecordSet one, many;
  const ampprof::base::Status one_status = ampprof::kineto::ImportKinetoTrace(file.path(), one);
  const ampprof::base::Status many_status = ampprof::kineto::ImportKinetoTrace(
      file.path(), many, {.threads = 3, .window_bytes = 2048, .min_block_bytes = 64});
  if (!SameImport(one_status, one, many_status, many)) std::abort();
  ampprof::model::ModelBuilder builder;
  if (ampprof::kineto::ImportKinetoTrace(file.path(), builder).ok()) {
    ampprof::fuzz::AnalyzeAndReport(std::move(builder).Build(), ampprof::pipeline::TraceFormat::kKinetoJson);
  }
  return 0;
}
