#include "analyzers/report/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "analyzers/facts/step_account.h"
#include "analyzers/findings/finding_catalog.h"
#include "analyzers/report/summary.h"
#include "src/model/queries.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;

// A row that grew by less than this share of the AMP run's time per step differs as two runs of one
// workload do; naming a finding for it would be noise.
constexpr double kMinExplainedShare = 0.005;
// The finding lists this many rows each way ("costs more", "saves"); the report's table has them all.
constexpr size_t kRowsInEvidence = 3;

bool IsReduced(DataType dtype) {
  return dtype == DataType::kFp16 || dtype == DataType::kBf16 || dtype == DataType::kFp8;
}

bool IsMatrix(KernelCategory category) {
  return category == KernelCategory::kGemm || category == KernelCategory::kConvolution ||
         category == KernelCategory::kAttention;
}

// For a compute bucket, the finding that explains it costing more under AMP ("" when none does).
std::string_view FindingForCompute(KernelCategory category, MathUnit math) {
  switch (category) {
    case KernelCategory::kCast: return "amp.cast_overhead";
    case KernelCategory::kGradScaler: return "amp.scaler_overhead";
    case KernelCategory::kLayoutTransform: return "layout.nchw_nhwc";
    // The optimizer's work does not change with precision (it updates FP32 master weights either way);
    // more of it per step is the optimizer running twice.
    case KernelCategory::kOptimizer: return "amp.double_optimizer_step";
    case KernelCategory::kGemm:
    case KernelCategory::kConvolution:
      // FP32 math left in the AMP run: SIMT FFMA kernels, or TF32 Tensor Cores on FP32 data.
      return math == MathUnit::kCudaCore || math == MathUnit::kTensorCoreTf32 ? "tensor_cores.fp32_math" : "";
    default: return "";
  }
}

std::string_view FindingForIdle(GapCause cause) {
  switch (cause) {
    case GapCause::kHostLaunch: return "gpu.launch_bound";
    case GapCause::kHostSync: return "gpu.sync_stall";
    case GapCause::kHostOther: return "gpu.host_bound";
    default: return "";
  }
}

DurationNs PerUnit(DurationNs total, size_t units) {
  if (units == 0) return 0;
  return static_cast<DurationNs>(std::llround(static_cast<double>(total) / static_cast<double>(units)));
}

ComparedRun Describe(const RunProfile& run, CompareBasis basis) {
  ComparedRun described;
  described.trace = run.identity.trace;
  described.label = run.identity.label;
  described.data_loss = run.identity.data_loss;
  described.device = run.device;
  const size_t units = basis == CompareBasis::kMedianStep ? run.steps : 1;
  if (basis == CompareBasis::kMedianStep) {
    described.steps = run.steps;
    described.warmup_steps = run.warmup_steps;
    described.step_source = run.step_source;
    described.time_ns = run.median_step_ns;
  } else {
    described.time_ns = run.window_ns;
  }
  described.gpu_time_ns = PerUnit(run.window_ns, units);
  described.busy_fraction = base::ShareOf(run.busy_ns, run.window_ns);
  if (units > 0) described.kernels_per_unit = static_cast<double>(run.kernels) / static_cast<double>(units);
  described.reduced_precision = run.mixed_precision();
  described.peak_allocated_bytes = run.peak_allocated_bytes;
  described.peak_reserved_bytes = run.peak_reserved_bytes;
  return described;
}

std::vector<ComparisonRow> Rows(const RunProfile& baseline, const RunProfile& candidate, CompareBasis basis) {
  const size_t baseline_units = basis == CompareBasis::kMedianStep ? baseline.steps : 1;
  const size_t candidate_units = basis == CompareBasis::kMedianStep ? candidate.steps : 1;
  // Buckets present in either run, keyed by label, in a stable order.
  std::map<std::string, std::pair<DurationNs, DurationNs>> totals;
  std::map<std::string, std::string> findings;
  for (const ProfileBucket& bucket : baseline.buckets) {
    totals[bucket.label].first += bucket.total_ns;
    findings[bucket.label] = bucket.finding;
  }
  for (const ProfileBucket& bucket : candidate.buckets) {
    totals[bucket.label].second += bucket.total_ns;
    findings[bucket.label] = bucket.finding;
  }
  const DurationNs candidate_step = PerUnit(candidate.window_ns, candidate_units);
  std::vector<ComparisonRow> rows;
  for (const auto& [label, pair] : totals) {
    ComparisonRow row;
    row.label = label;
    row.baseline_ns = PerUnit(pair.first, baseline_units);
    row.candidate_ns = PerUnit(pair.second, candidate_units);
    if (row.baseline_ns == 0 && row.candidate_ns == 0) continue;
    if (row.change_ns() > 0 &&
        static_cast<double>(row.change_ns()) >= kMinExplainedShare * static_cast<double>(candidate_step)) {
      row.explained_by = findings[label];
    }
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const ComparisonRow& a, const ComparisonRow& b) {
    return std::abs(a.change_ns()) > std::abs(b.change_ns());
  });
  return rows;
}

