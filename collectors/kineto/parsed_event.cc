#include "collectors/kineto/parsed_event.h"

#include <cstring>

namespace ampprof::kineto {

ParsedEvent ParseEvent(KinetoEventParser& parser, std::string_view json) {
  ParsedEvent parsed;
  if (!parser.Parse(json, parsed.event)) {
    parsed.outcome = ParsedEvent::Outcome::kInvalid;
    return parsed;
  }
  const KinetoEvent& event = parsed.event;
  switch (event.category) {
    case EventCategory::kOther:
    case EventCategory::kGpuUserAnnotation:
      return parsed;
    case EventCategory::kMetadata:
      // Other metadata (process_sort_index, ...), and names that do not parse, are not read or counted.
      if (event.name != "process_name" && event.name != "thread_name") return parsed;
      if (!parser.ParseArgs(event.args, parsed.args) || parsed.args.name.empty()) return parsed;
      parsed.outcome = ParsedEvent::Outcome::kMetadata;
      return parsed;
    default:
      break;
  }
  const std::optional<base::TimeNs> start = base::ParseMicrosecondsToNs(event.ts);
  const std::optional<base::TimeNs> duration =
      event.dur.empty() ? base::TimeNs{0} : base::ParseMicrosecondsToNs(event.dur);
  if (!start || !duration || !parser.ParseArgs(event.args, parsed.args) ||
      __builtin_add_overflow(*start, *duration, &parsed.end)) {
    parsed.outcome = ParsedEvent::Outcome::kInvalid;
    return parsed;
  }
  parsed.start = *start;
  parsed.outcome = ParsedEvent::Outcome::kActivity;
  return parsed;
}

std::string_view StringArena::Copy(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > kChunk / 4) {  // a long one gets a chunk of its own
    std::unique_ptr<char[]> own(new char[text.size()]);  // not zeroed: it is written at once
    std::memcpy(own.get(), text.data(), text.size());
    const std::string_view copy(own.get(), text.size());
    large_.push_back(std::move(own));
    return copy;
  }
  if (chunks_.empty()) {
    chunks_.emplace_back(new char[kChunk]);
    current_ = used_ = 0;
  } else if (kChunk - used_ < text.size()) {  // on to the next chunk, a kept one if there is one
    if (++current_ == chunks_.size()) chunks_.emplace_back(new char[kChunk]);
    used_ = 0;
  }
  char* at = chunks_[current_].get() + used_;
  std::memcpy(at, text.data(), text.size());
  used_ += text.size();
  return {at, text.size()};
}

void StringArena::Clear() {
  large_.clear();
  current_ = used_ = 0;
}

void KeepStrings(ParsedEvent& parsed, StringArena& arena) {
  parsed.event.name = arena.Copy(parsed.event.name);
  parsed.event.ts = {};
  parsed.event.dur = {};
  parsed.event.args = {};
  parsed.args.name = arena.Copy(parsed.args.name);
  parsed.args.sync_kind = arena.Copy(parsed.args.sync_kind);
  parsed.args.input_dims = arena.Copy(parsed.args.input_dims);
  parsed.args.input_types = arena.Copy(parsed.args.input_types);
}

}  // namespace ampprof::kineto
