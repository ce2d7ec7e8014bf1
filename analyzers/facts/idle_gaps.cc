#include "analyzers/facts/idle_gaps.h"

#include <algorithm>

namespace ampprof::analyzers {
namespace {

using base::TimeNs;

// Calls on one thread do not overlap (a runtime call's own driver call aside), so walking back from the
// launch call past a call that ended before the GPU went idle finds nothing else; the bound keeps a
// pathological thread (millions of calls, no launches) from making one gap expensive.
constexpr int kMaxCallsWalkedBack = 256;

}  // namespace

std::string_view GapCauseName(GapCause cause) {
  switch (cause) {
    case GapCause::kHostLaunch: return "waiting for kernel launches";
    case GapCause::kHostSync: return "refilling the queue after a host sync";
    case GapCause::kHostOther: return "host busy with other work (>= 1 ms)";
    case GapCause::kQueued: return "queued work waiting (dependency, copy, launch latency)";
    case GapCause::kAutotuning: return "cuDNN autotuning trials (warm-up)";
    case GapCause::kUnattributed: return "launch call not recorded";
  }
  return "unknown";
}

std::string_view GapCauseKey(GapCause cause) {
  switch (cause) {
    case GapCause::kHostLaunch: return "launch_waits";
    case GapCause::kHostSync: return "after_sync";
    case GapCause::kHostOther: return "host_busy";
    case GapCause::kQueued: return "queued";
    case GapCause::kAutotuning: return "autotuning";
    case GapCause::kUnattributed: return "unattributed";
  }
  return "unknown";
}

bool IsBlockingCallName(std::string_view name) {
  // cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize, cuCtxSynchronize, ...
  if (name.find("Synchronize") != std::string_view::npos) return true;
  // cudaMemcpy is synchronous; cudaMemcpyAsync blocks when host memory is pageable (tensor.item(),
  // .cpu()). A non-blocking one returns in microseconds and cannot span the moment the GPU drains.
  if (name.find("Memcpy") != std::string_view::npos) return true;
  // cudaFree and cudaFreeHost synchronise the device; the stream-ordered cudaFreeAsync does not.
  if (name.find("Free") != std::string_view::npos && name.find("FreeAsync") == std::string_view::npos) return true;
  return false;
}

bool GapCauseDecider::IsBlocking(base::StringId name) {
  auto [it, inserted] = blocking_by_name_.try_emplace(name.value);
  if (inserted) it->second = IsBlockingCallName(model_.Text(name));
  return it->second;
}

// The call on `launch`'s thread, before `launch`, that was blocked when the GPU went idle at `idle_since`
// after a busy stretch from `busy_since`: it started no later than `idle_since` and returned no earlier
// than kClockSlack before it, and while the GPU was still busy. Invalid when there is none.
model::ApiCallRow GapCauseDecider::DrainingCall(model::ApiCallRow launch, TimeNs busy_since, TimeNs idle_since) {
  const TimeNs returned_no_earlier = std::max(busy_since, idle_since - kClockSlack);
  const model::ApiCallTable& calls = model_.api_calls();
  const model::Thread& thread = model_.thread(calls.thread[launch]);
  int walked = 0;
  for (uint32_t row = launch.value; row > thread.api_calls.begin_value && walked < kMaxCallsWalkedBack; ++walked) {
    const model::ApiCallRow call(--row);
    if (calls.start[call] > idle_since) continue;  // host work after the GPU went idle
    if (calls.end[call] < returned_no_earlier) break;
    if (IsBlocking(calls.name[call])) return call;
  }
  return model::ApiCallRow();
}

GapVerdict GapCauseDecider::Decide(model::ApiCallRow launch, TimeNs busy_since, TimeNs idle_since,
                                   TimeNs work_start) {
  if (!launch.valid()) return {};
  const model::ApiCallTable& calls = model_.api_calls();
  if (calls.end[launch] <= idle_since) return {GapCause::kQueued, {}};
  // Even after a sync: the host went on to other work, and that, not the sync, kept the GPU idle.
  if (work_start - idle_since >= kLongHostGap) return {GapCause::kHostOther, {}};
  if (const model::ApiCallRow sync = DrainingCall(launch, busy_since, idle_since); sync.valid()) {
    return {GapCause::kHostSync, sync};
  }
  return {GapCause::kHostLaunch, {}};
}

}  // namespace ampprof::analyzers