// Ops autocast adds or removes (casts and the copies and allocations they make): not the workload's.
bool IsPrecisionOp(std::string_view name) {
  static constexpr std::string_view kOps[] = {"aten::to", "aten::_to_copy", "aten::copy_", "aten::empty",
                                              "aten::empty_strided", "aten::empty_like", "aten::clone"};
  return std::find(std::begin(kOps), std::end(kOps), name) != std::end(kOps);
}

// Two runs of one workload launch their kernels from the same ops, whatever the precision. A warning
// when fewer than half of the ops of the run with fewer of them are in the other (both need a few).
std::optional<Statement> DifferentWorkloads(const RunProfile& baseline, const RunProfile& candidate) {
  constexpr size_t kMinOps = 3;
  constexpr double kMinShared = 0.5;
  std::vector<std::string_view> fp32;
  std::vector<std::string_view> amp;
  for (const std::string& name : baseline.op_names) {
    if (!IsPrecisionOp(name)) fp32.push_back(name);
  }
  for (const std::string& name : candidate.op_names) {
    if (!IsPrecisionOp(name)) amp.push_back(name);
  }
  if (fp32.size() < kMinOps || amp.size() < kMinOps) return std::nullopt;
  std::vector<std::string_view> shared;
  std::set_intersection(fp32.begin(), fp32.end(), amp.begin(), amp.end(), std::back_inserter(shared));
  const size_t fewer = std::min(fp32.size(), amp.size());
  if (static_cast<double>(shared.size()) >= kMinShared * static_cast<double>(fewer)) return std::nullopt;
  return Statement("different workloads: the runs share {shared} of the {fewer} framework ops that launch the "
                   "kernels of the run with fewer (are they the same model and input?)",
                   {Count("shared", shared.size()), Count("fewer", fewer)});
}

RunPair PairOf(const RunProfile& baseline, const RunProfile& candidate) {
  if (!baseline.mixed_precision() && candidate.mixed_precision()) return RunPair::kFp32VsMixed;
  if (baseline.mixed_precision() && !candidate.mixed_precision()) return RunPair::kSwapped;
  return baseline.mixed_precision() ? RunPair::kBothMixed : RunPair::kBothFp32;
}

