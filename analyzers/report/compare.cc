#include "analyzers/report/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "analyzers/facts/steps.h"
#include "analyzers/report/summary.h"
#include "src/base/format.h"
#include "src/model/queries.h"

namespace ampprof::analyzers {
namespace {

using base::DurationNs;
using base::FormatDuration;
using base::FormatPercent;

// Host step ranges this much shorter than the GPU's step are worth a note: the host runs ahead.
constexpr double kRangesBehindGpu = 0.9;
// A row that grew by less than this share of the AMP run's GPU time per step differs as two runs of one
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

// GEMMs and convolutions are keyed by math unit too, as the summary splits them.
MathUnit KeyMath(const KernelClass& k) {
  return k.category == KernelCategory::kGemm || k.category == KernelCategory::kConvolution ? k.math
                                                                                           : MathUnit::kNotApplicable;
}

// Kernel time by category and idle time by cause over `window`, counting kernels exactly as
// ClassifyIdleGaps does (those starting inside the window, clipped to its end), so that the categories
// add up to the busy time plus the overlap, and busy plus idle to the window.
GpuBreakdown Breakdown(const AnalysisInput& input, model::DeviceRow device, base::Interval window, uint64_t units) {
  const IdleBreakdown idle = ClassifyIdleGaps(input, device, window);
  GpuBreakdown breakdown;
  breakdown.window = idle.window;
  breakdown.units = units;
  breakdown.busy_ns = idle.busy;
  breakdown.idle = idle.idle;
  const model::KernelTable& kernels = input.model.kernels();
  std::map<std::pair<KernelCategory, MathUnit>, GpuBreakdown::Category> by_key;
  for (model::KernelRow kernel : input.model.device(device).kernels) {
    const base::TimeNs start = kernels.start[kernel];
    if (start < window.start || start >= window.end) continue;
    const DurationNs duration = std::min(kernels.end[kernel], window.end) - start;
    const KernelClass& k = input.ClassOf(kernel);
    GpuBreakdown::Category& entry = by_key[{k.category, KeyMath(k)}];
    entry.category = k.category;
    entry.math = KeyMath(k);
    entry.total_ns = base::SaturatingAdd(entry.total_ns, duration);
    ++entry.kernels;
    ++breakdown.kernels;
    breakdown.kernel_ns = base::SaturatingAdd(breakdown.kernel_ns, duration);
  }
  for (const auto& [key, entry] : by_key) breakdown.categories.push_back(entry);
  return breakdown;
}


DurationNs PerUnit(DurationNs total, uint64_t units) {
  if (units == 0) return 0;
  return static_cast<DurationNs>(std::llround(static_cast<double>(total) / static_cast<double>(units)));
}

ComparedRun Describe(const RunProfile& run, const GpuBreakdown& breakdown, CompareBasis basis) {
  ComparedRun described;
  described.device = run.device;
  if (basis == CompareBasis::kMedianStep) {
    described.steps = run.steps - run.warmup_steps;
    described.warmup_steps = run.warmup_steps;
    described.step_source = run.step_source;
    described.time_ns = run.median_step_ns;
    described.range_step_ns = run.range_median_step_ns;
  } else {
    described.time_ns = breakdown.window.duration();
  }
  described.gpu_time_ns = PerUnit(breakdown.window.duration(), breakdown.units);
  if (breakdown.window.duration() > 0) {
    described.busy_fraction =
        static_cast<double>(breakdown.busy_ns) / static_cast<double>(breakdown.window.duration());
  }
  if (breakdown.units > 0) {
    described.kernels_per_unit = static_cast<double>(breakdown.kernels) / static_cast<double>(breakdown.units);
  }
  described.reduced_precision = run.reduced_matrix_kernels > 0;
  described.peak_allocated_bytes = run.peak_allocated_bytes;
  return described;
}

std::vector<ComparisonRow> Rows(const GpuBreakdown& baseline, const GpuBreakdown& candidate) {
  // Kernel categories present in either run, in a stable order.
  std::map<std::pair<KernelCategory, MathUnit>, std::pair<DurationNs, DurationNs>> categories;
  for (const GpuBreakdown::Category& entry : baseline.categories) {
    categories[{entry.category, entry.math}].first = entry.total_ns;
  }
  for (const GpuBreakdown::Category& entry : candidate.categories) {
    categories[{entry.category, entry.math}].second = entry.total_ns;
  }
  std::vector<ComparisonRow> rows;
  const DurationNs candidate_step = PerUnit(candidate.window.duration(), candidate.units);
  auto add = [&](std::string label, DurationNs baseline_total, DurationNs candidate_total, std::string_view finding) {
    ComparisonRow row;
    row.label = std::move(label);
    row.baseline_ns = PerUnit(baseline_total, baseline.units);
    row.candidate_ns = PerUnit(candidate_total, candidate.units);
    if (row.baseline_ns == 0 && row.candidate_ns == 0) return;
    if (row.change_ns() > 0 &&
        static_cast<double>(row.change_ns()) >= kMinExplainedShare * static_cast<double>(candidate_step)) {
      row.explained_by = std::string(finding);
    }
    rows.push_back(std::move(row));
  };
  for (const auto& [key, totals] : categories) {
    KernelClass k;
    k.category = key.first;
    k.math = key.second;
    add(CategoryLabel(k), totals.first, totals.second, FindingForCategory(key.first, key.second));
  }
  for (size_t c = 0; c < kGapCauses; ++c) {
    const auto cause = static_cast<GapCause>(c);
    add(std::string(IdleRowLabel(cause)), baseline.idle[cause], candidate.idle[cause],
        FindingForIdle(cause));
  }
  // Concurrent kernels are each summed above but run in the same time: taking the overlap back makes
  // the rows add up to the GPU time per step.
  add("overlap of concurrent kernels", -(baseline.kernel_ns - baseline.busy_ns),
      -(candidate.kernel_ns - candidate.busy_ns), "");
  std::stable_sort(rows.begin(), rows.end(), [](const ComparisonRow& a, const ComparisonRow& b) {
    return std::abs(a.change_ns()) > std::abs(b.change_ns());
  });
  return rows;
}

std::string Signed(DurationNs change) {
  return change > 0 ? "+" + FormatDuration(change) : FormatDuration(change);
}

std::string RowText(const ComparisonRow& row) {
  std::string text = fmt::format("{} {}", row.label, Signed(row.change_ns()));
  if (!row.explained_by.empty()) text += fmt::format(" ({})", row.explained_by);
  return text;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string joined;
  for (const std::string& part : parts) joined += (joined.empty() ? "" : "; ") + part;
  return joined;
}

void AddNotes(const RunProfile& baseline, const RunProfile& candidate, Comparison& comparison) {
  std::vector<std::string>& notes = comparison.notes;
  // Is the candidate a mixed-precision run at all? The most useful answer when AMP "did nothing".
  if (candidate.matrix_ns == 0 && candidate.reduced_kernels > 0) {
    notes.push_back(
        "the AMP trace has no GEMM, convolution or attention kernels: there is nothing for Tensor Cores to speed up");
  } else if (candidate.reduced_kernels == 0) {
    notes.push_back("the AMP run shows no FP16/BF16 kernels: autocast is not active, so this is not a "
                    "mixed-precision run");
  } else if (candidate.reduced_matrix_kernels == 0) {
    notes.push_back("the AMP run has FP16/BF16 kernels, but none of its GEMMs, convolutions or attention "
                    "kernels run in FP16/BF16: autocast does not cover them");
  }
  // Is the baseline an FP32 run?
  if (baseline.reduced_matrix_kernels > 0) {
    const double share = baseline.matrix_ns > 0 ? static_cast<double>(baseline.reduced_matrix_ns) /
                                                      static_cast<double>(baseline.matrix_ns)
                                                : 0.0;
    std::string note = fmt::format(
        "the FP32 trace runs {} GEMM/convolution/attention kernels in FP16/BF16 ({} of that time): it is not an "
        "FP32 baseline",
        base::FormatCount(static_cast<int64_t>(baseline.reduced_matrix_kernels)), FormatPercent(share));
    if (candidate.reduced_matrix_kernels == 0) {
      note += " (were the traces given the wrong way round? --baseline takes the FP32 trace)";
    }
    notes.push_back(std::move(note));
  }
  // Same GPU model?
  if (!baseline.device.empty() && !candidate.device.empty()) {
    if (baseline.device != candidate.device) {
      notes.push_back(fmt::format("different GPUs: FP32 on {}, AMP on {}: the speed-up mixes hardware with precision",
                                  baseline.device, candidate.device));
    }
  } else if (baseline.device.empty() && candidate.device.empty()) {
    notes.push_back("neither trace names its GPU: could not check that both ran on the same model");
  } else {
    notes.push_back(fmt::format("the {} trace does not name its GPU: could not check that both ran on the same model",
                                baseline.device.empty() ? "FP32" : "AMP"));
  }
  if (comparison.basis == CompareBasis::kWholeRun) {
    const char* which = baseline.per_step ? "the AMP trace marks" : candidate.per_step ? "the FP32 trace marks"
                                                                                       : "neither trace marks";
    notes.push_back(fmt::format("{} no training steps: compared each run's whole GPU span, which is fair only when "
                                "both ran the same number of iterations (weaker than a per-step comparison)",
                                which));
  }
  for (const auto& [run, name] : {std::pair{&baseline, "FP32"}, std::pair{&candidate, "AMP"}}) {
    if (comparison.basis == CompareBasis::kMedianStep && run->range_median_step_ns > 0 &&
        static_cast<double>(run->range_median_step_ns) < kRangesBehindGpu * static_cast<double>(run->median_step_ns)) {
      notes.push_back(fmt::format("the {} trace's step ranges take {} (median) but its GPU needs {} per step: the "
                                  "host queues work ahead of the GPU, so steps are timed on the GPU",
                                  name, FormatDuration(run->range_median_step_ns), FormatDuration(run->median_step_ns)));
    }
    if (run->devices_with_kernels > 1) {
      notes.push_back(fmt::format("the {} trace has kernels on {} GPUs: compared GPU {}, the busiest", name,
                                  run->devices_with_kernels, run->device_id));
    }
  }
}

std::string StepsText(const ComparedRun& run) {
  std::string text = fmt::format("{} steps from {}", run.steps, run.step_source);
  if (run.warmup_steps > 0) text += fmt::format(" ({} warm-up left out)", run.warmup_steps);
  return text;
}

Finding SlowerFinding(const RunProfile& candidate_profile, const Comparison& comparison) {
  const ComparedRun& baseline = comparison.baseline;
  const ComparedRun& candidate = comparison.candidate;
  const bool per_step = comparison.basis == CompareBasis::kMedianStep;
  const std::string times = fmt::format("{} {} in FP32, {} with AMP: {:.2f}x", per_step ? "median step" : "GPU span",
                                        FormatDuration(baseline.time_ns), FormatDuration(candidate.time_ns),
                                        comparison.speedup);
  std::vector<std::string> costs;
  std::vector<std::string> savings;
  for (const ComparisonRow& row : comparison.rows) {
    if (row.change_ns() > 0 && costs.size() < kRowsInEvidence) costs.push_back(RowText(row));
    if (row.change_ns() < 0 && savings.size() < kRowsInEvidence) savings.push_back(RowText(row));
  }
  const char* unit = per_step ? " per step" : "";

  Finding finding;
  finding.id = "amp.slower_than_fp32";
  finding.severity = FindFinding(finding.id)->default_severity;
  if (candidate_profile.reduced_kernels == 0) {
    finding.verdict = fmt::format("The AMP run shows no FP16/BF16 kernels: autocast is not active ({})", times);
  } else if (candidate_profile.matrix_ns > 0 && candidate_profile.reduced_matrix_kernels == 0) {
    finding.verdict =
        fmt::format("The AMP run's GEMMs and convolutions are not in FP16/BF16: autocast does not cover them ({})", times);
  } else {
    finding.verdict = comparison.speedup < 1.0
                          ? fmt::format("The mixed-precision run is slower than FP32: {}", times)
                          : fmt::format("Mixed precision brought no measurable speed-up: {} (below {:.2f}x)", times,
                                        kMinUsefulSpeedup);
    // The headline cost is what a finding explains (the FP16 GEMMs that replace FP32 ones are not a cost
    // to fix), else the largest increase.
    const auto explained = std::find_if(comparison.rows.begin(), comparison.rows.end(), [](const ComparisonRow& row) {
      return row.change_ns() > 0 && !row.explained_by.empty();
    });
    if (explained != comparison.rows.end()) {
      finding.verdict += fmt::format("; most of the cost: {}{}", RowText(*explained), unit);
    } else if (!costs.empty()) {
      finding.verdict += fmt::format("; most of the cost: {}{}", costs.front(), unit);
    }
  }
  finding.evidence.push_back(
      {"compared", per_step ? fmt::format("median step after warm-up, timed on the GPU; FP32 {}, AMP {}",
                                          StepsText(baseline), StepsText(candidate))
                            : "each run's whole GPU span (not both traces mark training steps)"});
  finding.evidence.push_back(
      {per_step ? "step time" : "GPU span",
       fmt::format("FP32 {}, AMP {}: speed-up {:.2f}x (mixed precision counts as faster from {:.2f}x)",
                   FormatDuration(baseline.time_ns), FormatDuration(candidate.time_ns), comparison.speedup,
                   kMinUsefulSpeedup)});
  finding.evidence.push_back(
      {fmt::format("GPU time{}", unit),
       fmt::format("FP32 {} ({} busy, {:.0f} kernels), AMP {} ({} busy, {:.0f} kernels)",
                   FormatDuration(baseline.gpu_time_ns), FormatPercent(baseline.busy_fraction),
                   baseline.kernels_per_unit, FormatDuration(candidate.gpu_time_ns),
                   FormatPercent(candidate.busy_fraction), candidate.kernels_per_unit)});
  if (!costs.empty()) finding.evidence.push_back({fmt::format("costs more with AMP{}", unit), Join(costs)});
  if (!savings.empty()) finding.evidence.push_back({fmt::format("saves with AMP{}", unit), Join(savings)});
  for (const std::string& note : comparison.notes) finding.evidence.push_back({"note", note});
  const DurationNs lost = std::max<DurationNs>(0, candidate.time_ns - baseline.time_ns);
  finding.time_ns = per_step ? lost * static_cast<DurationNs>(std::max<size_t>(candidate.steps, 1)) : lost;
  return finding;
}

}  // namespace

std::string_view IdleRowLabel(GapCause cause) {
  switch (cause) {
    case GapCause::kHostLaunch: return "idle: waiting for kernel launches";
    case GapCause::kHostSync: return "idle: refilling after host syncs";
    case GapCause::kHostOther: return "idle: host busy elsewhere (>= 1 ms)";
    case GapCause::kQueued: return "idle: queued work waiting";
    case GapCause::kUnattributed: return "idle: launch call not recorded";
  }
  return "idle: unknown";
}

std::string_view FindingForCategory(KernelCategory category, MathUnit math) {
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
    default: return "";
  }
}

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
  const std::optional<model::DeviceRow> device = BusiestDevice(model);
  if (!device) return profile;
  const model::Device& busiest = model.device(*device);
  if (busiest.has_properties) profile.device = std::string(model.Text(busiest.name));
  profile.device_id = busiest.device_id;
  profile.compute_major = busiest.compute_major;
  profile.compute_minor = busiest.compute_minor;
  profile.whole = Breakdown(input, *device, {0, base::kMaxTraceTime}, 1);
  profile.peak_allocated_bytes = model::PeakDeviceAllocated(model, *device);

  const std::optional<Steps>& steps = input.steps();
  if (!steps || steps->measured().empty()) return profile;
  profile.steps = steps->intervals.size();
  profile.warmup_steps = steps->warmup;
  profile.step_source = std::string(StepSourceName(steps->source));
  // Where each step's kernels start and end on the busiest GPU: kernels launched in the step for
  // host-time steps, kernels run in it for GPU-time steps.
  const size_t count = steps->intervals.size();
  std::vector<base::TimeNs> first(count, base::kMaxTraceTime);
  std::vector<base::TimeNs> last(count, 0);
  for (model::KernelRow kernel : busiest.kernels) {
    const int step = steps->StepOf(input, kernel);
    if (step < 0) continue;
    first[static_cast<size_t>(step)] = std::min(first[static_cast<size_t>(step)], kernels.start[kernel]);
    last[static_cast<size_t>(step)] = std::max(last[static_cast<size_t>(step)], kernels.end[kernel]);
  }
  std::optional<base::Interval> window;  // the measured steps' GPU time
  for (size_t i = steps->warmup; i < count; ++i) {
    if (first[i] > last[i]) continue;  // no kernel on this GPU
    if (!window) window = base::Interval{first[i], last[i]};
    window->start = std::min(window->start, first[i]);
    window->end = std::max(window->end, last[i]);
  }
  if (!window) return profile;
  profile.per_step = Breakdown(input, *device, *window, steps->measured().size());
  if (!steps->host_time) {
    profile.median_step_ns = steps->MedianDuration();
    return profile;
  }
  // Host-time steps say how fast the host issued each step; that is the step time only when the host
  // waits for the GPU every step. A GPU-bound loop without a per-step sync queues work ahead and its
  // ranges shrink to the launch time. So steps are timed on the GPU: from one step's first kernel to the
  // next step's first kernel, which is the host's pace when the host is slower and the GPU's otherwise.
  profile.range_median_step_ns = steps->MedianDuration();
  Steps periods;
  for (size_t i = steps->warmup; i + 1 < count; ++i) {
    if (first[i] <= last[i] && first[i + 1] <= last[i + 1]) periods.intervals.push_back({first[i], first[i + 1]});
  }
  if (periods.intervals.empty()) periods.intervals.push_back(*window);  // a single measured step
  profile.median_step_ns = periods.MedianDuration();
  return profile;
}

