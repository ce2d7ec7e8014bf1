#ifndef AMPPROF_ANALYZERS_REPORT_SUMMARY_H_
#define AMPPROF_ANALYZERS_REPORT_SUMMARY_H_

// The trace summary: what was traced (processes, devices, record counts), over what span, how busy each
// GPU was, and where kernel time went. Every report starts with it.
//
//   TraceSummary summary = Summarize(model);
//   for (const DeviceSummary& device : summary.devices) { ... device.busy_fraction ... }
//
// Definitions, fixed here so every view agrees (docs/step-account.md):
//   device span      first kernel start to last kernel end on that device (the whole trace);
//   analysed window  the measured steps' periods, or without steps the device span less leading
//                    autotuning (step_account.h);
//   busy             time in the analysed window with a kernel running (compute or communication),
//                    copies excluded, as HolisticTraceAnalysis and ../shared/fixtures/README.md count it;
//   busy fraction    busy / analysed window;
//   step time        a measured step's period; the median and p90 are over the measured steps.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/facts/kernel_classifier.h"
#include "src/base/time.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

// One bucket of the step account as the views list it.
struct AccountRow {
  std::string key;    // stable, for scripts: "compute", "exposed_communication", "copies", "idle:<cause key>"
  std::string label;  // "GEMM on Tensor Cores, FP16", "exposed communication", "idle: waiting for kernel launches"
  base::DurationNs total_ns = 0;     // over the analysed window
  base::DurationNs per_step_ns = 0;  // total / steps
  double share = 0.0;                // of the analysed window
  uint64_t kernels = 0;              // compute rows: kernels starting in the window
};

// A device's step account (step_account.h), reduced to what the views print: the rows add up to the
// window, to the nanosecond.
struct AccountSummary {
  std::string basis;  // "measured steps" or "whole run"
  size_t steps = 0;   // measured steps (1 for a whole run)
  base::Interval window;
  base::DurationNs median_step_ns = 0;  // the median period; the window for a whole run
  base::DurationNs p90_step_ns = 0;
  base::DurationNs busy_ns = 0;  // a kernel running: compute + exposed communication
  double busy_fraction = 0.0;
  base::DurationNs compute_ns = 0;
  base::DurationNs exposed_communication_ns = 0;
  base::DurationNs overlapped_communication_ns = 0;  // not a bucket: communication under compute
  base::DurationNs copy_ns = 0;
  ByCause<base::DurationNs> idle;
  ByCause<uint64_t> gaps;
  std::vector<AccountRow> rows;  // every bucket with time: compute rows largest first, then the rest
  std::vector<CollectiveTime> communication;
};

struct DeviceSummary {
  uint32_t pid = 0;
  uint32_t device_id = 0;
  std::string name;  // empty when the trace did not describe the device
  uint32_t compute_major = 0;
  uint32_t compute_minor = 0;
  uint32_t sm_count = 0;
  uint64_t global_memory_bytes = 0;
  uint64_t kernels = 0;
  uint32_t streams_with_kernels = 0;
  std::optional<base::Interval> span;        // the device span
  std::optional<AccountSummary> account;     // nullopt when the device has no kernels in the analysed window
  // Device memory (device_memory.h): the highest memory allocated (the framework allocator's "Total
  // Allocated", else the highest sum of allocations minus frees from the trace's start, cudaMalloc's
  // when that is all the trace records) and reserved (the allocator's "Total Reserved"), and the step
  // (an index as in StepTime, -1 for none) where each peak was first reached; nullopt when not recorded.
  std::optional<uint64_t> peak_allocated_bytes;
  int32_t peak_allocated_step = -1;
  std::optional<uint64_t> peak_reserved_bytes;
  int32_t peak_reserved_step = -1;
  std::string memory_source;  // "allocator" (PyTorch's caching allocator), "driver" (cudaMalloc), ""
};

struct ProcessSummary {
  uint32_t pid = 0;
  std::string command;
  int32_t rank = -1;  // -1 when not distributed or unknown
  int32_t world_size = 0;
};

struct KernelTimeSummary {
  std::string name;
  std::string kind;  // what the kernel classifier says: "GEMM, Tensor Cores, FP16, cuBLASLt"
  uint64_t count = 0;
  base::DurationNs total_ns = 0;
  double share_of_kernel_time = 0.0;
};

// One training step as the reports list it (the per-step table of the verbose text report, JSON).
struct StepTime {
  uint32_t index = 0;              // position among the trace's steps, from 0, warm-up included
  base::Interval interval;         // the step's period on the busiest GPU (step_account.h)
  bool warmup = false;             // a leading warm-up outlier, left out of the median and p90
};

// The per-step list is bounded so that a report stays small however long the run: the first steps are
// the ones that show warm-up, and a training loop's later steps repeat the median.
inline constexpr size_t kMaxStepTimes = 32;

struct TraceSummary {
  std::string workload;  // what ran, from the trace's metadata or process command line
  RunKind run_kind = RunKind::kUnknown;  // training or inference (run_kind.h)
  std::string run_kind_evidence;
  // What ampprof's collector says about its own recording when it was not the whole story: it was
  // off (another CUPTI tool attached), its capture window never opened, CUPTI refused some kinds.
  // Empty for a complete recording and for traces from other tools.
  std::string collector_note;
  uint32_t processes = 0;
  uint32_t threads = 0;
  uint64_t kernels = 0;
  uint64_t api_calls = 0;
  uint64_t memcpys = 0;
  uint64_t memsets = 0;
  uint64_t syncs = 0;
  uint64_t ranges = 0;
  uint64_t marks = 0;
  uint64_t memory_events = 0;
  uint64_t synchronize_calls = 0;     // host calls that wait for the GPU: stream/device/event synchronise
  uint64_t pageable_copies = 0;       // memcpys to or from pageable host memory: synchronous for the host
  uint64_t pageable_copy_bytes = 0;
  std::optional<base::Interval> gpu_span;
  std::string account_basis;             // "measured steps", "whole run" or "all warm-up" (step_account.h)
  uint32_t steps = 0;                    // training steps the trace marks (steps.h), warm-up included
  uint32_t warmup_steps = 0;             // leading steps that are warm-up outliers
  std::string step_source;               // where the steps came from: StepSourceName
  // Of the busiest GPU's account (the primary device): the median and p90 measured step; 0 without steps.
  base::DurationNs median_step_ns = 0;
  base::DurationNs p90_step_ns = 0;
  uint32_t primary_device = 0;           // index into `devices` of the busiest GPU
  std::vector<StepTime> step_times;      // the first kMaxStepTimes steps' periods, in time order
  base::DurationNs kernel_time_ns = 0;  // sum of kernel durations, all devices
  std::vector<ProcessSummary> process_list;
  std::vector<DeviceSummary> devices;
  std::vector<KernelTimeSummary> top_kernels;    // by total time, at most kTopKernels
};

inline constexpr size_t kTopKernels = 10;

// The category kernel time is grouped under in reports: KernelCategoryName, with GEMMs and convolutions
// told apart by the unit they ran on ("GEMM on Tensor Cores", "convolution on CUDA cores"), the question
// AMP asks of them.
std::string CategoryLabel(const KernelClass& k);

// The label of a compute bucket: CategoryLabel, with the data type when the name gives one.
std::string ComputeLabel(const ComputeKey& key);

TraceSummary Summarize(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_REPORT_SUMMARY_H_
