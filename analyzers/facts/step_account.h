#ifndef AMPPROF_ANALYZERS_FACTS_STEP_ACCOUNT_H_
#define AMPPROF_ANALYZERS_FACTS_STEP_ACCOUNT_H_

// The step account: for each GPU and each measured training step, every nanosecond of the step's time
// in exactly one bucket. Computed once per trace; every finding, the verdict and every view read their
// numbers from it, so one fact has one number everywhere. docs/step-account.md defines each term.
//
//   const StepAccount& account = input.account();
//   for (const DeviceAccount& gpu : account.devices) {
//     gpu.total.compute_ns + gpu.total.exposed_communication_ns + gpu.total.copy_ns + gpu.total.idle.Sum()
//         == gpu.window_ns();   // to the nanosecond
//   }
//
// The window. With training steps (steps.h), the measured steps (warm-up left out), each as its period:
// for steps found from host ranges, from the step's start to the next step's start, where a step starts
// at its range's start if the GPU had finished the earlier steps' work by then (a loop that waits for the
// GPU: the data loading at the start of a step is that step's) and else when the GPU finishes it (a host
// that queues work ahead: the ranges then measure only the launching); for steps found from kernels, the
// step's own interval. Without steps, one period: the device's span (first kernel start to last kernel
// end), less a leading burst of cuDNN autotuning (autotuning.h). The periods tile the window.
//
// The buckets, in order of precedence at each instant:
//   compute                 a kernel that is not communication is running; the time goes to the one
//                           that started first (category x math unit x dtype), so concurrent kernels
//                           are counted once; communication running under it is "overlapped", shown
//                           but not charged;
//   exposed communication   only communication kernels run (NCCL, symmetric memory, ...): the wait and
//                           transfer no compute hides;
//   copies only             only memcpys and memsets run;
//   idle, by cause          nothing runs (idle_gaps.h decides the cause of each gap).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/kernel_classifier.h"
#include "src/base/time.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

class AnalysisInput;

// What the account's window is.
enum class AccountBasis : uint8_t {
  kMeasuredSteps,  // the measured training steps
  kWholeRun,       // the device's span (no training loop found), autotuning at its start left out
  kAllWarmup,      // nothing but warm-up (autotuning trials): nothing left to account
};

// The compute bucket a kernel's time lands in.
struct ComputeKey {
  KernelCategory category = KernelCategory::kUnknown;
  MathUnit math = MathUnit::kNotApplicable;
  DataType dtype = DataType::kUnknown;
  friend auto operator<=>(const ComputeKey&, const ComputeKey&) = default;
};

// One step's (or the window's) time by bucket. compute + exposed communication + copies + idle is the
// period's duration exactly.
struct AccountTotals {
  base::DurationNs compute_ns = 0;
  base::DurationNs exposed_communication_ns = 0;
  base::DurationNs copy_ns = 0;
  ByCause<base::DurationNs> idle;
  // Not buckets: time a communication kernel ran under compute (hidden, not charged).
  base::DurationNs overlapped_communication_ns = 0;

  base::DurationNs busy_ns() const { return compute_ns + exposed_communication_ns; }  // a kernel runs
  base::DurationNs idle_ns() const { return idle.Sum(); }
  base::DurationNs total_ns() const { return busy_ns() + copy_ns + idle_ns(); }
  AccountTotals& operator+=(const AccountTotals& other);
};

struct ComputeTime {
  ComputeKey key;
  base::DurationNs charged_ns = 0;  // time in the compute bucket
  base::DurationNs kernel_ns = 0;   // the kernels' own durations, inside the window
  uint64_t kernels = 0;             // kernels starting in the window
};

struct CollectiveTime {
  std::string collective;  // CollectiveOf: "AllReduce", "SendRecv", ...
  uint64_t kernels = 0;     // starting in the window
  base::DurationNs kernel_ns = 0;
  base::DurationNs exposed_ns = 0;     // charged to exposed communication
  base::DurationNs overlapped_ns = 0;  // ran under compute
  // The shortest and the median duration of one kernel of this collective in the window: a collective
  // kernel ends only when every rank has joined, so time above the shortest is mostly waiting.
  base::DurationNs shortest_ns = 0;
  base::DurationNs median_ns = 0;
};

