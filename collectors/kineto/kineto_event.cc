#include "collectors/kineto/kineto_event.h"

namespace ampprof::kineto {
namespace {

namespace od = simdjson::ondemand;

// The number a pid/tid string ends with: "stream 7" -> 7, "24572" -> 24572, "Spans" -> nullopt.
std::optional<int64_t> TrailingNumber(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[text.size() - 1 - digits] >= '0' &&
         text[text.size() - 1 - digits] <= '9') {
    ++digits;
  }
  if (digits == 0 || digits > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : text.substr(text.size() - digits)) value = value * 10 + (c - '0');
  if (digits < text.size() && text[text.size() - 1 - digits] == '-') value = -value;
  return value;
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                           text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// An integer, also when written as a real number ("68.0").
bool ReadInt(od::value value, int64_t& out) {
  int64_t number;
  if (!value.get_int64().get(number)) {
    out = number;
    return true;
  }
  double real;
  if (value.get_double().get(real)) return false;
  // Outside int64's range (or NaN) the conversion is undefined: not an integer we can use.
  if (!(real > -9.2e18 && real < 9.2e18)) return false;
  out = static_cast<int64_t>(real);
  return true;
}

// A pid or tid: an integer, or a string whose trailing digits are the id.
bool ReadId(od::value value, std::optional<int64_t>& out) {
  od::json_type type;
  if (value.type().get(type)) return false;
  if (type == od::json_type::number) {
    int64_t number;
    if (!ReadInt(value, number)) return false;
    out = number;
    return true;
  }
  if (type == od::json_type::string) {
    std::string_view text;
    if (value.get_string().get(text)) return false;
    out = TrailingNumber(text);
    return true;
  }
  return type == od::json_type::null;
}

bool ReadNumberToken(od::value value, std::string_view& out) {
  od::json_type type;
  if (value.type().get(type) || type != od::json_type::number) return false;
  out = TrimRight(value.raw_json_token());
  return true;
}

bool ReadTriple(od::value value, int64_t (&out)[3]) {
  od::array array;
  if (value.get_array().get(array)) return false;
  size_t i = 0;
  for (auto element : array) {
    od::value item;
    if (element.get(item)) return false;
    int64_t number;
    if (!ReadInt(item, number)) return false;
    if (i < 3) out[i] = number;
    ++i;
  }
  return true;
}

bool ReadOptionalInt(od::value value, std::optional<int64_t>& out) {
  int64_t number;
  if (!ReadInt(value, number)) return false;
  out = number;
  return true;
}

// Reads one member of "args" into `args` if ampprof uses it; false when it has the wrong type.
bool ReadArg(std::string_view key, od::value value, EventArgs& args) {
  static constexpr std::pair<std::string_view, int64_t EventArgs::*> kIntegers[] = {
      {"device", &EventArgs::device},
      {"context", &EventArgs::context},
      {"stream", &EventArgs::stream},
      {"correlation", &EventArgs::correlation},
      {"cbid", &EventArgs::cbid},
      {"registers per thread", &EventArgs::registers},
      {"shared memory", &EventArgs::shared_memory},
      {"bytes", &EventArgs::bytes},
      {"wait_on_cuda_event_id", &EventArgs::event_id},
  };
  for (const auto& [name, member] : kIntegers) {
    if (key == name) return ReadInt(value, args.*member);
  }
  static constexpr std::pair<std::string_view, std::optional<int64_t> EventArgs::*> kOptionalIntegers[] = {
      {"Sequence number", &EventArgs::sequence_number},
      {"Fwd thread id", &EventArgs::forward_thread},
      {"Bytes", &EventArgs::memory_bytes},
      {"Device Type", &EventArgs::device_type},
      {"Device Id", &EventArgs::device_id},
      {"Addr", &EventArgs::address},
      {"Total Allocated", &EventArgs::total_allocated},
      {"Total Reserved", &EventArgs::total_reserved},
  };
  for (const auto& [name, member] : kOptionalIntegers) {
    if (key == name) return ReadOptionalInt(value, args.*member);
  }
  if (key == "grid") return ReadTriple(value, args.grid);
  if (key == "block") return ReadTriple(value, args.block);
  if (key == "cuda_sync_kind") return !value.get_string().get(args.sync_kind);
  if (key == "name") return !value.get_string().get(args.name);
  if (key == "Input Dims" || key == "Input type") {
    od::array array;
    return !value.get_array().get(array) &&
           !array.raw_json().get(key == "Input Dims" ? args.input_dims : args.input_types);
  }
  return true;  // an argument ampprof does not read
}

}  // namespace

EventCategory CategoryOf(std::string_view cat, std::string_view ph) {
  if (ph == "M") return EventCategory::kMetadata;
  if (ph != "X") return EventCategory::kOther;  // flows ("s", "f"), instants ("i"), counters
  if (cat == "kernel" || cat == "Kernel") return EventCategory::kKernel;
  if (cat == "cuda_runtime" || cat == "Runtime") return EventCategory::kRuntime;
  if (cat == "cuda_driver") return EventCategory::kDriver;
  if (cat == "gpu_memcpy" || cat == "Memcpy") return EventCategory::kMemcpy;
  if (cat == "gpu_memset" || cat == "Memset") return EventCategory::kMemset;
  if (cat == "cuda_sync") return EventCategory::kSync;
  if (cat == "cpu_op" || cat == "Operator") return EventCategory::kCpuOp;
  if (cat == "user_annotation") return EventCategory::kUserAnnotation;
  if (cat == "gpu_user_annotation") return EventCategory::kGpuUserAnnotation;
  return EventCategory::kOther;
}

bool KinetoEventParser::Parse(std::string_view json, KinetoEvent& event) {
  event = KinetoEvent();
  od::document document;
  const simdjson::padded_string_view padded(json.data(), json.size(), json.size() + simdjson::SIMDJSON_PADDING);
  if (event_parser_.iterate(padded).get(document)) return false;
  od::object object;
  if (document.get_object().get(object)) return false;
  std::string_view ph, cat;
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return false;
    od::value value;
    if (field.value().get(value)) return false;
    if (key == "ph") {
      if (value.get_string().get(ph)) return false;
    } else if (key == "cat") {
      if (value.get_string().get(cat)) return false;
    } else if (key == "name") {
      if (value.get_string().get(event.name)) return false;
    } else if (key == "pid") {
      if (!ReadId(value, event.pid)) return false;
    } else if (key == "tid") {
      if (!ReadId(value, event.tid)) return false;
    } else if (key == "ts") {
      if (!ReadNumberToken(value, event.ts)) return false;
    } else if (key == "dur") {
      if (!ReadNumberToken(value, event.dur)) return false;
    } else if (key == "args") {
      od::object args;
      if (value.get_object().get(args) || args.raw_json().get(event.args)) return false;
    }
    // Other fields (id, bp, s, ...) are skipped by the iteration.
  }
  // ph and cat point into the parser's string buffer, which holds until the next document.
  event.category = CategoryOf(cat, ph);
  // Memory events are instants told by their name: 2021 traces give them no "cat", current ones
  // "cpu_instant_event", which other instants share.
  if (ph == "i" && event.name == "[memory]") event.category = EventCategory::kMemory;
  return true;
}

bool KinetoEventParser::ParseArgs(std::string_view json, EventArgs& args) {
  args = EventArgs();
  if (json.empty()) return true;
  od::document document;
  const simdjson::padded_string_view padded(json.data(), json.size(), json.size() + simdjson::SIMDJSON_PADDING);
  if (args_parser_.iterate(padded).get(document)) return false;
  od::object object;
  if (document.get_object().get(object)) return false;
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return false;
    od::value value;
    if (field.value().get(value)) return false;
    if (!ReadArg(key, value, args)) return false;
  }
  return true;
}

void KinetoEventParser::ReleaseLargeBuffers() {
  if (event_parser_.capacity() > kKeptCapacity) event_parser_ = od::parser();
  if (args_parser_.capacity() > kKeptCapacity) args_parser_ = od::parser();
}

}  // namespace ampprof::kineto
