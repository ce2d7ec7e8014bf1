// What issue 20 asked the reports to say in the user's words, end to end from a trace file: the op behind
// the kernels and its shapes (the op table, tensor_cores.misaligned naming the dimension to pad), the
// PyTorch allocator's peak memory in every format, and training or inference (no training advice for an
// inference run). Synthetic Kineto traces written here, and the shared fixtures where they hold the case.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "reports/html/html_reporter.h"
#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/base/format.h"
#include "src/pipeline/analysis.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

struct Rendered {
  std::string verbose;
  std::string json;
  std::string markdown;
  std::string html;
};

Rendered RenderAll(const std::vector<analyzers::Report>& reports) {
  Rendered rendered;
  std::ostringstream verbose;
  reports::RenderText(reports, verbose, {.width = 200, .verbose = true});
  rendered.verbose = verbose.str();
  std::ostringstream json;
  reports::RenderJson(reports, json, {});
  rendered.json = json.str();
  std::ostringstream markdown;
  reports::RenderMarkdown(reports, markdown);
  rendered.markdown = markdown.str();
  std::ostringstream html;
  reports::RenderHtml(reports, html, {});
  rendered.html = html.str();
  return rendered;
}

// A PyTorch profiler trace of an A100 running `iterations` times: aten::bmm over [96, 3137, 64] x
// [96, 64, 3137] (a TF32 align1 kernel, the slow unaligned variant, 100 us) and aten::linear over aligned
// shapes (a TF32 align4 kernel, 100 us); each op launches its kernel through cudaLaunchKernel, linked by
// External id and correlation. `extra_events` is appended (memory events).
std::string KinetoTrace(int iterations, const std::string& extra_events = "") {
  std::string events;
  auto add = [&](const std::string& event) { events += (events.empty() ? "" : ",\n") + event; };
  int64_t t = 1'000'000;
  int correlation = 100;
  auto op = [&](const char* name, const char* dims, const char* kernel) {
    const int id = correlation++;
    add(fmt::format(R"({{"ph": "X", "cat": "cpu_op", "name": "{}", "pid": 7, "tid": 7, "ts": {}, "dur": 20, )"
                    R"("args": {{"External id": {}, "Input Dims": {}, "Input type": ["float", "float"]}}}})",
                    name, t, id, dims));
    add(fmt::format(R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, )"
                    R"("ts": {}, "dur": 5, "args": {{"External id": {}, "correlation": {}}}}})",
                    t + 5, id, id));
    add(fmt::format(R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": 7, "ts": {}, "dur": 100, )"
                    R"("args": {{"External id": {}, "device": 0, "stream": 7, "correlation": {}}}}})",
                    kernel, t + 12, id, id));
    t += 110;
  };
  for (int i = 0; i < iterations; ++i) {
    op("aten::bmm", "[[96, 3137, 64], [96, 64, 3137]]",
       "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nt_align1>(cutlass_80_tensorop_s1688gemm_"
       "128x128_16x4_nt_align1::Params)");
    op("aten::linear", "[[256, 1024], [1024, 1024]]",
       "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>(cutlass_80_tensorop_s1688gemm_"
       "64x64_16x6_nt_align4::Params)");
  }
  if (!extra_events.empty()) add(extra_events);
  return fmt::format(R"({{"schemaVersion": 1, "deviceProperties": [{{"id": 0, "name": "NVIDIA A100-SXM4-40GB", )"
                     R"("totalGlobalMem": 42505273344, "computeMajor": 8, "computeMinor": 0, "numSms": 108}}], )"
                     R"("traceEvents": [{}]}})",
                     events);
}

