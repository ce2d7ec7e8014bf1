#include "analyzers/findings/amp_opportunity_analyzer.h"

#include <map>
#include <string>

#include "analyzers/facts/precision.h"
#include "analyzers/facts/throughput.h"
#include "analyzers/findings/autocast_coverage.h"
#include "analyzers/findings/finding_locations.h"
#include "analyzers/findings/finding_support.h"
#include "analyzers/findings/library_call_evidence.h"
#include "analyzers/findings/op_evidence.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// The realistic end of the saving must be at least this share of the step: below it, turning on AMP
// (and GradScaler, and checking accuracy) is not worth the user's time for speed alone.
constexpr double kWarningShare = 0.05;
constexpr size_t kOps = 3;  // the ops named, by time

struct Eligible {
  explicit Eligible(base::Interval window) : locations(window) {}
  DurationNs simt_ns = 0;  // FP32 GEMMs and convolutions on CUDA cores (charged time)
  DurationNs tf32_ns = 0;  // TF32 GEMMs and convolutions on Tensor Cores
  uint64_t simt_kernels = 0;
  uint64_t tf32_kernels = 0;
  DurationNs matrix_vector_ns = 0;  // FP32 GEMVs on CUDA cores, left out: bound by reading the matrix
  LocationList locations;  // the longest kernels that would gain: FP32 ones, and TF32 ones where TF32 gains
};

// `ops` gets the eligible kernels by the op that launched them, `calls` by the library call.
// `tf32_gains`: the GPU's TF32 Tensor Cores are slower than its FP16 ones (the saving counts TF32 time).
Eligible MeasureEligible(const AnalysisInput& input, const DeviceAccount& gpu, bool tf32_gains, OpTally& ops,
                         LibraryCallTally& calls) {
  // Kernel time per bucket first, then each bucket's charged share of it (concurrent kernels count once).
  std::map<ComputeKey, DurationNs> simt;
  std::map<ComputeKey, DurationNs> tf32;
  Eligible eligible(gpu.window());
  for (model::KernelRow kernel : KernelsInWindow(input, gpu)) {
    const KernelClass& k = input.ClassOf(kernel);
    if (k.category != KernelCategory::kGemm && k.category != KernelCategory::kConvolution) continue;
    if (k.grouped) continue;  // depthwise/grouped convolutions gain little from Tensor Cores
    const DurationNs duration = std::min(input.model.kernels().end[kernel], gpu.window().end) -
                                input.model.kernels().start[kernel];
    if (k.matrix_vector) {  // bound by reading the matrix, whatever unit computes it
      if (k.math == MathUnit::kCudaCore && k.dtype == DataType::kFp32) eligible.matrix_vector_ns += duration;
      continue;
    }
    const ComputeKey key{k.category, k.math, k.dtype};
    if (k.math == MathUnit::kCudaCore && k.dtype == DataType::kFp32) {
      simt[key] += duration;
      ++eligible.simt_kernels;
      eligible.locations.AddKernel(input, kernel);
      ops.Add(kernel, duration);
      calls.Add(kernel, duration);
    } else if (k.math == MathUnit::kTensorCoreTf32) {
      tf32[key] += duration;
      ++eligible.tf32_kernels;
      if (tf32_gains) eligible.locations.AddKernel(input, kernel);
      ops.Add(kernel, duration);
      calls.Add(kernel, duration);
    }
  }
  for (const auto& [key, ns] : simt) eligible.simt_ns += ChargedTime(gpu, key, ns);
  for (const auto& [key, ns] : tf32) eligible.tf32_ns += ChargedTime(gpu, key, ns);
  return eligible;
}

}  // namespace

