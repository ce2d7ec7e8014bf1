#ifndef AMPPROF_ANALYZERS_FACTS_OP_ATTRIBUTION_H_
#define AMPPROF_ANALYZERS_FACTS_OP_ATTRIBUTION_H_

// Kernel -> op: the framework op that launched each kernel, with the op's input shapes and dtypes
// when the trace has them, and, for kernels of autograd's backward pass, the forward op they are the
// backward of. Computed once per trace (AnalysisInput::ops()); findings name ops and shapes from it and
// the op table (analyzers/report/op_table.h) sums kernel time by it.
//
// How a kernel finds its op, in every format: the kernel's launching API call (the model links them by
// correlation id), and on that call's thread the innermost op range that encloses the call's start.
// The model already keeps both (KernelTable::launch, ranges nested per thread), so nothing new is
// stored per kernel: one RangeRow per API call, computed here in one sweep per thread. This is what
// Kineto's "External id" says too (the id of the innermost op on the launching thread when the launch
// happened), and it also serves NVTX op ranges, which have no such id.
//
// Backward kernels run on autograd's thread, inside a backward node ("AddmmBackward0", or
// "autograd::engine::evaluate_function: AddmmBackward0") that carries the sequence number of the
// forward op that created it. ForwardOf() follows that number to the forward op (the innermost forward
// op with that number: the one that recorded the node, with the forward shapes).
//
//   const OpAttribution& ops = input.ops();
//   const model::RangeRow op = ops.OpOf(kernel);
//   if (op.valid()) { const OpDescription& d = ops.Describe(op); ... d.name, d.ShapesText() ... }

#include <cstdint>
#include <utility>
#include <vector>

#include "analyzers/facts/op_description.h"
#include "src/model/trace_model.h"

namespace ampprof::analyzers {

class OpAttribution {
 public:
  OpAttribution() = default;
  explicit OpAttribution(const model::TraceModel& model);

  // Whether the trace has framework op ranges at all.
  bool has_ops() const { return !descriptions_.empty(); }
  // Kernels linked to an op.
  uint64_t attributed_kernels() const { return attributed_kernels_; }

  // The innermost op enclosing the launch of `kernel`; invalid without one (no launch recorded, no op
  // range around it).
  model::RangeRow OpOf(model::KernelRow kernel) const;
  model::RangeRow OpOfCall(model::ApiCallRow call) const {
    return call.valid() && call.value < op_of_call_.size() ? op_of_call_[call.value] : model::RangeRow();
  }
  // The description of an op range (OpOf's result, or any range IsOp accepts).
  const OpDescription& Describe(model::RangeRow op) const;
  bool IsOp(model::RangeRow range) const;
  // Distinct descriptions (op name and inputs): ranges of one op with one set of shapes share one.
  const std::vector<OpDescription>& descriptions() const { return descriptions_; }
  // The index of Describe(op) in descriptions().
  uint32_t DescriptionIndex(model::RangeRow op) const;

  // For an op inside autograd's backward pass: the backward node around it (the op itself or an
  // enclosing range) and the forward op with the node's sequence number. Invalid when the op is not in
  // a backward node, or the trace has no sequence numbers or no such forward op.
  model::RangeRow BackwardNodeOf(model::RangeRow op) const;
  model::RangeRow ForwardOf(model::RangeRow op) const;

  // The sequence number of an op range: the range's own (Kineto), else its label's (NVTX names).
  uint32_t SequenceOf(model::RangeRow range) const;

 private:
  static constexpr uint32_t kNotAnOp = UINT32_MAX;

  void DescribeLabels();
  void AttributeCalls();
  void IndexForwardOps();

  const model::TraceModel* model_ = nullptr;
  std::vector<uint32_t> description_of_label_;  // kNotAnOp for labels that are not ops
  // By label, the sequence number an NVTX name holds (emit_nvtx gives every op call a label of its
  // own); empty when no label holds one.
  std::vector<uint32_t> sequence_of_label_;
  std::vector<OpDescription> descriptions_;
  std::vector<model::RangeRow> op_of_call_;  // by API call; empty when the trace has no ops
  // (sequence number, forward op) for forward ops with a sequence number, sorted; empty when the trace
  // has no backward node with one.
  std::vector<std::pair<uint32_t, model::RangeRow>> forward_by_sequence_;
  uint64_t attributed_kernels_ = 0;
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FACTS_OP_ATTRIBUTION_H_
