#ifndef AMPPROF_ANALYZERS_REPORT_COMPARE_H_
#define AMPPROF_ANALYZERS_REPORT_COMPARE_H_

// FP32 vs mixed precision: the same workload traced twice, compared step against step, with the
// difference taken apart by what the GPU was doing, so that "AMP is slower" comes with "because the GPU
// now waits 2 ms per step for kernel launches" and the finding that says how to fix that.
//
//   const RunProfile fp32 = ProfileRun(fp32_input);   // each model on its own: one in memory at a time
//   const RunProfile amp = ProfileRun(amp_input);
//   const ComparisonResult result = Compare(fp32, amp);
//   result.comparison.speedup ... result.finding  (amp.slower_than_fp32, when AMP is not faster)
//
// Normalisation. Both runs are compared per training step when both traces mark steps (steps.h): the
// verdict compares median step durations after warm-up, timed on the busiest GPU (host-time steps: from
// one step's first kernel to the next step's first kernel, because a host that does not wait for the
// GPU each step finishes its step ranges long before the GPU finishes the work); the decomposition
// divides the GPU time of the measured steps (first kernel to last kernel of those steps) by their
// number, so the rows are means per step and add up to the GPU time per step. When either trace marks no steps,
// both are compared as whole runs (each GPU's span), which is fair only when both did the same work:
// the comparison says so.
//
// Decomposition. Rows are kernel time by category, with GEMMs and convolutions split by math unit as the
// summary splits them, plus GPU idle time by cause (idle_gaps.h), plus a negative row for kernels that
// overlapped on other streams (summed per kernel, counted once in step time). Rows are ranked by the
// absolute change; a row that costs more in the mixed-precision run (by at least half a percent of its
// step) names the finding that explains it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/findings/registry.h"
#include "analyzers/findings/finding.h"
#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/kernel_classifier.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// Below this speed-up mixed precision brought nothing worth its cost. Medians of steady-state steps of
// two separate runs of one workload differ by a few percent (GPU clocks, allocator state, cuDNN's
// algorithm choices), and AMP on Tensor-Core GPUs is worth 1.5-3x where GEMMs and convolutions dominate:
// under 5% there is no speed-up to speak of.
inline constexpr double kMinUsefulSpeedup = 1.05;

// Where a run's GPU time went over a window, in total (divide by `units` for per step).
struct GpuBreakdown {
  struct Category {
    KernelCategory category = KernelCategory::kUnknown;
    MathUnit math = MathUnit::kNotApplicable;  // kept for GEMMs and convolutions only
    base::DurationNs total_ns = 0;
    uint64_t kernels = 0;
  };
  base::Interval window;    // first kernel start to last kernel end of what was examined
  uint64_t units = 0;       // measured steps, or 1 for a whole run
  uint64_t kernels = 0;     // kernels starting in the window
  base::DurationNs kernel_ns = 0;  // sum of their durations (clipped to the window)
  base::DurationNs busy_ns = 0;    // union of them
  ByCause<base::DurationNs> idle;  // window = busy + the idle of every cause
  std::vector<Category> categories;
};

// One run, reduced to what a comparison needs. Small: the model can go once it is computed.
struct RunProfile {
  std::string device;            // the busiest GPU's name; empty when the trace does not describe it
  uint32_t device_id = 0;
  uint32_t compute_major = 0;
  uint32_t compute_minor = 0;
  uint32_t devices_with_kernels = 0;
  // Steps (steps.h); steps == 0 when the trace marks no training loop.
  size_t steps = 0;
  size_t warmup_steps = 0;
  std::string step_source;
  base::DurationNs median_step_ns = 0;        // measured on the GPU (see Compare); 0 without steps
  base::DurationNs range_median_step_ns = 0;  // host-time steps: the ranges' own median; else 0
  std::optional<GpuBreakdown> per_step;  // over the measured steps; nullopt without steps
  std::optional<GpuBreakdown> whole;     // over the busiest GPU's span; nullopt without kernels
  std::optional<uint64_t> peak_allocated_bytes = std::nullopt;  // busiest GPU (PeakDeviceAllocated)
  // Precision, over all kernels: what says whether autocast was on.
  base::DurationNs matrix_ns = 0;          // GEMM, convolution and attention kernels
  base::DurationNs reduced_matrix_ns = 0;  // of those, in FP16/BF16/FP8 (or on FP16 Tensor Cores)
  uint64_t reduced_matrix_kernels = 0;
  uint64_t reduced_kernels = 0;            // any kernel in FP16/BF16/FP8, casts to them included
};

RunProfile ProfileRun(const AnalysisInput& input);

enum class CompareBasis : uint8_t {
  kMedianStep,  // both traces mark steps: median step after warm-up; rows per step
  kWholeRun,    // at least one does not: GPU span per run; rows per run
};

struct ComparisonRow {
  std::string label;              // "GEMM on Tensor Cores", "idle: waiting for kernel launches"
  base::DurationNs baseline_ns = 0;   // per step (or per run), FP32
  base::DurationNs candidate_ns = 0;  // per step (or per run), mixed precision
  std::string explained_by;       // the finding id behind a row that costs more in the AMP run, or ""

  base::DurationNs change_ns() const { return candidate_ns - baseline_ns; }
};

// One side as the report shows it.
struct ComparedRun {
  std::string trace;   // the file (filled by the pipeline)
  std::string label;   // "rank 0 of 8", "pid 4242" (filled by the pipeline)
  std::string device;
  size_t steps = 0;    // measured steps compared (0 for a whole run)
  size_t warmup_steps = 0;
  std::string step_source;
  base::DurationNs time_ns = 0;      // what the verdict compares: median step, or the GPU span
  base::DurationNs range_step_ns = 0;  // host-time steps: the median of the step ranges themselves
  base::DurationNs gpu_time_ns = 0;  // GPU time per step (or per run): the rows' total
  double busy_fraction = 0.0;        // of that GPU time
  double kernels_per_unit = 0.0;
  bool reduced_precision = false;    // has FP16/BF16 GEMM/convolution/attention kernels
  bool data_loss = false;            // its trace lost records (filled by the pipeline)
  std::optional<uint64_t> peak_allocated_bytes = std::nullopt;  // device memory, when recorded
};

struct Comparison {
  CompareBasis basis = CompareBasis::kMedianStep;
  ComparedRun baseline;   // FP32
  ComparedRun candidate;  // mixed precision
  double speedup = 0.0;   // baseline time / candidate time; 0 when either run has no GPU time
  std::vector<ComparisonRow> rows;  // by absolute change, largest first; rows zero in both left out
  std::vector<std::string> notes;   // what qualifies the comparison: GPUs differ, not FP32, not AMP, ...
};

struct ComparisonResult {
  Comparison comparison;
  std::optional<Finding> finding;  // amp.slower_than_fp32 when the speed-up is below kMinUsefulSpeedup
};

ComparisonResult Compare(const RunProfile& baseline, const RunProfile& candidate);

// The label of the row of idle time of `cause`: GapCauseName, short enough for a table column.
std::string_view IdleRowLabel(GapCause cause);

// For a row of kernel time, the finding that explains it costing more under AMP ("" when none does).
std::string_view FindingForCategory(KernelCategory category, MathUnit math);
std::string_view FindingForIdle(GapCause cause);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_COMPARE_H_
