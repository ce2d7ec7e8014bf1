#include "src/cli/collector_setup.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "collectors/liblogs/log_environment.h"
#include "src/base/logging.h"
#include "src/base/terminal_text.h"
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <utility>

namespace ampprof::cli {
namespace {

#if AMPPROF_CUDA_ENABLED
constexpr std::string_view kInjectionFileName = "libampprof_inject.so";
constexpr std::string_view kCuptiLocations[] = {
    AMPPROF_CUPTI_LIBRARY,
    "/usr/local/cuda/lib64/libcupti.so.13",
    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
    "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13",
    "/usr/local/cuda/targets/sbsa-linux/lib/libcupti.so.13",
};

bool IsRegularFile(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

// $AMPPROF_PYTHON_SHIM_DIR, else python/ beside the executable; "" when neither has the shim.
std::string FindPythonShim() {
  std::filesystem::path dir;
  if (auto path = ProcessEnvironment("AMPPROF_PYTHON_SHIM_DIR"); path && !path->empty()) {
    dir = *path;
  } else {
    std::error_code error;
    dir = std::filesystem::read_symlink("/proc/self/exe", error).parent_path() / "python";
  }
  return IsRegularFile(dir / "sitecustomize.py") ? dir.string() : std::string();
}
#endif

std::string Seconds(double seconds) { return fmt::format("{}", seconds); }

// An injection variable set to a tool of its own; "none" is the documented way to say "no tool".
bool NamesAnotherTool(const std::optional<std::string>& value, const std::string& ours) {
  return value && !value->empty() && *value != "none" && *value != ours;
}

}  // namespace

std::optional<std::string> ProcessEnvironment(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

base::StatusOr<CollectorFiles> FindCollector() {
#if !AMPPROF_CUDA_ENABLED
  return base::UnsupportedError(
      "this ampprof was built without the CUDA backend, so it has no CUPTI collector; rebuild on a "
      "machine with CUDA Toolkit 13 (CUPTI) to trace workloads, or analyze existing traces with "
      "'ampprof analyze'");
#else
  CollectorFiles files;
  if (auto path = ProcessEnvironment("AMPPROF_INJECTION_LIBRARY"); path && !path->empty()) {
    if (!IsRegularFile(*path)) {
      return base::NotFoundError("AMPPROF_INJECTION_LIBRARY={}: no such file", *path);
    }
    files.injection_library = *path;
  } else {
    std::error_code error;
    const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::filesystem::path beside = executable.parent_path() / kInjectionFileName;
    if (error || !IsRegularFile(beside)) {
      return base::NotFoundError(
          "the collector {} is not beside the ampprof executable ({}); build the ampprof_inject "
          "target, "
          "or point AMPPROF_INJECTION_LIBRARY at it",
          kInjectionFileName, error ? "unknown location" : executable.parent_path().string());
    }
    files.injection_library = beside.string();
  }
  files.python_shim_dir = FindPythonShim();
  if (auto path = ProcessEnvironment("AMPPROF_CUPTI_LIBRARY"); path && !path->empty()) {
    if (!IsRegularFile(*path))
      return base::NotFoundError("AMPPROF_CUPTI_LIBRARY={}: no such file", *path);
    files.cupti_library = *path;
    files.cupti_source = "AMPPROF_CUPTI_LIBRARY";
    return files;
  }
  // The same places, in the same order, as the collector's RUNPATH, so that NVTX and the collector
  // find the same file.
  std::error_code error;
  const std::filesystem::path executable_dir =
      std::filesystem::read_symlink("/proc/self/exe", error).parent_path();
  if (std::optional<CuptiLocation> cupti = FindCupti(kCuptiLocations, executable_dir)) {
    files.cupti_library = std::move(cupti->path);
    files.cupti_source = std::move(cupti->source);
    return files;
  }
  return base::NotFoundError(
      "libcupti.so.13 is not where ampprof was built to find it ({}), nor in /usr/local/cuda, nor in "
      "the nvidia-cuda-cupti wheel beside this installation ({}); install CUDA Toolkit 13 or `pip "
      "install nvidia-cuda-cupti` (13.x), or point AMPPROF_CUPTI_LIBRARY at this machine's "
      "libcupti.so.13",
      AMPPROF_CUPTI_LIBRARY, (executable_dir / kCuptiWheelPath).lexically_normal().string());
#endif
}

std::string CuptiDescription(const CollectorFiles& collector) {
  return fmt::format("libcupti from {}: {}", collector.cupti_source, collector.cupti_library);
}

void SayWhichCupti(const CollectorFiles& collector, std::string_view command) {
  const std::string text = base::EscapeControlCharacters(CuptiDescription(collector));
  if (collector.cupti_source == kCuptiWheelSource) {
    fmt::print(std::cerr, "ampprof {}: {}\n", command, text);
  } else {
    base::LogInfo("{}", text);
  }
}

std::optional<CuptiLocation> FindCupti(std::span<const std::string_view> toolkit_paths,
                                       const std::filesystem::path& executable_dir) {
  std::error_code error;
  for (const std::string_view candidate : toolkit_paths) {
    if (!candidate.empty() && std::filesystem::is_regular_file(candidate, error)) {
      return CuptiLocation{std::string(candidate), std::string(kCuptiToolkitSource)};
    }
  }
  const std::filesystem::path wheel = (executable_dir / kCuptiWheelPath).lexically_normal();
  if (!executable_dir.empty() && std::filesystem::is_regular_file(wheel, error)) {
    return CuptiLocation{wheel.string(), std::string(kCuptiWheelSource)};
  }
  return std::nullopt;
}

TracedEnvironment TracedRunEnvironment(const CaptureOptions& capture,
                                       const CollectorFiles& collector,
                                       const EnvironmentLookup& environment) {
  TracedEnvironment traced;
  const std::optional<std::string> cuda_tool = environment("CUDA_INJECTION64_PATH");
  const std::optional<std::string> nvtx_tool = environment("NVTX_INJECTION64_PATH");
  if (NamesAnotherTool(cuda_tool, collector.injection_library)) {
    traced.other_tool = fmt::format("CUDA_INJECTION64_PATH={}", *cuda_tool);
  } else if (NamesAnotherTool(nvtx_tool, collector.injection_library) &&
             NamesAnotherTool(nvtx_tool, collector.cupti_library)) {  // CUPTI's own advice: ours too
    traced.other_tool = fmt::format("NVTX_INJECTION64_PATH={}", *nvtx_tool);
  }
  if (traced.other_tool) return traced;

  traced.variables = {
      {"CUDA_INJECTION64_PATH", collector.injection_library},
      // The collector, not libcupti by path: it forwards NVTX to the libcupti the process really uses
      // (collectors/cupti/injection.cc says why a second copy breaks the recording).
      {"NVTX_INJECTION64_PATH", collector.injection_library},
      {"AMPPROF_OUTPUT_DIR", capture.output_dir},
      {"AMPPROF_CAPTURE_RANGE",
       capture.range == CaptureRangeOption::kCudaProfilerApi ? "cudaProfilerApi" : "none"},
  };
  if (capture.delay_seconds)
    traced.variables.emplace_back("AMPPROF_DELAY_S", Seconds(*capture.delay_seconds));
  if (capture.duration_seconds) {
    traced.variables.emplace_back("AMPPROF_DURATION_S", Seconds(*capture.duration_seconds));
  }
  if (!collector.python_shim_dir.empty()) {
    const std::optional<std::string> inherited = environment("PYTHONPATH");
    traced.variables.emplace_back(
        "PYTHONPATH", inherited && !inherited->empty()
                          ? fmt::format("{}:{}", collector.python_shim_dir, *inherited)
                          : collector.python_shim_dir);
    traced.variables.emplace_back("AMPPROF_SHIM", "1");
    if (capture.torch_ops) traced.variables.emplace_back("AMPPROF_TORCH_OPS", "1");
  }
  if (capture.all_api_calls) traced.variables.emplace_back("AMPPROF_API_CALLS", "all");
  if (capture.library_logs) {
    for (const liblogs::EnvironmentVariable& variable :
         liblogs::LibraryLogEnvironment(capture.output_dir)) {
      traced.variables.emplace_back(variable.name, variable.value);
    }
  }
  return traced;
}

}  // namespace ampprof::cli
