#ifndef AMPPROF_ANALYZERS_REPORT_COMPARE_H_
#define AMPPROF_ANALYZERS_REPORT_COMPARE_H_

// FP32 vs mixed precision: the same workload traced twice, compared step against step, with the
// difference taken apart by the step account's buckets, so that "AMP is slower" comes with "because the
// GPU now waits 2 ms per step for kernel launches" and the finding that says how to fix that.
//
//   RunProfile fp32 = ProfileRun(fp32_input);   // each model on its own: one in memory at a time
//   RunProfile amp = ProfileRun(amp_input);
//   fp32.identity = {...};  amp.identity = {...};   // who each trace is (the pipeline knows the files)
//   const ComparisonResult result = Compare(fp32, amp, "");
//   result.comparison.speedup ... result.finding  (amp.slower_than_fp32, when AMP is not faster)
//
// Both runs are read through their step accounts (step_account.h) on their busiest GPUs: per measured
// step when both traces mark steps (the verdict compares median steps; the rows are means per step and
// add up to the mean step), else each run's analysed window as a whole, which is fair only when both did
// the same work: the comparison says so. A pure function of the two runs: what the comparison is
// (FP32 against mixed precision, both FP32, arguments swapped, different GPUs or ranks) is decided
// here, and said in its notes and in the verdict.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/findings/finding.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// Below this speed-up mixed precision brought nothing worth its cost. Medians of steady-state steps of
// two separate runs of one workload differ by a few percent (GPU clocks, allocator state, cuDNN's
// algorithm choices), and AMP on Tensor-Core GPUs is worth 1.5-3x where GEMMs and convolutions dominate:
// under 5% there is no speed-up to speak of.
inline constexpr double kMinUsefulSpeedup = 1.05;

// Who a trace is; the pipeline fills it from the file and the model.
struct RunIdentity {
  std::string trace;  // the file
  std::string label;  // "rank 0 of 8", "pid 4242"
  int32_t rank = -1;
  int32_t world_size = 0;
  bool data_loss = false;  // the trace lost records
};

// One bucket of a run's account, summed over its analysed window.
struct ProfileBucket {
  std::string label;    // "GEMM on Tensor Cores", "exposed communication", "idle: waiting for kernel launches"
  std::string finding;  // the finding that explains it costing more under AMP, or ""
  base::DurationNs total_ns = 0;
};

// One run, reduced to what a comparison needs. Small: the model can go once it is computed.
struct RunProfile {
  RunIdentity identity;
  std::string device;  // the busiest GPU's name; empty when the trace does not describe it
  uint32_t device_id = 0;
  uint32_t compute_major = 0;
  uint32_t compute_minor = 0;
  uint32_t devices_with_kernels = 0;
  bool has_account = false;  // false: no kernels in the analysed window (nothing to compare)
  bool per_step = false;     // the account is over measured steps (else the whole run)
  size_t steps = 0;          // measured steps (1 for a whole run)
  size_t warmup_steps = 0;
  std::string step_source;
  base::DurationNs median_step_ns = 0;  // the account's median step; the window for a whole run
  base::DurationNs window_ns = 0;
  base::DurationNs busy_ns = 0;
  uint64_t kernels = 0;  // in the window
  std::vector<ProfileBucket> buckets;
  // Busiest GPU (device_memory.h): the highest memory allocated and the allocator's reserved.
  std::optional<uint64_t> peak_allocated_bytes = std::nullopt;
  std::optional<uint64_t> peak_reserved_bytes = std::nullopt;
  // The names of the framework ops that launched kernels, sorted (empty without ops): what tells two
  // workloads apart.
  std::vector<std::string> op_names;
  // Precision, over all kernels: what says whether autocast was on.
  base::DurationNs matrix_ns = 0;          // GEMM, convolution and attention kernels
  base::DurationNs reduced_matrix_ns = 0;  // of those, in FP16/BF16/FP8 (or on FP16 Tensor Cores)
  uint64_t reduced_matrix_kernels = 0;
  uint64_t reduced_kernels = 0;  // any kernel in FP16/BF16/FP8, casts to them included

  bool mixed_precision() const { return reduced_matrix_kernels > 0; }
};

RunProfile ProfileRun(const AnalysisInput& input);

enum class CompareBasis : uint8_t {
  kMedianStep,  // both traces mark steps: median step after warm-up; rows per step
  kWholeRun,    // at least one does not: each analysed window; rows per run
};

// What the two traces are, which decides what the verdict may say.
enum class RunPair : uint8_t {
  kFp32VsMixed,  // as intended: the baseline FP32, the candidate mixed precision
  kSwapped,      // given the wrong way round: compared the right way, and said so
  kBothFp32,     // no mixed-precision run: a comparison of two FP32 runs, no AMP speed-up to state
  kBothMixed,    // no FP32 run: a comparison of two mixed-precision runs
};

struct ComparisonRow {
  std::string label;
  base::DurationNs baseline_ns = 0;   // per step (or per run), FP32
  base::DurationNs candidate_ns = 0;  // per step (or per run), mixed precision
  std::string explained_by;           // the finding id behind a row that costs more in the AMP run, or ""

  base::DurationNs change_ns() const { return candidate_ns - baseline_ns; }
};

// One side as the report shows it.
struct ComparedRun {
  std::string trace;
  std::string label;
  std::string device;
  size_t steps = 0;  // measured steps compared (0 for a whole run)
  size_t warmup_steps = 0;
  std::string step_source;
  base::DurationNs time_ns = 0;      // what the verdict compares: the median step, or the analysed window
  base::DurationNs gpu_time_ns = 0;  // the mean step (or the window): the rows' total
  double busy_fraction = 0.0;        // a kernel running, of that time
  double kernels_per_unit = 0.0;
  bool reduced_precision = false;  // has FP16/BF16 GEMM/convolution/attention kernels
  bool data_loss = false;
  std::optional<uint64_t> peak_allocated_bytes = std::nullopt;  // device memory, when recorded
  std::optional<uint64_t> peak_reserved_bytes = std::nullopt;
};

struct Comparison {
  CompareBasis basis = CompareBasis::kMedianStep;
  RunPair pair = RunPair::kFp32VsMixed;
  ComparedRun baseline;   // FP32 (after swapping, when the arguments were the wrong way round)
  ComparedRun candidate;  // mixed precision
  double speedup = 0.0;   // baseline time / candidate time; 0 when either run has no GPU time
  std::vector<ComparisonRow> rows;  // by absolute change, largest first; rows zero in both left out
  // What makes the two runs different jobs, so that the difference is not precision's alone: other GPU
  // models, world sizes, ranks or workloads. Every view prints them as warnings.
  std::vector<Statement> warnings;
  std::vector<Statement> notes;     // what qualifies the comparison: not FP32, not AMP, how paired, ...
};

struct ComparisonResult {
  Comparison comparison;
  // amp.slower_than_fp32: an FP32 against a mixed-precision run whose speed-up is below kMinUsefulSpeedup.
  std::optional<Finding> finding;
};

// `pairing` is how the pipeline paired the traces, when that needs saying ("compared rank by rank"),
// else "".
ComparisonResult Compare(const RunProfile& baseline, const RunProfile& candidate, const std::string& pairing);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_COMPARE_H_
