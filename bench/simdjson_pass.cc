// The floor that docs/performance.md compares the Kineto import with: one thread, simdjson's on-demand
// API, over a whole Chrome-trace file, touching every event (each field's key, and the "ph", "cat",
// "name" and "ts" values an importer needs to tell events apart) and nothing more: no records, no
// model. It loads the file into memory first, as simdjson requires (padded), so its peak memory is
// the file's size and more.
//
//   ampprof_simdjson_pass trace.json    # prints events, kernels, load and parse seconds

#include <chrono>
#include <cstdio>
#include <string_view>

#include <simdjson.h>

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  namespace od = simdjson::ondemand;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s TRACE.json\n", argv[0]);
    return 2;
  }
  const auto load_start = std::chrono::steady_clock::now();
  simdjson::padded_string json;
  if (simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 1;
  }
  const double load_s = SecondsSince(load_start);
  const auto parse_start = std::chrono::steady_clock::now();
  od::parser parser;
  od::document document;
  od::array events;
  if (parser.iterate(json).get(document) || document["traceEvents"].get_array().get(events)) {
    std::fprintf(stderr, "%s: not a Chrome trace\n", argv[1]);
    return 1;
  }
  uint64_t count = 0, kernels = 0, ts_bytes = 0;
  for (auto element : events) {
    od::object event;
    if (element.get_object().get(event)) return 1;
    for (auto field : event) {
      std::string_view key, text;
      if (field.unescaped_key().get(key)) return 1;
      if (key == "cat") {
        if (field.value().get_string().get(text)) return 1;
        kernels += text == "kernel";
      } else if (key == "ph" || key == "name") {
        if (field.value().get_string().get(text)) return 1;
      } else if (key == "ts") {
        od::value value;
        if (field.value().get(value)) return 1;
        ts_bytes += value.raw_json_token().size();
      }
    }
    ++count;
  }
  std::printf("implementation %s ", simdjson::get_active_implementation()->name().c_str());
  std::printf("events %llu kernels %llu ts_bytes %llu load_s %.3f parse_s %.3f\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(kernels),
              static_cast<unsigned long long>(ts_bytes), load_s, SecondsSince(parse_start));
  return 0;
}
