#include "reports/text/text_reporter.h"

#include <sstream>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace ampprof::reports {
namespace {

analyzers::Report SampleReport() {
  analyzers::Report report;
  report.inputs.push_back({"run.ampt", "ampprof trace, format 1.0"});
  report.summary.workload = "python train.py";
  report.summary.processes = 1;
  report.summary.threads = 2;
  report.summary.kernels = 1234;
  report.summary.api_calls = 1300;
  report.summary.gpu_span = base::Interval{0, 2'000'000};
  report.summary.kernel_time_ns = 1'000'000;
  analyzers::DeviceSummary device;
  device.device_id = 0;
  device.pid = 77;
  device.name = "NVIDIA H100 80GB HBM3";
  device.compute_major = 9;
  device.sm_count = 132;
  device.kernels = 1234;
  device.streams_with_kernels = 2;
  device.span = base::Interval{0, 2'000'000};
  analyzers::AccountSummary account;
  account.basis = "whole run";
  account.steps = 1;
  account.window = base::Interval{0, 2'000'000};
  account.median_step_ns = 2'000'000;
  account.busy_ns = 1'000'000;
  account.busy_fraction = 0.5;
  account.compute_ns = 1'000'000;
  account.idle[analyzers::GapCause::kHostLaunch] = 1'000'000;
  account.rows = {{"compute", "GEMM on Tensor Cores, FP16", 1'000'000, 1'000'000, 0.5, 1234},
                  {"idle:launch_waits", "idle: waiting for kernel launches", 1'000'000, 1'000'000, 0.5, 0}};
  device.account = account;
  report.summary.devices.push_back(device);
  report.summary.account_basis = "whole run";
  report.summary.top_kernels.push_back(
      {std::string(300, 'x') + "_tail", "GEMM, Tensor Cores, FP16, cuBLASLt", 1234, 1'000'000, 1.0});
  return report;
}

// The same run, read as 40 measured steps.
analyzers::Report SampleReportWithSteps() {
  analyzers::Report report = SampleReport();
  report.summary.account_basis = "measured steps";
  report.summary.devices[0].account->basis = "measured steps";
  report.summary.devices[0].account->steps = 40;
  report.summary.steps = 40;
  report.summary.step_source = "ProfilerStep ranges";
  report.summary.median_step_ns = 818'000;
  report.summary.p90_step_ns = 847'000;
  return report;
}

std::string Render(const analyzers::Report& report, TextOptions options = {.verbose = true}) {
  std::ostringstream out;
  RenderText(report, out, options);
  return out.str();
}

analyzers::Finding SampleFinding() {
  analyzers::Finding finding;
  finding.id = "gpu.launch_bound";
  finding.severity = analyzers::Severity::kCritical;
  finding.verdict = analyzers::Statement("GPU 0 is idle {share} of the time waiting for the host to launch kernels",
                                         {analyzers::Fraction("share", 0.291)});
  finding.evidence = {{"GPU busy", analyzers::Statement("{busy} of {window}", {analyzers::Fraction("busy", 0.646),
                                                                               analyzers::Duration("window", 82'900'000)})},
                      {"median kernel vs launch call",
                       "3.70 us vs 5.03 us; 3,389 of 6,038 kernels ran for less time than their launch call took, "
                       "which is the sign of a launch-bound loop"}};
  finding.saving = analyzers::Saving::Exact(602'000, 0.291, "the launch waits");
  finding.fix = "Give the GPU more work per launch, or launch fewer kernels from Python.";
  return finding;
}

TEST(RenderText, HeaderSaysWhatWasTracedThenTheVerdict) {
  analyzers::Report report = SampleReportWithSteps();
  report.checks_run = {"gpu.launch_bound"};
  report.findings = {SampleFinding()};
  const std::string text = Render(report, {});
  EXPECT_EQ(text.substr(0, text.find("\nFindings")),
            "trace     run.ampt\n"
            "format    ampprof trace, format 1.0\n"
            "workload  python train.py\n"
            "gpu       GPU 0: NVIDIA H100 80GB HBM3, sm_90\n"
            "          1,234 kernels on 2 streams, busy 50.0% of the analysed 2.00 ms\n"
            "span      2.00 ms of GPU activity\n"
            "steps     40 from ProfilerStep ranges; median 818 us, p90 847 us\n"
            "analysed  40 measured steps on GPU 0, 2.00 ms from the first step's first kernel to the last one's\n"
            "          end\n"
            "data      no records lost or repaired\n"
            "\n"
            "verdict   1 finding (1 critical): start with gpu.launch_bound (saves 29.1% of the step)\n");
}

// A report from `ampprof run` says how the workload ended, under what it was; one from a file says
// nothing about it.
TEST(RenderText, SaysHowTheWorkloadEndedWhenARunMadeTheReport) {
  analyzers::Report report = SampleReport();
  EXPECT_EQ(Render(report, {}).find("ended"), std::string::npos);
  report.workload_outcome = analyzers::WorkloadOutcome{.exit_code = 0, .signal = 11};
  const std::string text = Render(report, {});
  EXPECT_NE(text.find("workload  python train.py\nended     killed by signal 11 (SIGSEGV)\ngpu "),
            std::string::npos)
      << text;
}

TEST(RenderText, EachFindingHasItsEvidenceWrappedAndItsFix) {
  analyzers::Report report = SampleReport();
  report.findings = {SampleFinding()};
  const std::string text = Render(report, {});
  EXPECT_NE(text.find("Findings\n"
                      "  [critical] gpu.launch_bound: GPU 0 is idle 29.1% of the time waiting for the host to launch\n"
                      "    kernels\n"
                      "      saves: 29.1% of the analysed time, 602 us (the launch waits)\n"
                      "      GPU busy: 64.6% of 82.9 ms\n"
                      "      median kernel vs launch call: 3.70 us vs 5.03 us; 3,389 of 6,038 kernels ran for less time\n"
                      "        than their launch call took, which is the sign of a launch-bound loop\n"
                      "      fix: Give the GPU more work per launch, or launch fewer kernels from Python. (ampprof explain\n"
                      "           gpu.launch_bound)\n"),
            std::string::npos)
      << text;
}

TEST(RenderText, TablesOnlyWhenVerbose) {
  const std::string brief = Render(SampleReport(), {});
  EXPECT_EQ(brief.find("Top kernels by GPU time"), std::string::npos) << brief;
  EXPECT_EQ(brief.find("Step account"), std::string::npos) << brief;
  EXPECT_NE(brief.find("--verbose adds"), std::string::npos) << brief;
  const std::string verbose = Render(SampleReport());
  EXPECT_NE(verbose.find("Top kernels by GPU time"), std::string::npos) << verbose;
  EXPECT_EQ(verbose.find("--verbose adds"), std::string::npos) << verbose;
}

TEST(RenderText, ColourOnlyWhenAskedAndNeverCountedInTheWidth) {
  analyzers::Report report = SampleReport();
  report.findings = {SampleFinding()};
  const std::string plain = Render(report, {.verbose = true});
  EXPECT_EQ(plain.find('\x1b'), std::string::npos);
  const std::string coloured = Render(report, {.color = true, .verbose = true});
  EXPECT_NE(coloured.find("  \x1b[1;31m[critical]\x1b[0m gpu.launch_bound: GPU 0 is idle"), std::string::npos)
      << coloured;
  EXPECT_NE(coloured.find("\x1b[1mFindings\x1b[0m\n"), std::string::npos) << coloured;
  // Without the escape sequences the coloured report is the plain one.
  std::string stripped;
  for (size_t i = 0; i < coloured.size(); ++i) {
    if (coloured[i] == '\x1b') {
      i = coloured.find('m', i);
      continue;
    }
    stripped += coloured[i];
  }
  EXPECT_EQ(stripped, plain);
  // Every colour ends on the line it starts: a pager or a terminal resize never bleeds it.
  std::istringstream lines(coloured);
  for (std::string line; std::getline(lines, line);) {
    size_t opened = 0;
    size_t reset = 0;
    for (size_t at = line.find('\x1b'); at != std::string::npos; at = line.find('\x1b', at + 1)) {
      ++(line.compare(at, 4, "\x1b[0m") == 0 ? reset : opened);
    }
    EXPECT_EQ(opened, reset) << line;
  }
}

TEST(RenderText, ListsTheFirstStepsWithABarWhenVerbose) {
  analyzers::Report report = SampleReport();
  report.summary.steps = 40;
  report.summary.warmup_steps = 1;
  report.summary.step_source = "ProfilerStep ranges";
  report.summary.median_step_ns = 1'000'000;
  report.summary.p90_step_ns = 1'100'000;
  report.summary.step_times = {{0, {5'000'000, 9'000'000}, true},
                               {1, {9'000'000, 10'000'000}, false},
                               {2, {10'000'000, 12'000'000}, false}};
  const std::string text = Render(report);
  EXPECT_NE(text.find("Steps: the first 3 of 40, from ProfilerStep ranges\n"
                      "   step       start    duration\n"
                      "      0        0 ns     4.00 ms  warm-up  ########################################\n"
                      "      1     4.00 ms     1.00 ms           ##########\n"
                      "      2     5.00 ms     2.00 ms           ####################\n"
                      "  median 1.00 ms, p90 1.10 ms over the steps after warm-up\n"),
            std::string::npos)
      << text;
}

TEST(RenderText, ShowsDevicesBusyTimeAndTopKernels) {
  const std::string text = Render(SampleReport());
  EXPECT_NE(text.find("trace     run.ampt\nformat    ampprof trace, format 1.0\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU 0 (pid 77): NVIDIA H100 80GB HBM3, sm_90, 132 SMs"), std::string::npos) << text;
  EXPECT_NE(text.find("kernels   1,234 on 2 streams"), std::string::npos) << text;
  EXPECT_NE(text.find("busy      50.0% of the analysed 2.00 ms (1.00 ms with no kernel running)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("_tail"), std::string::npos) << "long names keep their tail";
  EXPECT_NE(text.find("data      no records lost or repaired\n"), std::string::npos);
  EXPECT_EQ(text.find("Data quality"), std::string::npos) << "the section is for counters that are not zero";
}

TEST(RenderText, ShowsTheStepAccountAndWhatEachTopKernelIs) {
  const std::string text = Render(SampleReport());
  EXPECT_NE(text.find("Step account, GPU 0: the whole run (2.00 ms)\n"
                      "   share        time      in all  bucket\n"
                      "   50.0%     1.00 ms     1.00 ms  GEMM on Tensor Cores, FP16\n"
                      "   50.0%     1.00 ms     1.00 ms  idle: waiting for kernel launches\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    (GEMM, Tensor Cores, FP16, cuBLASLt)\n"), std::string::npos) << text;
}

TEST(RenderText, FitsOneHundredColumns) {
  analyzers::Report report = SampleReport();
  report.stats.Increment(base::Stat::kAmptTruncatedTail);
  report.stats.Increment(base::Stat::kAmptSalvagedRecords, 1234567);
  report.findings = {SampleFinding()};
  report.findings[0].examples = {std::string(300, 'k')};
  report.inputs[0].path = "/very/long/" + std::string(200, 'p') + ".json.gz";
  std::istringstream lines(Render(report));
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(line.size(), 100u) << line;
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space: '" << line << "'";
  }
}

analyzers::Comparison SampleComparison() {
  analyzers::Comparison c;
  c.basis = analyzers::CompareBasis::kMedianStep;
  c.baseline = {.trace = "fp32.ampt", .label = "pid 76", .device = "NVIDIA H100 80GB HBM3", .steps = 38,
                .warmup_steps = 2, .step_source = "ProfilerStep ranges", .time_ns = 5'120'000,
                .gpu_time_ns = 5'200'000, .busy_fraction = 0.8, .kernels_per_unit = 312.0};
  c.candidate = {.trace = "run.ampt", .label = "pid 77", .device = "NVIDIA H100 80GB HBM3", .steps = 40,
                 .step_source = "ProfilerStep ranges", .time_ns = 6'030'000, .gpu_time_ns = 6'100'000,
                 .busy_fraction = 0.45, .kernels_per_unit = 364.0, .reduced_precision = true};
  c.speedup = 5.12 / 6.03;
  c.rows = {
      {"GEMM on CUDA cores", 3'100'000, 0, ""},
      {"idle: waiting for kernel launches", 1'200'000, 3'200'000, "gpu.launch_bound"},
      {"GEMM on Tensor Cores", 0, 1'100'000, ""},
      {"cast", 0, 800'000, "amp.cast_overhead"},
      {"GradScaler", 0, 100'000, "amp.scaler_overhead"},
      {"elementwise", 900'000, 900'000, ""},
  };
  c.notes = {"the FP32 trace does not name its GPU: could not check that both ran on the same model, which is a "
             "note long enough to wrap"};
  return c;
}

TEST(RenderText, ShowsTheComparisonWithAnFp32Baseline) {
  analyzers::Report report = SampleReport();
  report.comparison = SampleComparison();
  const std::string text = Render(report);
  EXPECT_NE(text.find("FP32 vs mixed precision\n"
                      "  FP32      fp32.ampt (pid 76)\n"
                      "            median step 5.12 ms over 38 steps from ProfilerStep ranges, 2 warm-up left out\n"
                      "  AMP       run.ampt (pid 77)\n"
                      "            median step 6.03 ms over 40 steps from ProfilerStep ranges\n"
                      "  speed-up  0.85x: mixed precision is slower\n"
                      "  note      the FP32 trace does not name its GPU: could not check that both ran on the same model,\n"
                      "            which is a note long enough to wrap\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  per step                                 FP32         AMP      change  explained by\n"
                      "  GEMM on CUDA cores                    3.10 ms           -    -3.10 ms\n"
                      "  idle: waiting for kernel launches     1.20 ms     3.20 ms    +2.00 ms  gpu.launch_bound\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  cast                                        -      800 us     +800 us  amp.cast_overhead\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  elementwise                            900 us      900 us        0 ns\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  GPU time per step                     5.20 ms     6.10 ms     +900 us\n"), std::string::npos)
      << text;
  // After the findings, before the devices.
  EXPECT_LT(text.find("FP32 vs mixed precision"), text.find("GPU 0 (pid 77)"));
  const size_t begin = text.find("FP32 vs mixed precision");
  const size_t end = text.find('\n', text.find("GPU time per step"));
  std::istringstream lines(text.substr(begin, end - begin));
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(line.size(), 100u) << line;
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space: '" << line << "'";
  }
}

TEST(RenderText, SaysWhenTheRunsCannotBeCompared) {
  analyzers::Report report = SampleReport();
  analyzers::Comparison c;
  c.basis = analyzers::CompareBasis::kWholeRun;
  c.notes = {"the FP32 trace has no GPU kernels to compare"};
  report.comparison = c;
  const std::string text = Render(report);
  EXPECT_NE(text.find("  speed-up  cannot be computed\n"
                      "  note      the FP32 trace has no GPU kernels to compare\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("per run"), std::string::npos) << "no table without rows";
}

TEST(RenderText, ListsNonZeroStatsWithSeverity) {
  analyzers::Report report = SampleReport();
  report.stats.Increment(base::Stat::kCollectorDroppedRecords, 42);
  const std::string text = Render(report);
  EXPECT_NE(text.find("data      RECORDS LOST: 42 collector_dropped_records (data-loss); see Data quality below\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("data-loss            42  collector_dropped_records"), std::string::npos) << text;
  EXPECT_NE(text.find("no buffer was available"), std::string::npos) << text;
}

TEST(RenderText, ShowsKernelNamesWithoutReturnTypeAndParameters) {
  analyzers::Report report = SampleReport();
  report.summary.top_kernels[0].name =
      "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
      "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)";
  const std::string text = Render(report);
  // 100 characters without "void " and the parameters: too wide beside the numbers, so it gets its own
  // line, with nested template arguments collapsed.
  EXPECT_NE(text.find("\n    at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<...>, "
                      "std::array<...> >\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("(int, at::native"), std::string::npos) << text;
}

TEST(RenderText, CollapsesNestedTemplateArgumentsOfVeryLongNames) {
  analyzers::Report report = SampleReport();
  report.summary.top_kernels[0].name =
      "void at::native::vectorized_elementwise_kernel<4, at::native::float16_copy_kernel_cuda("
      "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, "
      "at::native::float16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
      "std::array<char*, 2ul>)";
  const std::string text = Render(report);
  // Still 118 characters when collapsed: the middle is elided, both ends stay.
  EXPECT_NE(text.find("\n    at::native::vectorized_elementwise_kernel<4, at::native::float"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#1}, std::array<...> >\n"), std::string::npos) << text;
}

TEST(RenderText, ListsDevicesWithoutKernelsOnOneLineAndShowsTheRank) {
  analyzers::Report report = SampleReport();
  for (uint32_t id = 1; id <= 3; ++id) {
    analyzers::DeviceSummary idle;
    idle.device_id = id;
    idle.name = "NVIDIA H100 80GB HBM3";
    report.summary.devices.push_back(idle);
  }
  report.summary.process_list.push_back({77, "python train.py", 3, 8});
  const std::string text = Render(report);
  EXPECT_NE(text.find("\n          no kernels on GPUs 1, 2, 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("process   pid 77: rank 3 of 8\n"), std::string::npos) << text;
}

// What a hostile trace puts in its names: set the window title (OSC 0), write the clipboard (OSC
// 52), clear the screen (CSI 2 J), blink (an SGR that ampprof never uses, so it cannot hide among
// its own), a C1 CSI in UTF-8 and a lone 8-bit one, and a forged report line.
const std::string kHostile =
    "\x1b]0;pwned\x07\x1b]52;c;ZWNobyBvd25lZA==\x07\x1b[2J\x1b[5m\xc2\x9b"
    "1m\x9b"
    "2J\nverdict   no findings\x7f";

// The report with every field that comes from a trace set to `text`.
analyzers::Report HostileReport(const std::string& text) {
  analyzers::Report report = SampleReport();
  report.label = "rank 0 " + text;
  report.inputs[0].path = "/runs/" + text + ".ampt";
  report.summary.workload = "python " + text;
  report.summary.collector_note = "another tool " + text;
  report.summary.devices[0].name = "GPU " + text;
  report.summary.steps = 40;
  report.summary.step_source = "user range " + text;
  report.summary.step_times = {{0, {5'000'000, 9'000'000}, false}};
  report.summary.top_kernels.push_back({"short" + text, "GEMM", 1, 1'000, 0.1});
  report.summary.process_list.push_back({77, text, 3, 8});
  analyzers::Finding finding = SampleFinding();
  finding.verdict.text += text;
  finding.evidence.push_back({"kernel " + text, analyzers::Statement("value " + text)});
  finding.examples = {"void k" + text + "(int)", std::string(300, 'k') + text};
  report.findings = {finding};
  analyzers::Comparison comparison = SampleComparison();
  comparison.baseline.trace = text;
  comparison.baseline.label = text;
  comparison.baseline.step_source = text;
  comparison.notes.push_back(analyzers::Statement(text));
  comparison.rows.push_back({"range " + text, 1'000, 2'000, ""});
  report.comparison = comparison;
  return report;
}

// No control character from a trace reaches the terminal: all of them are escaped visibly, in every
// section, and the only escape sequences left are ampprof's own colours.
TEST(RenderText, EscapesControlCharactersFromTheTrace) {
  const std::vector<analyzers::Report> reports = {HostileReport(kHostile), HostileReport(kHostile)};
  std::ostringstream out;
  RenderText(reports, out, {.color = true, .verbose = true});
  std::string text = out.str();
  for (const std::string_view own :
       {"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[1;31m", "\x1b[33m", "\x1b[36m"}) {
    for (size_t at; (at = text.find(own)) != std::string::npos;) text.erase(at, own.size());
  }
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(c == '\n' || (byte >= 0x20 && byte < 0x7F))
        << "byte " << static_cast<int>(byte) << " in\n"
        << text;
  }
  // Shown escaped in each of the 17 places (names may be shortened in the middle or wrapped, so
  // only the start of the sequence is counted).
  size_t shown = 0;
  for (size_t at = text.find("\\x1b]0;pwned\\x07"); at != std::string::npos;
       at = text.find("\\x1b]0;pwned\\x07", at + 1)) {
    ++shown;
  }
  EXPECT_GE(shown, 2u * 17u) << text;
  EXPECT_EQ(text.find("\nverdict   no findings"), std::string::npos) << "a forged line";
}

TEST(RenderText, ShortensNamesWithoutCuttingAUtf8CharacterInTwo) {
  analyzers::Report report = SampleReport();
  std::string name;
  for (int i = 0; i < 100; ++i)
    name += "\xc4\x9b";  // U+011B, whose second byte is an 8-bit CSI alone
  for (const std::string_view shift : {"", "x"}) {  // cuts between characters, then inside them
    report.inputs[0].path = std::string(shift) + name;
    const std::string text = Render(report, {});
    const std::string line = text.substr(0, text.find('\n'));
    for (size_t i = 0; i < line.size(); ++i) {
      if (static_cast<unsigned char>(line[i]) == 0x9B) {
        EXPECT_TRUE(i > 0 && static_cast<unsigned char>(line[i - 1]) == 0xC4)
            << "a lone 0x9b (8-bit CSI): " << line;
      }
    }
  }
}

TEST(RenderText, SaysWhenNoGpuWorkWasRecorded) {
  analyzers::Report report;
  EXPECT_NE(Render(report).find("gpu       no GPU activity was recorded\n"), std::string::npos) << Render(report);
}

}  // namespace
}  // namespace ampprof::reports
