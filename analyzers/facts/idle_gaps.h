#ifndef AMPPROF_ANALYZERS_FACTS_IDLE_GAPS_H_
#define AMPPROF_ANALYZERS_FACTS_IDLE_GAPS_H_

// Why a GPU sat idle: every gap between kernels on a device (no kernel running on any stream) is charged
// to one cause, decided from the call that launched the kernel that ended the gap.
//
//   kHostLaunch   the launch call ended only after the GPU had gone idle (nothing was queued) and the
//                 host was not blocked in a synchronising call: the host cannot launch fast enough;
//   kHostSync     as above, but the launching thread was blocked in a synchronising call (stream/device/
//                 event synchronise, a blocking memcpy, cudaFree) while the GPU drained: the sync emptied
//                 the queue and the host refilled it only after it returned;
//   kHostOther    host-late gaps of kLongHostGap or more, after a sync or not: the host was doing
//                 something else than launching (data loading, Python work, evaluation, logging, MPI);
//   kQueued       the kernel had been launched before the GPU went idle: it waited on a dependency (an
//                 event, another stream, a copy) or on the GPU's own launch latency;
//   kUnattributed the kernel's launch call was not recorded.
//
//   const IdleBreakdown idle = ClassifyIdleGaps(input, device_row, window);
//   idle.idle[GapCause::kHostLaunch] ...
//   ClassifyIdleGaps(input, device_row, window, [&](const IdleGap& gap) { ... });  // each gap, in time order

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

enum class GapCause : uint8_t { kHostLaunch, kHostSync, kHostOther, kQueued, kUnattributed };
inline constexpr size_t kGapCauses = 5;
std::string_view GapCauseName(GapCause cause);

// A host-late gap this long is no longer launch overhead (5-50 us per kernel from Python): the host was
// busy with other work for the time of twenty or more launches.
inline constexpr base::DurationNs kLongHostGap = 1'000'000;
// CPU and GPU timestamps of a trace agree to a few microseconds; a sync that returned this long before
// the GPU went idle still counts as the one that waited for it.
inline constexpr base::DurationNs kClockSlack = 10'000;

// Per cause, indexed by GapCause.
template <typename T>
struct ByCause {
  std::array<T, kGapCauses> values{};
  T& operator[](GapCause cause) { return values[static_cast<size_t>(cause)]; }
  const T& operator[](GapCause cause) const { return values[static_cast<size_t>(cause)]; }
};

struct IdleBreakdown {
  base::Interval window;  // what was examined: the device's first kernel start to last kernel end, clipped
  base::DurationNs busy = 0;  // kernel time (union over streams) inside the window
  uint64_t kernels = 0;       // kernels starting inside the window
  ByCause<base::DurationNs> idle;
  ByCause<uint64_t> gaps;
  // The synchronising calls that drained the GPU, as (call, idle it caused), in time order.
  std::vector<std::pair<model::ApiCallRow, base::DurationNs>> draining_syncs;

  base::DurationNs window_ns() const { return window.duration(); }
  double Share(GapCause cause) const {
    return window.duration() > 0 ? static_cast<double>(idle[cause]) / static_cast<double>(window.duration()) : 0.0;
  }
};

// One gap: no kernel ran on any of the device's streams from `interval.start` to `interval.end`.
struct IdleGap {
  base::Interval interval;
  GapCause cause = GapCause::kUnattributed;
};
using IdleGapVisitor = std::function<void(const IdleGap& gap)>;

// True for runtime/driver calls that can block the calling thread until the GPU has finished earlier
// work: synchronise calls, memcpys (blocking when synchronous or into pageable memory) and frees.
bool IsBlockingCallName(std::string_view name);

// Classifies the gaps of `device` that lie inside `window` (clipped to the device's kernels); when given,
// `on_gap` sees each gap as it is classified, in time order (the timeline draws them).
IdleBreakdown ClassifyIdleGaps(const AnalysisInput& input, model::DeviceRow device, base::Interval window,
                               const IdleGapVisitor& on_gap = {});

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_IDLE_GAPS_H_
