#include "analyzers/report/summary.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/facts/idle_gaps.h"
#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/facts/steps.h"

#include "src/model/queries.h"

namespace ampprof::analyzers {
namespace {

using model::KernelRow;
using model::TraceModel;

std::string DescribeWorkload(const TraceModel& model) {
  if (const std::string_view workload = model.Metadata("workload"); !workload.empty()) {
    return std::string(workload);
  }
  for (const model::Process& process : model.processes()) {
    if (process.command != base::kEmptyStringId) return std::string(model.Text(process.command));
  }
  return "";
}

// The collector's metadata (collectors/cupti/collector.cc) turned into one sentence.
std::string DescribeCollectorRecording(const TraceModel& model) {
  std::vector<std::string> notes;
  if (const std::string_view mode = model.Metadata("collector_mode"); mode.starts_with("off: ")) {
    notes.push_back(fmt::format("the collector recorded nothing: {}", mode.substr(5)));
  }
  if (model.Metadata("capture_window") == "never opened") {
    notes.push_back(model.Metadata("capture_range") == "cudaProfilerApi"
                        ? "the capture window never opened: the program never called cudaProfilerStart"
                        : "the capture window never opened: the run ended before the --delay did");
  }
  if (const std::string_view ignored = model.Metadata("capture_ignored_starts"); !ignored.empty()) {
    notes.push_back(fmt::format("{} cudaProfilerStart call(s) after the first window were not recorded", ignored));
  }
  if (const std::string_view refused = model.Metadata("collector_not_recorded"); !refused.empty()) {
    notes.push_back(fmt::format("CUPTI refused to record {}", refused));
  }
  return fmt::format("{}", fmt::join(notes, "; "));
}

std::string_view BasisName(AccountBasis basis) {
  switch (basis) {
    case AccountBasis::kMeasuredSteps: return "measured steps";
    case AccountBasis::kWholeRun: return "whole run";
    case AccountBasis::kAllWarmup: return "all warm-up";
  }
  return "unknown";
}

AccountSummary SummarizeAccount(const StepAccount& account, const DeviceAccount& gpu) {
  AccountSummary summary;
  summary.basis = std::string(BasisName(account.basis));
  summary.steps = gpu.steps();
  summary.window = gpu.window();
  summary.median_step_ns = gpu.MedianStepNs();
  summary.p90_step_ns = gpu.P90StepNs();
  const AccountTotals& total = gpu.total;
  summary.busy_ns = total.busy_ns();
  summary.busy_fraction = gpu.Share(total.busy_ns());
  summary.compute_ns = total.compute_ns;
  summary.exposed_communication_ns = total.exposed_communication_ns;
  summary.overlapped_communication_ns = total.overlapped_communication_ns;
  summary.copy_ns = total.copy_ns;
  summary.idle = total.idle;
  summary.gaps = gpu.gaps;
  auto row = [&](std::string key, std::string label, base::DurationNs ns, uint64_t kernels) {
    if (ns > 0) summary.rows.push_back({std::move(key), std::move(label), ns, gpu.PerStep(ns), gpu.Share(ns), kernels});
  };
  for (const ComputeTime& bucket : gpu.compute) row("compute", ComputeLabel(bucket.key), bucket.charged_ns, bucket.kernels);
  row("exposed_communication", "exposed communication", total.exposed_communication_ns, 0);
  row("copies", "copies and memsets only", total.copy_ns, 0);
  for (GapCause cause : kAllGapCauses) {
    row("idle:" + std::string(GapCauseKey(cause)), "idle: " + std::string(GapCauseName(cause)), total.idle[cause], 0);
  }
  summary.communication = gpu.communication;
  return summary;
}

DeviceSummary SummarizeDevice(const AnalysisInput& input, model::DeviceRow row) {
  const TraceModel& model = input.model;
  const model::Device& device = model.device(row);
  DeviceSummary summary;
  summary.pid = device.pid;
  summary.device_id = device.device_id;
  if (device.has_properties) summary.name = std::string(model.Text(device.name));
  summary.compute_major = device.compute_major;
  summary.compute_minor = device.compute_minor;
  summary.sm_count = device.sm_count;
  summary.global_memory_bytes = device.global_memory_bytes;
  summary.kernels = device.kernels.size();
  for (const model::Stream& stream : model.streams()) {
    if (stream.device == row && !stream.kernels.empty()) ++summary.streams_with_kernels;
  }
  if (const DeviceMemory* memory = input.MemoryOf(row)) {
    summary.memory_source = memory->source == records::MemorySource::kFrameworkAllocator ? "allocator" : "driver";
    if (memory->allocated) {
      summary.peak_allocated_bytes = memory->allocated->bytes;
      summary.peak_allocated_step = memory->allocated->step;
    }
    if (memory->reserved) {
      summary.peak_reserved_bytes = memory->reserved->bytes;
      summary.peak_reserved_step = memory->reserved->step;
    }
  }
  if (device.kernels.empty()) return summary;
  const model::KernelTable& kernels = model.kernels();
  base::TimeNs last_end = kernels.end[KernelRow(device.kernels.begin_value)];
  for (KernelRow kernel : device.kernels) last_end = std::max(last_end, kernels.end[kernel]);
  summary.span = base::Interval{kernels.start[KernelRow(device.kernels.begin_value)], last_end};
  if (const DeviceAccount* gpu = input.account().Of(row)) summary.account = SummarizeAccount(input.account(), *gpu);
  return summary;
}

std::string DescribeKernel(const KernelClass& k) {
  std::string kind(KernelCategoryName(k.category));
  if (k.math != MathUnit::kNotApplicable) kind += fmt::format(", {}", MathUnitName(k.math));
  if (k.dtype != DataType::kUnknown) kind += fmt::format(", {}", DataTypeName(k.dtype));
  if (k.library != KernelLibrary::kUnknown) kind += fmt::format(", {}", KernelLibraryName(k.library));
  if (k.category == KernelCategory::kUnknown) kind += fmt::format("; {}", kUnknownKernelHint);
  return kind;
}

std::vector<KernelTimeSummary> TopKernelsByTime(const AnalysisInput& input, base::DurationNs kernel_time_ns) {
  const TraceModel& model = input.model;
  // Group by name (not signature): launches of one kernel with different grids are the same kernel.
  struct Name {
    base::StringId name;
    KernelRow sample;  // one of its kernels, for its class
    uint64_t count = 0;
    base::DurationNs total_ns = 0;
  };
  std::vector<Name> by_name;
  std::vector<int64_t> slot_of_name(model.strings().size(), -1);
  const model::KernelTable& kernels = model.kernels();
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    const KernelRow row(i);
    const base::StringId name = model.signature(kernels.signature[row]).name;
    int64_t& slot = slot_of_name[name.value];
    if (slot < 0) {
      slot = static_cast<int64_t>(by_name.size());
      by_name.push_back({name, row});
    }
    Name& entry = by_name[static_cast<size_t>(slot)];
    ++entry.count;
    entry.total_ns = base::SaturatingAdd(entry.total_ns, kernels.duration(row));
  }
  const size_t keep = std::min(kTopKernels, by_name.size());
  std::partial_sort(by_name.begin(), by_name.begin() + static_cast<ptrdiff_t>(keep), by_name.end(),
                    [&](const Name& a, const Name& b) {
                      return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : model.Text(a.name) < model.Text(b.name);
                    });
  std::vector<KernelTimeSummary> top;
  for (size_t i = 0; i < keep; ++i) {
    const Name& entry = by_name[i];
    top.push_back({std::string(model.Text(entry.name)), DescribeKernel(input.ClassOf(entry.sample)), entry.count,
                   entry.total_ns, base::ShareOf(entry.total_ns, kernel_time_ns)});
  }
  return top;
}

std::vector<StepTime> FirstStepTimes(const DeviceAccount& gpu) {
  std::vector<StepTime> times;
  for (const base::Interval& period : gpu.warmup_periods) {
    if (times.size() == kMaxStepTimes) return times;
    times.push_back({static_cast<uint32_t>(times.size()), period, true});
  }
  for (const base::Interval& period : gpu.periods) {
    if (times.size() == kMaxStepTimes) return times;
    times.push_back({static_cast<uint32_t>(times.size()), period, false});
  }
  return times;
}

}  // namespace

