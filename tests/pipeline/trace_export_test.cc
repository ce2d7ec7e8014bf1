// ampprof export through the pipeline: a synthetic AMP trace and every shared real trace exported
// to the Chrome trace format, parsed back (simdjson) and re-imported with ampprof's own Kineto
// importer; an Nsight Systems export's NVTXT in the report's clock; and the errors a user can meet.

#include "src/pipeline/trace_export.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "reports/export/nvtxt_exporter.h"
#include "src/pipeline/analysis.h"
#include "tests/testing/chrome_trace_checks.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::pipeline {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string ReadText(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void WriteSyntheticAmpTrace(const std::string& path) {
  synthetic::SyntheticTraceOptions options;
  options.kernels = 3000;
  auto writer = records::AmptWriter::Create(path, {});
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE(synthetic::GenerateSyntheticTrace(options, **writer).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

// The export of `trace`, read back as a trace: every kernel again, with its name, its nanoseconds
// and its launching call (whose correlation the export wrote).
void ExpectChromeRoundTrip(const std::string& trace, const std::string& output) {
  const auto summary = ExportTrace(trace, ExportFormat::kChromeTrace, output);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  const auto document = testing::ParseChromeTrace(ReadText(output));
  ASSERT_TRUE(document.ok()) << document.status().ToString();
  EXPECT_THAT(testing::ChromeTraceProblems(*document), IsEmpty()) << trace;

  const auto original = LoadAndBuild(trace);
  const auto back = LoadAndBuild(output);
  ASSERT_TRUE(original.ok() && back.ok());
  EXPECT_EQ(back->format, TraceFormat::kKinetoJson);
  const model::TraceModel& a = original->model;
  const model::TraceModel& b = back->model;
  EXPECT_EQ(summary->kernels, a.kernels().size());
  ASSERT_EQ(b.kernels().size(), a.kernels().size()) << trace;
  for (uint32_t i = 0; i < a.kernels().size(); ++i) {
    const model::KernelRow row(i);
    ASSERT_EQ(b.KernelName(row), a.KernelName(row)) << trace << " kernel " << i;
    ASSERT_EQ(b.kernels().start[row], a.kernels().start[row]) << trace << " kernel " << i;
    ASSERT_EQ(b.kernels().end[row], a.kernels().end[row]) << trace << " kernel " << i;
    if (a.kernels().launch[row].valid()) {
      ASSERT_TRUE(b.kernels().launch[row].valid()) << trace << " kernel " << i;
      EXPECT_EQ(b.api_calls().start[b.kernels().launch[row]],
                a.api_calls().start[a.kernels().launch[row]]);
    }
  }
  EXPECT_EQ(b.api_calls().size(), a.api_calls().size()) << trace;
  EXPECT_EQ(b.memcpys().size(), a.memcpys().size()) << trace;
  EXPECT_EQ(b.memsets().size(), a.memsets().size()) << trace;
  EXPECT_EQ(a.GpuSpan(), b.GpuSpan());
}

TEST(TraceExport, SyntheticAmpTraceRoundTripsThroughTheChromeFormat) {
  const testing::TempDir dir;
  WriteSyntheticAmpTrace(dir.File("amp.ampt"));
  ExpectChromeRoundTrip(dir.File("amp.ampt"), dir.File("amp.json"));
  const auto summary =
      ExportTrace(dir.File("amp.ampt"), ExportFormat::kChromeTrace, dir.File("again.json"));
  ASSERT_TRUE(summary.ok());
  EXPECT_GT(summary->steps, 0u) << "the synthetic loop's ProfilerStep ranges";
  EXPECT_GT(summary->findings, 0u) << "the synthetic loop is launch-bound";
  EXPECT_THAT(ReadText(dir.File("again.json")), HasSubstr("gpu.launch_bound"));
}

TEST(TraceExport, SyntheticAmpTraceNvtxtUsesTheTraceClock) {
  const testing::TempDir dir;
  WriteSyntheticAmpTrace(dir.File("amp.ampt"));
  const auto summary =
      ExportTrace(dir.File("amp.ampt"), ExportFormat::kNvtxt, dir.File("amp.nvtxt"));
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_FALSE(summary->nsys_timebase);
  const std::string text = ReadText(dir.File("amp.nvtxt"));
  EXPECT_THAT(text, HasSubstr("\nTimeBase = Manual\n"));
  EXPECT_THAT(text, HasSubstr(", \"ampprof step 1\"\n"));
  EXPECT_THAT(text, HasSubstr(", \"ampprof critical gpu.launch_bound: "));
}

const std::string kFixtures = AMPPROF_SHARED_FIXTURES_DIR;

// Every real trace of ../shared/fixtures: the export parses, draws nothing a viewer would reject,
// and reads back as the same kernels.
class SharedFixtureExport : public ::testing::TestWithParam<const char*> {};

TEST_P(SharedFixtureExport, RoundTripsThroughTheChromeFormat) {
  const std::string trace = kFixtures + "/" + GetParam();
  if (!std::filesystem::exists(trace)) GTEST_SKIP() << trace << " is absent (a fresh clone)";
  const testing::TempDir dir;
  ExpectChromeRoundTrip(trace, dir.File("export.json"));
}

INSTANTIATE_TEST_SUITE_P(
    Readme, SharedFixtureExport,
    ::testing::Values(
        "pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0/"
        "worker0.1623143089861.pt.trace.json.gz",
        "pytorch__kineto/tb_plugin/test/gpu_metrics_input.json",
        "facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/alexnet/"
        "benchmark_result_2869224_1695835535_trace.json.gz",
        "facebookresearch__HolisticTraceAnalysis/tests/data/timeline_analysis/"
        "sampled_rank-0.json.gz",
        "facebookresearch__HolisticTraceAnalysis/tests/data/with_gpu_user_annotation/"
        "step_based_trace_2543932.json.gz",
        "facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/"
        "cuda_event_sync_multi_stream/event_sync_trace.json.gz",
        "AMD-AGI__TraceLens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz",
        "AMD-AGI__TraceLens/evals/unit_tests_nv/moe/moe_01_many_experts_few_tokens_analysis_output/"
        "moe_01_many_experts_few_tokens.json.gz",
        "facebookresearch__param/et_replay/tests/inputs/linear_kineto.json.gz",
        "NVIDIA__Fuser/report2.sqlite",
        "hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"));

// An Nsight Systems export's NVTXT keeps the report's clock, nanoseconds from the session's start,
// which ImportNvtxt calls Relative, and the report's own process and thread ids: the ranges land
// where the kernels are in the original report.
TEST(TraceExport, NsysExportNvtxtIsInTheReportClock) {
  const std::string trace = kFixtures + "/NVIDIA__Fuser/report2.sqlite";
  if (!std::filesystem::exists(trace)) GTEST_SKIP() << trace << " is absent (a fresh clone)";
  const testing::TempDir dir;
  const auto summary = ExportTrace(trace, ExportFormat::kNvtxt, dir.File("report2.nvtxt"));
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_TRUE(summary->nsys_timebase);
  const std::string text = ReadText(dir.File("report2.nvtxt"));
  EXPECT_THAT(text, HasSubstr("\nTimeBase = Relative\n"));
  EXPECT_THAT(text, HasSubstr("\nProcessId = 30571\n"));  // globalPid >> 24 of its CUDA calls
  EXPECT_THAT(text, HasSubstr("ImportNvtxt --cmd merge"));

  // The fixture is a short test binary: no training loop, no finding. Give it one, as an analyzer
  // would, to see where a finding lands: over the GPU activity, from the first kernel's start
  // (784431748 ns in CUPTI_ACTIVITY_KIND_KERNEL) to the end of the last memcpy (1288062945 ns in
  // CUPTI_ACTIVITY_KIND_MEMCPY), the numbers of the SQLite tables themselves.
  const auto loaded = LoadAndBuild(trace);
  ASSERT_TRUE(loaded.ok());
  analyzers::Finding finding;
  finding.id = "gpu.launch_bound";
  finding.verdict = "example";
  const std::vector<analyzers::Finding> findings = {finding};
  const std::optional<analyzers::Steps> no_steps;
  std::ostringstream out;
  ASSERT_TRUE(reports::WriteNvtxt({loaded->model, no_steps, findings, trace},
                                  {reports::NvtxtTimeBase::kRelative}, out)
                  .ok());
  EXPECT_THAT(out.str(), HasSubstr("\nRangeStartEnd, 784431748, 1288062945, 30571, \"ampprof "
                                   "warning gpu.launch_bound: example\"\n"));
}

TEST(TraceExport, AnUnreadableTraceFailsAndLeavesNothing) {
  const testing::TempDir dir;
  std::ofstream(dir.File("notes.txt")) << "these are my notes, not a trace\n";
  const auto missing =
      ExportTrace(dir.File("missing.ampt"), ExportFormat::kChromeTrace, dir.File("out.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("missing.ampt"));
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.json")));
  const auto not_a_trace =
      ExportTrace(dir.File("notes.txt"), ExportFormat::kNvtxt, dir.File("out.nvtxt"));
  ASSERT_FALSE(not_a_trace.ok());
  EXPECT_THAT(not_a_trace.status().message(), HasSubstr("notes.txt"));
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.nvtxt")));
}

TEST(TraceExport, AnUnwritableOutputFailsBeforeReadingTheTrace) {
  const testing::TempDir dir;
  const auto status = ExportTrace(dir.File("missing.ampt"), ExportFormat::kChromeTrace,
                                  dir.File("no/such/dir/out.json"));
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.status().message(), HasSubstr("no/such/dir/out.json: cannot write"));
}

// `export -o T.json T.json` truncated the trace before reading it, failed on the empty file, and removed
// it; through a symbolic link the trace was left empty. The output is now refused before anything is
// read or written, and the trace is untouched.
TEST(TraceExport, AnOutputThatIsTheTraceIsRefusedAndTheTraceKept) {
  const testing::TempDir dir;
  WriteSyntheticAmpTrace(dir.File("T.ampt"));
  const std::string before = ReadText(dir.File("T.ampt"));
  std::filesystem::create_symlink("T.ampt", dir.File("link.json"));
  std::filesystem::create_hard_link(dir.File("T.ampt"), dir.File("hard.json"));
  for (const std::string& output : {dir.File("T.ampt"), dir.File("link.json"), dir.File("hard.json")}) {
    const auto refused = ExportTrace(dir.File("T.ampt"), ExportFormat::kChromeTrace, output);
    ASSERT_FALSE(refused.ok()) << output;
    EXPECT_EQ(refused.status().message(),
              output + ": is also an input (" + dir.File("T.ampt") + "); write the output to another file");
    EXPECT_EQ(ReadText(dir.File("T.ampt")), before) << output;
  }
  EXPECT_TRUE(std::filesystem::is_symlink(dir.File("link.json")));
}

// A failed export used to truncate an existing output first and remove it at the end.
TEST(TraceExport, AFailedExportLeavesAnExistingOutputAsItWas) {
  const testing::TempDir dir;
  std::ofstream(dir.File("empty.ampt")) << "";
  std::ofstream(dir.File("out.json")) << "last week's export";
  EXPECT_FALSE(ExportTrace(dir.File("empty.ampt"), ExportFormat::kChromeTrace, dir.File("out.json")).ok());
  EXPECT_EQ(ReadText(dir.File("out.json")), "last week's export");
}

TEST(TraceExport, AFullDeviceFailsWithTheReason) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const testing::TempDir dir;
  WriteSyntheticAmpTrace(dir.File("trace.ampt"));
  const auto status = ExportTrace(dir.File("trace.ampt"), ExportFormat::kChromeTrace, "/dev/full");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.status().message(), "/dev/full: cannot write: No space left on device");
}

