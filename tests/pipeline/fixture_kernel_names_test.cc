// Every distinct kernel name in ../shared/fixtures (real traces, V100 to B300) is a row of
// tests/data/kernels/known_kernels.tsv, whose classification kernel_classifier_test checks: a name the
// importers produce that no one has checked by hand fails here.

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "src/pipeline/analysis.h"

namespace ampprof::pipeline {
namespace {

std::set<std::string> KnownKernelNames() {
  std::ifstream file(std::string(AMPPROF_SOURCE_DIR) + "/tests/data/kernels/known_kernels.tsv");
  std::set<std::string> names;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line[0] != '#') names.insert(line.substr(0, line.find('\t')));
  }
  return names;
}

TEST(FixtureKernelNames, EveryKernelNameOfTheSharedFixturesIsInTheCheckedTable) {
  const std::filesystem::path root = AMPPROF_SHARED_FIXTURES_DIR;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << root << " is absent (a fresh clone)";
  const std::set<std::string> known = KnownKernelNames();
  ASSERT_FALSE(known.empty());
  size_t traces = 0;
  size_t names = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || path.ends_with(".md")) continue;
    const auto trace = LoadAndBuild(path);
    ASSERT_TRUE(trace.ok()) << trace.status().ToString();
    ++traces;
    std::set<std::string> distinct;
    for (const model::KernelSignature& signature : trace->model.kernel_signatures()) {
      distinct.insert(std::string(trace->model.Text(signature.name)));
    }
    for (const std::string& name : distinct) EXPECT_TRUE(known.contains(name)) << path << ": " << name;
    names += distinct.size();
  }
  EXPECT_EQ(traces, 12u);
  EXPECT_GE(names, 337u);
}

}  // namespace
}  // namespace ampprof::pipeline
