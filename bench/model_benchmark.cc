// Reading and modelling .ampt traces: throughput (kernels per second) and peak memory per kernel, on
// synthetic traces of 10^5, 10^6 and 10^7 kernels from collectors/synthetic.
//
//   ampprof_model_benchmark --benchmark_filter=ReadAndBuild
//
// Traces are generated once into $AMPPROF_BENCH_DIR (default /tmp/ampprof-bench) and reused; peak memory
// is that of one iteration (bench_traces.h).

#include <filesystem>
#include <string>

#include <benchmark/benchmark.h>

#include "bench/bench_traces.h"
#include "collectors/records/ampt_reader.h"
#include "src/base/check.h"
#include "src/model/model_builder.h"

namespace ampprof {
namespace {

// A sink that only counts, to separate the reader's cost from the model's.
class CountingSink final : public records::RecordSink {
 public:
  base::StringPool& strings() override { return strings_; }
  base::Stats& stats() override { return stats_; }
  void SetMetadata(std::string_view, std::string_view) override {}
  void Add(const records::DeviceRecord&) override { ++records; }
  void Add(const records::ProcessRecord&) override { ++records; }
  void Add(const records::ThreadRecord&) override { ++records; }
  void Add(const records::KernelRecord&) override {
    ++records;
    ++kernels;
  }
  void Add(const records::ApiCallRecord&) override { ++records; }
  void Add(const records::MemcpyRecord&) override { ++records; }
  void Add(const records::MemsetRecord&) override { ++records; }
  void Add(const records::SyncRecord&) override { ++records; }
  void Add(const records::RangeRecord&) override { ++records; }
  void Add(const records::MarkRecord&) override { ++records; }
  void Add(const records::MemoryRecord&) override { ++records; }
  void Add(const records::OverheadRecord&) override { ++records; }
  int64_t records = 0;
  int64_t kernels = 0;

 private:
  base::StringPool strings_;
  base::Stats stats_;
};

void BM_ReadOnly(benchmark::State& state) {
  const std::string path = bench::SyntheticTrace(state.range(0));
  int64_t kernels = 0;
  for (auto _ : state) {
    CountingSink sink;
    AMPPROF_CHECK(records::ReadAmptFile(path, sink).ok());
    kernels = sink.kernels;
    benchmark::DoNotOptimize(sink.records);
  }
  state.SetItemsProcessed(state.iterations() * kernels);
  state.counters["kernels"] = static_cast<double>(kernels);
  state.counters["file_bytes_per_kernel"] =
      static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(kernels);
}

void BM_ReadAndBuild(benchmark::State& state) {
  const std::string path = bench::SyntheticTrace(state.range(0));
  int64_t kernels = 0;
  int64_t peak_bytes = 0;
  size_t model_bytes = 0;
  for (auto _ : state) {
    bench::PeakMemory memory;
    memory.Start();
    model::ModelBuilder builder;
    AMPPROF_CHECK(records::ReadAmptFile(path, builder).ok());
    model::TraceModel model = std::move(builder).Build();
    peak_bytes = std::max(peak_bytes, memory.PeakBytes());
    kernels = static_cast<int64_t>(model.kernels().size());
    model_bytes = model.MemoryBytes();
    benchmark::DoNotOptimize(model.kernels().start.values().data());
  }
  state.SetItemsProcessed(state.iterations() * kernels);
  state.counters["kernels"] = static_cast<double>(kernels);
  state.counters["peak_bytes_per_kernel"] = static_cast<double>(peak_bytes) / static_cast<double>(kernels);
  state.counters["model_bytes_per_kernel"] = static_cast<double>(model_bytes) / static_cast<double>(kernels);
}

BENCHMARK(BM_ReadOnly)->Arg(100'000)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadAndBuild)->Arg(100'000)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ampprof

BENCHMARK_MAIN();
