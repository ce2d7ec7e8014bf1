#include "reports/common/memory_text.h"

#include <fmt/format.h>

#include "src/base/format.h"

namespace ampprof::reports {
namespace {

// Numbered as the step-time table and the JSON's step indices number steps (from 0, warm-up included).
std::string InStep(int32_t step) { return step >= 0 ? fmt::format(" (step {})", step) : ""; }

}  // namespace

std::string DeviceMemoryText(const analyzers::DeviceSummary& device) {
  if (!device.peak_allocated_bytes && !device.peak_reserved_bytes) return "";
  std::string text = "peak";
  if (device.peak_allocated_bytes) {
    text += fmt::format(" {} allocated{}", base::FormatBytes(*device.peak_allocated_bytes),
                        InStep(device.peak_allocated_step));
  }
  if (device.peak_reserved_bytes) {
    text += fmt::format("{} {} reserved{}", device.peak_allocated_bytes ? "," : "",
                        base::FormatBytes(*device.peak_reserved_bytes), InStep(device.peak_reserved_step));
  }
  text += device.memory_source == "allocator" ? ", from PyTorch's caching allocator"
                                              : ", from cudaMalloc counted from the start of the trace";
  return text;
}

std::string PeakMemoryText(std::optional<uint64_t> allocated, std::optional<uint64_t> reserved) {
  if (!allocated && !reserved) return "not recorded";
  std::string text;
  if (allocated) text = base::FormatBytes(*allocated) + " allocated";
  if (reserved) text += (text.empty() ? "" : ", ") + base::FormatBytes(*reserved) + " reserved";
  return text;
}

}  // namespace ampprof::reports
