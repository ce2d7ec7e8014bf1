#include "reports/export/chrome_trace_exporter.h"

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "analyzers/findings/finding_catalog.h"
#include "analyzers/findings/finding_locations.h"
#include "reports/common/statement_text.h"
#include "reports/export/chrome_event_writer.h"
#include "reports/export/diagnosis_timeline.h"
#include "reports/export/json_text.h"

namespace ampprof::reports {
namespace {

using model::TraceModel;

// Flow ids must be unique in the file: kernels take [0, K), memcpys [K, K + C), memsets after them.
struct FlowIdBase {
  uint64_t kernels = 0;
  uint64_t memcpys = 0;
  uint64_t memsets = 0;
};

// The correlation id an export gives a launching API call and the work it launched: the call's row
// plus one (Kineto's ids start at 1), unique within the file, so that readers can pair them again.
int64_t CorrelationOf(model::ApiCallRow call) { return int64_t{call.value} + 1; }

std::string_view ApiEventCategory(records::ApiDomain domain) {
  switch (domain) {
    case records::ApiDomain::kRuntime:
      return "cuda_runtime";
    case records::ApiDomain::kDriver:
      return "cuda_driver";
    case records::ApiDomain::kOther:
      return "cuda_api";
  }
  return "cuda_api";
}

std::string_view RangeEventCategory(records::RangeCategory category) {
  switch (category) {
    case records::RangeCategory::kNvtx:
      return "nvtx";
    case records::RangeCategory::kCpuOp:
      return "cpu_op";
    case records::RangeCategory::kUserAnnotation:
      return "user_annotation";
  }
  return "nvtx";
}

// Kineto's names for memory kinds, as in "Memcpy HtoD (Pageable -> Device)".
std::string_view MemoryKindName(records::MemoryKind kind) {
  switch (kind) {
    case records::MemoryKind::kPageable:
      return "Pageable";
    case records::MemoryKind::kPinned:
      return "Pinned";
    case records::MemoryKind::kDevice:
      return "Device";
    case records::MemoryKind::kArray:
      return "Array";
    case records::MemoryKind::kManaged:
      return "Managed";
    case records::MemoryKind::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

class ChromeTraceExporter {
 public:
  ChromeTraceExporter(const ExportInput& input, std::ostream& out)
      : input_(input), model_(input.model), writer_(out), timeline_(PlanDiagnosis(input)) {
    flow_ids_.memcpys = model_.kernels().size();
    flow_ids_.memsets = flow_ids_.memcpys + model_.memcpys().size();
  }

  // Each part stops at the first failed write (a full disk, a closed pipe): the rest would only be
  // generated to be dropped, which for millions of events is most of the export's time.
  base::Status Run() {
    writer_.BeginDocument(TopLevelMembers());
    WriteTrackNames();
    WriteDiagnosis();
    WriteApiCalls();
    WriteRanges();
    WriteMarks();
    WriteKernels();
    WriteMemcpys();
    WriteMemsets();
    return writer_.EndDocument();
  }

 private:
  ChromeTrack HostTrack(model::ThreadRow thread) const {
    const model::Thread& t = model_.thread(thread);
    return {t.pid, t.tid};
  }
  ChromeTrack GpuTrack(model::StreamRow stream) const {
    const model::Stream& s = model_.stream(stream);
    return {kChromeFirstGpuPid + s.device.value, s.stream_id};
  }
  uint32_t DeviceId(model::StreamRow stream) const {
    return model_.device(model_.stream(stream).device).device_id;
  }

  // What a reader of PyTorch profiler traces expects beside traceEvents: the devices and the rank.
  std::string TopLevelMembers() const {
    fmt::memory_buffer members;
    auto out = std::back_inserter(members);
    fmt::format_to(
        out,
        "\"displayTimeUnit\":\"ns\",\n\"otherData\":{{\"generator\":\"ampprof export\",\"trace\":");
    AppendJsonString(members, input_.trace_path);
    fmt::format_to(out, ",\"source\":");
    AppendJsonString(members, model_.Metadata("source"));
    // Every key the trace carries (collector mode, CUPTI library, capture window, ...): what a reader
    // needs to judge the recording, which the timeline alone does not show.
    fmt::format_to(out, ",\"trace_metadata\":{{");
    bool first_key = true;
    for (const auto& [key, value] : model_.metadata()) {
      if (!first_key) members.push_back(',');
      AppendJsonString(members, key);
      members.push_back(':');
      AppendJsonString(members, value);
      first_key = false;
    }
    fmt::format_to(out, "}}}},\n\"deviceProperties\":[");
    bool first = true;
    for (const model::Device& device : model_.devices()) {
      if (!device.has_properties) continue;
      fmt::format_to(out, "{}{{\"id\":{},\"name\":", first ? "" : ",", device.device_id);
      AppendJsonString(members, model_.Text(device.name));
      fmt::format_to(
          out, ",\"totalGlobalMem\":{},\"computeMajor\":{},\"computeMinor\":{},\"numSms\":{}}}",
          device.global_memory_bytes, device.compute_major, device.compute_minor, device.sm_count);
      first = false;
    }
    members.push_back(']');
    for (const model::Process& process : model_.processes()) {
      if (process.rank < 0) continue;
      fmt::format_to(out, ",\n\"distributedInfo\":{{\"rank\":{},\"world_size\":{}}}", process.rank,
                     process.world_size);
      break;  // one trace file is one rank
    }
    return fmt::to_string(members);
  }

  void WriteTrackNames() {
    int64_t order = 0;
    for (const model::Process& process : model_.processes()) {
      std::string name(model_.Text(process.command));
      if (name.empty()) name = "process";
      name += fmt::format(" (pid {}", process.pid);
      if (process.rank >= 0) name += fmt::format(", rank {}", process.rank);
      name += ')';
      writer_.ProcessName(process.pid, name);
      writer_.ProcessSortIndex(process.pid, order++);
    }
    for (const model::Thread& thread : model_.threads()) {
      const std::string_view name = model_.Text(thread.name);
      writer_.ThreadName({thread.pid, thread.tid},
                         name.empty() ? fmt::format("thread {}", thread.tid) : std::string(name));
    }
    // A GPU or stream is listed only when something ran on it: Perfetto draws an empty track for
    // every name it is given, and a trace may list every device of the machine.
    std::vector<bool> device_used(model_.devices().size(), false);
    std::vector<bool> stream_used(model_.streams().size(), false);
    const auto mark_used = [&](model::StreamRow stream) {
      stream_used[stream.value] = true;
      device_used[model_.stream(stream).device.value] = true;
    };
    for (const model::StreamRow stream : model_.kernels().stream.values()) mark_used(stream);
    for (const model::StreamRow stream : model_.memcpys().stream.values()) mark_used(stream);
    for (const model::StreamRow stream : model_.memsets().stream.values()) mark_used(stream);
    for (size_t row = 0; row < model_.devices().size(); ++row) {
      if (!device_used[row]) continue;
      const model::Device& device = model_.devices()[row];
      const uint32_t pid = kChromeFirstGpuPid + static_cast<uint32_t>(row);
      std::string name = fmt::format("GPU {}", device.device_id);
      if (device.has_properties) name += fmt::format(": {}", model_.Text(device.name));
      if (model_.processes().size() > 1) name += fmt::format(" (used by pid {})", device.pid);
      writer_.ProcessName(pid, name);
      writer_.ProcessSortIndex(pid, order++);
    }
    for (size_t row = 0; row < model_.streams().size(); ++row) {
      if (!stream_used[row]) continue;
      const model::Stream& stream = model_.streams()[row];
      const ChromeTrack track{kChromeFirstGpuPid + stream.device.value, stream.stream_id};
      writer_.ThreadName(track, fmt::format("stream {}", stream.stream_id));
      writer_.ThreadSortIndex(track, stream.stream_id);
    }
  }

  // The steps and findings, on a process of their own listed first.
  void WriteDiagnosis() {
    if (timeline_.steps.empty() && input_.findings.empty()) return;
    writer_.ProcessName(kChromeDiagnosisPid, "ampprof diagnosis");
    writer_.ProcessSortIndex(kChromeDiagnosisPid, -1);
    if (!timeline_.steps.empty()) {
      const analyzers::Steps& steps = *input_.steps;
      const ChromeTrack track{kChromeDiagnosisPid, kChromeStepsTid};
      writer_.ThreadName(
          track, fmt::format("training steps ({})", analyzers::StepSourceName(steps.source)));
      writer_.ThreadSortIndex(track, 0);
      for (const StepRange& step : timeline_.steps) {
        writer_.Complete(StepLabel(step), "ampprof", track, step.interval, [&](ChromeArgs& args) {
          args.String("found from", analyzers::StepSourceName(steps.source));
          args.String("marked by", steps.label);
          args.String("timed on",
                      steps.host_time ? "the host (range time)" : "the GPU (kernel time)");
          args.Bool("warm-up", step.warmup);
          args.String("duration", base::FormatDuration(step.interval.duration()));
        });
      }
    }
    // Finding i's track is tid kChromeFirstFindingTid + i; the extra rows of findings whose
    // locations overlap take tids after all findings', sorted beside their finding's track.
    uint32_t next_extra_tid =
        kChromeFirstFindingTid + static_cast<uint32_t>(input_.findings.size());
    for (size_t i = 0; i < input_.findings.size(); ++i) {
      const analyzers::Finding& finding = input_.findings[i];
      const ChromeTrack track{kChromeDiagnosisPid,
                              kChromeFirstFindingTid + static_cast<uint32_t>(i)};
      const std::string track_name =
          fmt::format("{} {}", analyzers::SeverityName(finding.severity), finding.id);
      const int64_t sort_index = static_cast<int64_t>(i) + 1;
      writer_.ThreadName(track, track_name);
      writer_.ThreadSortIndex(track, sort_index);
      if (finding.locations.empty()) {
        WriteFindingOverWindow(finding, track);
        continue;
      }
      const auto lanes = LocationLanes(finding);
      for (size_t lane = 0; lane < lanes.size(); ++lane) {
        ChromeTrack lane_track = track;
        if (lane > 0) {
          lane_track.tid = next_extra_tid++;
          writer_.ThreadName(lane_track, fmt::format("{} (overlapping, {})", track_name, lane + 1));
          writer_.ThreadSortIndex(lane_track, sort_index);
        }
        for (const analyzers::Location* location : lanes[lane]) {
          WriteLocation(finding, *location, lane_track);
        }
      }
    }
  }

  // A finding about the run as a whole (no location): one range over the analysed window.
  void WriteFindingOverWindow(const analyzers::Finding& finding, ChromeTrack track) {
    const auto args_of = [&](ChromeArgs& args) {
      args.String("id", finding.id);
      args.String("severity", analyzers::SeverityName(finding.severity));
      args.String("verdict", RenderStatement(finding.verdict));
      std::vector<std::string> evidence;
      for (const analyzers::Evidence& item : finding.evidence)
        evidence.push_back(item.label + ": " + RenderStatement(item.value));
      args.Strings("evidence", evidence);
      if (!finding.examples.empty()) args.Strings("examples", finding.examples);
      if (!finding.saving.none()) args.String("saves", Saves(finding));
      args.String("drawn over", timeline_.window_description);
      args.String("how to fix it", fmt::format("ampprof explain {}", finding.id));
    };
    writer_.Complete(FindingLabel(finding), "ampprof", track, timeline_.window, args_of);
  }

  // One place a finding is about. The evidence stays off these slices (it is the same on each, and
  // the report has it); the verdict and the saving say what the place is an instance of.
  void WriteLocation(const analyzers::Finding& finding, const analyzers::Location& location,
                     ChromeTrack track) {
    const auto args_of = [&](ChromeArgs& args) {
      args.String("id", finding.id);
      args.String("severity", analyzers::SeverityName(finding.severity));
      args.String("verdict", RenderStatement(finding.verdict));
      if (!finding.saving.none()) args.String("saves", Saves(finding));
      args.String("location", analyzers::LocationKindKey(location.kind));
      if (location.device_id >= 0) args.Int("device", location.device_id);
      if (location.stream_id >= 0) args.Int("stream", location.stream_id);
      args.String("duration", base::FormatDuration(location.interval.duration()));
      const uint64_t places = finding.locations.size() + finding.locations_left_out;
      args.String("places drawn",
                  fmt::format("{} of {} (the longest)", finding.locations.size(), places));
      args.String("how to fix it", fmt::format("ampprof explain {}", finding.id));
    };
    writer_.Complete(LocationLabel(finding, location), "ampprof", track, location.interval,
                     args_of);
  }

  // The saving without its basis: "58.9% of the step, 14.8 ms per step".
  std::string Saves(const analyzers::Finding& finding) const {
    return DescribeSaving(finding.saving, input_.steps.has_value());
  }

  void WriteApiCalls() {
    const model::ApiCallTable& calls = model_.api_calls();
    for (uint32_t i = 0; i < calls.size() && !writer_.failed(); ++i) {
      const model::ApiCallRow row(i);
      writer_.Complete(model_.Text(calls.name[row]), ApiEventCategory(calls.domain[row]),
                       HostTrack(calls.thread[row]), {calls.start[row], calls.end[row]},
                       [&](ChromeArgs& args) { args.Int("correlation", CorrelationOf(row)); });
    }
  }

  void WriteRanges() {
    const model::RangeTable& ranges = model_.ranges();
    for (uint32_t i = 0; i < ranges.size() && !writer_.failed(); ++i) {
      const model::RangeRow row(i);
      const model::RangeLabel& label = model_.label(row);
      writer_.Complete(model_.Text(label.name), RangeEventCategory(label.category),
                       HostTrack(ranges.thread[row]), {ranges.start[row], ranges.end[row]},
                       [&](ChromeArgs& args) {
                         if (const std::string_view domain = model_.Text(label.domain);
                             !domain.empty()) {
                           args.String("domain", domain);
                         }
                         if (const std::string_view text = model_.Text(label.args); !text.empty()) {
                           args.String("args", text);
                         }
                       });
    }
  }

  void WriteMarks() {
    const model::MarkTable& marks = model_.marks();
    for (uint32_t i = 0; i < marks.size() && !writer_.failed(); ++i) {
      const model::MarkRow row(i);
      writer_.Instant(model_.Text(marks.name[row]), "nvtx", HostTrack(marks.thread[row]),
                      marks.timestamp[row], [&](ChromeArgs& args) {
                        if (const std::string_view domain = model_.Text(marks.domain[row]);
                            !domain.empty()) {
                          args.String("domain", domain);
                        }
                      });
    }
  }

  // The arrow from a launching call to the work it launched, when the trace links them.
  void LaunchFlow(uint64_t id, model::ApiCallRow launch, ChromeTrack work_track,
                  base::TimeNs work_start) {
    if (!launch.valid()) return;
    const model::ApiCallTable& calls = model_.api_calls();
    writer_.Flow(id, "launch", "ac2g", HostTrack(calls.thread[launch]), calls.start[launch],
                 work_track, work_start);
  }

  void WriteKernels() {
    const model::KernelTable& kernels = model_.kernels();
    for (uint32_t i = 0; i < kernels.size() && !writer_.failed(); ++i) {
      const model::KernelRow row(i);
      const model::KernelSignature& signature = model_.signature(kernels.signature[row]);
      const model::StreamRow stream = kernels.stream[row];
      const model::ApiCallRow launch = kernels.launch[row];
      const ChromeTrack track = GpuTrack(stream);
      writer_.Complete(model_.Text(signature.name), "kernel", track,
                       {kernels.start[row], kernels.end[row]}, [&](ChromeArgs& args) {
                         args.Int("device", DeviceId(stream));
                         args.Int("stream", model_.stream(stream).stream_id);
                         if (launch.valid()) args.Int("correlation", CorrelationOf(launch));
                         args.Ints("grid", signature.grid);
                         args.Ints("block", signature.block);
                         args.Int("registers per thread", signature.registers_per_thread);
                         args.Int("shared memory", int64_t{signature.static_shared_bytes} +
                                                       signature.dynamic_shared_bytes);
                       });
      LaunchFlow(flow_ids_.kernels + i, launch, track, kernels.start[row]);
    }
  }

  void WriteMemcpys() {
    const model::MemcpyTable& copies = model_.memcpys();
    for (uint32_t i = 0; i < copies.size() && !writer_.failed(); ++i) {
      const model::MemcpyRow row(i);
      const model::StreamRow stream = copies.stream[row];
      const model::ApiCallRow launch = copies.launch[row];
      const ChromeTrack track = GpuTrack(stream);
      const std::string name =
          fmt::format("Memcpy {} ({} -> {})", records::MemcpyKindName(copies.kind[row]),
                      MemoryKindName(copies.src_kind[row]), MemoryKindName(copies.dst_kind[row]));
      writer_.Complete(name, "gpu_memcpy", track, {copies.start[row], copies.end[row]},
                       [&](ChromeArgs& args) {
                         args.Int("device", DeviceId(stream));
                         args.Int("stream", model_.stream(stream).stream_id);
                         if (launch.valid()) args.Int("correlation", CorrelationOf(launch));
                         args.Int("bytes", static_cast<int64_t>(copies.bytes[row]));
                       });
      LaunchFlow(flow_ids_.memcpys + i, launch, track, copies.start[row]);
    }
  }

  void WriteMemsets() {
    const model::MemsetTable& memsets = model_.memsets();
    for (uint32_t i = 0; i < memsets.size() && !writer_.failed(); ++i) {
      const model::MemsetRow row(i);
      const model::StreamRow stream = memsets.stream[row];
      const model::ApiCallRow launch = memsets.launch[row];
      const ChromeTrack track = GpuTrack(stream);
      writer_.Complete("Memset", "gpu_memset", track, {memsets.start[row], memsets.end[row]},
                       [&](ChromeArgs& args) {
                         args.Int("device", DeviceId(stream));
                         args.Int("stream", model_.stream(stream).stream_id);
                         if (launch.valid()) args.Int("correlation", CorrelationOf(launch));
                         args.Int("bytes", static_cast<int64_t>(memsets.bytes[row]));
                       });
      LaunchFlow(flow_ids_.memsets + i, launch, track, memsets.start[row]);
    }
  }

  const ExportInput& input_;
  const TraceModel& model_;
  ChromeEventWriter writer_;
  const DiagnosisTimeline timeline_;
  FlowIdBase flow_ids_;
};

}  // namespace

base::Status WriteChromeTrace(const ExportInput& input, std::ostream& out) {
  return ChromeTraceExporter(input, out).Run();
}

}  // namespace ampprof::reports
