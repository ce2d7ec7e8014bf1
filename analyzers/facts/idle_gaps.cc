#include "analyzers/facts/idle_gaps.h"

#include <algorithm>
#include <unordered_map>

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::TimeNs;

// Calls on one thread do not overlap (a runtime call's own driver call aside), so walking back from the
// launch call past a call that ended before the GPU went idle finds nothing else; the bound keeps a
// pathological thread (millions of calls, no launches) from making one gap expensive.
constexpr int kMaxCallsWalkedBack = 256;

class BlockingCalls {
 public:
  explicit BlockingCalls(const model::TraceModel& model) : model_(model) {}

  // The call on `launch`'s thread, before `launch`, that was blocked when the GPU went idle at
  // `idle_since` after a busy stretch from `busy_since`: it started no later than `idle_since` and returned
  // no earlier than kClockSlack before it, and while the GPU was still busy. Invalid when there is none.
  model::ApiCallRow DrainingCall(model::ApiCallRow launch, TimeNs busy_since, TimeNs idle_since) {
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

 private:
  bool IsBlocking(base::StringId name) {
    auto [it, inserted] = by_name_.try_emplace(name.value);
    if (inserted) it->second = IsBlockingCallName(model_.Text(name));
    return it->second;
  }

  const model::TraceModel& model_;
  std::unordered_map<uint32_t, bool> by_name_;
};

}  // namespace

std::string_view GapCauseName(GapCause cause) {
  switch (cause) {
    case GapCause::kHostLaunch: return "waiting for kernel launches";
    case GapCause::kHostSync: return "refilling the queue after a host sync";
    case GapCause::kHostOther: return "host busy with other work (>= 1 ms)";
    case GapCause::kQueued: return "queued work waiting (dependency, copy, launch latency)";
    case GapCause::kUnattributed: return "launch call not recorded";
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

IdleBreakdown ClassifyIdleGaps(const AnalysisInput& input, model::DeviceRow device, base::Interval window,
                               const IdleGapVisitor& on_gap) {
  const model::TraceModel& model = input.model;
  const model::KernelTable& kernels = model.kernels();
  const model::ApiCallTable& calls = model.api_calls();
  BlockingCalls blocking(model);

  IdleBreakdown result;
  bool any = false;
  TimeNs busy_until = 0;  // end of the busy interval being extended
  TimeNs busy_from = 0;
  for (model::KernelRow kernel : model.device(device).kernels) {
    const TimeNs start = std::max(kernels.start[kernel], window.start);
    const TimeNs end = std::min(kernels.end[kernel], window.end);
    if (kernels.start[kernel] < window.start || start >= window.end) continue;
    ++result.kernels;
    if (!any) {
      any = true;
      result.window.start = start;
      busy_from = start;
      busy_until = end;
      continue;
    }
    if (start <= busy_until) {
      busy_until = std::max(busy_until, end);
      continue;
    }
    result.busy += busy_until - busy_from;
    const DurationNs gap = start - busy_until;
    GapCause cause = GapCause::kUnattributed;
    const model::ApiCallRow launch = kernels.launch[kernel];
    if (launch.valid()) {
      if (calls.end[launch] <= busy_until) {
        cause = GapCause::kQueued;
      } else if (gap >= kLongHostGap) {
        // Even after a sync: the host went on to other work, and that, not the sync, kept the GPU idle.
        cause = GapCause::kHostOther;
      } else if (const model::ApiCallRow sync = blocking.DrainingCall(launch, busy_from, busy_until); sync.valid()) {
        cause = GapCause::kHostSync;
        result.draining_syncs.emplace_back(sync, gap);
      } else {
        cause = GapCause::kHostLaunch;
      }
    }
    result.idle[cause] += gap;
    ++result.gaps[cause];
    if (on_gap) on_gap(IdleGap{{busy_until, start}, cause});
    busy_from = start;
    busy_until = end;
  }
  if (any) {
    result.busy += busy_until - busy_from;
    result.window.end = busy_until;
  }
  return result;
}

}  // namespace ampprof::analyzers
