#include "analyzers/findings/alignment_analyzer.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"
#include "analyzers/findings/library_call_evidence.h"
#include "analyzers/findings/op_evidence.h"

namespace ampprof::analyzers {
namespace {

// Tensor-Core kernels load operands in 16-byte vectors (128-bit LDG/cp.async); a narrower variant
// issues 2-16x as many loads for the same tile.
constexpr unsigned kAlignedBytes = 16;
// Below 3% of the step, even making the unaligned kernels free saves less than the usual step-to-step
// variation: not worth padding a model's dimensions for.
constexpr double kMinShare = 0.03;
// How much faster an aligned variant runs the same GEMM: ampprof's estimate, not a measurement. The
// unaligned variants issue 2-16x as many loads; GEMMs are partly bound by math, not loads, so the whole
// kernel gains less than that.
constexpr double kAlignedSpeedupLow = 1.25;
constexpr double kAlignedSpeedupHigh = 2.0;
// Severity from the low end of the saving: a warning from 2% of the step.
constexpr double kWarningSaving = 0.02;
constexpr size_t kExamples = 3;

// Bytes per element of a Tensor-Core kernel's operands; 0 when the type is not known.
unsigned ElementBytes(DataType dtype) {
  switch (dtype) {
    case DataType::kFp16:
    case DataType::kBf16:
      return 2;
    case DataType::kTf32:
      return 4;
    case DataType::kFp8:
    case DataType::kInt8:
      return 1;
    default:
      return 0;
  }
}

// The ops that launched the unaligned kernels, with the dimensions that made the library pick them.
struct UnalignedOps {
  explicit UnalignedOps(const AnalysisInput& input) : tally(input), calls(input) {}
  OpTally tally;
  LibraryCallTally calls;  // the GEMM calls of the library logs behind them, when there are logs
  // By op description, the multiple (in elements) its unaligned kernels' type needs: 8 for FP16/BF16.
  std::map<uint32_t, int64_t> multiple;
};

// The multiple (in elements) a GEMM call's operand type needs for 16-byte loads: 8 for FP16/BF16.
int64_t MultipleFor(liblogs::DataType type) {
  switch (type) {
    case liblogs::DataType::kFloat16:
    case liblogs::DataType::kBFloat16: return 8;
    case liblogs::DataType::kFloat32: return 4;  // TF32 kernels read FP32 operands
    case liblogs::DataType::kFp8E4M3:
    case liblogs::DataType::kFp8E5M2:
    case liblogs::DataType::kInt8: return 16;
    default: return 8;
  }
}

// Evidence from the library logs: each GEMM call behind the unaligned kernels with the m/n/k that are not
// multiples (what the trace's ops may not show); a fix from them when the ops gave none. True when a
// call was named.
bool NameGemmCalls(const AnalysisInput& input, const DeviceAccount& gpu, const UnalignedOps& ops, Finding& finding) {
  constexpr size_t kCalls = 3;
  constexpr int64_t kPadTo = 8;
  const auto note = [](const liblogs::LibraryCall& call) -> std::string {
    if (!call.gemm) return "";
    const int64_t multiple = MultipleFor(call.gemm->a_type);
    const std::string dims = UnalignedGemmCallDims(*call.gemm, multiple);
    if (dims.empty()) {
      return fmt::format("m, n and k are multiples of {}, so a leading dimension or an operand's address is not (a "
                         "slice or a transposed view?)", multiple);
    }
    return fmt::format("{} {} not a multiple of {}", dims, dims.find(',') == std::string::npos ? "is" : "are", multiple);
  };
  const std::vector<Evidence> lines = LibraryCallEvidence(input, gpu, ops.calls, kCalls, note);
  for (const Evidence& line : lines) finding.evidence.push_back(line);
  if (!finding.fix.empty()) return !lines.empty();
  for (const CallTime& call : ops.calls.ByTime()) {
    if (!call.call->gemm) continue;
    const liblogs::GemmCall& gemm = *call.call->gemm;
    std::vector<std::string> pads;
    for (const auto& [name, dim] : {std::pair{"m", gemm.m}, std::pair{"n", gemm.n}, std::pair{"k", gemm.k}}) {
      if (dim > 0 && dim % MultipleFor(gemm.a_type) != 0) {
        pads.push_back(fmt::format("{} from {} to {}", name, dim, RoundUpTo(dim, kPadTo)));
      }
    }
    if (pads.empty()) continue;
    finding.fix = fmt::format("Pad the GEMM {}{} ({}) to multiples of 8: the library then runs aligned Tensor-Core "
                              "kernels (cuBLAS's m and n are the output's columns and rows of PyTorch's row-major "
                              "tensors)",
                              call.call->function, call.op.empty() ? "" : " of " + call.op, fmt::join(pads, ", "));
    break;
  }
  return !lines.empty();
}

// Evidence and a fix naming each of the top ops, its shapes and the dimensions that are not multiples.
void NameOps(const AnalysisInput& input, const DeviceAccount& gpu, const UnalignedOps& ops, Finding& finding) {
  constexpr size_t kOps = 3;
  constexpr int64_t kPadTo = 8;  // the page's advice: multiples of 8 suit FP16/BF16 and TF32 alike
  const OpAttribution& attribution = input.ops();
  const std::string per(PerStepWords(input.account()));
  bool any_shapes = false;
  size_t named = 0;
  for (const OpTime& op : ops.tally.ByTime()) {
    if (named == kOps) break;
    ++named;
    const OpDescription& description = attribution.descriptions()[op.description];
    const OpDescription& shaped =
        op.forward != kNoForwardOp && !description.HasShapes() ? attribution.descriptions()[op.forward] : description;
    const std::string label = StatementLiteral(OpLabel(attribution, op));
    if (!shaped.HasShapes()) {
      finding.evidence.push_back({"op", Statement(label + ": {time} " + per + ", {kernels:kernel} (no shapes recorded)",
                                                  {Duration("time", gpu.PerStep(op.ns)), Count("kernels", op.kernels)})});
      continue;
    }
    any_shapes = true;
    const auto multiple = ops.multiple.find(op.description);
    const std::vector<int64_t> dims = UnalignedGemmDims(shaped, multiple == ops.multiple.end() ? kPadTo : multiple->second);
    if (dims.empty()) {
      finding.evidence.push_back(
          {"op", Statement(label + ": {time} " + per + ", {kernels:kernel}; its GEMM dimensions are multiples of 8, "
                                   "so a stride or offset of an operand is not (a slice or a transposed view?)",
                           {Duration("time", gpu.PerStep(op.ns)), Count("kernels", op.kernels)})});
      continue;
    }
    std::vector<std::string> pads;
    for (const int64_t dim : dims) pads.push_back(fmt::format("{} to {}", dim, RoundUpTo(dim, kPadTo)));
    const std::string pad_text = fmt::format("{}", fmt::join(pads, ", "));
    finding.evidence.push_back(
        {"op", Statement(label + fmt::format(": {{time}} {}, {{kernels:kernel}}; {} {} not a multiple of 8 (pad {})", per,
                                             fmt::join(dims, ", "), dims.size() == 1 ? "is" : "are", pad_text),
                         {Duration("time", gpu.PerStep(op.ns)), Count("kernels", op.kernels)})});
    if (finding.fix.empty()) {
      finding.fix = fmt::format("Pad {} in {} to multiples of 8 ({}): the library then runs aligned Tensor-Core kernels",
                                fmt::join(dims, ", "), OpLabel(attribution, op), pad_text);
    }
  }
  const bool calls = NameGemmCalls(input, gpu, ops, finding);
  std::string source = "alignN tags in CUTLASS kernel names (a naming convention); ";
  if (any_shapes) {
    source += "the ops and shapes from the trace's framework ops that launched the kernels";
  } else if (attribution.attributed_kernels() > 0) {
    source += "the trace records no op shapes (PyTorch profiler: record_shapes=True)";
  } else {
    source += calls ? "the trace has no op shapes" : "the trace has no GEMM dimensions";
  }
  if (calls) source += "; the GEMMs' m, n and k from " + std::string(kLibraryCallSource);
  finding.evidence.push_back({"source", Statement(StatementLiteral(source))});
}

struct Variant {
  uint64_t kernels = 0;
  base::DurationNs ns = 0;
};

}  // namespace

std::vector<Finding> AnalyzeAlignment(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const std::string per = std::string(PerStepWords(input.account()));
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    std::map<ComputeKey, base::DurationNs> unaligned_by_bucket;
    std::map<ComputeKey, base::DurationNs> tagged_by_bucket;  // those whose name gives the alignment
    uint64_t unaligned_kernels = 0;
    std::map<std::pair<DataType, uint8_t>, Variant> variants;  // by type and alignment
    KernelExamples examples;
    LocationList locations(gpu.window());  // the longest of those kernels
    UnalignedOps ops(input);
    for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
      const KernelClass& k = input.ClassOf(kernel);
      const bool matrix = k.category == KernelCategory::kGemm || k.category == KernelCategory::kConvolution;
      if (!matrix || (k.math != MathUnit::kTensorCore && k.math != MathUnit::kTensorCoreTf32)) continue;
      const unsigned bytes = ElementBytes(k.dtype);
      if (k.alignment == 0 || bytes == 0) continue;  // the name does not say: not counted either way
      const base::DurationNs duration = model.kernels().duration(kernel);
      const ComputeKey key{k.category, k.math, k.dtype};
      tagged_by_bucket[key] += duration;
      if (k.alignment * bytes >= kAlignedBytes) continue;
      unaligned_by_bucket[key] += duration;
      ++unaligned_kernels;
      Variant& variant = variants[{k.dtype, k.alignment}];
      ++variant.kernels;
      variant.ns += duration;
      examples.Add(model.KernelName(kernel), duration);
      locations.AddKernel(input, kernel);
      ops.tally.Add(kernel, duration);
      ops.calls.Add(kernel, duration);
      if (const model::RangeRow op = input.ops().OpOf(kernel); op.valid()) {
        int64_t& multiple = ops.multiple[input.ops().DescriptionIndex(op)];
        multiple = std::max<int64_t>(multiple, kAlignedBytes / bytes);
      }
    }
    base::DurationNs unaligned_ns = 0;
    base::DurationNs tagged_ns = 0;
    for (const auto& [key, ns] : unaligned_by_bucket) unaligned_ns += ChargedTime(gpu, key, ns);
    for (const auto& [key, ns] : tagged_by_bucket) tagged_ns += ChargedTime(gpu, key, ns);
    const base::DurationNs tensor_core_ns = ChargedWhere(gpu, [](const ComputeKey& key) {
      return (key.category == KernelCategory::kGemm || key.category == KernelCategory::kConvolution) &&
             (key.math == MathUnit::kTensorCore || key.math == MathUnit::kTensorCoreTf32);
    });
    if (unaligned_kernels == 0 || gpu.Share(unaligned_ns) < kMinShare) continue;

