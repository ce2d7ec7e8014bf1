#include "analyzers/findings/autocast_coverage.h"

#include <string>

#include "analyzers/facts/autocast_lists.h"
#include "analyzers/findings/op_evidence.h"

namespace ampprof::analyzers {
namespace {

std::string_view ListsNote(const AutocastEntry& entry) {
  switch (entry.lists) {
    case AutocastLists::kOlder: return " (older PyTorch only)";
    case AutocastLists::kNewer: return " (PyTorch 2.4 and later)";
    case AutocastLists::kBoth: return "";
  }
  return "";
}

// Whom a line speaks of: "it", or for a backward op, "its forward op" (whose precision the backward follows).
std::string Self(bool backward) { return backward ? "its forward op" : "it"; }

// "on autocast's lower-precision list" for the op itself, "inside aten::linear, which is on autocast's
// lower-precision list" for an enclosing op; "its forward op is ..." for a backward op.
std::string Where(const OpAttribution& ops, const AutocastRule& rule, model::RangeRow op, bool backward,
                  std::string_view list) {
  const std::string on = "on autocast's " + std::string(list) + std::string(ListsNote(*rule.entry));
  const std::string is = backward ? "its forward op is " : "";
  if (rule.op == op) return is + on;
  return is + "inside " + ops.Describe(rule.op).name + ", which is " + on;
}

std::string CoverageText(const AnalysisInput& input, const OpTime& op, const AutocastContext& context) {
  const OpAttribution& ops = input.ops();
  // Backward kernels run in the precision their forward op chose: judge the forward op.
  model::RangeRow range = op.sample;
  if (op.forward != kNoForwardOp) {
    if (const model::RangeRow forward = ops.ForwardOf(op.sample); forward.valid()) range = forward;
  }
  const bool backward = range != op.sample;
  const OpDescription& description = ops.Describe(range);
  const std::string type = description.HasShapes() ? TorchTypeName(description.FirstTensorType()) : "";
  std::string text = OpLabel(ops, op) + (type.empty() ? "" : " (" + type + ")") + ": ";
  const AutocastRule rule = AutocastRuleOf(input.model, ops, range);
  if (rule.entry == nullptr) {
    return text + (backward ? "its forward op is " : "") +
           "on none of autocast's lists: it runs in its inputs' type, so autocast reaches it only through the ops "
           "that produce its inputs";
  }
  const std::string notes(ListsNote(*rule.entry));
  const std::string outer = ops.Describe(rule.op).name;
  switch (rule.entry->policy) {
    case AutocastPolicy::kFp32:
      if (rule.op == range) return text + "autocast keeps " + Self(backward) + " in FP32 by design" + notes;
      return text + (backward ? "its forward op is " : "") + "inside " + outer +
             ", which autocast keeps in FP32 by design" + notes;
    case AutocastPolicy::kPromote:
      return text + "autocast runs " + (rule.op == range ? Self(backward) : outer) +
             " in the widest type of its inputs (FP32 when any is FP32)" + notes;
    case AutocastPolicy::kBanned:
      return text + "autocast refuses " + (rule.op == range ? Self(backward) : outer) +
             " (binary_cross_entropy_with_logits is its safe form)";
    case AutocastPolicy::kLowerPrecision:
      break;
  }
  const std::string where = Where(ops, rule, range, backward, "lower-precision list");
  if (type == "FP16" || type == "BF16") {
    return text + where + ", and its inputs were already " + type + ": the library ran it on CUDA cores";
  }
  if (!context.reduced_precision_math) {
    return text + where + ": autocast would run it in FP16/BF16; no GEMM or convolution of this run ran in reduced "
                          "precision, so autocast is off or its region holds none of them";
  }
  if (type != "FP32") {
    return text + where + "; the trace records no input types, so whether autocast covered it is not shown";
  }
  return text + where + ", yet it ran in FP32 while other GEMMs and convolutions of this run ran in reduced "
                        "precision: it ran outside an enabled autocast region";
}

}  // namespace

std::vector<Evidence> AutocastCoverage(const AnalysisInput& input, const OpTally& tally, size_t count,
                                       const AutocastContext& context) {
  std::vector<Evidence> evidence;
  for (const OpTime& op : tally.ByTime()) {
    if (evidence.size() == count) break;
    evidence.push_back({"autocast", Statement(StatementLiteral(CoverageText(input, op, context)))});
  }
  return evidence;
}

}  // namespace ampprof::analyzers
