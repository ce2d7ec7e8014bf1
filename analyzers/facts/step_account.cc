#include "analyzers/facts/step_account.h"

#include <algorithm>
#include <map>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/autotuning.h"
#include "analyzers/facts/communication.h"
#include "analyzers/facts/device_sweep.h"
#include "analyzers/facts/longest_kept.h"
#include "src/base/time.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::Interval;
using base::TimeNs;

// Without steps, autotuning at the start of a run is cut off only when what follows it is a real part
// of the run: at least this share of the device's span and this many kernels. Otherwise the bursts are
// spread through the run (new shapes keep arriving) and stay in the window as kAutotuning gaps.
constexpr double kMinShareAfterAutotuning = 0.5;
// Fewer kernels than this after the last autotuning burst: the trace holds nothing but warm-up.
constexpr uint64_t kMinKernelsAfterWarmup = 10;

DurationNs Percentile(std::vector<DurationNs> values, double fraction) {
  if (values.empty()) return 0;
  const size_t index = std::min(values.size() - 1, static_cast<size_t>(fraction * static_cast<double>(values.size())));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
  return values[index];
}

// Periods of host-time steps on one device, warm-up steps included. Step i begins at
//   b(i) = max(its range's start, min(the end of the kernels launched before it, its first kernel's start))
// which is the range's start when the GPU had finished earlier work by then (a loop that waits for the GPU:
// the data loading at the start of the step is the step's), and the end of the earlier work otherwise (a
// host that queues ahead: the step's GPU work starts when the GPU is free). The last step ends at its
// range's end or its last kernel's, whichever is later. Periods tile the steps; an empty one is dropped.
struct StepPeriods {
  std::vector<Interval> warmup;
  std::vector<Interval> measured;
};

StepPeriods HostStepPeriods(const AnalysisInput& input, model::DeviceRow device, const Steps& steps) {
  constexpr TimeNs kNone = std::numeric_limits<TimeNs>::min();
  constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max();
  const model::KernelTable& kernels = input.model.kernels();
  const size_t count = steps.intervals.size();
  std::vector<TimeNs> first_start(count, kNever);
  std::vector<TimeNs> last_end(count, kNone);
  for (model::KernelRow kernel : input.model.device(device).kernels) {
    const int step = steps.StepOf(input, kernel);
    if (step < 0) continue;
    first_start[static_cast<size_t>(step)] = std::min(first_start[static_cast<size_t>(step)], kernels.start[kernel]);
    last_end[static_cast<size_t>(step)] = std::max(last_end[static_cast<size_t>(step)], kernels.end[kernel]);
  }
  std::vector<TimeNs> begin(count + 1);
  TimeNs earlier_end = kNone;  // the end of the kernels launched by the steps so far
  for (size_t i = 0; i < count; ++i) {
    begin[i] = std::max(steps.intervals[i].start, std::min(earlier_end, first_start[i]));
    if (i > 0) begin[i] = std::max(begin[i], begin[i - 1]);
    earlier_end = std::max(earlier_end, last_end[i]);
  }
  begin[count] = std::max({steps.intervals[count - 1].end, earlier_end, begin[count - 1]});
  StepPeriods periods;
  for (size_t i = 0; i < count; ++i) {
    if (begin[i + 1] <= begin[i]) continue;
    (i < steps.warmup ? periods.warmup : periods.measured).push_back({begin[i], begin[i + 1]});
  }
  return periods;
}

StepPeriods KernelStepPeriods(const Steps& steps) {
  StepPeriods periods;
  for (size_t i = 0; i < steps.intervals.size(); ++i) {
    if (steps.intervals[i].duration() > 0) (i < steps.warmup ? periods.warmup : periods.measured).push_back(steps.intervals[i]);
  }
  return periods;
}

struct WholeRunWindow {
  std::optional<Interval> window;  // nullopt: nothing but warm-up
};

