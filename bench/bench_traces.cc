#include "bench/bench_traces.h"

#include <malloc.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/kineto_json_writer.h"
#include "collectors/synthetic/nsys_sqlite_writer.h"
#include "collectors/synthetic/synthetic_trace.h"
#include "src/base/check.h"

namespace ampprof::bench {
namespace {

std::string BenchDir() {
  const char* dir = std::getenv("AMPPROF_BENCH_DIR");
  return dir != nullptr ? dir : "/tmp/ampprof-bench";
}

template <typename Writer>
void Generate(base::StatusOr<std::unique_ptr<Writer>> writer, int64_t kernels) {
  AMPPROF_CHECK_MSG(writer.ok(), writer.status().message().c_str());
  synthetic::SyntheticTraceOptions options;
  options.kernels = static_cast<uint64_t>(kernels);
  AMPPROF_CHECK(synthetic::GenerateSyntheticTrace(options, **writer).ok());
  AMPPROF_CHECK((*writer)->Close().ok());
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

}  // namespace

std::string SyntheticTrace(int64_t kernels, std::string_view format) {
  const std::string dir = BenchDir();
  std::filesystem::create_directories(dir);
  const std::string extension = format == "kineto" ? ".json" : format == "nsys" ? ".sqlite" : ".ampt";
  // The names bench/run and hta_compare.py use too, so every tool reads the same files.
  const std::string path = dir + "/synthetic-" + std::to_string(kernels) + extension;
  if (std::filesystem::exists(path)) return path;
  const std::string partial = path + ".partial";
  if (format == "kineto") {
    Generate(synthetic::KinetoJsonWriter::Create(partial), kernels);
  } else if (format == "nsys") {
    Generate(synthetic::NsysSqliteWriter::Create(partial), kernels);
  } else {
    records::AmptWriter::Options options;
    options.overwrite = true;
    Generate(records::AmptWriter::Create(partial, options), kernels);
  }
  std::filesystem::rename(partial, path);
  return path;
}

void PeakMemory::Start() {
  malloc_trim(0);  // return memory freed by earlier iterations, so the baseline is what is in use
  std::ofstream("/proc/self/clear_refs") << "5";  // resets VmHWM to the current RSS (Linux >= 4.0)
  baseline_ = ProcStatusBytes("VmRSS");
}

int64_t PeakMemory::PeakBytes() const { return ProcStatusBytes("VmHWM") - baseline_; }

}  // namespace ampprof::bench