// `export -o -` wrote a file named "-".
TEST(TraceExport, DashIsStandardOutput) {
  const testing::TempDir dir;
  WriteSyntheticAmpTrace(dir.File("trace.ampt"));
  const int saved = ::dup(STDOUT_FILENO);
  const int file = ::open(dir.File("stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(file, 0);
  ASSERT_EQ(::dup2(file, STDOUT_FILENO), STDOUT_FILENO);
  const auto summary = ExportTrace(dir.File("trace.ampt"), ExportFormat::kNvtxt, "-");
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  ::close(file);
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_TRUE(summary->to_standard_output);
  EXPECT_EQ(summary->output, "standard output");
  EXPECT_THAT(ReadText(dir.File("stdout.txt")), HasSubstr("SetFileDisplayName, ampprof\n"));
  EXPECT_FALSE(std::filesystem::exists("-"));
  EXPECT_FALSE(std::filesystem::exists(dir.File("-")));
}

TEST(TraceExport, FormatNames) {
  EXPECT_EQ(ExportFormatNamed("chrome"), ExportFormat::kChromeTrace);
  EXPECT_EQ(ExportFormatNamed("nvtxt"), ExportFormat::kNvtxt);
  EXPECT_EQ(ExportFormatNamed("perfetto"), std::nullopt);
}

}  // namespace
}  // namespace ampprof::pipeline
