#include "collectors/kineto/kineto_importer.h"

#include <optional>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "collectors/kineto/decompressing_reader.h"
#include "collectors/kineto/event_blocks.h"
#include "collectors/kineto/gpu_process_attribution.h"
#include "collectors/kineto/json_event_stream.h"
#include "collectors/kineto/kineto_event.h"
#include "collectors/kineto/parsed_event.h"
#include "collectors/records/string_cap.h"
#include "src/base/logging.h"
#include "src/base/time.h"

namespace ampprof::kineto {
namespace {

namespace od = simdjson::ondemand;
using records::MemcpyKind;
using records::MemoryKind;

// Linux pids and tids fit in 32 bits; Kineto sometimes writes 64-bit thread handles. Fold those so
// that distinct handles stay distinct in practice; negative ids (device-level rows) become 0.
uint32_t FoldId(std::optional<int64_t> id) {
  if (!id || *id < 0) return 0;
  const auto value = static_cast<uint64_t>(*id);
  return static_cast<uint32_t>(value <= UINT32_MAX ? value : value ^ (value >> 32));
}

uint32_t NonNegative(int64_t value) {
  return value < 0 ? 0 : static_cast<uint32_t>(std::min<int64_t>(value, UINT32_MAX));
}

MemoryKind MemoryKindNamed(std::string_view name) {
  if (name == "Pageable") return MemoryKind::kPageable;
  if (name == "Pinned") return MemoryKind::kPinned;
  if (name == "Device") return MemoryKind::kDevice;
  if (name == "Array") return MemoryKind::kArray;
  if (name == "Managed") return MemoryKind::kManaged;
  return MemoryKind::kUnknown;
}

// "Memcpy DtoH (Device -> Pinned)" -> kind and the two memory kinds.
void ParseMemcpyName(std::string_view name, records::MemcpyRecord& copy) {
  static constexpr std::pair<std::string_view, MemcpyKind> kKinds[] = {
      {"HtoD", MemcpyKind::kHostToDevice}, {"DtoH", MemcpyKind::kDeviceToHost},
      {"DtoD", MemcpyKind::kDeviceToDevice}, {"HtoH", MemcpyKind::kHostToHost},
      {"PtoP", MemcpyKind::kPeerToPeer}};
  for (const auto& [text, kind] : kKinds) {
    if (name.find(text) != std::string_view::npos) copy.kind = kind;
  }
  const size_t open = name.find('(');
  const size_t arrow = name.find(" -> ");
  const size_t close = name.rfind(')');
  if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos &&
      open < arrow && arrow < close) {
    copy.src_kind = MemoryKindNamed(name.substr(open + 1, arrow - open - 1));
    copy.dst_kind = MemoryKindNamed(name.substr(arrow + 4, close - arrow - 4));
  }
}

records::SyncKind SyncKindNamed(std::string_view kind) {
  if (kind == "Event Sync") return records::SyncKind::kEventSynchronize;
  if (kind == "Stream Wait Event") return records::SyncKind::kStreamWaitEvent;
  if (kind == "Stream Sync") return records::SyncKind::kStreamSynchronize;
  if (kind == "Context Sync" || kind == "Device Sync") return records::SyncKind::kContextSynchronize;
  return records::SyncKind::kUnknown;
}

class Importer {
 public:
  Importer(std::string path, records::RecordSink& sink, const EventBlockOptions& options)
      : path_(std::move(path)), sink_(sink), options_(options) {}

