#include "reports/export/chrome_trace_exporter.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analyzers/findings/registry.h"
#include "collectors/kineto/kineto_importer.h"
#include "src/model/model_builder.h"
#include "tests/testing/record_builder.h"
#include "tests/reports/export/export_test_trace.h"
#include "tests/testing/chrome_trace_checks.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::reports {
namespace {

using testing::ChromeEvent;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string Export(const ExportInput& input) {
  std::ostringstream out;
  const base::Status status = WriteChromeTrace(input, out);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return out.str();
}

testing::ChromeDocument Parse(const std::string& json) {
  auto document = testing::ParseChromeTrace(json);
  EXPECT_TRUE(document.ok()) << document.status().ToString();
  return document.ok() ? *document : testing::ChromeDocument{};
}

std::vector<const ChromeEvent*> Select(const testing::ChromeDocument& document, std::string_view ph,
                                       std::string_view cat) {
  std::vector<const ChromeEvent*> selected;
  for (const ChromeEvent& event : document.events) {
    if (event.ph == ph && (cat.empty() || event.cat == cat)) selected.push_back(&event);
  }
  return selected;
}

// The name a metadata event gives (pid, tid), or "".
std::string MetadataName(const testing::ChromeDocument& document, std::string_view what,
                         int64_t pid, int64_t tid) {
  for (const ChromeEvent& event : document.events) {
    if (event.ph == "M" && event.name == what && event.pid == pid &&
        (what == "process_name" || event.tid == tid)) {
      return event.args;
    }
  }
  return "";
}

TEST(ChromeTraceExporter, WritesValidTraceEventJsonThatViewersCanDraw) {
  const ExportTestTrace trace;
  const testing::ChromeDocument document = Parse(Export(trace.input()));
  EXPECT_EQ(document.display_time_unit, "ns");
  EXPECT_THAT(testing::ChromeTraceProblems(document), IsEmpty());
}

// The checks the tests above rely on do catch what they look for.
TEST(ChromeTraceExporter, ViewerChecksCatchOverlapsAndLooseFlows) {
  const testing::ChromeDocument document = Parse(R"({"traceEvents": [
      {"ph": "X", "name": "a", "cat": "c", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "name": "b", "cat": "c", "pid": 1, "tid": 1, "ts": 5, "dur": 10},
      {"ph": "X", "name": "c", "cat": "c", "pid": 1, "tid": 2, "ts": 0, "dur": 10},
      {"ph": "X", "name": "d", "cat": "c", "pid": 1, "tid": 2, "ts": 2, "dur": 8},
      {"ph": "s", "name": "f", "cat": "c", "pid": 1, "tid": 2, "ts": 1, "id": 7},
      {"ph": "f", "name": "f", "cat": "c", "pid": 1, "tid": 3, "ts": 1, "id": 7, "bp": "e"},
      {"ph": "s", "name": "f", "cat": "c", "pid": 1, "tid": 2, "ts": 1, "id": 8}]})");
  EXPECT_THAT(testing::ChromeTraceProblems(document),
              ::testing::UnorderedElementsAre(
                  HasSubstr("pid 1 tid 1: slice [5000, 15000) overlaps [0, 10000)"),
                  HasSubstr("flow 7 'f' at 1000 on pid 1 tid 3: no slice there"),
                  HasSubstr("flow 8: 1 starts and 0 ends")));
  EXPECT_FALSE(
      testing::ParseChromeTrace(R"({"traceEvents": [{"ph": "X", "pid": 1, "ts": 1}]})").ok())
      << "an X event without dur";
  EXPECT_FALSE(testing::ParseChromeTrace(R"({"traceEvents": []} trailing)").ok());
}

