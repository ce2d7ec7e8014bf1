#include "analyzers/facts/device_sweep.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <vector>

namespace ampprof::analyzers {
namespace {

using base::TimeNs;

constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max();

// Copies and memsets of the device, in start order: they are few beside kernels, so they are gathered;
// kernels are read in place from the device's start-ordered rows.
std::vector<WorkItem> CopiesOf(const model::TraceModel& model, model::DeviceRow device) {
  std::vector<WorkItem> copies;
  const model::MemcpyTable& memcpys = model.memcpys();
  for (uint32_t i = 0; i < memcpys.size(); ++i) {
    const model::MemcpyRow row(i);
    if (model.stream(memcpys.stream[row]).device != device) continue;
    copies.push_back({memcpys.start[row], memcpys.end[row], WorkKind::kCopy, WorkSource::kMemcpy, i, memcpys.launch[row]});
  }
  const model::MemsetTable& memsets = model.memsets();
  for (uint32_t i = 0; i < memsets.size(); ++i) {
    const model::MemsetRow row(i);
    if (model.stream(memsets.stream[row]).device != device) continue;
    copies.push_back({memsets.start[row], memsets.end[row], WorkKind::kCopy, WorkSource::kMemset, i, memsets.launch[row]});
  }
  std::stable_sort(copies.begin(), copies.end(), [](const WorkItem& a, const WorkItem& b) { return a.start < b.start; });
  return copies;
}

// The device's items in start order (kernels before copies at equal starts), merged on the fly.
class ItemCursor {
 public:
  ItemCursor(const AnalysisInput& input, model::DeviceRow device)
      : input_(input), kernels_(input.model.device(device).kernels), next_kernel_(kernels_.begin_value),
        copies_(CopiesOf(input.model, device)) {}

  bool done() const { return next_kernel_ == kernels_.end_value && next_copy_ == copies_.size(); }
  TimeNs next_start() const {
    TimeNs start = kNever;
    if (next_kernel_ != kernels_.end_value) start = input_.model.kernels().start[model::KernelRow(next_kernel_)];
    if (next_copy_ < copies_.size()) start = std::min(start, copies_[next_copy_].start);
    return start;
  }
  WorkItem Take() {
    const model::KernelTable& kernels = input_.model.kernels();
    if (next_kernel_ != kernels_.end_value) {
      const model::KernelRow row(next_kernel_);
      if (next_copy_ == copies_.size() || kernels.start[row] <= copies_[next_copy_].start) {
        ++next_kernel_;
        const WorkKind kind = input_.ClassOf(row).category == KernelCategory::kCommunication ? WorkKind::kCommunication
                                                                                           : WorkKind::kCompute;
        return {kernels.start[row], kernels.end[row], kind, WorkSource::kKernel, row.value, kernels.launch[row]};
      }
    }
    return copies_[next_copy_++];
  }

 private:
  const AnalysisInput& input_;
  model::RowRange<model::KernelRow> kernels_;
  uint32_t next_kernel_;
  std::vector<WorkItem> copies_;
  size_t next_copy_ = 0;
};

// Running items of one kind, the first-started on top. Items that have ended are dropped lazily, when
// they reach the top: the live top is then the first-started of the live ones.
class RunningSet {
 public:
  void Add(const WorkItem& item) { heap_.push({item, sequence_++}); }
  const WorkItem* Leader(TimeNs now) {
    while (!heap_.empty() && heap_.top().item.end <= now) heap_.pop();
    return heap_.empty() ? nullptr : &heap_.top().item;
  }

 private:
  struct Entry {
    WorkItem item;
    uint64_t sequence;
  };
  struct StartedLater {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.item.start != b.item.start ? a.item.start > b.item.start : a.sequence > b.sequence;
    }
  };
  std::priority_queue<Entry, std::vector<Entry>, StartedLater> heap_;
  uint64_t sequence_ = 0;
};

bool InAutotuning(std::span<const base::Interval> bursts, TimeNs t) {
  const auto after = std::upper_bound(bursts.begin(), bursts.end(), t,
                                      [](TimeNs time, const base::Interval& burst) { return time < burst.start; });
  return after != bursts.begin() && (after - 1)->Contains(t);
}

}  // namespace

void SweepDevice(const AnalysisInput& input, model::DeviceRow device, std::span<const base::Interval> autotuning,
                 TimeNs sweep_from, TimeNs sweep_until, SweepVisitor& visitor) {
  ItemCursor items(input, device);
  GapCauseDecider decider(input.model);
  RunningSet compute;
  RunningSet communication;
  RunningSet copies;
  std::priority_queue<TimeNs, std::vector<TimeNs>, std::greater<>> ends;  // of every started item

  TimeNs t = std::min(sweep_from, items.next_start());
  TimeNs busy_since = t;
  auto start_items_at = [&](TimeNs now) {
    while (!items.done() && items.next_start() <= now) {
      const WorkItem item = items.Take();
      visitor.OnStart(item);
      if (item.end <= now) continue;  // an empty item ends no stretch
      ends.push(item.end);
      switch (item.kind) {
        case WorkKind::kCompute: compute.Add(item); break;
        case WorkKind::kCommunication: communication.Add(item); break;
        case WorkKind::kCopy: copies.Add(item); break;
      }
    }
  };
  start_items_at(t);
  while (true) {
    while (!ends.empty() && ends.top() <= t) ends.pop();
    if (ends.empty()) {  // idle from t
      if (items.done()) {
        if (t < sweep_until) visitor.OnGap({t, sweep_until}, GapVerdict{}, nullptr);
        return;
      }
      const TimeNs next = items.next_start();
      WorkItem ending = items.Take();  // the item that ends the gap; started by hand below
      if (next > t) {
        GapVerdict verdict = InAutotuning(autotuning, t)
                                 ? GapVerdict{GapCause::kAutotuning, {}}
                                 : decider.Decide(ending.launch, busy_since, t, next);
        visitor.OnGap({t, next}, verdict, &ending);
      }
      t = next;
      busy_since = t;
      visitor.OnStart(ending);
      if (ending.end > t) {
        ends.push(ending.end);
        switch (ending.kind) {
          case WorkKind::kCompute: compute.Add(ending); break;
          case WorkKind::kCommunication: communication.Add(ending); break;
          case WorkKind::kCopy: copies.Add(ending); break;
        }
      }
      start_items_at(t);
      continue;
    }
    const TimeNs until = std::min(ends.top(), items.next_start());
    WorkStretch stretch;
    stretch.interval = {t, until};
    stretch.compute = compute.Leader(t);
    stretch.communication = communication.Leader(t);
    stretch.leading = stretch.compute != nullptr         ? WorkKind::kCompute
                      : stretch.communication != nullptr ? WorkKind::kCommunication
                                                         : WorkKind::kCopy;
    if (until > t) visitor.OnWork(stretch);
    (void)copies.Leader(t);  // keeps the copy heap from holding ended items
    t = until;
    start_items_at(t);
  }
}

}  // namespace ampprof::analyzers