// An idle gap that the findings explain further (host busy, refilling after a sync), clipped to the
// window. Launch waits and queued gaps are many and need only their totals.
struct AccountedGap {
  base::Interval interval;
  GapCause cause = GapCause::kUnattributed;
  uint32_t step = 0;                 // the period holding its start
  model::ApiCallRow ending_launch;   // the call that launched the work that ended the gap
  model::ApiCallRow draining_call;   // kHostSync: the call that drained the queue
};

// A stretch of exposed communication: contiguous time in which only communication kernels ran.
struct ExposedStretch {
  base::Interval interval;
  model::KernelRow kernel;  // the communication kernel that started first in it (its collective, stream)
};

// The account keeps this many of the longest launch waits and exposed communication stretches, for the
// findings that point at them on a timeline (there are millions in a long trace; totals cover them all).
inline constexpr size_t kLongestKept = 16;

struct DeviceAccount {
  model::DeviceRow device;
  std::vector<base::Interval> periods;  // the measured steps' periods, in order, contiguous
  std::vector<AccountTotals> per_step;  // one per period
  // The periods of the warm-up steps before them (not accounted): what the warm-up finding compares.
  std::vector<base::Interval> warmup_periods;
  AccountTotals total;                  // the sum of per_step
  std::vector<ComputeTime> compute;     // by charged time, largest first
  std::vector<CollectiveTime> communication;  // by exposed time, largest first
  ByCause<uint64_t> gaps;                     // gaps by cause (a gap split by a step boundary counts once)
  std::vector<AccountedGap> host_gaps;        // kHostOther and kHostSync gaps, in time order
  // The kLongestKept longest kHostLaunch gaps (clipped to the window), longest first; gaps[kHostLaunch]
  // counts them all.
  std::vector<base::Interval> longest_launch_waits;
  // The kLongestKept longest exposed communication stretches, longest first, and how many there were.
  std::vector<ExposedStretch> longest_exposed;
  uint64_t exposed_stretches = 0;
  std::vector<base::Interval> autotuning;     // cuDNN autotuning bursts on the device (whole trace)
  uint64_t kernels = 0;                        // kernels starting in the window

  base::Interval window() const { return {periods.front().start, periods.back().end}; }
  base::DurationNs window_ns() const { return window().duration(); }
  size_t steps() const { return periods.size(); }
  // Median and 90th percentile of the periods' durations.
  base::DurationNs MedianStepNs() const;
  base::DurationNs P90StepNs() const;
  // The mean per step of a total over the window (the window divided among its periods).
  base::DurationNs PerStep(base::DurationNs total_ns) const;
  double Share(base::DurationNs part_ns) const { return base::ShareOf(part_ns, window_ns()); }
  // The period whose duration is the median (the lower middle of an even count).
  size_t MedianStepIndex() const;
};

struct StepAccount {
  AccountBasis basis = AccountBasis::kWholeRun;
  std::vector<DeviceAccount> devices;  // devices with kernels in the window, in device-row order
  // The account of the device with the most kernels: what the header, the verdict and the comparison
  // speak of. Null when no device has kernels in the window.
  const DeviceAccount* Primary() const;
  const DeviceAccount* Of(model::DeviceRow device) const;
};

// Builds the account of every device. Called once, by AnalysisInput::account().
StepAccount BuildStepAccount(const AnalysisInput& input);

// The device's activity over `window` as segments of one bucket each, in time order, for views that
// draw a stretch of the timeline (timeline.h): the same sweep and the same cause decisions as the
// account.
struct AccountSegment {
  base::Interval interval;
  enum class Kind : uint8_t { kCompute, kExposedCommunication, kCopy, kIdle } kind = Kind::kIdle;
  GapCause cause = GapCause::kUnattributed;  // kIdle only
};
std::vector<AccountSegment> SegmentDevice(const AnalysisInput& input, model::DeviceRow device, base::Interval window);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_STEP_ACCOUNT_H_