std::vector<Finding> AnalyzeAmpOpportunity(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  const PrecisionEvidence run = DescribePrecision(input);
  // Only a run with no reduced-precision matrix work and no GradScaler: one that tried AMP is
  // tensor_cores.fp32_math's to judge.
  if (run.TriedReducedPrecisionMath()) return {};
  const StepAccount& account = input.account();
  const std::string per = std::string(PerStepWords(account));
  std::vector<Finding> findings;
  for (const DeviceAccount& gpu : account.devices) {
    const model::Device& device = model.device(gpu.device);
    if (!device.has_properties || device.compute_major == 0) continue;  // the architecture decides the gain
    const bool consumer = IsConsumerPart(model.Text(device.name));
    const std::optional<SpeedupRange> from_simt =
        ExpectedSpeedup(device.compute_major, device.compute_minor, MatrixPath::kFp32CudaCores, consumer);
    if (!from_simt) continue;  // no Tensor Cores: tensor_cores.unavailable
    const std::optional<SpeedupRange> from_tf32 =
        ExpectedSpeedup(device.compute_major, device.compute_minor, MatrixPath::kTf32TensorCores, consumer);
    OpTally ops(input);
    LibraryCallTally calls(input);
    Eligible eligible = MeasureEligible(input, gpu, from_tf32.has_value(), ops, calls);
    const DurationNs low = SavedBySpeedup(eligible.simt_ns, from_simt->realistic) +
                           (from_tf32 ? SavedBySpeedup(eligible.tf32_ns, from_tf32->realistic) : 0);
    const DurationNs high = SavedBySpeedup(eligible.simt_ns, from_simt->peak) +
                            (from_tf32 ? SavedBySpeedup(eligible.tf32_ns, from_tf32->peak) : 0);
    if (gpu.Share(low) < kWarningShare) continue;
    const DurationNs eligible_ns = eligible.simt_ns + eligible.tf32_ns;
    const bool ampere_or_newer = device.compute_major >= kFirstTf32Major;

    Finding finding;
    finding.id = "amp.opportunity";
    finding.device_id = DeviceIdOf(input, gpu);
    finding.saving = SavingRangeOf(gpu, low, high,
                                   "the FP32 and TF32 GEMM/convolution time times (1 - 1/speed-up), for the realistic "
                                   "and the peak FP16/BF16 Tensor-Core speed-up of this GPU");
    finding.severity = SeverityForSaving(finding.saving.low_fraction, kWarningShare, kCriticalSaving);
    finding.verdict = Statement(
        "An FP32 run: {eligible_share} of GPU {device}'s time is FP32/TF32 GEMMs and convolutions that autocast would "
        "move to FP16/BF16 Tensor Cores, saving about {low_share} to {high_share} of the step",
        {Fraction("eligible_share", gpu.Share(eligible_ns)), Count("device", static_cast<uint64_t>(finding.device_id)),
         Fraction("low_share", finding.saving.low_fraction), Fraction("high_share", finding.saving.fraction)});
    finding.evidence.push_back({"examined", Examined(input, gpu)});
    finding.evidence.push_back(
        {"precision", Statement("FP32: no FP16/BF16/FP8 GEMM, convolution or attention kernel, no GradScaler")});
    if (eligible.simt_ns > 0) {
      finding.evidence.push_back(
          {"FP32 on CUDA cores", Statement("{time} " + per + " in {kernels:GEMM/convolution kernel} ({share})",
                                           {Duration("time", gpu.PerStep(eligible.simt_ns)),
                                            Count("kernels", eligible.simt_kernels),
                                            Fraction("share", gpu.Share(eligible.simt_ns))})});
    }
    if (eligible.tf32_ns > 0) {
      finding.evidence.push_back(
          {"TF32 on Tensor Cores", Statement("{time} " + per + " in {kernels:GEMM/convolution kernel} ({share})",
                                             {Duration("time", gpu.PerStep(eligible.tf32_ns)),
                                              Count("kernels", eligible.tf32_kernels),
                                              Fraction("share", gpu.Share(eligible.tf32_ns))})});
    }
    if (eligible.matrix_vector_ns > 0) {
      finding.evidence.push_back(MatrixVectorLeftOut(input, gpu, eligible.matrix_vector_ns));
    }
    const std::optional<PeakThroughput> peak = PeakThroughputOf(device.compute_major, device.compute_minor);
    std::string speedups = "from FP32 CUDA cores {simt_low} (realistic) to {simt_peak} (peak)";
    std::vector<Quantity> speedup_values = {Ratio("simt_low", from_simt->realistic), Ratio("simt_peak", from_simt->peak)};
    if (from_tf32 && eligible.tf32_ns > 0) {
      speedups += ", from TF32 {tf32_low} to {tf32_peak}";
      speedup_values.push_back(Ratio("tf32_low", from_tf32->realistic));
      speedup_values.push_back(Ratio("tf32_peak", from_tf32->peak));
    }
    speedups += peak ? "; dense peaks of the " + std::string(peak->part) +
                           (consumer ? ", FP16 halved for a consumer part" : "") + " (docs/throughput.md)"
                     : "; this GPU is not in ampprof's table: the lowest ratios of the table are used";
    finding.evidence.push_back({"speed-up of those kernels", Statement(std::move(speedups), std::move(speedup_values))});
    finding.evidence.push_back(
        {"saving", Statement("{low} to {high} " + per + " ({low_share} to {high_share}); the rest of the step does "
                             "not speed up, and `ampprof compare` measures the real figure",
                             {Duration("low", finding.saving.low_ns), Duration("high", finding.saving.ns),
                              Fraction("low_share", finding.saving.low_fraction),
                              Fraction("high_share", finding.saving.fraction)})});
    for (Evidence& op : OpEvidence(input, gpu, ops, kOps)) finding.evidence.push_back(std::move(op));
    // An FP32 run: no reduced-precision matrix work (the precondition above), so autocast covered none.
    for (Evidence& op : AutocastCoverage(input, ops, kOps, {.reduced_precision_math = false})) {
      finding.evidence.push_back(std::move(op));
    }
    for (Evidence& call : LibraryCallEvidence(input, gpu, calls, kOps, MathPathNote)) {
      finding.evidence.push_back(std::move(call));
    }
    if (input.run_kind().kind == RunKind::kInference) {
      // No loss, no backward pass, no GradScaler: FP16 needs no loss scaling to run inference.
      finding.fix = ampere_or_newer ? "Run the forward pass under autocast with BF16 or FP16; as a one-line first "
                                      "step, let FP32 matmuls and convolutions use TF32."
                                    : "Run the forward pass under autocast with FP16.";
      finding.fix_code = std::string(ampere_or_newer ? "torch.backends.cuda.matmul.allow_tf32 = True   # first step: "
                                                       "FP32 -> TF32 Tensor Cores\n"
                                                       "torch.backends.cudnn.allow_tf32 = True\n"
                                                     : "") +
                         "with torch.inference_mode(), torch.autocast(\"cuda\", dtype=torch.float16):\n"
                         "    out = model(x)";
    } else if (ampere_or_newer) {
      finding.fix = "Run the forward pass and the loss under autocast with BF16 (no GradScaler needed); as a "
                    "one-line first step, let FP32 matmuls and convolutions use TF32.";
      finding.fix_code =
          "torch.backends.cuda.matmul.allow_tf32 = True   # first step: FP32 -> TF32 Tensor Cores\n"
          "torch.backends.cudnn.allow_tf32 = True\n"
          "with torch.autocast(\"cuda\", dtype=torch.bfloat16):\n"
          "    loss = loss_fn(model(x), y)\n"
          "loss.backward()\n"
          "optimizer.step()";
    } else {
      finding.fix = "Run the forward pass and the loss under autocast with FP16, and scale the loss with GradScaler.";
      finding.fix_code =
          "scaler = torch.amp.GradScaler(\"cuda\")\n"
          "with torch.autocast(\"cuda\", dtype=torch.float16):\n"
          "    loss = loss_fn(model(x), y)\n"
          "scaler.scale(loss).backward()\n"
          "scaler.step(optimizer)\n"
          "scaler.update()";
    }
    std::move(eligible.locations).MoveInto(finding);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace ampprof::analyzers