std::string Write(const testing::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.File(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const analyzers::Finding* FindingOf(const analyzers::Report& report, std::string_view id) {
  for (const analyzers::Finding& finding : report.findings) {
    if (finding.id == id) return &finding;
  }
  return nullptr;
}

TEST(OpAttribution, TheMisalignedFindingNamesTheOpAndTheDimensionToPad) {
  testing::TempDir dir;
  const auto reports = AnalyzeTraces({Write(dir, "bmm.json", KinetoTrace(10))});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Finding* finding = FindingOf(reports->front(), "tensor_cores.misaligned");
  ASSERT_NE(finding, nullptr);
  std::vector<std::string> ops;
  for (const analyzers::Evidence& evidence : finding->evidence) {
    if (evidence.label == "op") ops.push_back(evidence.value.text);
  }
  ASSERT_EQ(ops.size(), 1u) << "only the bmm's kernels are unaligned";
  EXPECT_NE(ops[0].find("aten::bmm [96, 3137, 64], [96, 64, 3137]"), std::string::npos) << ops[0];
  EXPECT_NE(ops[0].find("3137 is not a multiple of 8 (pad 3137 to 3144)"), std::string::npos) << ops[0];
  EXPECT_EQ(finding->fix,
            "Pad 3137 in aten::bmm [96, 3137, 64], [96, 64, 3137] to multiples of 8 (3137 to 3144): the library then "
            "runs aligned Tensor-Core kernels");
  // The op table: both ops, by time, with their shapes, type and unit, in every view that has it.
  ASSERT_TRUE(reports->front().ops.has_value());
  const analyzers::OpTable& table = *reports->front().ops;
  EXPECT_EQ(table.attributed_kernels, 20u);
  EXPECT_EQ(table.kernels, 20u);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].kernels, 10u);
  EXPECT_EQ(table.rows[0].input_type, "FP32");
  EXPECT_EQ(table.rows[0].unit, "Tensor Cores");
  const Rendered rendered = RenderAll(*reports);
  for (const std::string* view : {&rendered.verbose, &rendered.json, &rendered.html}) {
    EXPECT_NE(view->find("[96, 3137, 64], [96, 64, 3137]"), std::string::npos);
    EXPECT_NE(view->find("[256, 1024], [1024, 1024]"), std::string::npos);
  }
}

// An A100 running `iterations` FP16 grouped convolutions in NCHW: each aten::cudnn_convolution op
// launches cuDNN's NCHW->NHWC conversion, a grouped direct kernel on CUDA cores and the conversion back.
std::string GroupedConvolutionTrace(int iterations) {
  std::string events;
  auto add = [&](const std::string& event) { events += (events.empty() ? "" : ",\n") + event; };
  int64_t t = 1'000'000;
  int correlation = 100;
  const char* kernels[] = {
      "void nchwToNhwcKernel<__half, __half, float, true, false, (cudnnKernelDataType_t)0>(int, int, int, int, "
      "__half const*, __half*, float, float)",
      "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, __half, __half, float, "
      "float, float>(cudnn::cnn::GroupedDirectFpropParams, __half const*, __half const*, __half*, float, float, "
      "float const*, float const*, float const*, cudnnActivationStruct)",
      "void nhwcToNchwKernel<__half, __half, float, true, false, (cudnnKernelDataType_t)0>(int, int, int, int, "
      "__half const*, __half*, float, float)"};
  const int64_t durations[] = {20, 100, 20};
  for (int i = 0; i < iterations; ++i) {
    add(fmt::format(R"({{"ph": "X", "cat": "cpu_op", "name": "aten::cudnn_convolution", "pid": 7, "tid": 7, )"
                    R"("ts": {}, "dur": 40, "args": {{"External id": {}, "Input Dims": [[32, 64, 56, 56], )"
                    R"([64, 2, 3, 3]], "Input type": ["c10::Half", "c10::Half"]}}}})",
                    t, correlation));
    int64_t gpu = t + 12;
    for (int k = 0; k < 3; ++k) {
      const int id = correlation++;
      add(fmt::format(R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, )"
                      R"("ts": {}, "dur": 5, "args": {{"External id": {}, "correlation": {}}}}})",
                      t + 5 + 10 * k, id, id));
      add(fmt::format(R"({{"ph": "X", "cat": "kernel", "name": "{}", "pid": 0, "tid": 7, "ts": {}, "dur": {}, )"
                      R"("args": {{"External id": {}, "device": 0, "stream": 7, "correlation": {}}}}})",
                      kernels[k], gpu, durations[k], id, id));
      gpu += durations[k] + 2;
    }
    t += 160;
  }
  return fmt::format(R"({{"schemaVersion": 1, "deviceProperties": [{{"id": 0, "name": "NVIDIA A100-SXM4-40GB", )"
                     R"("totalGlobalMem": 42505273344, "computeMajor": 8, "computeMinor": 0, "numSms": 108}}], )"
                     R"("traceEvents": [{}]}})",
                     events);
}

TEST(OpAttribution, LayoutAndGroupedConvolutionFindingsNameTheConvolutionOp) {
  testing::TempDir dir;
  const auto reports = AnalyzeTraces({Write(dir, "grouped.json", GroupedConvolutionTrace(30))});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_EQ(reports->size(), 1u);
  for (const char* id : {"layout.nchw_nhwc", "conv.grouped_fallback"}) {
    const analyzers::Finding* finding = FindingOf(reports->front(), id);
    ASSERT_NE(finding, nullptr) << id;
    const auto op = std::find_if(finding->evidence.begin(), finding->evidence.end(),
                                 [](const analyzers::Evidence& e) { return e.label == "op"; });
    ASSERT_NE(op, finding->evidence.end()) << id << ": no op evidence";
    const std::string& text = op->value.text;
    EXPECT_NE(text.find("aten::cudnn_convolution [32, 64, 56, 56], [64, 2, 3, 3]"), std::string::npos)
        << id << ": " << text;
  }
}

