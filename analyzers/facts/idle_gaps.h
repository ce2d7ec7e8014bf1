#ifndef AMPPROF_ANALYZERS_FACTS_IDLE_GAPS_H_
#define AMPPROF_ANALYZERS_FACTS_IDLE_GAPS_H_

// Why a GPU sat idle: each gap in a device's work (no kernel, copy or memset running on any of its
// streams) is charged to one cause, decided from the call that launched the work that ended the gap.
//
//   kHostLaunch   the launch call ended only after the GPU had gone idle (nothing was queued) and the
//                 host was not blocked in a synchronising call: the host cannot launch fast enough;
//   kHostSync     as above, but the launching thread was blocked in a synchronising call (stream/device/
//                 event synchronise, a blocking memcpy, cudaFree) while the GPU drained: the sync emptied
//                 the queue and the host refilled it only after it returned;
//   kHostOther    host-late gaps of kLongHostGap or more, after a sync or not: the host was doing
//                 something else than launching (data loading, Python work, evaluation, logging, MPI);
//   kQueued       the work had been launched before the GPU went idle: it waited on a dependency (an
//                 event, another stream, a copy) or on the GPU's own launch latency;
//   kAutotuning   the gap lies in a burst of cuDNN autotuning trials (autotuning.h): warm-up, whatever
//                 the host did;
//   kUnattributed the work's launch call was not recorded.
//
// The step account (step_account.h) is what applies this to every gap; this file holds the vocabulary
// and the one decision, so that every view names and decides causes alike.

#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "src/base/time.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

enum class GapCause : uint8_t { kHostLaunch, kHostSync, kHostOther, kQueued, kAutotuning, kUnattributed };
inline constexpr size_t kGapCauses = 6;
inline constexpr GapCause kAllGapCauses[] = {GapCause::kHostLaunch, GapCause::kHostSync,   GapCause::kHostOther,
                                             GapCause::kQueued,     GapCause::kAutotuning, GapCause::kUnattributed};
// "waiting for kernel launches", "host busy with other work (>= 1 ms)", ...: the term the docs define.
std::string_view GapCauseName(GapCause cause);
// A stable identifier for scripts: "launch_waits", "host_busy", ...
std::string_view GapCauseKey(GapCause cause);

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
  T Sum() const {
    T sum{};
    for (const T& value : values) sum += value;
    return sum;
  }
  ByCause& operator+=(const ByCause& other) {
    for (size_t i = 0; i < kGapCauses; ++i) values[i] += other.values[i];
    return *this;
  }
};

// True for runtime/driver calls that can block the calling thread until the GPU has finished earlier
// work: synchronise calls, memcpys (blocking when synchronous or into pageable memory) and frees.
bool IsBlockingCallName(std::string_view name);

// The cause of one gap, and for kHostSync the call that drained the queue.
struct GapVerdict {
  GapCause cause = GapCause::kUnattributed;
  model::ApiCallRow draining_call;  // valid for kHostSync only
};

// Decides gap causes for one model; remembers which call names block.
class GapCauseDecider {
 public:
  explicit GapCauseDecider(const model::TraceModel& model) : model_(model) {}

  // The gap from `idle_since` to the start of work launched by `launch` (invalid when unrecorded), after
  // a busy stretch that began at `busy_since`.
  GapVerdict Decide(model::ApiCallRow launch, base::TimeNs busy_since, base::TimeNs idle_since,
                    base::TimeNs work_start);

 private:
  model::ApiCallRow DrainingCall(model::ApiCallRow launch, base::TimeNs busy_since, base::TimeNs idle_since);
  bool IsBlocking(base::StringId name);

  const model::TraceModel& model_;
  std::unordered_map<uint32_t, bool> blocking_by_name_;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_IDLE_GAPS_H_
