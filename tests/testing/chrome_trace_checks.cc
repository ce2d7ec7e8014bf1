#include "tests/testing/chrome_trace_checks.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <simdjson.h>

namespace ampprof::testing {
namespace {

namespace od = simdjson::ondemand;

using Track = std::pair<int64_t, int64_t>;

base::Status ReadEvent(od::object object, ChromeEvent& event) {
  bool has_ts = false;
  bool has_dur = false;
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return base::InvalidDataError("bad key");
    od::value value = field.value();
    std::string_view text;
    if (key == "ph" || key == "name" || key == "cat" || key == "bp") {
      if (value.get_string().get(text)) return base::InvalidDataError("'{}' is not a string", key);
      std::string& target = key == "ph"     ? event.ph
                            : key == "name" ? event.name
                            : key == "cat"  ? event.cat
                                            : event.bp;
      target = std::string(text);
    } else if (key == "pid" || key == "tid") {
      int64_t number;
      if (value.get_int64().get(number))
        return base::InvalidDataError("'{}' is not an integer", key);
      (key == "pid" ? event.pid : event.tid) = number;
    } else if (key == "ts" || key == "dur") {
      const std::string_view token = value.raw_json_token();
      const auto ns = base::ParseMicrosecondsToNs(
          std::string_view(token.data(), token.find_last_not_of(" \n\r\t") + 1));
      if (!ns) return base::InvalidDataError("'{}' is not a number: {}", key, token);
      (key == "ts" ? event.ts : event.dur) = *ns;
      (key == "ts" ? has_ts : has_dur) = true;
    } else if (key == "id") {
      if (value.get_uint64().get(event.id))
        return base::InvalidDataError("'id' is not an unsigned integer");
      event.has_id = true;
    } else if (key == "args") {
      od::object args;
      if (value.get_object().get(args)) return base::InvalidDataError("'args' is not an object");
      std::string_view json;
      if (args.raw_json().get(json)) return base::InvalidDataError("bad args");
      event.args = std::string(json);
    }
  }
  if (event.ph.empty() || event.pid < 0)
    return base::InvalidDataError("an event without ph or pid");
  if (event.ph != "M" && !has_ts)
    return base::InvalidDataError("a '{}' event without ts", event.ph);
  if (event.ph == "X" && !has_dur) return base::InvalidDataError("an 'X' event without dur");
  if ((event.ph == "s" || event.ph == "f") && !event.has_id)
    return base::InvalidDataError("a flow without id");
  if (event.ph == "M" && event.args.empty()) return base::InvalidDataError("metadata without args");
  return base::OkStatus();
}

}  // namespace

base::StatusOr<ChromeDocument> ParseChromeTrace(const std::string& json) {
  const simdjson::padded_string padded(json);
  // The DOM parser validates the whole document (trailing text included); on-demand then reads the
  // numbers' text, which the DOM has already turned into doubles.
  simdjson::dom::parser validator;
  if (const auto error = validator.parse(padded).error()) {
    return base::InvalidDataError("not valid JSON: {}", simdjson::error_message(error));
  }
  od::parser parser;
  od::document document;
  if (parser.iterate(padded).get(document)) return base::InvalidDataError("not JSON");
  od::object root;
  if (document.get_object().get(root)) return base::InvalidDataError("not a JSON object");
  ChromeDocument result;
  bool saw_events = false;
  for (auto field : root) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return base::InvalidDataError("bad top-level key");
    od::value value = field.value();
    if (key == "displayTimeUnit") {
      std::string_view unit;
      if (value.get_string().get(unit))
        return base::InvalidDataError("displayTimeUnit is not a string");
      result.display_time_unit = std::string(unit);
    } else if (key == "traceEvents") {
      od::array events;
      if (value.get_array().get(events))
        return base::InvalidDataError("traceEvents is not an array");
      for (auto element : events) {
        od::object object;
        if (element.get_object().get(object))
          return base::InvalidDataError("an event is not an object");
        ChromeEvent event;
        RETURN_IF_ERROR(
            ReadEvent(object, event).WithContext(fmt::format("event {}", result.events.size())));
        result.events.push_back(std::move(event));
      }
      saw_events = true;
    }
  }
  if (!saw_events) return base::InvalidDataError("no traceEvents");
  return result;
}

std::vector<std::string> ChromeTraceProblems(const ChromeDocument& document) {
  std::vector<std::string> problems;
  std::map<Track, std::vector<base::Interval>> slices;
  for (const ChromeEvent& event : document.events) {
    if (event.ph == "X") slices[{event.pid, event.tid}].push_back({event.ts, event.ts + event.dur});
  }
  for (auto& [track, intervals] : slices) {
    // Parents first: by start, the longer first; then each slice must end within the innermost open
    // one.
    std::sort(intervals.begin(), intervals.end(),
              [](const base::Interval& a, const base::Interval& b) {
                return a.start != b.start ? a.start < b.start : a.end > b.end;
              });
    std::vector<base::Interval> open;
    for (const base::Interval& slice : intervals) {
      while (!open.empty() && open.back().end <= slice.start) open.pop_back();
      if (!open.empty() && slice.end > open.back().end) {
        problems.push_back(fmt::format(
            "pid {} tid {}: slice [{}, {}) overlaps [{}, {}) without nesting", track.first,
            track.second, slice.start, slice.end, open.back().start, open.back().end));
      }
      open.push_back(slice);
    }
  }
  auto enclosed = [&](const ChromeEvent& event) {
    const auto it = slices.find({event.pid, event.tid});
    if (it == slices.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const base::Interval& slice) {
      return slice.start <= event.ts && event.ts <= slice.end;
    });
  };
  std::map<uint64_t, std::pair<int, int>> flow_ends;  // id -> (starts, finishes)
  for (const ChromeEvent& event : document.events) {
    if (event.ph != "s" && event.ph != "f") continue;
    auto& [starts, finishes] = flow_ends[event.id];
    (event.ph == "s" ? starts : finishes)++;
    if (!enclosed(event)) {
      problems.push_back(fmt::format("flow {} '{}' at {} on pid {} tid {}: no slice there",
                                     event.id, event.ph, event.ts, event.pid, event.tid));
    }
    if (event.ph == "f" && event.bp != "e")
      problems.push_back(fmt::format("flow {} ends without \"bp\": \"e\"", event.id));
  }
  for (const auto& [id, ends] : flow_ends) {
    if (ends.first != 1 || ends.second != 1) {
      problems.push_back(
          fmt::format("flow {}: {} starts and {} ends", id, ends.first, ends.second));
    }
  }
  return problems;
}

}  // namespace ampprof::testing