void AddNotes(const RunProfile& baseline, const RunProfile& candidate, const std::string& pairing, bool swapped,
              Comparison& comparison) {
  std::vector<Statement>& notes = comparison.notes;
  if (!pairing.empty()) notes.emplace_back(pairing);
  if (swapped) {
    notes.emplace_back("the traces were given the wrong way round: the --baseline trace runs its GEMMs and "
                       "convolutions in FP16/BF16 and the other in FP32, so ampprof compared the FP32 one against "
                       "the mixed-precision one");
  }
  switch (comparison.pair) {
    case RunPair::kBothFp32:
      notes.emplace_back(
          candidate.reduced_kernels > 0
              ? "both runs are FP32: the mixed-precision trace has FP16/BF16 kernels, but none of its GEMMs, "
                "convolutions or attention kernels run in FP16/BF16 (autocast does not cover them)"
              : "both runs are FP32: neither runs GEMMs, convolutions or attention in FP16/BF16, so there is no "
                "mixed-precision speed-up to state (is autocast active?)");
      break;
    case RunPair::kBothMixed:
      notes.emplace_back("both runs are mixed precision: the --baseline trace runs GEMMs and convolutions in "
                         "FP16/BF16 too, so it is not an FP32 baseline");
      break;
    default: break;
  }
  // Same GPU model, job shape and workload? Otherwise the difference is not precision's alone.
  std::vector<Statement>& warnings = comparison.warnings;
  if (!baseline.device.empty() && !candidate.device.empty()) {
    if (baseline.device != candidate.device) {
      warnings.emplace_back("different GPUs: " + baseline.device + " (FP32) and " + candidate.device +
                            " (mixed precision): the difference mixes hardware with precision");
    }
  } else if (baseline.device.empty() && candidate.device.empty()) {
    notes.emplace_back("neither trace names its GPU: could not check that both ran on the same model");
  } else {
    notes.emplace_back(std::string("the ") + (baseline.device.empty() ? "FP32" : "mixed-precision") +
                       " trace does not name its GPU: could not check that both ran on the same model");
  }
  if (baseline.identity.world_size != candidate.identity.world_size &&
      baseline.identity.world_size > 0 && candidate.identity.world_size > 0) {
    warnings.emplace_back(Statement("different world sizes: {fp32} ranks in the FP32 run, {amp} in the "
                                    "mixed-precision run: each rank's share of the work differs",
                                    {Count("fp32", static_cast<uint64_t>(baseline.identity.world_size)),
                                     Count("amp", static_cast<uint64_t>(candidate.identity.world_size))}));
  }
  if (baseline.identity.rank >= 0 && candidate.identity.rank >= 0 && baseline.identity.rank != candidate.identity.rank) {
    warnings.emplace_back("different ranks: FP32 " + baseline.identity.label + " against mixed-precision " +
                          candidate.identity.label + ": different ranks may do different work");
  }
  if (const std::optional<Statement> workloads = DifferentWorkloads(baseline, candidate)) {
    warnings.push_back(*workloads);
  }
  if (comparison.basis == CompareBasis::kWholeRun) {
    const char* which = baseline.per_step ? "the mixed-precision trace marks" : candidate.per_step ? "the FP32 trace marks"
                                                                                                  : "neither trace marks";
    notes.emplace_back(std::string(which) + " no training steps: compared each run's whole analysed window, which is "
                                            "fair only when both ran the same number of iterations");
  }
  for (const auto& [run, name] : {std::pair{&baseline, "FP32"}, std::pair{&candidate, "mixed-precision"}}) {
    if (run->devices_with_kernels > 1) {
      notes.emplace_back(Statement(std::string("the ") + name + " trace has kernels on {gpus} GPUs: compared GPU "
                                       "{device}, the busiest",
                                   {Count("gpus", run->devices_with_kernels), Count("device", run->device_id)}));
    }
    if (run->identity.data_loss) {
      notes.emplace_back(std::string("the ") + name +
                         " trace lost records (cut short or damaged): its numbers cover what was recorded");
    }
  }
}

