#include "analyzers/report/op_table.h"

#include <algorithm>

#include "analyzers/facts/op_tally.h"
#include "analyzers/findings/finding_support.h"

namespace ampprof::analyzers {
namespace {

std::string UnitOf(const OpTime& op) {
  if (op.tensor_core_ns > 0 && op.cuda_core_ns > 0) return "Tensor Cores and CUDA cores";
  if (op.tensor_core_ns > 0) return "Tensor Cores";
  if (op.cuda_core_ns > 0) return "CUDA cores";
  return "";
}

std::string ShapesOf(const OpDescription& op) { return op.ShapesText(); }

}  // namespace

std::optional<OpTable> BuildOpTable(const AnalysisInput& input) {
  const OpAttribution& ops = input.ops();
  const DeviceAccount* gpu = input.account().Primary();
  if (!ops.has_ops() || gpu == nullptr) return std::nullopt;
  OpTally tally(input);
  OpTable table;
  const model::KernelTable& kernels = input.model.kernels();
  for (model::KernelRow kernel : KernelsInWindow(input, *gpu)) {
    const base::DurationNs ns = kernels.duration(kernel);
    tally.Add(kernel, ns);
    ++table.kernels;
    table.kernel_ns = base::SaturatingAdd(table.kernel_ns, ns);
  }
  if (table.kernels == 0) return std::nullopt;
  table.device_id = static_cast<uint32_t>(DeviceIdOf(input, *gpu));
  table.steps = input.account().basis == AccountBasis::kMeasuredSteps ? gpu->steps() : 0;
  table.attributed_kernels = table.kernels - tally.unattributed_kernels();
  table.attributed_ns = tally.attributed_ns();
  const std::vector<OpTime> by_time = tally.ByTime();
  table.distinct_ops = by_time.size();
  for (size_t i = 0; i < by_time.size() && i < kMaxOpRows; ++i) {
    const OpTime& op = by_time[i];
    const OpDescription& description = ops.descriptions()[op.description];
    OpRow row;
    row.name = description.name;
    row.shapes = ShapesOf(description);
    row.input_type = TorchTypeName(description.FirstTensorType());
    row.backward = description.backward || op.forward != kNoForwardOp || ops.BackwardNodeOf(op.sample).valid();
    if (op.forward != kNoForwardOp) {
      const OpDescription& forward = ops.descriptions()[op.forward];
      row.forward = forward.name + (forward.HasShapes() ? " " + forward.ShapesText() : "");
    }
    row.calls = op.calls;
    row.kernels = op.kernels;
    row.kernel_ns = op.ns;
    row.per_step_ns = gpu->PerStep(op.ns);
    row.share = base::ShareOf(op.ns, table.kernel_ns);
    row.unit = UnitOf(op);
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace ampprof::analyzers
