#ifndef AMPPROF_REPORTS_COMMON_MEMORY_TEXT_H_
#define AMPPROF_REPORTS_COMMON_MEMORY_TEXT_H_

// Peak device memory as every view words it, so that the same peak is the same text in the terminal,
// Markdown and HTML reports (the JSON report has the numbers):
//
//   "peak 1.2 GiB allocated (step 3), 1.5 GiB reserved, from PyTorch's caching allocator"
//   "peak 310 MiB allocated, from cudaMalloc counted from the start of the trace"

#include <cstdint>
#include <optional>
#include <string>

#include "analyzers/report/summary.h"

namespace ampprof::reports {

// "" when the device recorded no memory events.
std::string DeviceMemoryText(const analyzers::DeviceSummary& device);
// The comparison's side of a run: "1.2 GiB allocated, 1.5 GiB reserved"; "not recorded" without either.
std::string PeakMemoryText(std::optional<uint64_t> allocated, std::optional<uint64_t> reserved);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_COMMON_MEMORY_TEXT_H_