    Finding finding;
    finding.id = "tensor_cores.misaligned";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingRangeOf(
        gpu, SavedBySpeedup(unaligned_ns, kAlignedSpeedupLow), SavedBySpeedup(unaligned_ns, kAlignedSpeedupHigh),
        "an estimate: the unaligned kernels' time, if aligned variants ran them 1.25x to 2x faster");
    finding.severity = SeverityForSaving(finding.saving.low_fraction, kWarningSaving, kCriticalSaving);
    finding.verdict = Statement("Unaligned Tensor-Core kernel variants (loads under {bytes} bytes) take {share} of GPU "
                                "{device}'s time ({time} " + per + "), {tc_share} of its Tensor-Core GEMM/convolution "
                                "time",
                                {Count("bytes", kAlignedBytes), Fraction("share", gpu.Share(unaligned_ns)),
                                 Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Duration("time", gpu.PerStep(unaligned_ns)),
                                 Fraction("tc_share", base::ShareOf(unaligned_ns, tensor_core_ns))});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back({"unaligned Tensor-Core kernels",
                                Statement("{kernels}, {time} " + per,
                                          {Count("kernels", unaligned_kernels), Duration("time", gpu.PerStep(unaligned_ns))})});
    for (const auto& [key, variant] : variants) {
      finding.evidence.push_back(
          {std::string(DataTypeName(key.first)) + " align" + std::to_string(key.second),
           Statement("{kernels:kernel}, {time}", {Count("kernels", variant.kernels), Duration("time", variant.ns)})});
    }
    finding.evidence.push_back(
        {"Tensor-Core time whose kernel names give an alignment",
         Statement("{tagged} of {all} " + per, {Duration("tagged", gpu.PerStep(tagged_ns)),
                                                Duration("all", gpu.PerStep(tensor_core_ns))})});
    NameOps(input, gpu, ops, finding);
    finding.examples = examples.Top(kExamples);
    std::move(locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