  base::Status Run() {
    ASSIGN_OR_RETURN(std::unique_ptr<DecompressingReader> reader, DecompressingReader::Open(path_));
    JsonEventStream stream(*reader);
    std::optional<ParallelEventParser> parallel;
    if (options_.threads > 1) parallel.emplace(options_);
    const auto handle = [this](const ParsedEvent& event) { HandleParsed(event); };
    for (;;) {
      // Inside the event array, the blocks take what they can; the stream reads the rest.
      if (parallel && stream.between_events()) parallel->Parse(stream, handle);
      auto item = stream.Next();
      if (!item.ok()) return item.status().WithContext(path_);
      if (item->kind == JsonEventStream::ItemKind::kEnd) break;
      switch (item->kind) {
        case JsonEventStream::ItemKind::kMember:
          RETURN_IF_ERROR(HandleMember(item->key, item->json).WithContext(path_));
          if (member_parser_.capacity() > KinetoEventParser::kKeptCapacity) member_parser_ = od::parser();
          break;
        case JsonEventStream::ItemKind::kEvent:
          HandleEvent(item->json);
          parser_.ReleaseLargeBuffers();
          break;
        case JsonEventStream::ItemKind::kOversized:
          sink_.stats().Increment(base::Stat::kJsonOversizedValues);
          break;
        case JsonEventStream::ItemKind::kEnd:
          break;
      }
    }
    if (stream.truncated() || reader->truncated()) {
      if (stream.events() == 0) {
        return base::InvalidDataError("{}: truncated {}before the first trace event", path_,
                                      reader->truncated() ? "gzip stream " : "JSON ");
      }
      sink_.stats().Increment(base::Stat::kJsonTruncated);
    }
    if (!stream.saw_event_array()) {
      return base::InvalidDataError("{}: JSON, but not a PyTorch profiler trace (no traceEvents)", path_);
    }
    if (parallel) {
      const EventBlockStats& stats = parallel->stats();
      base::LogInfo(
          "parallel import on {} threads: {} windows, {} blocks ({} dropped at a wrong split); CPU: blocks {:.3f} s "
          "in all, {:.3f} s of it on the reading thread, which also read {:.3f} s and made the records in file "
          "order {:.3f} s (while the other threads parsed the next window), and waited {:.3f} s for their last "
          "blocks",
          options_.threads, stats.windows, stats.blocks, stats.guesses_dropped, stats.blocks_cpu_s,
          stats.reading_thread_blocks_cpu_s, stats.read_cpu_s, stats.handle_cpu_s, stats.wait_s);
    }
    Finish();
    return base::OkStatus();
  }

 private:
  // ---- Top-level members ----

  base::Status HandleMember(std::string_view key, std::string_view json) {
    if (key == "traceEvents") {  // present but not an array: the stream only unrolls arrays
      return base::InvalidDataError("traceEvents is not an array");
    }
    if (key == "schemaVersion" || key == "traceName" || key == "baseTimeNanoseconds" ||
        key == "displayTimeUnit") {
      records::SetMetadataCapped(sink_, fmt::format("kineto.{}", key), Unquoted(json));
      return base::OkStatus();
    }
    if (key == "deviceProperties" || key == "computeProperties") return ReadDevices(json);
    if (key == "distributedInfo") return ReadDistributedInfo(json);
    return base::OkStatus();  // metadata, versions, flags: not needed
  }

  static std::string_view Unquoted(std::string_view json) {
    if (json.size() >= 2 && json.front() == '"' && json.back() == '"') return json.substr(1, json.size() - 2);
    return json;
  }

  // A member's JSON text sits inside the stream's buffer, which is padded after it.
  base::StatusOr<od::document> ParseMember(std::string_view json) {
    od::document document;
    const simdjson::padded_string_view padded(json.data(), json.size(),
                                              json.size() + simdjson::SIMDJSON_PADDING);
    if (const auto error = member_parser_.iterate(padded).get(document)) {
      return base::InvalidDataError("invalid JSON: {}", simdjson::error_message(error));
    }
    return document;
  }

