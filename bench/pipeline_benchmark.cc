// The pipeline stage by stage, on the same synthetic AMP loop at 10^5, 10^6 and 10^7 kernels:
//   BM_Import/<format>/<kernels>     read a trace file and build the model: .ampt, PyTorch profiler
//                                    (Kineto) JSON, Nsight Systems SQLite; kernels per second and peak
//                                    bytes per kernel;
//   BM_Classify, BM_Summary, BM_Timeline, BM_Analyzer/<name>/<kernels>
//                                    what `analyze` runs on a built model, each analyzer on its own;
//   BM_Report/<format>/<kernels>     each report format from the analysed Report (text, json, markdown,
//                                    html) and each export from the model (chrome, nvtxt).
//
//   ampprof_pipeline_benchmark --benchmark_filter='BM_Analyzer'
//
// Benchmarks are registered size by size, so one model per size is built, shared, and released before
// the next size's (a 10^7-kernel model is about 0.9 GB).

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <span>
#include <streambuf>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "analyzers/findings/registry.h"
#include "analyzers/report/summary.h"
#include "analyzers/report/timeline.h"
#include "bench/bench_traces.h"
#include "reports/export/chrome_trace_exporter.h"
#include "reports/export/nvtxt_exporter.h"
#include "reports/html/html_reporter.h"
#include "reports/json/json_reporter.h"
#include "reports/markdown/markdown_reporter.h"
#include "reports/text/text_reporter.h"
#include "src/base/check.h"
#include "src/model/model_builder.h"
#include "src/pipeline/analysis.h"
#include "src/pipeline/trace_loader.h"

