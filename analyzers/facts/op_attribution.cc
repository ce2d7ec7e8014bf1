#include "analyzers/facts/op_attribution.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

namespace ampprof::analyzers {
namespace {

// What makes two descriptions the same row of the op table: the name, the inputs and backward-ness.
std::string DescriptionKey(const OpDescription& op) {
  std::string key = op.name;
  key += op.backward ? "\x1f" "b" : "\x1f" "f";
  for (const OpInput& input : op.inputs) {
    key += fmt::format("\x1f{}{}:{}", input.tensor_list ? "L" : "", fmt::join(input.dims, ","), input.type);
  }
  return key;
}

}  // namespace

OpAttribution::OpAttribution(const model::TraceModel& model) : model_(&model) {
  DescribeLabels();
  if (descriptions_.empty()) return;  // no op ranges: nothing to attribute, nothing held
  AttributeCalls();
  IndexForwardOps();
}

void OpAttribution::DescribeLabels() {
  const std::vector<model::RangeLabel>& labels = model_->range_labels();
  description_of_label_.assign(labels.size(), kNotAnOp);
  std::unordered_map<std::string, uint32_t> index_of_key;
  for (size_t i = 0; i < labels.size(); ++i) {
    std::optional<OpDescription> op = DescribeOp(*model_, labels[i]);
    if (!op) continue;
    if (op->sequence != model::kNoSequence) {
      if (sequence_of_label_.empty()) sequence_of_label_.assign(labels.size(), model::kNoSequence);
      sequence_of_label_[i] = op->sequence;
      op->sequence = model::kNoSequence;  // per call, not per description
    }
    auto [it, inserted] = index_of_key.try_emplace(DescriptionKey(*op), static_cast<uint32_t>(descriptions_.size()));
    if (inserted) descriptions_.push_back(std::move(*op));
    description_of_label_[i] = it->second;
  }
}

// One sweep per thread over its calls (in start order) and ranges (parents first): the innermost range
// open at each call's start, then its nearest op ancestor.
void OpAttribution::AttributeCalls() {
  const model::RangeTable& ranges = model_->ranges();
  const model::ApiCallTable& calls = model_->api_calls();
  std::vector<model::RangeRow> nearest_op(ranges.size());
  for (uint32_t r = 0; r < ranges.size(); ++r) {
    const model::RangeRow row(r);
    if (description_of_label_[ranges.label[row].value] != kNotAnOp) {
      nearest_op[r] = row;
    } else if (const model::RangeRow parent = ranges.parent[row]; parent.valid()) {
      nearest_op[r] = nearest_op[parent.value];
    }
  }
  op_of_call_.assign(calls.size(), model::RangeRow());
  for (const model::Thread& thread : model_->threads()) {
    if (thread.ranges.empty() || thread.api_calls.empty()) continue;
    uint32_t next = thread.ranges.begin_value;
    model::RangeRow last;  // the last range starting at or before the call
    for (const model::ApiCallRow call : thread.api_calls) {
      const base::TimeNs t = calls.start[call];
      while (next < thread.ranges.end_value && ranges.start[model::RangeRow(next)] <= t) last = model::RangeRow(next++);
      model::RangeRow open = last;
      while (open.valid() && !(ranges.start[open] <= t && t < ranges.end[open])) open = ranges.parent[open];
      if (open.valid()) op_of_call_[call.value] = nearest_op[open.value];
    }
  }
  const model::KernelTable& kernels = model_->kernels();
  for (uint32_t k = 0; k < kernels.size(); ++k) {
    if (OpOf(model::KernelRow(k)).valid()) ++attributed_kernels_;
  }
}

void OpAttribution::IndexForwardOps() {
  const bool any_backward =
      std::any_of(descriptions_.begin(), descriptions_.end(), [](const OpDescription& op) { return op.backward; });
  if (!any_backward) return;
  const model::RangeTable& ranges = model_->ranges();
  for (uint32_t r = 0; r < ranges.size(); ++r) {
    const model::RangeRow row(r);
    if (!IsOp(row) || Describe(row).backward) continue;
    const uint32_t sequence = SequenceOf(row);
    if (sequence != model::kNoSequence) forward_by_sequence_.emplace_back(sequence, row);
  }
  // Ops nested in one call share its number (aten::conv2d > ... > aten::cudnn_convolution): the
  // innermost recorded the autograd node, and has the shapes the kernels saw.
  std::sort(forward_by_sequence_.begin(), forward_by_sequence_.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return ranges.depth[a.second] > ranges.depth[b.second];
  });
  forward_by_sequence_.erase(std::unique(forward_by_sequence_.begin(), forward_by_sequence_.end(),
                                         [](const auto& a, const auto& b) { return a.first == b.first; }),
                             forward_by_sequence_.end());
  forward_by_sequence_.shrink_to_fit();
}

model::RangeRow OpAttribution::OpOf(model::KernelRow kernel) const {
  if (op_of_call_.empty()) return model::RangeRow();
  return OpOfCall(model_->kernels().launch[kernel]);
}

bool OpAttribution::IsOp(model::RangeRow range) const {
  return range.valid() && !description_of_label_.empty() &&
         description_of_label_[model_->ranges().label[range].value] != kNotAnOp;
}

uint32_t OpAttribution::DescriptionIndex(model::RangeRow op) const {
  return description_of_label_[model_->ranges().label[op].value];
}

const OpDescription& OpAttribution::Describe(model::RangeRow op) const { return descriptions_[DescriptionIndex(op)]; }

uint32_t OpAttribution::SequenceOf(model::RangeRow range) const {
  const uint32_t own = model_->ranges().sequence[range];
  if (own != model::kNoSequence || sequence_of_label_.empty()) return own;
  return sequence_of_label_[model_->ranges().label[range].value];
}

model::RangeRow OpAttribution::BackwardNodeOf(model::RangeRow op) const {
  for (model::RangeRow r = op; r.valid(); r = model_->ranges().parent[r]) {
    if (IsOp(r) && Describe(r).backward && SequenceOf(r) != model::kNoSequence) return r;
  }
  return model::RangeRow();
}

model::RangeRow OpAttribution::ForwardOf(model::RangeRow op) const {
  if (forward_by_sequence_.empty()) return model::RangeRow();
  const model::RangeRow node = BackwardNodeOf(op);
  if (!node.valid()) return model::RangeRow();
  const uint32_t sequence = SequenceOf(node);
  const auto it = std::lower_bound(forward_by_sequence_.begin(), forward_by_sequence_.end(), sequence,
                                   [](const auto& entry, uint32_t value) { return entry.first < value; });
  return it != forward_by_sequence_.end() && it->first == sequence ? it->second : model::RangeRow();
}

}  // namespace ampprof::analyzers
