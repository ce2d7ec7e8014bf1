#include "collectors/synthetic/kineto_json_writer.h"

#include <cerrno>
#include <cstring>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

namespace ampprof::synthetic {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

// Kineto's timestamps and durations: microseconds with three decimals (nanosecond resolution).
struct Micros {
  base::TimeNs ns;
};

void AppendEscaped(std::string& out, std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", byte);
    } else {
      out += c;
    }
  }
}

bool ContainsAny(std::string_view name, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts) {
    if (name.find(part) != std::string_view::npos) return true;
  }
  return false;
}

// "Memcpy DtoH (Device -> Pinned)", as Kineto names copies.
std::string_view MemoryKindName(records::MemoryKind kind) {
  switch (kind) {
    case records::MemoryKind::kPageable: return "Pageable";
    case records::MemoryKind::kPinned: return "Pinned";
    case records::MemoryKind::kDevice: return "Device";
    case records::MemoryKind::kArray: return "Array";
    case records::MemoryKind::kManaged: return "Managed";
    case records::MemoryKind::kUnknown: break;
  }
  return "Unknown";
}

}  // namespace
}  // namespace ampprof::synthetic

template <>
struct fmt::formatter<ampprof::synthetic::Micros> : fmt::formatter<std::string_view> {
  auto format(ampprof::synthetic::Micros value, fmt::format_context& context) const {
    return fmt::format_to(context.out(), "{}.{:03}", value.ns / 1000, value.ns % 1000);
  }
};

namespace ampprof::synthetic {

base::StatusOr<std::unique_ptr<KinetoJsonWriter>> KinetoJsonWriter::Create(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return base::IoError("{}: cannot create: {}", path, std::strerror(errno));
  return std::unique_ptr<KinetoJsonWriter>(new KinetoJsonWriter(file, path));
}

KinetoJsonWriter::KinetoJsonWriter(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {
  buffer_ = "{\"schemaVersion\": 1, \"traceName\": \"ampprof-synth\", \"traceEvents\": [\n";
}

KinetoJsonWriter::~KinetoJsonWriter() {
  if (file_ != nullptr) static_cast<void>(Close());
}

void KinetoJsonWriter::BeginEvent() {
  if (buffer_.size() >= kFlushBytes) FlushBuffer();
  if (!first_event_) buffer_ += ",\n";
  first_event_ = false;
}

void KinetoJsonWriter::FlushBuffer() {
  if (!failed_ && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) failed_ = true;
  buffer_.clear();
}

void KinetoJsonWriter::Add(const records::DeviceRecord& record) { devices_.push_back(record); }

void KinetoJsonWriter::Add(const records::ProcessRecord& record) {
  process_ = record;
  BeginEvent();
  buffer_ += fmt::format(R"({{"ph": "M", "name": "process_name", "pid": {}, "tid": 0, "args": {{"name": ")",
                         record.pid);
  AppendEscaped(buffer_, strings_.Get(record.command));
  buffer_ += "\"}}";
}

void KinetoJsonWriter::Add(const records::ThreadRecord& record) {
  BeginEvent();
  fmt::format_to(std::back_inserter(buffer_),
                 R"({{"ph": "M", "name": "thread_name", "pid": {}, "tid": {}, "args": {{"name": ")", record.pid,
                 record.tid);
  AppendEscaped(buffer_, strings_.Get(record.name));
  buffer_ += "\"}}";
}

void KinetoJsonWriter::FlowTo(uint32_t correlation_id, uint32_t device, uint32_t stream, base::TimeNs start) {
  const auto launch = launches_.find(correlation_id);
  if (launch == launches_.end()) return;
  BeginEvent();
  fmt::format_to(std::back_inserter(buffer_),
                 R"({{"ph": "s", "id": {}, "pid": {}, "tid": {}, "ts": {}, "cat": "ac2g", "name": "ac2g"}})",
                 correlation_id, launch->second.pid, launch->second.tid, Micros{launch->second.start});
  BeginEvent();
  fmt::format_to(std::back_inserter(buffer_),
                 R"({{"ph": "f", "id": {}, "pid": {}, "tid": {}, "ts": {}, "cat": "ac2g", "name": "ac2g", "bp": "e"}})",
                 correlation_id, device, stream, Micros{start});
  launches_.erase(launch);
}

void KinetoJsonWriter::Add(const records::KernelRecord& record) {
  FlowTo(record.correlation_id, record.device_id, record.stream_id, record.start);
  BeginEvent();
  buffer_ += R"({"ph": "X", "cat": "kernel", "name": ")";
  AppendEscaped(buffer_, strings_.Get(record.name));
  fmt::format_to(std::back_inserter(buffer_),
                 R"(", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"External id": {}, "queued": 0, )"
                 R"("device": {}, "context": {}, "stream": {}, "correlation": {}, "registers per thread": {}, )"
                 R"("shared memory": {}, "grid": [{}, {}, {}], "block": [{}, {}, {}]}}}})",
                 record.device_id, record.stream_id, Micros{record.start}, Micros{record.end - record.start},
                 record.correlation_id, record.device_id, record.context_id, record.stream_id,
                 record.correlation_id, record.registers_per_thread,
                 record.static_shared_bytes + record.dynamic_shared_bytes, record.grid_x, record.grid_y,
                 record.grid_z, record.block_x, record.block_y, record.block_z);
}

