#include "analyzers/findings/layout_analyzer.h"

#include "analyzers/facts/kernel_examples.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"
#include "analyzers/findings/library_call_evidence.h"
#include "analyzers/findings/op_evidence.h"

namespace ampprof::analyzers {
namespace {

// Below 1% of the step, conversions are not worth a code change; a finding there would be noise.
constexpr double kWarningShare = 0.01;
constexpr size_t kExamples = 3;

// What cuDNN's log says of a convolution's tensors: the memory layout the framework handed it, which is
// what channels_last changes. NCHW tensors around kernels that work in NHWC are what the conversions
// are for; NHWC tensors mean the conversions come from elsewhere (an NCHW-only kernel, a filter left
// NCHW), and the note says so rather than repeat the usual fix.
std::string LayoutNote(const liblogs::LibraryCall& call) {
  if (!call.convolution) return "";
  const liblogs::Layout input = call.convolution->x.layout();
  const liblogs::Layout filter = call.convolution->w.layout();
  if (input == liblogs::Layout::kUnknown) return "";
  const std::string input_name(liblogs::LayoutName(input));
  std::string note = "input " + input_name;
  if (filter != liblogs::Layout::kUnknown) note += ", filter " + std::string(liblogs::LayoutName(filter));
  if (input == liblogs::Layout::kNchw) return note + " (channels_last makes them NHWC)";
  if (filter == liblogs::Layout::kNchw) return note + " (the filter is still NCHW: convert the model, not only the input)";
  return note + " (already channels-last)";
}

}  // namespace

std::vector<Finding> AnalyzeLayout(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const std::string per = std::string(PerStepWords(input.account()));
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : input.account().devices) {
    uint64_t conversions = 0;
    uint64_t convolutions = 0;
    KernelExamples examples;
    LocationList locations(gpu.window());  // the longest conversion kernels
    // cuDNN launches its conversions from inside the convolution op that needs them, so the ops of the
    // conversion kernels are the convolutions surrounded by conversions.
    OpTally ops(input);
    LibraryCallTally calls(input);  // the convolutions' cuDNN calls, with the layouts they were given
    for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
      const KernelCategory category = input.ClassOf(kernel).category;
      if (category == KernelCategory::kLayoutTransform) {
        ++conversions;
        examples.Add(model.KernelName(kernel), model.kernels().duration(kernel));
        locations.AddKernel(input, kernel);
        ops.Add(kernel, model.kernels().duration(kernel));
      } else if (category == KernelCategory::kConvolution) {
        ++convolutions;
        calls.Add(kernel, model.kernels().duration(kernel));
      }
    }
    const base::DurationNs layout_ns =
        ChargedWhere(gpu, [](const ComputeKey& key) { return key.category == KernelCategory::kLayoutTransform; });
    const base::DurationNs convolution_ns =
        ChargedWhere(gpu, [](const ComputeKey& key) { return key.category == KernelCategory::kConvolution; });
    if (conversions == 0 || gpu.Share(layout_ns) < kWarningShare) continue;

    Finding finding;
    finding.id = "layout.nchw_nhwc";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingOf(gpu, layout_ns, "the conversion kernels' time, which channels-last tensors remove");
    finding.severity = SeverityForSaving(finding.saving.fraction, kWarningShare, kCriticalSaving);
    finding.verdict = Statement("{kernels:NCHW<->NHWC conversion kernel} take {share} of GPU {device}'s time "
                                "({time} " + per + ")",
                                {Count("kernels", conversions), Fraction("share", finding.saving.fraction),
                                 Count("device", static_cast<uint64_t>(finding.device_id)),
                                 Duration("time", finding.saving.ns)});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back({"conversion kernels", Statement("{kernels}, {time} " + per,
                                                                {Count("kernels", conversions),
                                                                 Duration("time", finding.saving.ns)})});
    finding.evidence.push_back({"convolution kernels they serve", Statement("{kernels}, {time} " + per,
                                                                            {Count("kernels", convolutions),
                                                                             Duration("time", gpu.PerStep(convolution_ns))})});
    for (Evidence& op : OpEvidence(input, gpu, ops, kExamples)) finding.evidence.push_back(std::move(op));
    for (Evidence& call : LibraryCallEvidence(input, gpu, calls, kExamples, LayoutNote)) {
      finding.evidence.push_back(std::move(call));
    }
    finding.examples = examples.Top(kExamples);
    std::move(locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
