#include "analyzers/facts/analysis_input.h"

#include <unordered_map>

namespace ampprof::analyzers {

AnalysisInput::AnalysisInput(const model::TraceModel& trace, std::span<const liblogs::LibraryLog> library_logs)
    : model(trace), signature_classes_(ClassifySignatures(trace)), ops_(trace) {
  // In this order: steps read kernel classes (GradScaler updates), the account reads both; the run kind
  // reads classes and ops, memory the steps.
  steps_ = FindSteps(*this);
  account_ = BuildStepAccount(*this);
  run_kind_ = DecideRunKind(*this);
  memory_ = DescribeDeviceMemory(*this);
  if (!library_logs.empty()) library_calls_ = LibraryCallFacts(*this, library_logs);
}

const DeviceMemory* AnalysisInput::MemoryOf(model::DeviceRow device) const {
  for (const DeviceMemory& gpu : memory_) {
    if (gpu.device == device) return &gpu;
  }
  return nullptr;
}

std::vector<KernelClass> ClassifySignatures(const model::TraceModel& model) {
  std::unordered_map<uint32_t, KernelClass> by_name;  // signatures of one kernel share its name
  std::vector<KernelClass> classes;
  classes.reserve(model.kernel_signatures().size());
  for (const model::KernelSignature& signature : model.kernel_signatures()) {
    auto [it, inserted] = by_name.try_emplace(signature.name.value);
    if (inserted) it->second = ClassifyKernel(model.Text(signature.name));
    classes.push_back(it->second);
  }
  return classes;
}

}  // namespace ampprof::analyzers
