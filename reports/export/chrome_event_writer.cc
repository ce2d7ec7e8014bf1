#include "reports/export/chrome_event_writer.h"

#include <algorithm>

#include "reports/export/json_text.h"

namespace ampprof::reports {
namespace {

constexpr size_t kFlushBytes = size_t{1} << 20;

}  // namespace

void ChromeArgs::Key(std::string_view key) {
  out_.append(std::string_view(open_ ? "," : ",\"args\":{"));
  open_ = true;
  AppendJsonString(out_, key);
  out_.push_back(':');
}

void ChromeArgs::Int(std::string_view key, int64_t value) {
  Key(key);
  fmt::format_to(std::back_inserter(out_), "{}", value);
}

void ChromeArgs::String(std::string_view key, std::string_view value) {
  Key(key);
  AppendJsonString(out_, value);
}

void ChromeArgs::Bool(std::string_view key, bool value) {
  Key(key);
  out_.append(std::string_view(value ? "true" : "false"));
}

void ChromeArgs::Ints(std::string_view key, std::span<const uint32_t> values) {
  Key(key);
  fmt::format_to(std::back_inserter(out_), "[{}]", fmt::join(values, ","));
}

void ChromeArgs::Strings(std::string_view key, std::span<const std::string> values) {
  Key(key);
  out_.push_back('[');
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out_.push_back(',');
    AppendJsonString(out_, values[i]);
  }
  out_.push_back(']');
}

void ChromeArgs::Close() {
  if (open_) out_.push_back('}');
}

void ChromeEventWriter::BeginDocument(std::string_view members) {
  buffer_.push_back('{');
  buffer_.append(members);
  buffer_.append(std::string_view(members.empty() ? "\"traceEvents\":[" : ",\n\"traceEvents\":["));
}

base::Status ChromeEventWriter::EndDocument() {
  buffer_.append(std::string_view("\n]}\n"));
  Flush();
  out_.flush();
  if (!out_) return base::IoError("cannot write the trace ({} events written)", events_);
  return base::OkStatus();
}

void ChromeEventWriter::Open(char phase, std::string_view name, std::string_view category,
                             ChromeTrack track, base::TimeNs timestamp) {
  buffer_.append(std::string_view(events_++ == 0 ? "\n{\"ph\":\"" : ",\n{\"ph\":\""));
  buffer_.push_back(phase);
  buffer_.append(std::string_view("\",\"name\":"));
  AppendJsonString(buffer_, name);
  buffer_.append(std::string_view(",\"cat\":"));
  AppendJsonString(buffer_, category);
  fmt::format_to(std::back_inserter(buffer_), ",\"pid\":{},\"tid\":{},\"ts\":", track.pid,
                 track.tid);
  AppendMicroseconds(buffer_, timestamp);
}

void ChromeEventWriter::Close() {
  buffer_.push_back('}');
  if (buffer_.size() >= kFlushBytes) Flush();
}

void ChromeEventWriter::AppendDuration(base::DurationNs duration) {
  AppendMicroseconds(buffer_, std::max<base::DurationNs>(duration, 0));
}

void ChromeEventWriter::Flush() {
  // Once a write has failed, what follows is dropped, not kept: buffering the rest of a
  // multi-gigabyte trace for a stream that cannot take it would only grow memory.
  if (out_) out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void ChromeEventWriter::Flow(uint64_t id, std::string_view name, std::string_view category,
                             ChromeTrack from, base::TimeNs from_time, ChromeTrack to,
                             base::TimeNs to_time) {
  Open('s', name, category, from, from_time);
  fmt::format_to(std::back_inserter(buffer_), ",\"id\":{}", id);
  Close();
  Open('f', name, category, to, to_time);
  fmt::format_to(std::back_inserter(buffer_), ",\"id\":{},\"bp\":\"e\"", id);
  Close();
}

void ChromeEventWriter::Metadata(std::string_view name, ChromeTrack track, std::string_view key,
                                 std::string_view json_value) {
  buffer_.append(std::string_view(events_++ == 0 ? "\n{\"ph\":\"M\",\"name\":"
                                                 : ",\n{\"ph\":\"M\",\"name\":"));
  AppendJsonString(buffer_, name);
  fmt::format_to(std::back_inserter(buffer_), ",\"pid\":{},\"tid\":{},\"args\":{{", track.pid,
                 track.tid);
  AppendJsonString(buffer_, key);
  buffer_.push_back(':');
  buffer_.append(json_value);
  buffer_.push_back('}');
  Close();
}

void ChromeEventWriter::ProcessName(uint32_t pid, std::string_view name) {
  fmt::memory_buffer value;
  AppendJsonString(value, name);
  Metadata("process_name", {pid, 0}, "name", std::string_view(value.data(), value.size()));
}

void ChromeEventWriter::ThreadName(ChromeTrack track, std::string_view name) {
  fmt::memory_buffer value;
  AppendJsonString(value, name);
  Metadata("thread_name", track, "name", std::string_view(value.data(), value.size()));
}

void ChromeEventWriter::ProcessSortIndex(uint32_t pid, int64_t index) {
  Metadata("process_sort_index", {pid, 0}, "sort_index", fmt::format("{}", index));
}

void ChromeEventWriter::ThreadSortIndex(ChromeTrack track, int64_t index) {
  Metadata("thread_sort_index", track, "sort_index", fmt::format("{}", index));
}

}  // namespace ampprof::reports
