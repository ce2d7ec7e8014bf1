#ifndef AMPPROF_COLLECTORS_KINETO_KINETO_EVENT_H_
#define AMPPROF_COLLECTORS_KINETO_KINETO_EVENT_H_

// One Chrome-trace event of a PyTorch profiler (Kineto) trace, parsed with simdjson on-demand into the
// fields ampprof reads. Views point into the parser's buffers and the event text: valid until the
// next Parse().
//
// What the events look like (both schemas are read):
//   {"ph": "X", "cat": "kernel", "name": "volta_sgemm_64x64_tn", "pid": 0, "tid": 7,
//    "ts": 1689180448554878, "dur": 139, "args": {"device": 0, "stream": 7, "correlation": 2457,
//    "registers per thread": 126, "shared memory": 8704, "grid": [16, 8, 2], "block": [64, 1, 1]}}
//   2021 (PyTorch 1.8/1.9): "cat": "Kernel" / "Runtime" / "Memcpy" / "Memset" / "Operator", and
//   "tid": "stream 7" or "24572" as strings.
// ts and dur are microseconds, with a fractional part in recent versions; they are kept as their
// JSON text so that they convert to nanoseconds exactly (base::ParseMicrosecondsToNs).

#include <cstdint>
#include <optional>
#include <string_view>

#include <simdjson.h>

namespace ampprof::kineto {

enum class EventCategory {
  kOther,  // not read: python_function, ac2g flows, Trace spans, overhead, instant events, ...
  kKernel,
  kRuntime,
  kDriver,
  kMemcpy,
  kMemset,
  kSync,
  kCpuOp,
  kUserAnnotation,
  kGpuUserAnnotation,
  kMetadata,  // "ph": "M" (process_name, thread_name, ...)
  kMemory,    // "ph": "i", "name": "[memory]": the PyTorch allocator's allocations and frees
};

// "kernel" and the 2021 "Kernel" are the same category, and so on.
EventCategory CategoryOf(std::string_view cat, std::string_view ph);

struct KinetoEvent {
  EventCategory category = EventCategory::kOther;
  std::string_view name;
  // pid and tid are numbers, or strings such as "stream 7" or "24572" (2021); a string's trailing
  // number is taken. nullopt when absent or without a number ("Spans").
  std::optional<int64_t> pid;
  std::optional<int64_t> tid;
  std::string_view ts;   // raw JSON number
  std::string_view dur;  // raw JSON number, may be empty
  std::string_view args;  // raw JSON object, may be empty
};

// The members of "args" that ampprof reads; -1 or empty when absent.
struct EventArgs {
  int64_t device = -1;
  int64_t context = -1;
  int64_t stream = -1;
  int64_t correlation = -1;
  int64_t cbid = -1;
  int64_t registers = -1;
  int64_t shared_memory = -1;
  int64_t bytes = -1;
  int64_t event_id = -1;
  int64_t grid[3] = {0, 0, 0};
  int64_t block[3] = {0, 0, 0};
  std::string_view sync_kind;    // "Event Sync", "Stream Wait Event", ...
  std::string_view name;         // metadata events: process or thread name
  std::string_view input_dims;   // raw JSON, cpu_op with record_shapes
  std::string_view input_types;  // raw JSON
  // cpu_op: autograd's sequence number, shared by a forward op and its backward; "Fwd thread id" is
  // non-zero on the backward ops autograd runs (the forward thread, as the profiler numbers threads).
  std::optional<int64_t> sequence_number;
  std::optional<int64_t> forward_thread;
  // [memory] events (profile_memory=True): "Bytes" (negative for a free), the device, and what the
  // caching allocator holds after the event.
  std::optional<int64_t> memory_bytes;
  std::optional<int64_t> device_type;  // c10::DeviceType: 0 CPU, 1 CUDA
  std::optional<int64_t> device_id;
  std::optional<int64_t> address;
  std::optional<int64_t> total_allocated;
  std::optional<int64_t> total_reserved;
};

class KinetoEventParser {
 public:
  // `json` must be followed by simdjson::SIMDJSON_PADDING readable bytes. False when it is not an
  // object or a field the event needs has the wrong type.
  bool Parse(std::string_view json, KinetoEvent& event);
  // Parses event.args (which Parse() left unparsed, as most events are skipped on their category).
  bool ParseArgs(std::string_view json, EventArgs& args);
  // A parser keeps the buffers of the largest document it parsed (some 6 bytes per byte): after an
  // event of more than kKeptCapacity bytes they are dropped, so that a large event costs its memory
  // only while it is handled. Views into the last event are invalid afterwards.
  void ReleaseLargeBuffers();
  static constexpr size_t kKeptCapacity = 256 << 10;

 private:
  simdjson::ondemand::parser event_parser_;
  simdjson::ondemand::parser args_parser_;
};

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_KINETO_EVENT_H_