WholeRunWindow WholeRunPeriod(const AnalysisInput& input, model::DeviceRow device, std::span<const Interval> autotuning) {
  const model::KernelTable& kernels = input.model.kernels();
  const model::RowRange<model::KernelRow> rows = input.model.device(device).kernels;
  TimeNs last_end = kernels.end[model::KernelRow(rows.begin_value)];
  for (model::KernelRow kernel : rows) last_end = std::max(last_end, kernels.end[kernel]);
  Interval span{kernels.start[model::KernelRow(rows.begin_value)], last_end};
  if (autotuning.empty()) return {span};
  const TimeNs warmup_end = autotuning.back().end;
  uint64_t after = 0;
  TimeNs first_after = last_end;
  for (model::KernelRow kernel : rows) {
    if (kernels.start[kernel] >= warmup_end) {
      if (after++ == 0) first_after = kernels.start[kernel];
    }
  }
  if (after < kMinKernelsAfterWarmup) return {std::nullopt};
  if (base::ShareOf(last_end - first_after, span.duration()) >= kMinShareAfterAutotuning) {
    span.start = first_after;
  }
  return {span};
}

// Charges each stretch of the sweep to its bucket and its period.
class Charger : public SweepVisitor {
 public:
  Charger(const AnalysisInput& input, DeviceAccount& account) : input_(input), account_(account) {
    account_.per_step.resize(account_.periods.size());
    window_ = account_.window();
  }

  void OnStart(const WorkItem& item) override {
    if (item.source != WorkSource::kKernel || item.start < window_.start || item.start >= window_.end) return;
    ++account_.kernels;
    const DurationNs inside = std::min(item.end, window_.end) - item.start;
    if (item.kind == WorkKind::kCompute) {
      ComputeTime& bucket = ComputeOf(item);
      ++bucket.kernels;
      // Kernels on concurrent streams overlap, so their sum is not bounded by the window; a hostile
      // trace's durations would overflow it (found by the ampt fuzzer).
      bucket.kernel_ns = base::SaturatingAdd(bucket.kernel_ns, inside);
    } else {
      const size_t index = CollectiveIndexOf(item);
      ++account_.communication[index].kernels;
      account_.communication[index].kernel_ns =
          base::SaturatingAdd(account_.communication[index].kernel_ns, inside);
      durations_[index].push_back(item.end - item.start);
    }
  }

  void OnWork(const WorkStretch& stretch) override {
    if (stretch.leading == WorkKind::kCommunication) {
      ExtendExposed(stretch);
    } else {
      CloseExposed();
    }
    ForEachPiece(stretch.interval, [&](size_t step, DurationNs length) {
      AccountTotals& totals = account_.per_step[step];
      switch (stretch.leading) {
        case WorkKind::kCompute:
          totals.compute_ns += length;
          ComputeOf(*stretch.compute).charged_ns += length;
          if (stretch.communication != nullptr) {
            totals.overlapped_communication_ns += length;
            account_.communication[CollectiveIndexOf(*stretch.communication)].overlapped_ns += length;
          }
          break;
        case WorkKind::kCommunication:
          totals.exposed_communication_ns += length;
          account_.communication[CollectiveIndexOf(*stretch.communication)].exposed_ns += length;
          break;
        case WorkKind::kCopy: totals.copy_ns += length; break;
      }
    });
  }

  void OnGap(Interval gap, const GapVerdict& verdict, const WorkItem* ending) override {
    CloseExposed();
    std::optional<size_t> first_step;
    Interval inside{std::max(gap.start, window_.start), std::min(gap.end, window_.end)};
    ForEachPiece(gap, [&](size_t step, DurationNs length) {
      if (!first_step) first_step = step;
      account_.per_step[step].idle[verdict.cause] += length;
    });
    if (!first_step) return;
    ++account_.gaps[verdict.cause];
    if (verdict.cause == GapCause::kHostLaunch) launch_waits_.Add(inside.duration(), inside);
    if (verdict.cause == GapCause::kHostOther || verdict.cause == GapCause::kHostSync) {
      account_.host_gaps.push_back({inside, verdict.cause, static_cast<uint32_t>(*first_step),
                                    ending != nullptr ? ending->launch : model::ApiCallRow(), verdict.draining_call});
    }
  }