void KinetoJsonWriter::Add(const records::ApiCallRecord& record) {
  const std::string_view name = strings_.Get(record.name);
  if (ContainsAny(name, {"Launch", "Memcpy", "Memset"})) {
    launches_[record.correlation_id] = {record.pid, record.tid, record.start};
  }
  BeginEvent();
  fmt::format_to(std::back_inserter(buffer_), R"({{"ph": "X", "cat": "{}", "name": ")",
                 record.domain == records::ApiDomain::kDriver ? "cuda_driver" : "cuda_runtime");
  AppendEscaped(buffer_, name);
  fmt::format_to(std::back_inserter(buffer_),
                 R"(", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"External id": {}, "cbid": {}, )"
                 R"("correlation": {}}}}})",
                 record.pid, record.tid, Micros{record.start}, Micros{record.end - record.start},
                 record.correlation_id, record.callback_id, record.correlation_id);
}

void KinetoJsonWriter::Add(const records::MemcpyRecord& record) {
  FlowTo(record.correlation_id, record.device_id, record.stream_id, record.start);
  BeginEvent();
  fmt::format_to(std::back_inserter(buffer_),
                 R"j({{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy {} ({} -> {})", "pid": {}, "tid": {}, )j"
                 R"("ts": {}, "dur": {}, "args": {{"device": {}, "context": {}, "stream": {}, "correlation": {}, )"
                 R"("bytes": {}}}}})",
                 records::MemcpyKindName(record.kind), MemoryKindName(record.src_kind),
                 MemoryKindName(record.dst_kind), record.device_id, record.stream_id, Micros{record.start},
                 Micros{record.end - record.start}, record.device_id, record.context_id, record.stream_id,
                 record.correlation_id, record.bytes);
}

void KinetoJsonWriter::Add(const records::MemsetRecord& record) {
  FlowTo(record.correlation_id, record.device_id, record.stream_id, record.start);
  BeginEvent();
  fmt::format_to(std::back_inserter(buffer_),
                 R"j({{"ph": "X", "cat": "gpu_memset", "name": "Memset ({})", "pid": {}, "tid": {}, "ts": {}, )j"
                 R"("dur": {}, "args": {{"device": {}, "context": {}, "stream": {}, "correlation": {}, )"
                 R"("bytes": {}}}}})",
                 MemoryKindName(record.memory_kind), record.device_id, record.stream_id, Micros{record.start},
                 Micros{record.end - record.start}, record.device_id, record.context_id, record.stream_id,
                 record.correlation_id, record.bytes);
}

void KinetoJsonWriter::Add(const records::SyncRecord& record) {
  BeginEvent();
  const std::string_view kind =
      record.kind == records::SyncKind::kEventSynchronize ? "Event Sync"
      : record.kind == records::SyncKind::kContextSynchronize ? "Context Sync"
      : record.kind == records::SyncKind::kStreamWaitEvent    ? "Stream Wait Event"
                                                              : "Stream Sync";
  fmt::format_to(std::back_inserter(buffer_),
                 R"({{"ph": "X", "cat": "cuda_sync", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, )"
                 R"("args": {{"cuda_sync_kind": "{}", "device": {}, "stream": {}, "correlation": {}}}}})",
                 kind, record.device_id, record.stream_id, Micros{record.start}, Micros{record.end - record.start},
                 kind, record.device_id, record.stream_id, record.correlation_id);
}

void KinetoJsonWriter::Add(const records::RangeRecord& record) {
  BeginEvent();
  fmt::format_to(std::back_inserter(buffer_), R"({{"ph": "X", "cat": "{}", "name": ")",
                 record.category == records::RangeCategory::kCpuOp ? "cpu_op" : "user_annotation");
  AppendEscaped(buffer_, strings_.Get(record.name));
  fmt::format_to(std::back_inserter(buffer_), R"(", "pid": {}, "tid": {}, "ts": {}, "dur": {}}})", record.pid,
                 record.tid, Micros{record.start}, Micros{record.end - record.start});
}

// Kineto has no open/close events: a start and its end become one user_annotation ("ProfilerStep#N").
void KinetoJsonWriter::Add(const records::MarkRecord& record) {
  if (const std::optional<records::RangeRecord> range = marks_.Add(record)) Add(*range);
}

base::Status KinetoJsonWriter::Close() {
  if (file_ == nullptr) return failed_ ? base::IoError("{}: write failed", path_) : base::OkStatus();
  buffer_ += "\n], \"deviceProperties\": [";
  for (size_t i = 0; i < devices_.size(); ++i) {
    const records::DeviceRecord& device = devices_[i];
    fmt::format_to(std::back_inserter(buffer_),
                   R"({}{{"id": {}, "name": ")", i == 0 ? "" : ", ", device.device_id);
    AppendEscaped(buffer_, strings_.Get(device.name));
    fmt::format_to(std::back_inserter(buffer_),
                   R"(", "totalGlobalMem": {}, "computeMajor": {}, "computeMinor": {}, "numSms": {}}})",
                   device.global_memory_bytes, device.compute_major, device.compute_minor, device.sm_count);
  }
  fmt::format_to(std::back_inserter(buffer_),
                 R"(], "distributedInfo": {{"backend": "nccl", "rank": {}, "world_size": {}}}}})"
                 "\n",
                 process_.rank < 0 ? 0 : process_.rank, process_.world_size < 1 ? 1 : process_.world_size);
  FlushBuffer();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (failed_ || !closed) return base::IoError("{}: write failed: {}", path_, std::strerror(errno));
  return base::OkStatus();
}

}  // namespace ampprof::synthetic
