#ifndef AMPPROF_ANALYZERS_FACTS_AUTOCAST_LISTS_H_
#define AMPPROF_ANALYZERS_FACTS_AUTOCAST_LISTS_H_

// PyTorch autocast's CUDA cast lists: which ATen ops autocast runs in FP16/BF16 (lower_precision_fp), keeps
// in FP32 (fp32, fp32_set_opt_dtype, fp32_append_dtype), runs in the widest input type (promote) or refuses
// (binary_cross_entropy). The table is docs/autocast-lists.md's, copied from PyTorch's source:
//   older  aten/src/ATen/autocast_mode.cpp, TORCH_LIBRARY_IMPL(aten, Autocast, m): the KERNEL_CUDA lines
//          (1.10 to 2.x, with _scaled_dot_product_flash_attention)
//   newer  aten/src/ATen/autocast_mode.h: AT_FORALL_LOWER_PRECISION_FP, AT_FORALL_FP32,
//          AT_FORALL_FP32_SET_OPT_DTYPE, AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE, AT_FORALL_PROMOTE
//          (the lists every backend reuses, as of PyTorch 2.4 and later)
// An entry in one of them only says so (Lists::kOlder, kNewer).
//
// Autocast acts at the outermost op it has a rule for: its wrapper casts the inputs and redispatches with
// autocast turned off, so the ops inside (aten::linear's aten::addmm, aten::cdist's aten::mm) run in what
// the outer op chose. AutocastRuleOf() finds that op for a kernel's op range.
//
//   const AutocastRule rule = AutocastRuleOf(input.model, input.ops(), op);
//   if (rule.entry && rule.entry->policy == AutocastPolicy::kLowerPrecision) ...

#include <span>
#include <string_view>

#include "analyzers/facts/op_attribution.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

enum class AutocastPolicy : uint8_t {
  kLowerPrecision,  // lower_precision_fp: cast to the autocast dtype (FP16 or BF16)
  kFp32,            // fp32, fp32_set_opt_dtype, fp32_append_dtype: run in FP32 whatever the inputs
  kPromote,         // promote: run in the widest floating type among the inputs
  kBanned,          // raises under autocast (binary_cross_entropy)
};

enum class AutocastLists : uint8_t { kBoth, kOlder, kNewer };

struct AutocastEntry {
  std::string_view op;  // the ATen name without "aten::" and without overload: "mm", "conv2d"
  AutocastPolicy policy;
  AutocastLists lists = AutocastLists::kBoth;
};

// The entry of an op name ("aten::mm", "mm", "aten::pow.Tensor_Scalar"); null when autocast has no rule
// for it (it runs in its inputs' type).
const AutocastEntry* FindAutocastEntry(std::string_view op_name);
// The whole table, in docs/autocast-lists.md's order (a test holds the page and the table together).
std::span<const AutocastEntry> AutocastEntries();

struct AutocastRule {
  const AutocastEntry* entry = nullptr;  // null: no enclosing op has a rule
  model::RangeRow op;                    // the op range that has it (the outermost such on the thread)
};

// The rule that decides the precision of the kernels under `op`: the outermost enclosing ATen op range
// (`op` itself included) that autocast has a rule for.
AutocastRule AutocastRuleOf(const model::TraceModel& model, const OpAttribution& ops, model::RangeRow op);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_AUTOCAST_LISTS_H_