  void Finish() {
    CloseExposed();
    account_.longest_launch_waits = std::move(launch_waits_).Take();
    account_.exposed_stretches = exposed_.size() + exposed_.left_out();
    account_.longest_exposed = std::move(exposed_).Take();
    for (const AccountTotals& step : account_.per_step) account_.total += step;
    for (size_t i = 0; i < account_.communication.size(); ++i) {
      account_.communication[i].shortest_ns =
          durations_[i].empty() ? 0 : *std::min_element(durations_[i].begin(), durations_[i].end());
      account_.communication[i].median_ns = Percentile(durations_[i], 0.5);
    }
    std::stable_sort(account_.compute.begin(), account_.compute.end(),
                     [](const ComputeTime& a, const ComputeTime& b) { return a.charged_ns > b.charged_ns; });
    std::stable_sort(account_.communication.begin(), account_.communication.end(),
                     [](const CollectiveTime& a, const CollectiveTime& b) { return a.exposed_ns > b.exposed_ns; });
  }

 private:
  // Calls fn(step, length) for the parts of `interval` inside each period. Stretches and gaps arrive in
  // time order, so the cursor only moves forward.
  template <typename F>
  void ForEachPiece(Interval interval, F&& fn) {
    TimeNs from = std::max(interval.start, window_.start);
    const TimeNs to = std::min(interval.end, window_.end);
    while (from < to) {
      while (cursor_ < account_.periods.size() && account_.periods[cursor_].end <= from) ++cursor_;
      if (cursor_ == account_.periods.size()) return;
      const TimeNs piece_end = std::min(to, account_.periods[cursor_].end);
      fn(cursor_, piece_end - from);
      from = piece_end;
    }
  }

  // Exposed communication stretches arrive in pieces (a kernel starting or ending cuts one); the
  // contiguous pieces are one stretch, clipped to the window.
  void ExtendExposed(const WorkStretch& stretch) {
    const Interval inside{std::max(stretch.interval.start, window_.start), std::min(stretch.interval.end, window_.end)};
    if (inside.start >= inside.end) return;
    if (open_exposed_ && open_exposed_->interval.end == inside.start) {
      open_exposed_->interval.end = inside.end;
      return;
    }
    CloseExposed();
    open_exposed_ = ExposedStretch{inside, model::KernelRow(stretch.communication->row)};
  }
  void CloseExposed() {
    if (!open_exposed_) return;
    exposed_.Add(open_exposed_->interval.duration(), *open_exposed_);
    open_exposed_.reset();
  }

  ComputeTime& ComputeOf(const WorkItem& item) {
    const KernelClass& k = input_.ClassOf(model::KernelRow(item.row));
    const ComputeKey key{k.category, k.math, k.dtype};
    auto [it, inserted] = compute_index_.try_emplace(key, account_.compute.size());
    if (inserted) account_.compute.push_back({key, 0, 0, 0});
    return account_.compute[it->second];
  }

  size_t CollectiveIndexOf(const WorkItem& item) {
    const std::string_view collective = CollectiveOf(input_.model.KernelName(model::KernelRow(item.row)));
    auto [it, inserted] = collective_index_.try_emplace(std::string(collective), account_.communication.size());
    if (inserted) {
      account_.communication.push_back({std::string(collective)});
      durations_.emplace_back();
    }
    return it->second;
  }

  const AnalysisInput& input_;
  DeviceAccount& account_;
  Interval window_;
  size_t cursor_ = 0;
  std::map<ComputeKey, size_t> compute_index_;
  std::map<std::string, size_t, std::less<>> collective_index_;
  std::vector<std::vector<DurationNs>> durations_;  // per collective
  LongestKept<Interval> launch_waits_{kLongestKept};
  LongestKept<ExposedStretch> exposed_{kLongestKept};
  std::optional<ExposedStretch> open_exposed_;
};

}  // namespace

AccountTotals& AccountTotals::operator+=(const AccountTotals& other) {
  compute_ns += other.compute_ns;
  exposed_communication_ns += other.exposed_communication_ns;
  copy_ns += other.copy_ns;
  idle += other.idle;
  overlapped_communication_ns += other.overlapped_communication_ns;
  return *this;
}

DurationNs DeviceAccount::MedianStepNs() const {
  std::vector<DurationNs> durations;
  for (const Interval& period : periods) durations.push_back(period.duration());
  return Percentile(std::move(durations), 0.5);
}

DurationNs DeviceAccount::P90StepNs() const {
  std::vector<DurationNs> durations;
  for (const Interval& period : periods) durations.push_back(period.duration());
  return Percentile(std::move(durations), 0.9);
}