TEST(ChromeTraceExporter, DrawsEveryKernelOnItsGpuStreamTrack) {
  const ExportTestTrace trace;
  const testing::ChromeDocument document = Parse(Export(trace.input()));
  const auto kernels = Select(document, "X", "kernel");
  ASSERT_EQ(kernels.size(), trace.model.kernels().size());
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    const model::KernelRow row(i);
    EXPECT_EQ(kernels[i]->name, trace.model.KernelName(row) == kTestOddKernel
                                    ? "void cast<\"half\">(\uFFFD)"
                                    : trace.model.KernelName(row));
    EXPECT_EQ(kernels[i]->ts, trace.model.kernels().start[row]) << "nanoseconds are kept";
    EXPECT_EQ(kernels[i]->dur, trace.model.kernels().duration(row));
    EXPECT_EQ(kernels[i]->pid, kChromeFirstGpuPid);
    EXPECT_EQ(kernels[i]->tid, 7);
    EXPECT_THAT(kernels[i]->args, HasSubstr(R"("device":0,"stream":7,"correlation":)"));
    EXPECT_THAT(kernels[i]->args, HasSubstr(R"("grid":[1,1,1],"block":[128,1,1])"));
  }
  EXPECT_THAT(MetadataName(document, "process_name", kChromeFirstGpuPid, 0),
              HasSubstr("GPU 0: NVIDIA H100 80GB HBM3"));
  EXPECT_THAT(MetadataName(document, "thread_name", kChromeFirstGpuPid, 7), HasSubstr("stream 7"));
  EXPECT_THAT(MetadataName(document, "thread_name", kChromeFirstGpuPid, 13),
              HasSubstr("stream 13"));
}

// A trace may describe every GPU of the machine; one that ran nothing gets no (empty) track.
TEST(ChromeTraceExporter, ListsOnlyTheGpusThatRanSomething) {
  model::ModelBuilder builder;
  testing::RecordBuilder b(builder);
  b.Device(0, "NVIDIA H100 80GB HBM3", 9, 0);
  b.Device(1, "NVIDIA H100 80GB HBM3", 9, 0);
  b.Thread("python main");
  b.Launch(kTestGemm, {kTestOrigin, kTestOrigin + 1'000}, {kTestOrigin + 2'000, kTestOrigin + 9'000});
  const model::TraceModel model = std::move(builder).Build();
  ASSERT_EQ(model.devices().size(), 2u);
  const std::optional<analyzers::Steps> no_steps;
  const testing::ChromeDocument document = Parse(Export({model, no_steps, {}, "two-gpus.ampt"}));
  size_t gpu_names = 0;
  for (const ChromeEvent& event : document.events) {
    if (event.ph == "M" && event.name == "process_name" && event.pid >= kChromeFirstGpuPid) ++gpu_names;
  }
  EXPECT_EQ(gpu_names, 1u);
  EXPECT_THAT(MetadataName(document, "process_name", kChromeFirstGpuPid, 0), HasSubstr("GPU 0"));
}

TEST(ChromeTraceExporter, DrawsHostCallsRangesAndMarksOnTheirThread) {
  const ExportTestTrace trace;
  const testing::ChromeDocument document = Parse(Export(trace.input()));
  const auto calls = Select(document, "X", "cuda_runtime");
  EXPECT_EQ(calls.size(), trace.model.api_calls().size());
  EXPECT_EQ(Select(document, "X", "user_annotation").size(), 4u);
  EXPECT_EQ(Select(document, "X", "cpu_op").size(), 4u);
  const auto marks = Select(document, "i", "nvtx");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0]->name, "checkpoint saved");
  for (const ChromeEvent* call : calls) {
    EXPECT_EQ(call->pid, 100);
    EXPECT_EQ(call->tid, 101);
  }
  EXPECT_THAT(MetadataName(document, "thread_name", 100, 101), HasSubstr("python main"));
  EXPECT_THAT(MetadataName(document, "process_name", 100, 0), HasSubstr("pid 100"));
}

