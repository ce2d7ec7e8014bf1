#ifndef AMPPROF_ANALYZERS_FACTS_HOST_ACTIVITY_H_
#define AMPPROF_ANALYZERS_FACTS_HOST_ACTIVITY_H_

// What the host was doing while the GPU sat idle in host-busy gaps, from the trace itself: on the thread
// that launched the work ending each gap, the outermost range below the training step that covers each
// instant of the gap (PyTorch profiler ops and record_function ranges, NVTX ranges), grouped into the
// activities that have a known fix, and the copies from pageable memory the thread made meanwhile.
//
//   const HostActivity activity = DescribeHostGaps(input, gaps);
//   for (const HostActivityPart& part : activity.parts) ... part.kind, part.label, part.ns ...
//
// Range names decide the kind: DataLoader iteration ("enumerate(DataLoader)#...__next__", "data_load"),
// the optimizer ("Optimizer.step#...", the shim's optimizer.step), evaluation ("eval", "valid") and
// checkpointing ("checkpoint", "save"); any other range is named as it is; time no range covers is
// "host code outside any recorded range". A gap can hold several parts; their times add up to the gap (to rounding).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/step_account.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

enum class HostActivityKind : uint8_t {
  kDataLoading,
  kPageableCopy,
  kOptimizer,
  kEvaluation,
  kCheckpoint,
  kOtherRange,  // a recorded range of another name: `label` says which
  kUnrecorded,  // no range covers the time
};

struct HostActivityPart {
  HostActivityKind kind = HostActivityKind::kUnrecorded;
  std::string label;  // the range name (kOtherRange), or what the kind is called
  base::DurationNs ns = 0;
  uint64_t gaps = 0;  // gaps in which it took some time
};

struct HostActivity {
  std::vector<HostActivityPart> parts;  // by time, largest first
  base::DurationNs total_ns = 0;        // the gaps' time
};

HostActivity DescribeHostGaps(const AnalysisInput& input, std::span<const AccountedGap> gaps);

std::string_view HostActivityKindName(HostActivityKind kind);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_HOST_ACTIVITY_H_
