#include "analyzers/facts/op_tally.h"

#include <algorithm>

#include "analyzers/facts/analysis_input.h"

namespace ampprof::analyzers {
namespace {

bool IsMatrix(KernelCategory category) {
  return category == KernelCategory::kGemm || category == KernelCategory::kConvolution ||
         category == KernelCategory::kAttention;
}

std::string Described(const OpDescription& op) {
  const std::string shapes = op.ShapesText();
  return shapes.empty() ? op.name : op.name + " " + shapes;
}

}  // namespace

void OpTally::Add(model::KernelRow kernel, base::DurationNs ns) {
  const OpAttribution& ops = input_.ops();
  const model::RangeRow op = ops.OpOf(kernel);
  if (!op.valid()) {
    ++unattributed_kernels_;
    unattributed_ns_ = base::SaturatingAdd(unattributed_ns_, ns);
    return;
  }
  attributed_ns_ = base::SaturatingAdd(attributed_ns_, ns);
  const model::RangeRow forward = ops.ForwardOf(op);
  const std::pair<uint32_t, uint32_t> key{ops.DescriptionIndex(op),
                                          forward.valid() ? ops.DescriptionIndex(forward) : kNoForwardOp};
  OpTime& time = ops_[key];
  if (time.kernels == 0) {
    time.description = key.first;
    time.forward = key.second;
    time.sample = op;
  }
  model::RangeRow& last = last_call_[key];
  if (last != op) {
    ++time.calls;
    last = op;
  }
  ++time.kernels;
  time.ns = base::SaturatingAdd(time.ns, ns);
  const KernelClass& k = input_.ClassOf(kernel);
  if (IsMatrix(k.category)) {
    if (k.math == MathUnit::kTensorCore || k.math == MathUnit::kTensorCoreTf32) time.tensor_core_ns += ns;
    if (k.math == MathUnit::kCudaCore) time.cuda_core_ns += ns;
  }
}

std::vector<OpTime> OpTally::ByTime() const {
  std::vector<OpTime> sorted;
  sorted.reserve(ops_.size());
  for (const auto& [key, time] : ops_) sorted.push_back(time);
  std::stable_sort(sorted.begin(), sorted.end(), [](const OpTime& a, const OpTime& b) { return a.ns > b.ns; });
  return sorted;
}

std::string OpLabel(const OpAttribution& ops, const OpTime& op) {
  std::string label = Described(ops.descriptions()[op.description]);
  if (op.forward != kNoForwardOp) label += ", backward of " + Described(ops.descriptions()[op.forward]);
  return label;
}

std::string TorchTypeName(std::string_view type) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"float", "FP32"},        {"c10::Half", "FP16"},     {"c10::BFloat16", "BF16"}, {"double", "FP64"},
      {"c10::Float8_e4m3fn", "FP8"}, {"c10::Float8_e5m2", "FP8"}, {"long int", "INT64"}, {"int", "INT32"},
      {"signed char", "INT8"},  {"bool", "BOOL"},          {"Half", "FP16"},          {"BFloat16", "BF16"},
  };
  for (const auto& [torch, name] : kNames) {
    if (type == torch) return std::string(name);
  }
  return std::string(type);
}

}  // namespace ampprof::analyzers
