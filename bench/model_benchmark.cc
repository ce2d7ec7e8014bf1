// Reading and modelling .ampt traces: throughput (kernels per second) and peak memory per kernel, on
// synthetic traces of 10^5, 10^6 and 10^7 kernels from collectors/synthetic.
//
//   ampprof_model_benchmark --benchmark_filter=ReadAndBuild
//
// Traces are generated once into $AMPPROF_BENCH_DIR (default /tmp/ampprof-bench) and reused. Peak memory
// is measured per iteration: the kernel's high-water mark (VmHWM) is reset through /proc/self/clear_refs
// before the iteration and read after it, so the counter is the peak of that iteration alone.

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <benchmark/benchmark.h>

#include "collectors/records/ampt_reader.h"
#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "src/base/check.h"
#include "src/model/model_builder.h"

namespace ampprof {
namespace {

std::string BenchDir() {
  const char* dir = std::getenv("AMPPROF_BENCH_DIR");
  return dir != nullptr ? dir : "/tmp/ampprof-bench";
}

// Path of a synthetic trace with at least `kernels` kernels, generated on first use.
std::string TraceWith(int64_t kernels) {
  const std::string dir = BenchDir();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/synthetic-" + std::to_string(kernels) + ".ampt";
  if (std::filesystem::exists(path)) return path;
  const std::string partial = path + ".partial";
  records::AmptWriter::Options options;
  options.overwrite = true;
  auto writer = records::AmptWriter::Create(partial, options);
  AMPPROF_CHECK_MSG(writer.ok(), writer.status().message().c_str());
  synthetic::SyntheticTraceOptions synthetic;
  synthetic.kernels = static_cast<uint64_t>(kernels);
  AMPPROF_CHECK(synthetic::GenerateSyntheticTrace(synthetic, **writer).ok());
  AMPPROF_CHECK((*writer)->Close().ok());
  std::filesystem::rename(partial, path);
  return path;
}

// Reads a "Name:   123 kB" line of /proc/self/status, in bytes.
int64_t ProcStatusBytes(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(status, line)) {
    if (line.rfind(prefix, 0) == 0) return std::atoll(line.c_str() + prefix.size()) * 1024;
  }
  return 0;
}

void ResetPeakRss() {
  malloc_trim(0);  // return memory freed by earlier iterations, so the baseline is what is in use
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";  // resets VmHWM to the current RSS (Linux >= 4.0)
}

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
  const std::string path = TraceWith(state.range(0));
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
  const std::string path = TraceWith(state.range(0));
  int64_t kernels = 0;
  int64_t peak_bytes = 0;
  size_t model_bytes = 0;
  for (auto _ : state) {
    ResetPeakRss();
    const int64_t baseline = ProcStatusBytes("VmRSS");
    model::ModelBuilder builder;
    AMPPROF_CHECK(records::ReadAmptFile(path, builder).ok());
    model::TraceModel model = std::move(builder).Build();
    peak_bytes = std::max<int64_t>(peak_bytes, ProcStatusBytes("VmHWM") - baseline);
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
