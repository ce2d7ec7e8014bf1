// The kernel classifier at scale: classifying a million distinct kernel names (each trace classifies
// each distinct name once, so this is the cost a trace with that many names pays), and building the
// built-in rule table (paid once per process).
//
//   ampprof_kernel_classifier_benchmark --benchmark_filter=Distinct
//
// The names are the real ones of tests/data/kernels/known_kernels.tsv (cuBLAS, cuDNN, CUTLASS, ATen,
// FlashAttention, NCCL, ... from 40 to 1,600 bytes), each made distinct with a "_vN" suffix as the
// fault tests' million-name trace does (collectors/synthetic, --kernel-name-variants).

#include <fstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/facts/kernel_rules.h"
#include "src/base/check.h"

namespace ampprof {
namespace {

const std::vector<std::string>& RealNames() {
  static const std::vector<std::string> names = [] {
    std::ifstream file(std::string(AMPPROF_SOURCE_DIR) + "/tests/data/kernels/known_kernels.tsv");
    std::vector<std::string> read;
    for (std::string line; std::getline(file, line);) {
      if (!line.empty() && line[0] != '#') read.push_back(line.substr(0, line.find('\t')));
    }
    AMPPROF_CHECK_MSG(!read.empty(), "tests/data/kernels/known_kernels.tsv is missing");
    return read;
  }();
  return names;
}

std::vector<std::string> DistinctNames(int64_t count) {
  const std::vector<std::string>& real = RealNames();
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    names.push_back(real[static_cast<size_t>(i) % real.size()] + "_v" + std::to_string(i));
  }
  return names;
}

void BM_ClassifyDistinctNames(benchmark::State& state) {
  const std::vector<std::string> names = DistinctNames(state.range(0));
  const analyzers::KernelClassifier& classifier = analyzers::KernelClassifier::Builtin();
  size_t bytes = 0;
  for (const std::string& name : names) bytes += name.size();
  for (auto _ : state) {
    size_t known = 0;
    for (const std::string& name : names) {
      const analyzers::KernelClass k = classifier.Classify(name);
      known += k.category != analyzers::KernelCategory::kUnknown;
    }
    benchmark::DoNotOptimize(known);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.counters["mean_name_bytes"] = static_cast<double>(bytes) / static_cast<double>(names.size());
}

void BM_BuildBuiltinTable(benchmark::State& state) {
  for (auto _ : state) {
    auto rules = analyzers::ParseKernelRules(analyzers::BuiltinKernelRulesText(), analyzers::kBuiltinKernelRulesFile);
    AMPPROF_CHECK(rules.ok());
    auto classifier = analyzers::KernelClassifier::FromRules(std::move(*rules));
    AMPPROF_CHECK(classifier.ok());
    benchmark::DoNotOptimize(classifier->rules().size());
  }
}

BENCHMARK(BM_ClassifyDistinctNames)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BuildBuiltinTable)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ampprof

BENCHMARK_MAIN();