TEST(OpAttribution, WithoutShapesTheFindingSaysWhatIsMissing) {
  testing::TempDir dir;
  std::string trace = KinetoTrace(10);
  // The same trace profiled without record_shapes: no "Input Dims".
  for (size_t at; (at = trace.find(R"(, "Input Dims": )")) != std::string::npos;) {
    trace.erase(at, trace.find(']', trace.find("]]", at) + 1) + 1 - at);
  }
  const auto reports = AnalyzeTraces({Write(dir, "no_shapes.json", trace)});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Finding* finding = FindingOf(reports->front(), "tensor_cores.misaligned");
  ASSERT_NE(finding, nullptr);
  bool named_op = false;
  for (const analyzers::Evidence& evidence : finding->evidence) {
    if (evidence.label == "op") named_op |= evidence.value.text.starts_with("aten::bmm: ");
    if (evidence.label == "source") {
      EXPECT_NE(evidence.value.text.find("records no op shapes (PyTorch profiler: record_shapes=True)"),
                std::string::npos);
    }
  }
  EXPECT_TRUE(named_op);
  EXPECT_EQ(finding->fix, "Pad the dimensions that feed matmuls to multiples of 8.") << "the page's: no dimension to name";
}

TEST(DeviceMemory, TheAllocatorsPeakIsInEveryFormat) {
  testing::TempDir dir;
  // The caching allocator's events: CPU ones (Device Type 0) are not the GPU's; the peak is the highest
  // Total Allocated and Total Reserved, which a later free does not lower.
  std::string memory;
  auto event = [&](int64_t ts, int device_type, int64_t bytes, int64_t allocated, int64_t reserved) {
    memory += fmt::format(R"({}{{"ph": "i", "s": "t", "name": "[memory]", "pid": 7, "tid": 7, "ts": {}, "args": )"
                          R"({{"Device Type": {}, "Device Id": {}, "Addr": 1, "Bytes": {}, "Total Allocated": {}, )"
                          R"("Total Reserved": {}}}}})",
                          memory.empty() ? "" : ",\n", ts, device_type, device_type == 1 ? 0 : -1, bytes, allocated,
                          reserved);
  };
  event(1'000'010, 1, 100 << 20, 300 << 20, 320 << 20);
  event(1'000'500, 1, 200 << 20, 500 << 20, 640 << 20);
  event(1'000'700, 0, 900 << 20, 900 << 20, 900 << 20);  // host memory
  event(1'000'900, 1, -(200 << 20), 300 << 20, 640 << 20);
  const auto reports = AnalyzeTraces({Write(dir, "memory.json", KinetoTrace(5, memory))});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::DeviceSummary& gpu = reports->front().summary.devices.at(0);
  ASSERT_TRUE(gpu.peak_allocated_bytes.has_value());
  EXPECT_EQ(*gpu.peak_allocated_bytes, uint64_t{500} << 20);
  ASSERT_TRUE(gpu.peak_reserved_bytes.has_value());
  EXPECT_EQ(*gpu.peak_reserved_bytes, uint64_t{640} << 20);
  EXPECT_EQ(gpu.memory_source, "allocator");
  const Rendered rendered = RenderAll(*reports);
  const std::string allocated = base::FormatBytes(uint64_t{500} << 20) + " allocated";
  const std::string reserved = base::FormatBytes(uint64_t{640} << 20) + " reserved";
  for (const std::string* view : {&rendered.verbose, &rendered.markdown, &rendered.html}) {
    EXPECT_NE(view->find(allocated), std::string::npos) << *view;
    EXPECT_NE(view->find(reserved), std::string::npos);
  }
  EXPECT_NE(rendered.json.find(fmt::format(R"("source": "allocator",)")), std::string::npos) << rendered.json;
  EXPECT_NE(rendered.json.find(fmt::format(R"("bytes": {},)", uint64_t{500} << 20)), std::string::npos);
  EXPECT_NE(rendered.json.find(fmt::format(R"("bytes": {},)", uint64_t{640} << 20)), std::string::npos);
}

