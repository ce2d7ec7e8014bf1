#include "analyzers/findings/finding_locations.h"

#include <algorithm>
#include <utility>

#include "analyzers/facts/kernel_name.h"

namespace ampprof::analyzers {

std::string_view LocationKindKey(LocationKind kind) {
  switch (kind) {
    case LocationKind::kIdleGap: return "idle_gap";
    case LocationKind::kLaunchWait: return "launch_wait";
    case LocationKind::kHostSync: return "host_sync";
    case LocationKind::kKernel: return "kernel";
    case LocationKind::kCommunication: return "communication";
    case LocationKind::kStep: return "step";
    case LocationKind::kAutotuning: return "autotuning";
  }
  return "kernel";
}

std::string KernelLabel(std::string_view name) {
  std::string storage;
  const std::string_view own = KernelOwnName(DemangleKernelName(name, storage));
  const std::string_view label = own.empty() ? name : own;
  if (label.size() <= kMaxLabelLength) return std::string(label);
  size_t cut = kMaxLabelLength - 3;
  // Back up to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(label[cut]) & 0xC0) == 0x80) --cut;
  return std::string(label.substr(0, cut)) + "...";
}

Location KernelLocation(const AnalysisInput& input, model::KernelRow kernel) {
  const model::TraceModel& model = input.model;
  const model::Stream& stream = model.stream(model.kernels().stream[kernel]);
  Location location;
  location.interval = {model.kernels().start[kernel], model.kernels().end[kernel]};
  location.kind = LocationKind::kKernel;
  location.device_id = model.device(stream.device).device_id;
  location.stream_id = stream.stream_id;
  location.label = KernelLabel(model.KernelName(kernel));
  return location;
}

base::Interval ClippedTo(base::Interval interval, base::Interval window) {
  const base::TimeNs start = std::max(interval.start, window.start);
  const base::TimeNs end = std::min(interval.end, window.end);
  return start < end ? base::Interval{start, end} : base::Interval{start, start};
}

base::Interval LocationList::Clip(base::Interval interval) const {
  return window_ ? ClippedTo(interval, *window_) : interval;
}

void LocationList::Add(Location location) {
  location.interval = Clip(location.interval);
  const base::DurationNs duration = location.interval.duration();
  if (duration <= 0) return;  // nothing of it inside the window (or an empty place: nothing to draw)
  kept_.Add(duration, std::move(location));
}

void LocationList::AddKernel(const AnalysisInput& input, model::KernelRow kernel) {
  const model::KernelTable& kernels = input.model.kernels();
  const base::Interval inside = Clip({kernels.start[kernel], kernels.end[kernel]});
  if (inside.duration() <= 0) return;
  if (!kept_.WouldKeep(inside.duration())) {
    ++left_out_;
    return;
  }
  Location location = KernelLocation(input, kernel);
  location.interval = inside;
  kept_.Add(inside.duration(), std::move(location));
}

void LocationList::MoveInto(Finding& finding) && {
  finding.locations_left_out = left_out_ + kept_.left_out();
  finding.locations = std::move(kept_).Take();
}

}  // namespace ampprof::analyzers