ComparisonResult Compare(const RunProfile& baseline, const RunProfile& candidate) {
  ComparisonResult result;
  Comparison& comparison = result.comparison;
  comparison.basis = baseline.per_step && candidate.per_step ? CompareBasis::kMedianStep : CompareBasis::kWholeRun;
  const bool per_step = comparison.basis == CompareBasis::kMedianStep;
  const std::optional<GpuBreakdown>& baseline_gpu = per_step ? baseline.per_step : baseline.whole;
  const std::optional<GpuBreakdown>& candidate_gpu = per_step ? candidate.per_step : candidate.whole;
  if (!baseline_gpu || !candidate_gpu) {
    comparison.notes.push_back(fmt::format("the {} trace has no GPU kernels: there is nothing to compare",
                                           !baseline_gpu && !candidate_gpu ? "FP32 and the AMP"
                                           : !baseline_gpu                 ? "FP32"
                                                                           : "AMP"));
    return result;
  }
  comparison.baseline = Describe(baseline, *baseline_gpu, comparison.basis);
  comparison.candidate = Describe(candidate, *candidate_gpu, comparison.basis);
  if (comparison.candidate.time_ns > 0) {
    comparison.speedup =
        static_cast<double>(comparison.baseline.time_ns) / static_cast<double>(comparison.candidate.time_ns);
  }
  comparison.rows = Rows(*baseline_gpu, *candidate_gpu);
  AddNotes(baseline, candidate, comparison);
  if (comparison.speedup > 0.0 && comparison.speedup < kMinUsefulSpeedup) {
    result.finding = SlowerFinding(candidate, comparison);
  }
  return result;
}

}  // namespace ampprof::analyzers