TEST(ChromeTraceExporter, NamesCopiesAndMemsetsAsKinetoDoes) {
  const ExportTestTrace trace;
  const testing::ChromeDocument document = Parse(Export(trace.input()));
  const auto copies = Select(document, "X", "gpu_memcpy");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0]->name, "Memcpy HtoD (Pinned -> Device)");
  EXPECT_THAT(copies[0]->args, HasSubstr(R"("bytes":4096)"));
  const auto memsets = Select(document, "X", "gpu_memset");
  ASSERT_EQ(memsets.size(), 1u);
  EXPECT_EQ(memsets[0]->tid, 13);
}

TEST(ChromeTraceExporter, LinksEachLaunchToItsWorkWithAFlowArrow) {
  const ExportTestTrace trace;
  const testing::ChromeDocument document = Parse(Export(trace.input()));
  const auto starts = Select(document, "s", "");
  const auto ends = Select(document, "f", "");
  // 8 kernels, a memcpy and a memset, each launched by a recorded call.
  ASSERT_EQ(starts.size(), 10u);
  ASSERT_EQ(ends.size(), 10u);
  const model::KernelTable& kernels = trace.model.kernels();
  const model::ApiCallTable& calls = trace.model.api_calls();
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    const model::ApiCallRow launch = kernels.launch[model::KernelRow(i)];
    ASSERT_TRUE(launch.valid());
    EXPECT_EQ(starts[i]->id, ends[i]->id);
    EXPECT_EQ(starts[i]->ts, calls.start[launch]) << "from the launching call";
    EXPECT_EQ(ends[i]->ts, kernels.start[model::KernelRow(i)]) << "to the kernel";
    EXPECT_EQ(ends[i]->pid, kChromeFirstGpuPid);
    EXPECT_EQ(ends[i]->bp, "e");
  }
}