  base::Status ReadDevices(std::string_view json) {
    ASSIGN_OR_RETURN(od::document document, ParseMember(json));
    od::array devices;
    if (document.get_array().get(devices)) return base::InvalidDataError("deviceProperties is not an array");
    for (auto element : devices) {
      od::object device;
      if (element.get_object().get(device)) return base::InvalidDataError("a deviceProperties entry is not an object");
      records::DeviceRecord record;
      for (auto field : device) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value)) {
          return base::InvalidDataError("malformed deviceProperties");
        }
        int64_t number = 0;
        if (key == "name") {
          std::string_view name;
          if (value.get_string().get(name)) return base::InvalidDataError("device name is not a string");
          record.name = records::InternCapped(sink_, name);
        } else if (value.get_int64().get(number)) {
          continue;  // other fields may be anything
        } else if (key == "id") {
          record.device_id = NonNegative(number);
        } else if (key == "totalGlobalMem") {
          record.global_memory_bytes = static_cast<uint64_t>(std::max<int64_t>(number, 0));
        } else if (key == "computeMajor" || key == "major") {
          record.compute_major = NonNegative(number);
        } else if (key == "computeMinor" || key == "minor") {
          record.compute_minor = NonNegative(number);
        } else if (key == "numSms" || key == "multiProcessorCount") {
          record.sm_count = NonNegative(number);
        }
      }
      devices_.push_back(record);  // pid 0: these describe the device ordinals of the traced process
    }
    return base::OkStatus();
  }

  base::Status ReadDistributedInfo(std::string_view json) {
    ASSIGN_OR_RETURN(od::document document, ParseMember(json));
    od::object info;
    if (document.get_object().get(info)) return base::InvalidDataError("distributedInfo is not an object");
    for (auto field : info) {
      std::string_view key;
      od::value value;
      if (field.unescaped_key().get(key) || field.value().get(value)) {
        return base::InvalidDataError("malformed distributedInfo");
      }
      int64_t number;
      if (value.get_int64().get(number)) continue;
      if (key == "rank") rank_ = static_cast<int32_t>(number);
      if (key == "world_size") world_size_ = static_cast<int32_t>(number);
    }
    return base::OkStatus();
  }

  // ---- Events ----

  void HandleEvent(std::string_view json) { HandleParsed(ParseEvent(parser_, json)); }

  // In file order, whichever thread parsed the event.
  void HandleParsed(const ParsedEvent& parsed) {
    current_ = &parsed;
    switch (parsed.outcome) {
      case ParsedEvent::Outcome::kSkipped: return;
      case ParsedEvent::Outcome::kInvalid: return sink_.stats().Increment(base::Stat::kJsonInvalidEvents);
      case ParsedEvent::Outcome::kMetadata: return HandleMetadata();
      case ParsedEvent::Outcome::kActivity: break;
    }
    const base::TimeNs start = parsed.start;
    const base::TimeNs end = parsed.end;
    switch (event().category) {
      case EventCategory::kKernel: return AddGpu(MakeKernel(start, end));
      case EventCategory::kMemcpy: return AddGpu(MakeMemcpy(start, end));
      case EventCategory::kMemset: return AddGpu(MakeMemset(start, end));
      case EventCategory::kSync: return AddGpu(MakeSync(start, end));
      case EventCategory::kRuntime:
      case EventCategory::kDriver: return AddApiCall(start, end);
      case EventCategory::kCpuOp: return AddRange(start, end, records::RangeCategory::kCpuOp);
      case EventCategory::kUserAnnotation:
        return AddRange(start, end, records::RangeCategory::kUserAnnotation);
      case EventCategory::kMemory: return AddMemory(start);
      default: return;
    }
  }

  // The event being handled and its args.
  const KinetoEvent& event() const { return current_->event; }
  const EventArgs& args() const { return current_->args; }

  void HandleMetadata() {
    if (event().name == "process_name") {
      process_names_.emplace_back(FoldId(event().pid), std::string(args().name));
    } else {
      records::ThreadRecord thread;
      thread.pid = FoldId(event().pid);
      thread.tid = FoldId(event().tid);
      thread.name = records::InternCapped(sink_, args().name);
      threads_.push_back(thread);
    }
  }

  // CPU-side events name the traced processes. GPU events before the first one wait for it; after
  // a second one shows itself, they are held until the end, when their correlation ids say whose they
  // are (GpuProcessAttribution).
  void NoteProcess() {
    if (!event().pid) return;
    const uint32_t pid = FoldId(event().pid);
    attribution_.NoteProcess(pid);
    if (process_pid_) return;
    process_pid_ = pid;
    for (GpuRecord& record : pending_) std::visit([&](auto& r) { EmitToFirstProcess(r); }, record);
    pending_.clear();
  }

  template <typename Record>
  void EmitToFirstProcess(Record& record) {
    record.pid = process_pid_.value_or(0);
    attribution_.NoteAttributed(record.device_id);
    sink_.Add(record);
  }

  template <typename Record>
  void AddGpu(Record record) {
    if (!process_pid_) {
      pending_.emplace_back(record);
    } else if (attribution_.several_processes()) {
      held_.emplace_back(record);
      attribution_.Hold(record.device_id, record.correlation_id);
    } else {
      EmitToFirstProcess(record);
    }
  }

  // Where a GPU event ran: args say so in current traces; 2021 traces put the device in pid and the
  // stream in tid ("stream 7") as well.
  uint32_t DeviceOfEvent() const { return NonNegative(args().device >= 0 ? args().device : event().pid.value_or(0)); }
  uint32_t StreamOfEvent() const { return NonNegative(args().stream >= 0 ? args().stream : event().tid.value_or(0)); }

  // The fields kernels, copies and memsets share, all named alike in their records.
  template <typename Record>
  Record GpuActivity(base::TimeNs start, base::TimeNs end) const {
    Record record;
    record.start = start;
    record.end = end;
    record.device_id = DeviceOfEvent();
    record.context_id = NonNegative(args().context);
    record.stream_id = StreamOfEvent();
    record.correlation_id = NonNegative(args().correlation);
    return record;
  }

  records::KernelRecord MakeKernel(base::TimeNs start, base::TimeNs end) {
    auto kernel = GpuActivity<records::KernelRecord>(start, end);
    kernel.name = records::InternCapped(sink_, event().name);
    kernel.grid_x = NonNegative(args().grid[0]);
    kernel.grid_y = NonNegative(args().grid[1]);
    kernel.grid_z = NonNegative(args().grid[2]);
    kernel.block_x = NonNegative(args().block[0]);
    kernel.block_y = NonNegative(args().block[1]);
    kernel.block_z = NonNegative(args().block[2]);
    kernel.registers_per_thread = NonNegative(args().registers);
    kernel.static_shared_bytes = NonNegative(args().shared_memory);  // Kineto reports the total
    return kernel;
  }

  records::MemcpyRecord MakeMemcpy(base::TimeNs start, base::TimeNs end) {
    auto copy = GpuActivity<records::MemcpyRecord>(start, end);
    copy.bytes = static_cast<uint64_t>(std::max<int64_t>(args().bytes, 0));
    ParseMemcpyName(event().name, copy);
    return copy;
  }

  records::MemsetRecord MakeMemset(base::TimeNs start, base::TimeNs end) {
    auto memset = GpuActivity<records::MemsetRecord>(start, end);
    memset.bytes = static_cast<uint64_t>(std::max<int64_t>(args().bytes, 0));
    const size_t open = event().name.find('(');
    const size_t close = event().name.rfind(')');
    if (open != std::string_view::npos && close != std::string_view::npos && open < close) {
      memset.memory_kind = MemoryKindNamed(event().name.substr(open + 1, close - open - 1));
    }
    return memset;
  }

  records::SyncRecord MakeSync(base::TimeNs start, base::TimeNs end) {
    records::SyncRecord sync;
    sync.start = start;
    sync.end = end;
    sync.device_id = NonNegative(args().device);
    sync.context_id = NonNegative(args().context);
    sync.stream_id = NonNegative(args().stream);
    sync.correlation_id = NonNegative(args().correlation);
    sync.kind = SyncKindNamed(args().sync_kind.empty() ? event().name : args().sync_kind);
    sync.event_id = NonNegative(args().event_id);
    return sync;  // the waiting thread comes from the API call with the same correlation id
  }

  void AddApiCall(base::TimeNs start, base::TimeNs end) {
    NoteProcess();
    records::ApiCallRecord call;
    call.start = start;
    call.end = end;
    call.pid = FoldId(event().pid);
    call.tid = FoldId(event().tid);
    call.correlation_id = NonNegative(args().correlation);
    attribution_.NoteCall(call.pid, call.correlation_id);
    call.domain = event().category == EventCategory::kDriver ? records::ApiDomain::kDriver
                                                             : records::ApiDomain::kRuntime;
    call.callback_id = NonNegative(args().cbid);
    call.name = records::InternCapped(sink_, event().name);
    sink_.Add(call);
  }

  void AddRange(base::TimeNs start, base::TimeNs end, records::RangeCategory category) {
    NoteProcess();
    records::RangeRecord range;
    range.start = start;
    range.end = end;
    range.pid = FoldId(event().pid);
    range.tid = FoldId(event().tid);
    range.category = category;
    range.name = records::InternCapped(sink_, event().name);
    // Kept as a JSON object so that analyzers can parse shapes and dtypes back. The forward thread is
    // there only on backward ops (it is 0 on forward ops): a few distinct values, so ranges still share
    // labels, where the sequence number, distinct for every op call, has a field of its own.
    const bool backward = args().forward_thread.value_or(0) > 0;
    if (!args().input_dims.empty() || !args().input_types.empty()) {
      range.args = records::InternCapped(
          sink_, fmt::format(R"({{"Input Dims": {}, "Input type": {}{}}})",
                             args().input_dims.empty() ? "[]" : args().input_dims,
                             args().input_types.empty() ? "[]" : args().input_types,
                             backward ? fmt::format(R"(, "Fwd thread id": {})", *args().forward_thread) : ""));
    } else if (backward) {
      range.args = records::InternCapped(sink_, fmt::format(R"({{"Fwd thread id": {}}})", *args().forward_thread));
    }
    range.sequence_number = args().sequence_number.value_or(-1) >= 0 ? *args().sequence_number : -1;
    sink_.Add(range);
  }

  // A [memory] event of PyTorch's caching allocator (profile_memory=True). Only device memory is kept:
  // "Device Type" 1 is CUDA; host allocations (0) say nothing about the GPU.
  void AddMemory(base::TimeNs timestamp) {
    constexpr int64_t kCudaDeviceType = 1;
    if (args().device_type != kCudaDeviceType || !args().memory_bytes) return;
    NoteProcess();
    records::MemoryRecord memory;
    memory.timestamp = timestamp;
    memory.pid = FoldId(event().pid);
    memory.device_id = NonNegative(args().device_id.value_or(0));
    const int64_t bytes = *args().memory_bytes;
    memory.operation = bytes < 0 ? records::MemoryOperation::kRelease : records::MemoryOperation::kAllocate;
    memory.bytes = bytes < 0 ? static_cast<uint64_t>(-(bytes + 1)) + 1 : static_cast<uint64_t>(bytes);
    memory.memory_kind = MemoryKind::kDevice;
    memory.address = static_cast<uint64_t>(args().address.value_or(0));
    memory.source = records::MemorySource::kFrameworkAllocator;
    auto total = [](std::optional<int64_t> value) {
      return value && *value >= 0 ? static_cast<uint64_t>(*value) : records::MemoryRecord::kUnknownTotal;
    };
    memory.total_allocated = total(args().total_allocated);
    memory.total_reserved = total(args().total_reserved);
    sink_.Add(memory);
  }

  // ---- After the last event ----

  void Finish() {
    const uint32_t pid = process_pid_.value_or(0);
    process_pid_ = pid;  // GPU-only traces: their records go out with pid 0
    for (GpuRecord& record : pending_) std::visit([&](auto& r) { EmitToFirstProcess(r); }, record);
    const uint64_t ambiguous = attribution_.Resolve();
    sink_.stats().Increment(base::Stat::kCorrelationAmbiguousProcess, static_cast<int64_t>(ambiguous));
    for (size_t i = 0; i < held_.size(); ++i) {
      std::visit(
          [&](auto& record) {
            record.pid = attribution_.ProcessOf(i);
            sink_.Add(record);
          },
          held_[i]);
    }
    for (const records::DeviceRecord& device : devices_) sink_.Add(device);
    // The rank and world size of distributedInfo belong to the profiled process: the first one.
    for (const uint32_t process_pid : attribution_.processes()) {
      records::ProcessRecord process;
      process.pid = process_pid;
      if (process_pid == pid) {
        process.rank = rank_;
        process.world_size = world_size_;
      }
      for (const auto& [name_pid, name] : process_names_) {
        if (name_pid == process_pid) process.command = records::InternCapped(sink_, name);
      }
      sink_.Add(process);
    }
    if (attribution_.processes().empty()) {
      records::ProcessRecord process;  // a GPU-only trace: the process is unknown
      process.rank = rank_;
      process.world_size = world_size_;
      sink_.Add(process);
    }
    for (const records::ThreadRecord& thread : threads_) {
      // GPU rows ("stream 7") are not threads: only those of processes with CPU-side events are.
      if (attribution_.Knows(thread.pid)) sink_.Add(thread);
    }
    sink_.SetMetadata("source", "PyTorch profiler (Kineto) JSON");
  }

  const std::string path_;
  records::RecordSink& sink_;
  const EventBlockOptions options_;
  KinetoEventParser parser_;
  od::parser member_parser_;
  const ParsedEvent* current_ = nullptr;
  std::optional<uint32_t> process_pid_;  // the first process with a CPU-side event
  GpuProcessAttribution attribution_;
  using GpuRecord = std::variant<records::KernelRecord, records::MemcpyRecord, records::MemsetRecord,
                                 records::SyncRecord>;
  std::vector<GpuRecord> pending_;  // GPU events before the first CPU-side event
  std::vector<GpuRecord> held_;     // GPU events after a second process showed itself
  std::vector<records::DeviceRecord> devices_;
  std::vector<records::ThreadRecord> threads_;
  std::vector<std::pair<uint32_t, std::string>> process_names_;
  int32_t rank_ = -1;
  int32_t world_size_ = 0;
};

}  // namespace

base::Status ImportKinetoTrace(const std::string& path, records::RecordSink& sink,
                               const EventBlockOptions& options) {
  Importer importer(path, sink, options);
  return importer.Run();
}

}  // namespace ampprof::kineto