Finding SlowerFinding(const RunProfile& candidate_profile, const Comparison& comparison) {
  const ComparedRun& baseline = comparison.baseline;
  const ComparedRun& candidate = comparison.candidate;
  const bool per_step = comparison.basis == CompareBasis::kMedianStep;
  const std::string unit = per_step ? " per step" : "";
  std::vector<Quantity> times = {Duration("fp32", baseline.time_ns), Duration("amp", candidate.time_ns),
                                 Ratio("speedup", comparison.speedup)};
  const std::string times_text =
      std::string(per_step ? "median step" : "analysed window") + " {fp32} in FP32, {amp} with AMP: {speedup}";

  Finding finding;
  finding.id = "amp.slower_than_fp32";
  finding.severity = FindFinding(finding.id)->default_severity;
  std::string verdict;
  if (candidate_profile.matrix_ns > 0 && candidate_profile.reduced_matrix_kernels == 0) {
    verdict = "The AMP run's GEMMs and convolutions are not in FP16/BF16: autocast does not cover them (" + times_text + ")";
  } else {
    verdict = comparison.speedup < 1.0 ? "The mixed-precision run is slower than FP32: " + times_text
                                       : "Mixed precision brought no measurable speed-up: " + times_text +
                                             " (below {threshold})";
    times.push_back(Ratio("threshold", kMinUsefulSpeedup));
    // The headline cost is what a finding explains (the FP16 GEMMs that replace FP32 ones are not a cost to
    // fix), else the largest increase.
    auto explained = std::find_if(comparison.rows.begin(), comparison.rows.end(), [](const ComparisonRow& row) {
      return row.change_ns() > 0 && !row.explained_by.empty();
    });
    if (explained == comparison.rows.end()) {
      explained = std::find_if(comparison.rows.begin(), comparison.rows.end(),
                               [](const ComparisonRow& row) { return row.change_ns() > 0; });
    }
    if (explained != comparison.rows.end()) {
      verdict += "; most of the cost: " + explained->label + " +{cost}" + unit;
      times.push_back(Duration("cost", explained->change_ns()));
      if (!explained->explained_by.empty()) verdict += " (" + explained->explained_by + ")";
    }
  }
  finding.verdict = Statement(std::move(verdict), std::move(times));
  finding.evidence.push_back(
      {"compared", per_step ? Statement("the median measured step, each run's period on its busiest GPU; FP32 "
                                        "{fp32_steps} steps, AMP {amp_steps} steps",
                                        {Count("fp32_steps", baseline.steps), Count("amp_steps", candidate.steps)})
                            : Statement("each run's analysed window (not both traces mark training steps)")});
  finding.evidence.push_back(
      {per_step ? "GPU time per step" : "GPU time",
       Statement("FP32 {fp32} ({fp32_busy} busy, {fp32_kernels} kernels), AMP {amp} ({amp_busy} busy, {amp_kernels} "
                 "kernels)",
                 {Duration("fp32", baseline.gpu_time_ns), Fraction("fp32_busy", baseline.busy_fraction),
                  Number("fp32_kernels", baseline.kernels_per_unit), Duration("amp", candidate.gpu_time_ns),
                  Fraction("amp_busy", candidate.busy_fraction), Number("amp_kernels", candidate.kernels_per_unit)})});
  size_t costs = 0;
  size_t savings = 0;
  for (const ComparisonRow& row : comparison.rows) {
    const bool cost = row.change_ns() > 0;
    if ((cost ? costs : savings) >= kRowsInEvidence || row.change_ns() == 0) continue;
    ++(cost ? costs : savings);
    finding.evidence.push_back(
        {(cost ? "costs more with AMP: " : "saves with AMP: ") + row.label,
         Statement(std::string(cost ? "+" : "") + "{change}" + unit +
                       (row.explained_by.empty() ? "" : " (" + row.explained_by + ")"),
                   {Duration("change", row.change_ns())})});
  }
  for (const Statement& warning : comparison.warnings) finding.evidence.push_back({"warning", warning});
  for (const Statement& note : comparison.notes) finding.evidence.push_back({"note", note});
  const DurationNs lost = std::max<DurationNs>(0, candidate.time_ns - baseline.time_ns);
  finding.saving = Saving::Exact(lost, base::ShareOf(lost, candidate.time_ns),
                                 "the step time the AMP run loses against FP32 (the fixes the rows name win it back)");
  return finding;
}

