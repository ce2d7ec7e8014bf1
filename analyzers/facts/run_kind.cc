#include "analyzers/facts/run_kind.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/steps.h"

namespace ampprof::analyzers {
namespace {

// Inference is said only when the ops in the trace account for most of its kernels: then a backward
// pass, had there been one, would have shown as ops.
constexpr double kMinAttributedShare = 0.5;

bool ContainsIgnoringCase(std::string_view text, std::string_view word) {
  return std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         }) != text.end();
}

// A kernel's own name (before its parameter list) that says it computes gradients.
bool BackwardKernelName(std::string_view name) {
  name = name.substr(0, name.find('('));
  static constexpr std::string_view kWords[] = {"backward", "_bwd", "bwd_", "dgrad", "wgrad"};
  return std::any_of(std::begin(kWords), std::end(kWords),
                     [&](std::string_view word) { return ContainsIgnoringCase(name, word); });
}

bool OptimizerRangeName(std::string_view name) {
  return name.starts_with("Optimizer.step#") || name.starts_with("Optimizer.zero_grad#");
}

}  // namespace

std::string_view RunKindId(RunKind kind) {
  switch (kind) {
    case RunKind::kTraining: return "training";
    case RunKind::kInference: return "inference";
    case RunKind::kUnknown: break;
  }
  return "unknown";
}

RunKindFacts DecideRunKind(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  std::vector<std::string> signs;
  const OpAttribution& ops = input.ops();
  if (std::any_of(ops.descriptions().begin(), ops.descriptions().end(),
                  [](const OpDescription& op) { return op.backward; })) {
    signs.push_back("autograd backward ops");
  }
  bool optimizer_range = false;
  bool backward_range = false;
  for (const model::RangeLabel& label : model.range_labels()) {
    const std::string_view name = model.Text(label.name);
    optimizer_range |= OptimizerRangeName(name) || IsAmpprofRange(model, label, "optimizer.step");
    backward_range |= label.category != records::RangeCategory::kCpuOp && ContainsIgnoringCase(name, "backward");
  }
  for (const model::Thread& thread : model.threads()) {
    if (model.Text(thread.name).starts_with("pt_autograd")) {
      signs.push_back("an autograd thread");
      break;
    }
  }
  if (optimizer_range) signs.push_back("optimizer ranges");
  if (backward_range) signs.push_back("backward ranges");
  bool optimizer_kernels = false;
  bool scaler_kernels = false;
  bool backward_kernels = false;
  for (size_t s = 0; s < model.kernel_signatures().size(); ++s) {
    const KernelClass& k = input.signature_classes()[s];
    optimizer_kernels |= k.category == KernelCategory::kOptimizer;
    scaler_kernels |= k.category == KernelCategory::kGradScaler;
    backward_kernels |= BackwardKernelName(model.Text(model.kernel_signatures()[s].name));
  }
  if (optimizer_kernels) signs.push_back("optimizer kernels");
  if (scaler_kernels) signs.push_back("GradScaler kernels");
  if (backward_kernels) signs.push_back("backward kernels");
  if (!signs.empty()) return {RunKind::kTraining, fmt::format("{}", fmt::join(signs, ", "))};

  const uint64_t kernels = model.kernels().size();
  if (ops.has_ops() && kernels > 0 &&
      static_cast<double>(ops.attributed_kernels()) >= kMinAttributedShare * static_cast<double>(kernels)) {
    return {RunKind::kInference,
            fmt::format("forward only: {} of {} kernels launched by framework ops, none by a backward pass, "
                        "no optimizer",
                        ops.attributed_kernels(), kernels)};
  }
  return {RunKind::kUnknown, "no backward pass, optimizer or framework ops in the trace"};
}

}  // namespace ampprof::analyzers
