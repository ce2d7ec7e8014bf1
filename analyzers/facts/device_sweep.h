#ifndef AMPPROF_ANALYZERS_FACTS_DEVICE_SWEEP_H_
#define AMPPROF_ANALYZERS_FACTS_DEVICE_SWEEP_H_

// One pass over a device's work in time order (kernels, memcpys and memsets on all of its streams), cut
// into stretches in which the same thing runs: what the step account charges and the timeline draws.
// Internal to analyzers/facts; step_account.h is the interface the rest of ampprof reads.
//
//   class Charge : public SweepVisitor { ... };   // OnStart, OnWork, OnGap
//   Charge charge;
//   SweepDevice(input, device, autotuning, window.start, window.end, charge);
//
// Precedence inside a stretch: any compute kernel, else communication kernels, else copies. Among
// several compute kernels the one that started first leads (ties: the earlier row), so that concurrent
// kernels are charged once and to a stable owner.

#include <cstdint>
#include <span>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/idle_gaps.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

enum class WorkKind : uint8_t { kCompute, kCommunication, kCopy };

enum class WorkSource : uint8_t { kKernel, kMemcpy, kMemset };

// A kernel, memcpy or memset.
struct WorkItem {
  base::TimeNs start = 0;
  base::TimeNs end = 0;
  WorkKind kind = WorkKind::kCompute;
  WorkSource source = WorkSource::kKernel;
  uint32_t row = 0;  // the row in its source's table
  model::ApiCallRow launch;
};

// The pointers are valid during the visitor's call only.
struct WorkStretch {
  base::Interval interval;
  WorkKind leading = WorkKind::kCompute;  // what the stretch is charged to
  const WorkItem* compute = nullptr;      // the first-started compute kernel running, if any
  const WorkItem* communication = nullptr;  // the first-started communication kernel running, if any
};

class SweepVisitor {
 public:
  virtual ~SweepVisitor() = default;
  // Each item, as the sweep reaches its start.
  virtual void OnStart(const WorkItem& item) = 0;
  // A stretch in which some work runs.
  virtual void OnWork(const WorkStretch& stretch) = 0;
  // A stretch in which nothing runs, with its cause; `ending` is the item whose start ended it (null for
  // a gap at the very end).
  virtual void OnGap(base::Interval gap, const GapVerdict& verdict, const WorkItem* ending) = 0;
};

// Sweeps from `sweep_from` (or the device's first item, whichever is earlier) to its last item's end,
// then on to `sweep_until` when that is later (a trailing gap with no ending item: kUnattributed). Gaps
// that start inside an autotuning burst are kAutotuning.
void SweepDevice(const AnalysisInput& input, model::DeviceRow device, std::span<const base::Interval> autotuning,
                 base::TimeNs sweep_from, base::TimeNs sweep_until, SweepVisitor& visitor);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_DEVICE_SWEEP_H_