TEST(ChromeTraceExporter, PutsStepsAndFindingsOnADiagnosisProcessListedFirst) {
  const ExportTestTrace trace;
  const testing::ChromeDocument document = Parse(Export(trace.input()));
  const auto diagnosis = Select(document, "X", "ampprof");
  ASSERT_EQ(diagnosis.size(), 5u);  // four steps, one finding
  for (int step = 0; step < 4; ++step) {
    EXPECT_EQ(diagnosis[step]->name, "step " + std::to_string(step));
    EXPECT_EQ(diagnosis[step]->pid, kChromeDiagnosisPid);
    EXPECT_EQ(diagnosis[step]->tid, kChromeStepsTid);
    EXPECT_EQ(diagnosis[step]->ts, kTestOrigin + step * kTestStepNs);
    EXPECT_THAT(diagnosis[step]->args, HasSubstr(R"("found from":"ProfilerStep ranges")"));
  }
  const ChromeEvent& finding = *diagnosis[4];
  EXPECT_EQ(finding.tid, kChromeFirstFindingTid);
  EXPECT_THAT(finding.name, HasSubstr("warning gpu.launch_bound: GPU 0 is idle 60.1%"));
  EXPECT_EQ(finding.ts, kTestOrigin) << "over the measured steps";
  EXPECT_EQ(finding.dur, 3 * kTestStepNs + 90'000);
  EXPECT_THAT(finding.args,
              HasSubstr(R"("evidence":["GPU busy: 39.9% of 336 us","note: a second line"])"));
  EXPECT_THAT(finding.args, HasSubstr(R"("how to fix it":"ampprof explain gpu.launch_bound")"));
  EXPECT_THAT(MetadataName(document, "process_name", kChromeDiagnosisPid, 0),
              HasSubstr("ampprof diagnosis"));
  bool sorted_first = false;
  for (const ChromeEvent& event : document.events) {
    if (event.ph == "M" && event.name == "process_sort_index" && event.pid == kChromeDiagnosisPid) {
      sorted_first = event.args == R"({"sort_index":-1})";
    }
  }
  EXPECT_TRUE(sorted_first);
}

// The diagnosis slices that draw `id` at its locations ("gpu.launch_bound: ..."), not its bar.
std::vector<const ChromeEvent*> LocationSlices(const testing::ChromeDocument& document,
                                              std::string_view id) {
  std::vector<const ChromeEvent*> slices;
  for (const ChromeEvent* event : Select(document, "X", "ampprof")) {
    if (event->pid == kChromeDiagnosisPid && event->name.starts_with(std::string(id) + ": ")) {
      slices.push_back(event);
    }
  }
  return slices;
}

// A Python loop launching short kernels (8 us launch calls, 2 us kernels): launch-bound, with a
// longer host pause before every tenth kernel.
model::TraceModel LaunchBoundModel() {
  model::ModelBuilder builder;
  ampprof::testing::RecordBuilder b(builder);
  base::TimeNs t = kTestOrigin;
  for (int i = 0; i < 100; ++i) {
    if (i % 10 == 0 && i > 0) t += 5'000 * (i / 10);
    b.Launch(kTestGemm, {t, t + 8'000}, {t + 7'000, t + 9'000});
    t += 10'000;
  }
  return std::move(builder).Build();
}

TEST(ChromeTraceExporter, DrawsAFindingAtTheGapsItIsAbout) {
  const model::TraceModel model = LaunchBoundModel();
  const analyzers::AnalysisInput analysis(model);
  const std::vector<analyzers::Finding> findings = analyzers::RunAnalyzers(analysis);
  size_t index = 0;
  while (index < findings.size() && findings[index].id != "gpu.launch_bound") ++index;
  ASSERT_LT(index, findings.size());
  const analyzers::Finding& finding = findings[index];
  const testing::ChromeDocument document =
      Parse(Export({model, analysis.steps(), findings, "run.ampt"}));
  EXPECT_THAT(testing::ChromeTraceProblems(document), IsEmpty());

  const auto slices = LocationSlices(document, "gpu.launch_bound");
  ASSERT_EQ(slices.size(), finding.locations.size());
  ASSERT_EQ(slices.size(), analyzers::kMaxLocations);
  const model::KernelTable& kernels = model.kernels();
  for (const ChromeEvent* slice : slices) {
    EXPECT_EQ(slice->tid, kChromeFirstFindingTid + index) << "gaps never overlap: one row";
    EXPECT_EQ(slice->name, "gpu.launch_bound: waiting for the host to launch");
    // Exactly the idle time between two consecutive kernels.
    bool at_a_gap = false;
    for (uint32_t k = 0; k + 1 < kernels.size(); ++k) {
      at_a_gap |= kernels.end[model::KernelRow(k)] == slice->ts &&
                  kernels.start[model::KernelRow(k + 1)] == slice->ts + slice->dur;
    }
    EXPECT_TRUE(at_a_gap) << "slice at " << slice->ts << " for " << slice->dur;
    EXPECT_THAT(slice->args, HasSubstr(R"("verdict":"GPU 0 waits for the host to launch kernels)"));
    EXPECT_THAT(slice->args, HasSubstr(R"("saves":")"));
    EXPECT_THAT(slice->args, HasSubstr(R"("location":"launch_wait")"));
    EXPECT_THAT(slice->args, HasSubstr(R"j("places drawn":"16 of 99 (the longest)")j"));
  }
  // The longest wait (before kernel 90: 8 + 45 us) is among them.
  bool longest = false;
  for (const ChromeEvent* slice : slices) {
    longest |= slice->ts == kernels.end[model::KernelRow(89)] && slice->dur == 53'000;
  }
  EXPECT_TRUE(longest);
  // A located finding has no bar over the whole window.
  for (const ChromeEvent* event : Select(document, "X", "ampprof")) {
    EXPECT_FALSE(event->name.starts_with("critical gpu.launch_bound") ||
                 event->name.starts_with("warning gpu.launch_bound"))
        << event->name;
  }
}

TEST(ChromeTraceExporter, OverlappingLocationsGetRowsBesideTheirFinding) {
  ExportTestTrace trace;
  analyzers::Finding located = ExportTestFinding();
  located.id = "layout.nchw_nhwc";
  using analyzers::LocationKind;
  located.locations = {{{kTestOrigin, kTestOrigin + 1'000}, LocationKind::kKernel, 0, 7, "one"},
                       {{kTestOrigin + 500, kTestOrigin + 1'500}, LocationKind::kKernel, 0, 8, "two"}};
  trace.findings.push_back(located);
  const testing::ChromeDocument document = Parse(Export(trace.input()));
  EXPECT_THAT(testing::ChromeTraceProblems(document), IsEmpty());
  const auto slices = LocationSlices(document, "layout.nchw_nhwc");
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(slices[0]->name, "layout.nchw_nhwc: one");
  EXPECT_EQ(slices[0]->tid, kChromeFirstFindingTid + 1) << "the second finding's own row";
  EXPECT_EQ(slices[0]->ts, kTestOrigin);
  EXPECT_EQ(slices[0]->dur, 1'000);
  EXPECT_THAT(slices[0]->args, HasSubstr(R"("stream":7)"));
  EXPECT_EQ(slices[1]->tid, kChromeFirstFindingTid + 2) << "a row after all findings' rows";
  EXPECT_EQ(slices[1]->ts, kTestOrigin + 500);
  EXPECT_THAT(
      MetadataName(document, "thread_name", kChromeDiagnosisPid, kChromeFirstFindingTid + 2),
      HasSubstr("layout.nchw_nhwc (overlapping, 2)"));
  // The first finding has no locations: still its bar over the window.
  EXPECT_EQ(Select(document, "X", "ampprof").size(), 4u + 1u + 2u);
}

// Real traces: each located finding's slices lie inside the trace's GPU activity.
TEST(ChromeTraceExporter, LocatedFindingsOfRealTracesLieInsideTheTrace) {
  const std::string fixtures = AMPPROF_SHARED_FIXTURES_DIR;
  size_t located = 0;
  std::set<std::string> located_ids;
  for (const char* name : {"facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz",
                           "facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/"
                           "alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
                           "facebookresearch__HolisticTraceAnalysis/tests/data/timeline_analysis/"
                           "sampled_rank-0.json.gz",
                           "facebookresearch__HolisticTraceAnalysis/tests/data/with_gpu_user_annotation/"
                           "step_based_trace_2543932.json.gz"}) {
    const std::string path = fixtures + "/" + name;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent (a fresh clone)";
    model::ModelBuilder builder;
    ASSERT_TRUE(kineto::ImportKinetoTrace(path, builder).ok()) << path;
    const model::TraceModel model = std::move(builder).Build();
    const analyzers::AnalysisInput analysis(model);
    const std::vector<analyzers::Finding> findings = analyzers::RunAnalyzers(analysis);
    const testing::ChromeDocument document =
        Parse(Export({model, analysis.steps(), findings, path}));
    EXPECT_THAT(testing::ChromeTraceProblems(document), IsEmpty()) << path;
    const std::optional<base::Interval> span = model.GpuSpan();
    ASSERT_TRUE(span.has_value());
    for (const analyzers::Finding& finding : findings) {
      if (finding.locations.empty()) continue;
      ++located;
      located_ids.insert(finding.id);
      const auto slices = LocationSlices(document, finding.id);
      EXPECT_EQ(slices.size(), finding.locations.size()) << path << " " << finding.id;
      for (const ChromeEvent* slice : slices) {
        EXPECT_GT(slice->dur, 0) << path << " " << slice->name;
        EXPECT_GE(slice->ts, span->start) << path << " " << slice->name;
        EXPECT_LE(slice->ts + slice->dur, span->end) << path << " " << slice->name;
      }
    }
  }
  // param's linear trace is launch-bound; HTA's AlexNet host-bound; its sampled rank 0 shows exposed
  // communication and host-bound gaps; its step-based trace launch-bound with sync stalls.
  EXPECT_GE(located, 6u);
  EXPECT_EQ(located_ids, (std::set<std::string>{"comm.exposed", "gpu.host_bound", "gpu.launch_bound",
                                                "gpu.sync_stall", "amp.opportunity"}));
}

TEST(ChromeTraceExporter, WithoutStepsOrFindingsThereIsNoDiagnosisProcess) {
  const model::TraceModel model = BuildExportTestModel();
  const std::optional<analyzers::Steps> no_steps;
  const testing::ChromeDocument document = Parse(Export({model, no_steps, {}, "run.ampt"}));
  EXPECT_THAT(Select(document, "X", "ampprof"), IsEmpty());
  EXPECT_EQ(MetadataName(document, "process_name", kChromeDiagnosisPid, 0), "");
}

// ampprof's own Kineto importer reads the export back into the same trace: the names, categories
// and arguments are Kineto's, and the timestamps keep every nanosecond.
TEST(ChromeTraceExporter, ReadsBackWithTheKinetoImporter) {
  const ExportTestTrace trace;
  const testing::TempDir dir;
  const std::string path = dir.File("export.json");
  {
    std::ofstream file(path);
    ASSERT_TRUE(WriteChromeTrace(trace.input(), file).ok());
  }
  model::ModelBuilder builder;
  ASSERT_TRUE(kineto::ImportKinetoTrace(path, builder).ok());
  const model::TraceModel back = std::move(builder).Build();
  const model::TraceModel& original = trace.model;
  EXPECT_FALSE(back.stats().HasDataLoss());
  ASSERT_EQ(back.kernels().size(), original.kernels().size());
  for (uint32_t i = 0; i < original.kernels().size(); ++i) {
    const model::KernelRow row(i);
    if (original.KernelName(row) != kTestOddKernel) {
      EXPECT_EQ(back.KernelName(row), original.KernelName(row));
    }
    EXPECT_EQ(back.kernels().start[row], original.kernels().start[row]);
    EXPECT_EQ(back.kernels().end[row], original.kernels().end[row]);
    const model::ApiCallRow launch = back.kernels().launch[row];
    ASSERT_TRUE(launch.valid()) << "the correlation ids pair each kernel with its launch again";
    EXPECT_EQ(back.api_calls().start[launch],
              original.api_calls().start[original.kernels().launch[row]]);
  }
  EXPECT_EQ(back.api_calls().size(), original.api_calls().size());
  ASSERT_EQ(back.memcpys().size(), 1u);
  EXPECT_EQ(back.memcpys().kind[model::MemcpyRow(0)], records::MemcpyKind::kHostToDevice);
  EXPECT_EQ(back.memcpys().src_kind[model::MemcpyRow(0)], records::MemoryKind::kPinned);
  EXPECT_EQ(back.memcpys().bytes[model::MemcpyRow(0)], 4096u);
  EXPECT_TRUE(back.memcpys().launch[model::MemcpyRow(0)].valid());
  ASSERT_EQ(back.memsets().size(), 1u);
  EXPECT_EQ(back.ranges().size(), 8u);  // the ProfilerStep and cpu_op ranges
  ASSERT_EQ(back.devices().size(), 1u);
  EXPECT_EQ(back.Text(back.devices()[0].name), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(back.devices()[0].compute_major, 9u);
  ASSERT_EQ(back.threads().size(), 1u);
  EXPECT_EQ(back.Text(back.threads()[0].name), "python main");
}

// A stream that fails stops the export with an error instead of writing into the void.
TEST(ChromeTraceExporter, ReportsAFailedStream) {
  const ExportTestTrace trace;
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  const base::Status status = WriteChromeTrace(trace.input(), out);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("cannot write"));
}

}  // namespace
}  // namespace ampprof::reports
