#include "analyzers/summary.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyzers/analyzer.h"
#include "analyzers/idle_gaps.h"
#include "analyzers/kernel_classifier.h"
#include "analyzers/steps.h"

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
  if (device.kernels.empty()) return summary;
  const model::KernelTable& kernels = model.kernels();
  base::TimeNs last_end = kernels.end[KernelRow(device.kernels.begin_value)];
  for (KernelRow kernel : device.kernels) last_end = std::max(last_end, kernels.end[kernel]);
  summary.span = base::Interval{kernels.start[KernelRow(device.kernels.begin_value)], last_end};
  summary.busy_ns = model::BusyTime(model, row, model::GpuWork::kKernels);
  if (summary.span->duration() > 0) {
    summary.busy_fraction =
        static_cast<double>(summary.busy_ns) / static_cast<double>(summary.span->duration());
  }
  summary.idle_by_cause = ClassifyIdleGaps(input, row, *summary.span).idle;
  summary.peak_allocated_bytes = model::PeakDeviceAllocated(model, row);
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

std::vector<CategoryTimeSummary> TimeByCategory(const TraceModel& model, base::DurationNs kernel_time_ns) {
  std::vector<int64_t> slot_of_name(model.strings().size(), -1);
  std::vector<std::string> label_of_slot;
  std::map<std::string, CategoryTimeSummary> by_label;
  const model::KernelTable& kernels = model.kernels();
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    const KernelRow row(i);
    const base::StringId name = model.signature(kernels.signature[row]).name;
    int64_t& slot = slot_of_name[name.value];
    if (slot < 0) {  // classify each distinct name once
      slot = static_cast<int64_t>(label_of_slot.size());
      label_of_slot.push_back(CategoryLabel(ClassifyKernel(model.Text(name))));
    }
    CategoryTimeSummary& entry = by_label[label_of_slot[static_cast<size_t>(slot)]];
    ++entry.kernels;
    entry.total_ns = base::SaturatingAdd(entry.total_ns, kernels.duration(row));
  }
  std::vector<CategoryTimeSummary> categories;
  for (auto& [label, entry] : by_label) {
    entry.category = label;
    if (kernel_time_ns > 0) {
      entry.share_of_kernel_time = static_cast<double>(entry.total_ns) / static_cast<double>(kernel_time_ns);
    }
    categories.push_back(entry);
  }
  std::sort(categories.begin(), categories.end(), [](const CategoryTimeSummary& a, const CategoryTimeSummary& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.category < b.category;
  });
  return categories;
}

std::vector<KernelTimeSummary> TopKernelsByTime(const TraceModel& model,
                                                base::DurationNs kernel_time_ns) {
  // Group by name (not signature): launches of one kernel with different grids are the same kernel.
  std::vector<KernelTimeSummary> by_name;
  std::vector<int64_t> slot_of_name(model.strings().size(), -1);
  const model::KernelTable& kernels = model.kernels();
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    const KernelRow row(i);
    const base::StringId name = model.signature(kernels.signature[row]).name;
    int64_t& slot = slot_of_name[name.value];
    if (slot < 0) {
      slot = static_cast<int64_t>(by_name.size());
      by_name.push_back({std::string(model.Text(name)), "", 0, 0, 0.0});
    }
    KernelTimeSummary& entry = by_name[static_cast<size_t>(slot)];
    ++entry.count;
    entry.total_ns = base::SaturatingAdd(entry.total_ns, kernels.duration(row));
  }
  const size_t keep = std::min(kTopKernels, by_name.size());
  std::partial_sort(by_name.begin(), by_name.begin() + static_cast<ptrdiff_t>(keep), by_name.end(),
                    [](const KernelTimeSummary& a, const KernelTimeSummary& b) {
                      return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
                    });
  by_name.resize(keep);
  for (KernelTimeSummary& entry : by_name) {
    entry.kind = DescribeKernel(ClassifyKernel(entry.name));
    if (kernel_time_ns > 0) {
      entry.share_of_kernel_time =
          static_cast<double>(entry.total_ns) / static_cast<double>(kernel_time_ns);
    }
  }
  return by_name;
}

std::vector<StepTime> FirstStepTimes(const Steps& steps) {
  std::vector<StepTime> times;
  const size_t count = std::min(steps.intervals.size(), kMaxStepTimes);
  for (size_t i = 0; i < count; ++i) {
    times.push_back({static_cast<uint32_t>(i), steps.intervals[i], i < steps.warmup});
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

std::optional<model::DeviceRow> BusiestDevice(const TraceModel& model) {
  std::optional<model::DeviceRow> busiest;
  size_t most = 0;
  for (uint32_t i = 0; i < model.devices().size(); ++i) {
    if (model.devices()[i].kernels.size() > most) {
      most = model.devices()[i].kernels.size();
      busiest = model::DeviceRow(i);
    }
  }
  return busiest;
}

TraceSummary Summarize(const TraceModel& model) {
  TraceSummary summary;
  summary.workload = DescribeWorkload(model);
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
  const std::vector<KernelClass> classes = ClassifySignatures(model);
  const AnalysisInput input{model, classes};
  if (const std::optional<Steps>& steps = input.steps()) {
    summary.steps = static_cast<uint32_t>(steps->intervals.size());
    summary.warmup_steps = static_cast<uint32_t>(steps->warmup);
    summary.step_source = std::string(StepSourceName(steps->source));
    summary.median_step_ns = steps->MedianDuration();
    summary.p90_step_ns = steps->P90Duration();
    summary.step_times = FirstStepTimes(*steps);
  } else if (const std::vector<model::RangeRow> profiler_steps = model::StepRanges(model); !profiler_steps.empty()) {
    // One or two ProfilerStep ranges are no loop, but they are what the user asked the profiler for.
    Steps few;
    for (model::RangeRow step : profiler_steps) few.intervals.push_back({model.ranges().start[step], model.ranges().end[step]});
    summary.steps = static_cast<uint32_t>(few.intervals.size());
    summary.step_source = std::string(StepSourceName(StepSource::kProfilerStep));
    summary.median_step_ns = few.MedianDuration();
    summary.p90_step_ns = few.P90Duration();
    summary.step_times = FirstStepTimes(few);
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
  }
  summary.top_kernels = TopKernelsByTime(model, summary.kernel_time_ns);
  summary.categories = TimeByCategory(model, summary.kernel_time_ns);
  return summary;
}

}  // namespace ampprof::analyzers
