#ifndef AMPPROF_ANALYZERS_FACTS_OP_DESCRIPTION_H_
#define AMPPROF_ANALYZERS_FACTS_OP_DESCRIPTION_H_

// What a framework op's range says about the op: its name, its inputs' shapes and dtypes, whether
// autograd's backward pass ran it, and (NVTX) its sequence number. Read from the range's label once
// per distinct label; the attribution (op_attribution.h) links kernels to these ranges.
//
// Where the ranges come from and what they look like:
//   Kineto cpu_op     name "aten::bmm"; args (as the importer keeps them)
//                     {"Input Dims": [[96, 3137, 64], [96, 64, 3137]], "Input type": ["float", "float"]}
//                     and, on backward ops, "Fwd thread id": 1; the sequence number is a range column.
//   NVTX (emit_nvtx)  the PyTorch shim's --torch-ops, or torch.autograd.profiler.emit_nvtx under Nsight
//                     Systems: one string, torch/csrc/profiler/util.cpp getNvtxStr:
//                     "aten::bmm, seq = 12, op_id = 40, sizes = [[96, 3137, 64], [96, 64, 3137]]",
//                     with ", input_op_ids = [...]" at the end when shapes are recorded; older PyTorch
//                     wrote backward ops as "AddmmBackward, stashed seq=12".
//
//   const std::optional<OpDescription> op = DescribeOp(model, model.label(range));
//   if (op && op->HasShapes()) ... op->inputs[0].dims ...

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/trace_model.h"

namespace ampprof::analyzers {

struct OpInput {
  std::vector<int64_t> dims;  // a tensor's shape; empty for a scalar, a list or an absent value
  std::string type;           // "float", "c10::Half", "c10::BFloat16", "" when not recorded
  bool tensor_list = false;   // a list of tensors (their shapes are not kept)

  friend bool operator==(const OpInput&, const OpInput&) = default;
};

struct OpDescription {
  std::string name;             // "aten::bmm", "autograd::engine::evaluate_function: BmmBackward0"
  std::vector<OpInput> inputs;  // in argument order; empty when the trace recorded no shapes
  bool backward = false;        // run by autograd's backward pass for a forward op (AddmmBackward0, ...)
  uint32_t sequence = model::kNoSequence;  // from an NVTX name; Kineto's is in RangeTable::sequence

  friend bool operator==(const OpDescription&, const OpDescription&) = default;

  bool HasShapes() const;
  // The tensor inputs' shapes, "[96, 3137, 64], [96, 64, 3137]"; "" without shapes.
  std::string ShapesText() const;
  // The first tensor input's type ("float", "c10::Half"), or "".
  std::string_view FirstTensorType() const;
};

// nullopt when the label is not a framework op: PyTorch profiler cpu_ops are; NVTX ranges of the default
// domain are when their name is emit_nvtx's ("name, seq = N, op_id = M, sizes = ...") or an ATen op's.
std::optional<OpDescription> DescribeOp(const model::TraceModel& model, const model::RangeLabel& label);

// Parsers, exposed for tests. A top-level JSON array of shapes, "[[96, 3137, 64], [], [[2], [3]]]";
// nullopt when the text is not one.
std::optional<std::vector<OpInput>> ParseInputDims(std::string_view json);
// A top-level JSON array of strings, "[\"float\", \"\"]"; nullopt when the text is not one.
std::optional<std::vector<std::string>> ParseInputTypes(std::string_view json);
// An NVTX op range's name split into its parts (ops, emit_nvtx's format); the name alone when the
// string has no such suffix.
OpDescription ParseNvtxOpName(std::string_view text);
// Whether an op name is an autograd backward node: "autograd::engine::evaluate_function: X",
// "AddmmBackward0", "torch::autograd::AccumulateGrad", "MyFunctionBackward".
bool IsBackwardOpName(std::string_view name);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_OP_DESCRIPTION_H_