size_t DeviceAccount::MedianStepIndex() const {
  std::vector<size_t> order(periods.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return periods[a].duration() < periods[b].duration(); });
  return order.empty() ? 0 : order[std::min(order.size() - 1, order.size() / 2)];
}

DurationNs DeviceAccount::PerStep(DurationNs total_ns) const {
  return periods.empty() ? 0 : total_ns / static_cast<DurationNs>(periods.size());
}

const DeviceAccount* StepAccount::Primary() const {
  const DeviceAccount* primary = nullptr;
  for (const DeviceAccount& device : devices) {
    if (primary == nullptr || device.kernels > primary->kernels) primary = &device;
  }
  return primary;
}

const DeviceAccount* StepAccount::Of(model::DeviceRow device) const {
  for (const DeviceAccount& account : devices) {
    if (account.device == device) return &account;
  }
  return nullptr;
}

StepAccount BuildStepAccount(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const std::optional<Steps>& steps = input.steps();
  StepAccount account;
  const bool by_steps = steps && !steps->measured().empty();
  account.basis = by_steps ? AccountBasis::kMeasuredSteps : AccountBasis::kWholeRun;
  bool only_warmup = false;
  for (uint32_t i = 0; i < model.devices().size(); ++i) {
    const model::DeviceRow row(i);
    if (model.device(row).kernels.empty()) continue;
    DeviceAccount device;
    device.device = row;
    device.autotuning = FindAutotuning(input, row);
    if (by_steps) {
      StepPeriods periods = steps->host_time ? HostStepPeriods(input, row, *steps) : KernelStepPeriods(*steps);
      device.periods = std::move(periods.measured);
      device.warmup_periods = std::move(periods.warmup);
    } else if (const WholeRunWindow whole = WholeRunPeriod(input, row, device.autotuning); whole.window) {
      if (whole.window->duration() > 0) device.periods = {*whole.window};
    } else {
      only_warmup = true;
    }
    if (device.periods.empty()) continue;
    Charger charger(input, device);
    SweepDevice(input, row, device.autotuning, device.window().start, device.window().end, charger);
    charger.Finish();
    account.devices.push_back(std::move(device));
  }
  if (account.devices.empty() && only_warmup) account.basis = AccountBasis::kAllWarmup;
  return account;
}

std::vector<AccountSegment> SegmentDevice(const AnalysisInput& input, model::DeviceRow device, Interval window) {
  class Collect : public SweepVisitor {
   public:
    explicit Collect(Interval window) : window_(window) {}
    void OnStart(const WorkItem&) override {}
    void OnWork(const WorkStretch& stretch) override {
      const AccountSegment::Kind kind = stretch.leading == WorkKind::kCompute ? AccountSegment::Kind::kCompute
                                        : stretch.leading == WorkKind::kCommunication
                                            ? AccountSegment::Kind::kExposedCommunication
                                            : AccountSegment::Kind::kCopy;
      Add(stretch.interval, kind, GapCause::kUnattributed);
    }
    void OnGap(Interval gap, const GapVerdict& verdict, const WorkItem*) override {
      Add(gap, AccountSegment::Kind::kIdle, verdict.cause);
    }
    std::vector<AccountSegment> segments;

   private:
    void Add(Interval interval, AccountSegment::Kind kind, GapCause cause) {
      const Interval inside{std::max(interval.start, window_.start), std::min(interval.end, window_.end)};
      if (inside.start >= inside.end) return;
      if (!segments.empty() && segments.back().kind == kind && segments.back().cause == cause &&
          segments.back().interval.end == inside.start) {
        segments.back().interval.end = inside.end;  // one segment per run of one bucket
        return;
      }
      segments.push_back({inside, kind, cause});
    }
    Interval window_;
  };
  const StepAccount& account = input.account();
  const DeviceAccount* device_account = account.Of(device);
  const std::vector<Interval> autotuning =
      device_account != nullptr ? device_account->autotuning : FindAutotuning(input, device);
  Collect collect(window);
  SweepDevice(input, device, autotuning, window.start, window.end, collect);
  return std::move(collect.segments);
}

}  // namespace ampprof::analyzers