TEST(DeviceMemory, TheComparisonShowsBothRunsPeaks) {
  testing::TempDir dir;
  auto memory_event = [](int64_t allocated) {
    return fmt::format(R"({{"ph": "i", "s": "t", "name": "[memory]", "pid": 7, "tid": 7, "ts": 1000300, "args": )"
                       R"({{"Device Type": 1, "Device Id": 0, "Bytes": 4096, "Total Allocated": {}, )"
                       R"("Total Reserved": {}}}}})",
                       allocated, allocated * 2);
  };
  const std::string fp32 = Write(dir, "fp32.json", KinetoTrace(5, memory_event(int64_t{800} << 20)));
  const std::string amp = Write(dir, "amp.json", KinetoTrace(5, memory_event(int64_t{500} << 20)));
  const auto reports = AnalyzeTraces({amp}, {.baseline = fp32});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  ASSERT_TRUE(reports->front().comparison.has_value());
  const analyzers::Comparison& c = *reports->front().comparison;
  EXPECT_EQ(c.baseline.peak_allocated_bytes, uint64_t{800} << 20);
  EXPECT_EQ(c.candidate.peak_allocated_bytes, uint64_t{500} << 20);
  EXPECT_EQ(c.candidate.peak_reserved_bytes, uint64_t{1000} << 20);
  const Rendered rendered = RenderAll(*reports);
  for (const std::string* view : {&rendered.verbose, &rendered.markdown, &rendered.html}) {
    EXPECT_NE(view->find(base::FormatBytes(uint64_t{800} << 20) + " allocated"), std::string::npos);
    EXPECT_NE(view->find(base::FormatBytes(uint64_t{500} << 20) + " allocated"), std::string::npos);
  }
  EXPECT_NE(rendered.json.find(fmt::format(R"("peak_allocated_bytes": {})", uint64_t{800} << 20)), std::string::npos);
}

// ---- The shared fixtures ----

std::string Fixture(const char* path) {
  const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
  return std::filesystem::is_directory(root) ? (root / path).string() : "";
}

TEST(SharedFixtureOps, ResNetsTopOpsAreConvolutionsWithTheirShapes) {
  const std::string path = Fixture("pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/"
                                   "worker0.1623143089861.pt.trace.json.gz");
  if (path.empty()) GTEST_SKIP() << "../shared/fixtures is absent (a fresh clone)";
  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Report& report = reports->front();
  ASSERT_TRUE(report.ops.has_value());
  const analyzers::OpTable& table = *report.ops;
  EXPECT_GT(table.attributed_kernels, table.kernels * 95 / 100) << "External id links nearly every kernel";
  // Rows are (op, shapes), as the TensorBoard plugin's "operator + input shape" view: convolutions, forward
  // and backward, are most of the top ten (batch norm's backward over the largest activation is first).
  ASSERT_GE(table.rows.size(), 10u);
  size_t convolutions = 0;
  for (size_t i = 0; i < 10; ++i) {
    SCOPED_TRACE(table.rows[i].name);
    EXPECT_FALSE(table.rows[i].shapes.empty());
    EXPECT_EQ(table.rows[i].input_type, "FP32");
    if (table.rows[i].name.find("convolution") == std::string::npos) continue;
    ++convolutions;
    EXPECT_EQ(table.rows[i].unit, "CUDA cores") << "FP32 convolutions on a V100";
  }
  EXPECT_GE(convolutions, 7u);
  const auto forward = std::find_if(table.rows.begin(), table.rows.end(), [](const analyzers::OpRow& row) {
    return row.name == "aten::cudnn_convolution";
  });
  ASSERT_NE(forward, table.rows.end());
  EXPECT_EQ(forward->shapes, "[32, 256, 14, 14], [1024, 256, 1, 1]");
  EXPECT_EQ(report.summary.run_kind, analyzers::RunKind::kTraining);
  // profile_memory=True: the caching allocator's peak on the V100.
  const analyzers::DeviceSummary& gpu = report.summary.devices.at(0);
  EXPECT_EQ(gpu.memory_source, "allocator");
  EXPECT_TRUE(gpu.peak_allocated_bytes.has_value());
}

TEST(SharedFixtureOps, BertInferenceGetsNoTrainingAdvice) {
  const std::string path = Fixture("AMD-AGI__TraceLens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz");
  if (path.empty()) GTEST_SKIP() << "../shared/fixtures is absent (a fresh clone)";
  const auto reports = AnalyzeTraces({path});
  ASSERT_TRUE(reports.ok()) << reports.status().ToString();
  const analyzers::Report& report = reports->front();
  EXPECT_EQ(report.summary.run_kind, analyzers::RunKind::kInference) << report.summary.run_kind_evidence;
  ASSERT_FALSE(report.findings.empty());
  for (const analyzers::Finding& finding : report.findings) {
    for (const char* word : {"loss", "GradScaler", "optimizer", "backward", "train", "learning rate"}) {
      EXPECT_EQ(finding.fix.find(word), std::string::npos) << finding.id << ": " << finding.fix;
      EXPECT_EQ(finding.fix_code.find(word), std::string::npos) << finding.id << ": " << finding.fix_code;
    }
  }
}

}  // namespace
}  // namespace ampprof::pipeline