std::vector<std::string> OpNames(const AnalysisInput& input) {
  const OpAttribution& ops = input.ops();
  if (!ops.has_ops()) return {};
  std::vector<bool> launched(ops.descriptions().size(), false);
  for (uint32_t k = 0; k < input.model.kernels().size(); ++k) {
    const model::RangeRow op = ops.OpOf(model::KernelRow(k));
    if (op.valid()) launched[ops.DescriptionIndex(op)] = true;
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < launched.size(); ++i) {
    if (launched[i]) names.push_back(ops.descriptions()[i].name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

RunProfile ProfileRun(const AnalysisInput& input) {
  const model::TraceModel& model = input.model;
  RunProfile profile;
  const model::KernelTable& kernels = model.kernels();
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    const model::KernelRow kernel(i);
    const KernelClass& k = input.ClassOf(kernel);
    // FP16 Tensor-Core kernels whose name gives no dtype are reduced precision too (INT8 ones are not).
    const bool reduced = IsReduced(k.dtype) || (k.math == MathUnit::kTensorCore && k.dtype == DataType::kUnknown);
    if (reduced) ++profile.reduced_kernels;
    if (!IsMatrix(k.category)) continue;
    profile.matrix_ns = base::SaturatingAdd(profile.matrix_ns, kernels.duration(kernel));
    if (reduced) {
      ++profile.reduced_matrix_kernels;
      profile.reduced_matrix_ns = base::SaturatingAdd(profile.reduced_matrix_ns, kernels.duration(kernel));
    }
  }
  for (const model::Device& device : model.devices()) {
    if (!device.kernels.empty()) ++profile.devices_with_kernels;
  }
  const DeviceAccount* gpu = input.account().Primary();
  if (gpu == nullptr) return profile;
  const model::Device& busiest = model.device(gpu->device);
  if (busiest.has_properties) profile.device = std::string(model.Text(busiest.name));
  profile.device_id = busiest.device_id;
  profile.compute_major = busiest.compute_major;
  profile.compute_minor = busiest.compute_minor;
  if (const DeviceMemory* memory = input.MemoryOf(gpu->device)) {
    if (memory->allocated) profile.peak_allocated_bytes = memory->allocated->bytes;
    if (memory->reserved) profile.peak_reserved_bytes = memory->reserved->bytes;
  }
  profile.op_names = OpNames(input);
  profile.has_account = true;
  profile.per_step = input.account().basis == AccountBasis::kMeasuredSteps;
  profile.steps = gpu->steps();
  profile.median_step_ns = profile.per_step ? gpu->MedianStepNs() : gpu->window_ns();
  profile.window_ns = gpu->window_ns();
  profile.busy_ns = gpu->total.busy_ns();
  profile.kernels = gpu->kernels;
  if (const std::optional<Steps>& steps = input.steps(); steps && profile.per_step) {
    profile.warmup_steps = steps->warmup;
    profile.step_source = std::string(StepSourceName(steps->source));
  }
  // Compute buckets by category and unit (the dtype is the difference the comparison is about: FP32
  // and FP16 GEMMs on one row show what AMP changed).
  for (const ComputeTime& bucket : gpu->compute) {
    KernelClass k;
    k.category = bucket.key.category;
    k.math = bucket.key.math;
    profile.buckets.push_back({CategoryLabel(k), std::string(FindingForCompute(k.category, k.math)), bucket.charged_ns});
  }
  profile.buckets.push_back({"exposed communication", "comm.exposed", gpu->total.exposed_communication_ns});
  profile.buckets.push_back({"copies and memsets only", "", gpu->total.copy_ns});
  for (GapCause cause : kAllGapCauses) {
    profile.buckets.push_back({"idle: " + std::string(GapCauseName(cause)), std::string(FindingForIdle(cause)),
                               gpu->total.idle[cause]});
  }
  return profile;
}

ComparisonResult Compare(const RunProfile& given_baseline, const RunProfile& given_candidate, const std::string& pairing) {
  ComparisonResult result;
  Comparison& comparison = result.comparison;
  // Arguments the wrong way round (the baseline is the mixed-precision run): compared the right way.
  const bool swapped = PairOf(given_baseline, given_candidate) == RunPair::kSwapped;
  const RunProfile& baseline = swapped ? given_candidate : given_baseline;
  const RunProfile& candidate = swapped ? given_baseline : given_candidate;
  comparison.pair = swapped ? RunPair::kFp32VsMixed : PairOf(baseline, candidate);
  comparison.basis = baseline.per_step && candidate.per_step ? CompareBasis::kMedianStep : CompareBasis::kWholeRun;
  comparison.baseline = Describe(baseline, comparison.basis);
  comparison.candidate = Describe(candidate, comparison.basis);
  if (swapped) comparison.pair = RunPair::kSwapped;
  if (!baseline.has_account || !candidate.has_account) {
    comparison.notes.emplace_back(std::string("the ") +
                                  (!baseline.has_account && !candidate.has_account ? "FP32 and the mixed-precision"
                                   : !baseline.has_account                         ? "FP32"
                                                                                   : "mixed-precision") +
                                  " trace has no GPU kernels to compare");
    return result;
  }
  if (comparison.candidate.time_ns > 0) {
    comparison.speedup =
        static_cast<double>(comparison.baseline.time_ns) / static_cast<double>(comparison.candidate.time_ns);
  }
  comparison.rows = Rows(baseline, candidate, comparison.basis);
  AddNotes(baseline, candidate, pairing, swapped, comparison);
  const bool fp32_against_mixed = comparison.pair == RunPair::kFp32VsMixed || comparison.pair == RunPair::kSwapped;
  if (fp32_against_mixed && comparison.speedup > 0.0 && comparison.speedup < kMinUsefulSpeedup) {
    result.finding = SlowerFinding(candidate, comparison);
  }
  return result;
}

}  // namespace ampprof::analyzers
