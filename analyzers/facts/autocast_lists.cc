#include "analyzers/facts/autocast_lists.h"

#include <array>

namespace ampprof::analyzers {
namespace {

using enum AutocastPolicy;
using enum AutocastLists;

// docs/autocast-lists.md: the CUDA lists of both sources, merged, in their order.
constexpr std::array kEntries = std::to_array<AutocastEntry>({
    // lower_precision_fp
    {"_convolution", kLowerPrecision},
    {"conv1d", kLowerPrecision},
    {"conv2d", kLowerPrecision},
    {"conv3d", kLowerPrecision},
    {"conv_tbc", kLowerPrecision},
    {"conv_transpose1d", kLowerPrecision},
    {"conv_transpose2d", kLowerPrecision},
    {"conv_transpose3d", kLowerPrecision},
    {"convolution", kLowerPrecision},
    {"cudnn_convolution", kLowerPrecision, kOlder},
    {"cudnn_convolution_transpose", kLowerPrecision, kOlder},
    {"prelu", kLowerPrecision},
    {"addmm", kLowerPrecision},
    {"addmv", kLowerPrecision},
    {"addr", kLowerPrecision},
    {"matmul", kLowerPrecision},
    {"einsum", kLowerPrecision},
    {"mm", kLowerPrecision},
    {"mv", kLowerPrecision},
    {"linalg_vecdot", kLowerPrecision, kNewer},
    {"linear", kLowerPrecision},
    {"addbmm", kLowerPrecision},
    {"baddbmm", kLowerPrecision},
    {"bmm", kLowerPrecision},
    {"chain_matmul", kLowerPrecision},
    {"linalg_multi_dot", kLowerPrecision},
    {"_thnn_fused_lstm_cell", kLowerPrecision},
    {"_thnn_fused_gru_cell", kLowerPrecision},
    {"lstm_cell", kLowerPrecision},
    {"gru_cell", kLowerPrecision},
    {"rnn_tanh_cell", kLowerPrecision},
    {"rnn_relu_cell", kLowerPrecision},
    {"_scaled_dot_product_flash_attention", kLowerPrecision},
    {"scaled_dot_product_attention", kLowerPrecision},
    // fp32
    {"acos", kFp32},
    {"asin", kFp32},
    {"cosh", kFp32},
    {"erfinv", kFp32},
    {"exp", kFp32},
    {"expm1", kFp32},
    {"log", kFp32},
    {"log10", kFp32},
    {"log2", kFp32},
    {"log1p", kFp32},
    {"reciprocal", kFp32},
    {"rsqrt", kFp32},
    {"sinh", kFp32},
    {"tan", kFp32},
    {"pow", kFp32},
    {"softplus", kFp32},
    {"layer_norm", kFp32},
    {"native_layer_norm", kFp32},
    {"group_norm", kFp32},
    {"frobenius_norm", kFp32},
    {"nuclear_norm", kFp32},
    {"cosine_similarity", kFp32},
    {"poisson_nll_loss", kFp32},
    {"cosine_embedding_loss", kFp32},
    {"nll_loss", kFp32},
    {"nll_loss2d", kFp32},
    {"hinge_embedding_loss", kFp32},
    {"kl_div", kFp32},
    {"l1_loss", kFp32},
    {"smooth_l1_loss", kFp32},
    {"huber_loss", kFp32},
    {"mse_loss", kFp32},
    {"margin_ranking_loss", kFp32},
    {"multilabel_margin_loss", kFp32},
    {"soft_margin_loss", kFp32},
    {"triplet_margin_loss", kFp32},
    {"multi_margin_loss", kFp32},
    {"binary_cross_entropy_with_logits", kFp32},
    {"dist", kFp32},
    {"pdist", kFp32},
    {"cdist", kFp32},
    {"renorm", kFp32},
    {"logsumexp", kFp32},
    {"upsample_nearest1d", kFp32, kNewer},
    {"_upsample_nearest_exact1d", kFp32, kNewer},
    {"upsample_nearest2d", kFp32, kNewer},
    {"_upsample_nearest_exact2d", kFp32, kNewer},
    {"upsample_nearest3d", kFp32, kNewer},
    {"_upsample_nearest_exact3d", kFp32, kNewer},
    {"upsample_linear1d", kFp32, kNewer},
    {"upsample_bilinear2d", kFp32, kNewer},
    {"_upsample_bilinear2d_aa", kFp32, kNewer},
    {"upsample_trilinear3d", kFp32, kNewer},
    {"upsample_bicubic2d", kFp32, kNewer},
    {"_upsample_bicubic2d_aa", kFp32, kNewer},
    // fp32_set_opt_dtype
    {"prod", kFp32},
    {"softmax", kFp32},
    {"log_softmax", kFp32},
    {"cumprod", kFp32},
    {"cumsum", kFp32},
    {"linalg_vector_norm", kFp32},
    {"linalg_matrix_norm", kFp32},
    {"sum", kFp32},
    // fp32_append_dtype
    {"norm", kFp32},
    // promote
    {"addcdiv", kPromote},
    {"addcmul", kPromote},
    {"atan2", kPromote},
    {"bilinear", kPromote},
    {"cross", kPromote},
    {"dot", kPromote},
    {"vdot", kPromote, kNewer},
    {"grid_sampler", kPromote},
    {"index_put", kPromote},
    {"tensordot", kPromote},
    {"scatter_add", kPromote},
    // banned
    {"binary_cross_entropy", kBanned},
});

constexpr std::string_view kAten = "aten::";

}  // namespace

const AutocastEntry* FindAutocastEntry(std::string_view op_name) {
  if (op_name.starts_with(kAten)) op_name.remove_prefix(kAten.size());
  if (const size_t dot = op_name.find('.'); dot != std::string_view::npos) op_name = op_name.substr(0, dot);
  for (const AutocastEntry& entry : kEntries) {
    if (entry.op == op_name) return &entry;
  }
  return nullptr;
}

std::span<const AutocastEntry> AutocastEntries() { return kEntries; }

AutocastRule AutocastRuleOf(const model::TraceModel& model, const OpAttribution& ops, model::RangeRow op) {
  AutocastRule rule;
  for (model::RangeRow range = op; range.valid(); range = model.ranges().parent[range]) {
    if (!ops.IsOp(range)) continue;
    const std::string_view name = ops.Describe(range).name;
    if (!name.starts_with(kAten)) continue;  // a Python function, a module, a user's record_function
    if (const AutocastEntry* entry = FindAutocastEntry(name)) rule = {entry, range};  // the outermost wins
  }
  return rule;
}

}  // namespace ampprof::analyzers
