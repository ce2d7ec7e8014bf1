#ifndef AMPPROF_TESTS_REPORTS_EXPORT_EXPORT_TEST_TRACE_H_
#define AMPPROF_TESTS_REPORTS_EXPORT_EXPORT_TEST_TRACE_H_

// A small training loop for the export tests: one H100, one Python thread, four ProfilerStep ranges
// each with a cpu_op, a launched GEMM and a cast; a pinned HtoD copy and a memset launched by API
// calls; an NVTX mark; a kernel name with a quote and a stray byte. Plus one finding, as the
// analyzers would report it.

#include <optional>
#include <vector>

#include "analyzers/findings/registry.h"
#include "analyzers/findings/finding.h"
#include "reports/export/export_input.h"
#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"

namespace ampprof::reports {

inline constexpr const char* kTestGemm =
    "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn";
inline constexpr const char* kTestOddKernel = "void cast<\"half\">(\xff)";
inline constexpr base::TimeNs kTestStepNs = 100'000;
inline constexpr base::TimeNs kTestOrigin =
    1'733'878'431'540'588'001;  // an epoch-ns clock, as CUPTI's

inline model::TraceModel BuildExportTestModel() {
  model::ModelBuilder builder;
  testing::RecordBuilder b(builder);
  b.Device(0, "NVIDIA H100 80GB HBM3", 9, 0);
  b.Thread("python main");
  for (int step = 0; step < 4; ++step) {
    const base::TimeNs t = kTestOrigin + step * kTestStepNs;
    b.Range("ProfilerStep#" + std::to_string(step), t, t + 90'000,
            records::RangeCategory::kUserAnnotation);
    b.Range("aten::linear", t + 1'000, t + 20'001, records::RangeCategory::kCpuOp);
    b.Launch(kTestGemm, {t + 2'000, t + 7'003}, {t + 9'000, t + 40'007});
    b.Launch(step == 0 ? kTestOddKernel : "void at::native::cast_kernel<float, c10::Half>()",
             {t + 21'000, t + 24'000}, {t + 41'000, t + 45'000});
  }
  const base::TimeNs end = kTestOrigin + 4 * kTestStepNs;
  const uint32_t copy = b.NextCorrelation();
  b.ApiCall("cudaMemcpyAsync", end + 100, end + 900, copy);
  records::MemcpyRecord memcpy_record;
  memcpy_record.pid = b.pid;
  memcpy_record.device_id = 0;
  memcpy_record.stream_id = 7;
  memcpy_record.correlation_id = copy;
  memcpy_record.kind = records::MemcpyKind::kHostToDevice;
  memcpy_record.src_kind = records::MemoryKind::kPinned;
  memcpy_record.dst_kind = records::MemoryKind::kDevice;
  memcpy_record.bytes = 4096;
  memcpy_record.start = end + 1'000;
  memcpy_record.end = end + 2'000;
  builder.Add(memcpy_record);
  const uint32_t set = b.NextCorrelation();
  b.ApiCall("cudaMemsetAsync", end + 3'000, end + 3'500, set);
  records::MemsetRecord memset_record;
  memset_record.pid = b.pid;
  memset_record.device_id = 0;
  memset_record.stream_id = 13;
  memset_record.correlation_id = set;
  memset_record.bytes = 512;
  memset_record.start = end + 4'000;
  memset_record.end = end + 4'400;
  builder.Add(memset_record);
  b.Mark("checkpoint saved", end + 5'000);
  return std::move(builder).Build();
}

inline analyzers::Finding ExportTestFinding() {
  analyzers::Finding finding;
  finding.id = "gpu.launch_bound";
  finding.severity = analyzers::Severity::kWarning;
  finding.verdict = "GPU 0 is idle 60.1% of the time waiting for the host to launch \"kernels\"";
  finding.evidence = {{"GPU busy", analyzers::Statement("{busy} of {window}", {analyzers::Fraction("busy", 0.399),
                                                                             analyzers::Duration("window", 336'000)})},
                      {"note", "a second line"}};
  finding.examples = {kTestGemm};
  finding.saving = analyzers::Saving::Exact(200'000, 0.601, "the launch waits");
  return finding;
}

// The model with what the analysis finds in it: its steps (the ProfilerStep ranges) and one
// finding.
struct ExportTestTrace {
  model::TraceModel model = BuildExportTestModel();
  analyzers::AnalysisInput analysis{model};
  std::vector<analyzers::Finding> findings = {ExportTestFinding()};

  ExportInput input() const { return {model, analysis.steps(), findings, "run \"1\".ampt"}; }
};

}  // namespace ampprof::reports

#endif  // AMPPROF_TESTS_REPORTS_EXPORT_EXPORT_TEST_TRACE_H_
