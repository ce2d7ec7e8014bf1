#include "analyzers/findings/finding_locations.h"

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

void LocationList::Add(Location location) {
  const base::DurationNs duration = location.interval.duration();
  kept_.Add(duration, std::move(location));
}

void LocationList::AddKernel(const AnalysisInput& input, model::KernelRow kernel) {
  if (!kept_.WouldKeep(input.model.kernels().duration(kernel))) {
    ++left_out_;
    return;
  }
  Add(KernelLocation(input, kernel));
}

void LocationList::MoveInto(Finding& finding) && {
  finding.locations_left_out = left_out_ + kept_.left_out();
  finding.locations = std::move(kept_).Take();
}

}  // namespace ampprof::analyzers