std::string CategoryLabel(const KernelClass& k) {
  const std::string category(KernelCategoryName(k.category));
  if (k.category != KernelCategory::kGemm && k.category != KernelCategory::kConvolution) return category;
  switch (k.math) {
    case MathUnit::kTensorCore: return category + " on Tensor Cores";
    case MathUnit::kTensorCoreTf32: return category + " on Tensor Cores (TF32)";
    case MathUnit::kCudaCore: return category + " on CUDA cores";
    case MathUnit::kNotApplicable: return category + " helpers";
    case MathUnit::kUnknown: return category + " (unit unknown)";
  }
  return category;
}

std::string ComputeLabel(const ComputeKey& key) {
  KernelClass k;
  k.category = key.category;
  k.math = key.math;
  std::string label = CategoryLabel(k);
  if (key.dtype != DataType::kUnknown) label += ", " + std::string(DataTypeName(key.dtype));
  return label;
}

TraceSummary Summarize(const AnalysisInput& input) {
  const TraceModel& model = input.model;
  TraceSummary summary;
  summary.workload = DescribeWorkload(model);
  summary.run_kind = input.run_kind().kind;
  summary.run_kind_evidence = input.run_kind().evidence;
  summary.collector_note = DescribeCollectorRecording(model);
  summary.processes = static_cast<uint32_t>(model.processes().size());
  summary.threads = static_cast<uint32_t>(model.threads().size());
  summary.kernels = model.kernels().size();
  summary.api_calls = model.api_calls().size();
  summary.memcpys = model.memcpys().size();
  summary.memsets = model.memsets().size();
  summary.syncs = model.syncs().size();
  summary.ranges = model.ranges().size();
  summary.marks = model.marks().size();
  summary.memory_events = model.memory().size();
  summary.gpu_span = model.GpuSpan();
  for (uint32_t i = 0; i < model.api_calls().size(); ++i) {
    if (model.Text(model.api_calls().name[model::ApiCallRow(i)]).find("Synchronize") != std::string_view::npos) {
      ++summary.synchronize_calls;
    }
  }
  const model::MemcpyTable& copies = model.memcpys();
  for (uint32_t i = 0; i < copies.size(); ++i) {
    const model::MemcpyRow copy(i);
    if (copies.src_kind[copy] == records::MemoryKind::kPageable || copies.dst_kind[copy] == records::MemoryKind::kPageable) {
      ++summary.pageable_copies;
      summary.pageable_copy_bytes += copies.bytes[copy];
    }
  }
  const StepAccount& account = input.account();
  summary.account_basis = std::string(BasisName(account.basis));
  const DeviceAccount* primary = account.Primary();
  if (const std::optional<Steps>& steps = input.steps()) {
    summary.steps = static_cast<uint32_t>(steps->intervals.size());
    summary.warmup_steps = static_cast<uint32_t>(steps->warmup);
    summary.step_source = std::string(StepSourceName(steps->source));
    if (primary != nullptr && account.basis == AccountBasis::kMeasuredSteps) {
      summary.median_step_ns = primary->MedianStepNs();
      summary.p90_step_ns = primary->P90StepNs();
      summary.step_times = FirstStepTimes(*primary);
    }
  } else if (const std::vector<model::RangeRow> profiler_steps = model::StepRanges(model); !profiler_steps.empty()) {
    // One or two ProfilerStep ranges are no loop (the whole trace is analysed), but they are what the
    // user asked the profiler for: counted, not timed.
    summary.steps = static_cast<uint32_t>(profiler_steps.size());
    summary.step_source = std::string(StepSourceName(StepSource::kProfilerStep));
  }
  for (uint32_t i = 0; i < model.kernels().size(); ++i) {
    summary.kernel_time_ns = base::SaturatingAdd(summary.kernel_time_ns, model.kernels().duration(KernelRow(i)));
  }
  for (const model::Process& process : model.processes()) {
    summary.process_list.push_back({process.pid,
                                    process.command == base::kEmptyStringId
                                        ? std::string()
                                        : std::string(model.Text(process.command)),
                                    process.rank, process.world_size});
  }
  for (uint32_t i = 0; i < model.devices().size(); ++i) {
    summary.devices.push_back(SummarizeDevice(input, model::DeviceRow(i)));
    if (primary != nullptr && primary->device == model::DeviceRow(i)) summary.primary_device = i;
  }
  summary.top_kernels = TopKernelsByTime(input, summary.kernel_time_ns);
  return summary;
}

}  // namespace ampprof::analyzers
