#ifndef AMPPROF_ANALYZERS_REPORT_OP_TABLE_H_
#define AMPPROF_ANALYZERS_REPORT_OP_TABLE_H_

// The op table: GPU time by the framework op that launched it, with the op's shapes, the unit its
// GEMMs and convolutions ran on and its input type, like the TensorBoard profiler plugin's operator
// view (device self time per op, grouped by name and input shape). Over the busiest GPU's analysed
// window, so its times add up with the step account's; kernels no op launched are one line of their own.
//
//   if (report.ops) for (const OpRow& row : report.ops->rows) ... row.name, row.shapes, row.kernel_ns ...

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// The rows a report keeps: an op table is read from the top, and a training loop has a few hundred
// distinct (op, shapes) pairs at most.
inline constexpr size_t kMaxOpRows = 50;

struct OpRow {
  std::string name;          // "aten::cudnn_convolution"
  std::string shapes;        // "[32, 64, 56, 56], [64, 64, 1, 1]", "" when not recorded
  std::string input_type;    // "FP32", "FP16", ... of the first tensor input, "" when not recorded
  bool backward = false;     // launched inside autograd's backward pass
  std::string forward;       // for the backward pass: the forward op and its shapes, when known
  uint64_t calls = 0;        // op calls that launched kernels
  uint64_t kernels = 0;
  base::DurationNs kernel_ns = 0;    // the kernels' own time in the window
  base::DurationNs per_step_ns = 0;  // kernel_ns / measured steps (the window, for a whole run)
  double share = 0.0;                // of all kernel time in the window
  std::string unit;  // "Tensor Cores", "CUDA cores", "Tensor Cores and CUDA cores", "" (no GEMM/conv/attention)
};

struct OpTable {
  uint32_t device_id = 0;
  size_t steps = 0;                        // measured steps (0 for a whole run)
  uint64_t kernels = 0;                    // in the window
  uint64_t attributed_kernels = 0;         // of those, launched by an op
  base::DurationNs kernel_ns = 0;
  base::DurationNs attributed_ns = 0;
  size_t distinct_ops = 0;                 // rows before the table was cut to kMaxOpRows
  std::vector<OpRow> rows;                 // by kernel time, most first
};

// nullopt when the trace has no op ranges or no kernels in the analysed window.
std::optional<OpTable> BuildOpTable(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_OP_TABLE_H_