namespace ampprof {
namespace {

constexpr int64_t kSizes[] = {100'000, 1'000'000, 10'000'000};

// Counts bytes and discards them: reporters are measured, not the disk.
class CountingBuffer : public std::streambuf {
 public:
  int64_t bytes = 0;

 protected:
  int overflow(int c) override {
    ++bytes;
    return c;
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += n;
    return n;
  }
};

// The model, its classification and its Report for one size; built on first use, kept until the
// benchmarks move to the next size.
struct Analysed {
  pipeline::LoadedTrace trace;
  std::unique_ptr<analyzers::AnalysisInput> input;  // classes, steps and the account, built once
  analyzers::Report report;
};

Analysed& AnalysedTrace(int64_t kernels) {
  static int64_t cached_kernels = 0;
  static std::unique_ptr<Analysed> cached;
  if (cached_kernels != kernels) {
    cached.reset();  // the previous size's model goes before the next one is built
    auto loaded = pipeline::LoadAndBuild(bench::SyntheticTrace(kernels));
    AMPPROF_CHECK_MSG(loaded.ok(), loaded.status().message().c_str());
    cached = std::make_unique<Analysed>(Analysed{std::move(*loaded), nullptr, {}});
    cached->input = std::make_unique<analyzers::AnalysisInput>(cached->trace.model);
    cached->report = pipeline::Analyze(cached->trace);
    cached_kernels = kernels;
  }
  return *cached;
}

void SetKernelCounters(benchmark::State& state, const model::TraceModel& model) {
  const auto kernels = static_cast<int64_t>(model.kernels().size());
  state.SetItemsProcessed(state.iterations() * kernels);
  state.counters["kernels"] = static_cast<double>(kernels);
}

void Import(benchmark::State& state, const std::string& format, int64_t kernels) {
  const std::string path = bench::SyntheticTrace(kernels, format);
  int64_t peak_bytes = 0;
  int64_t read = 0;
  for (auto _ : state) {
    bench::PeakMemory memory;
    memory.Start();
    model::ModelBuilder builder;
    AMPPROF_CHECK(pipeline::LoadTrace(path, builder).ok());
    const model::TraceModel model = std::move(builder).Build();
    peak_bytes = std::max(peak_bytes, memory.PeakBytes());
    read = static_cast<int64_t>(model.kernels().size());
    benchmark::DoNotOptimize(model.kernels().start.values().data());
  }
  state.SetItemsProcessed(state.iterations() * read);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(std::filesystem::file_size(path)));
  state.counters["kernels"] = static_cast<double>(read);
  state.counters["peak_bytes_per_kernel"] = static_cast<double>(peak_bytes) / static_cast<double>(read);
  state.counters["file_bytes_per_kernel"] =
      static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(read);
}

void Classify(benchmark::State& state, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  for (auto _ : state) benchmark::DoNotOptimize(analyzers::ClassifySignatures(analysed.trace.model));
  SetKernelCounters(state, analysed.trace.model);
}

// The analysis input as `analyze` builds it once per trace: classes, steps and the step account.
void Input(benchmark::State& state, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  for (auto _ : state) {
    const analyzers::AnalysisInput input(analysed.trace.model);
    benchmark::DoNotOptimize(input.account().devices.data());
  }
  SetKernelCounters(state, analysed.trace.model);
}

void Account(benchmark::State& state, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  for (auto _ : state) benchmark::DoNotOptimize(analyzers::BuildStepAccount(*analysed.input));
  SetKernelCounters(state, analysed.trace.model);
}

void Summary(benchmark::State& state, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  for (auto _ : state) benchmark::DoNotOptimize(analyzers::Summarize(*analysed.input));
  SetKernelCounters(state, analysed.trace.model);
}

void Timeline(benchmark::State& state, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  for (auto _ : state) benchmark::DoNotOptimize(analyzers::BuildTimeline(*analysed.input));
  SetKernelCounters(state, analysed.trace.model);
}

// Each analyzer on the input built once, as in `analyze` (BM_Input is what building it costs).
void Analyzer(benchmark::State& state, analyzers::AnalyzerEntry analyzer, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  for (auto _ : state) benchmark::DoNotOptimize(analyzer.run(*analysed.input));
  SetKernelCounters(state, analysed.trace.model);
}

void Steps(benchmark::State& state, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  for (auto _ : state) benchmark::DoNotOptimize(analyzers::FindSteps(*analysed.input));
  SetKernelCounters(state, analysed.trace.model);
}

using Render = std::function<void(const Analysed&, std::ostream&)>;

void Report(benchmark::State& state, const Render& render, int64_t kernels) {
  const Analysed& analysed = AnalysedTrace(kernels);
  int64_t bytes = 0;
  for (auto _ : state) {
    CountingBuffer buffer;
    std::ostream out(&buffer);
    render(analysed, out);
    bytes = buffer.bytes;
  }
  SetKernelCounters(state, analysed.trace.model);
  state.counters["output_bytes"] = static_cast<double>(bytes);
}

std::vector<std::pair<std::string, Render>> Reporters() {
  const auto one = [](const Analysed& a) { return std::span<const analyzers::Report>(&a.report, 1); };
  const auto export_input = [](const Analysed& a, const std::optional<analyzers::Steps>& steps) {
    return reports::ExportInput{a.trace.model, steps, a.report.findings, a.trace.input.path};
  };
  return {
      {"text", [=](const Analysed& a, std::ostream& out) { reports::RenderText(one(a), out, {}); }},
      {"json", [=](const Analysed& a, std::ostream& out) { reports::RenderJson(one(a), out, {}); }},
      {"markdown", [=](const Analysed& a, std::ostream& out) { reports::RenderMarkdown(one(a), out); }},
      {"html", [=](const Analysed& a, std::ostream& out) { reports::RenderHtml(one(a), out, {}); }},
      {"chrome", [=](const Analysed& a, std::ostream& out) {
         AMPPROF_CHECK(reports::WriteChromeTrace(export_input(a, a.input->steps()), out).ok());
       }},
      {"nvtxt", [=](const Analysed& a, std::ostream& out) {
         AMPPROF_CHECK(reports::WriteNvtxt(export_input(a, a.input->steps()), {}, out).ok());
       }},
  };
}

void RegisterAll() {
  for (const int64_t kernels : kSizes) {
    const std::string size = "/" + std::to_string(kernels);
    for (const std::string format : {"ampt", "kineto", "nsys"}) {
      benchmark::RegisterBenchmark(("BM_Import/" + format + size).c_str(), Import, format, kernels)
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark(("BM_Classify" + size).c_str(), Classify, kernels)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Summary" + size).c_str(), Summary, kernels)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Steps" + size).c_str(), Steps, kernels)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Account" + size).c_str(), Account, kernels)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Input" + size).c_str(), Input, kernels)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Timeline" + size).c_str(), Timeline, kernels)->Unit(benchmark::kMillisecond);
    for (const analyzers::AnalyzerEntry& analyzer : analyzers::AllAnalyzers()) {
      benchmark::RegisterBenchmark(("BM_Analyzer/" + std::string(analyzer.name) + size).c_str(), Analyzer,
                                   analyzer, kernels)
          ->Unit(benchmark::kMillisecond);
    }
    for (const auto& [name, render] : Reporters()) {
      benchmark::RegisterBenchmark(("BM_Report/" + name + size).c_str(), Report, render, kernels)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace ampprof

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ampprof::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
