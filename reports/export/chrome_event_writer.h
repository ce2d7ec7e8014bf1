#ifndef AMPPROF_REPORTS_EXPORT_CHROME_EVENT_WRITER_H_
#define AMPPROF_REPORTS_EXPORT_CHROME_EVENT_WRITER_H_

// ChromeEventWriter: streams a Trace Event Format document ("JSON Object Format") to an ostream,
// one event at a time, through a buffer it flushes every ~1 MiB; memory stays at that buffer whatever
// the trace's size, also when the stream fails. It knows the format's shapes
// (complete, instant, flow and metadata events), not what they mean; chrome_trace_exporter.cc
// decides that.
//
//   ChromeEventWriter writer(out);
//   writer.BeginDocument(R"("displayTimeUnit":"ns")");
//   writer.Complete("volta_sgemm", "kernel", {pid, tid}, {start, end}, [&](ChromeArgs& args) {
//     args.Int("stream", 7);
//   });
//   RETURN_IF_ERROR(writer.EndDocument());
//
// The Trace Event Format is Google's "Trace Event Format" document (catapult's
// docs/trace-event-format.md points to it); Perfetto's JSON importer reads the same events.

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "src/base/status.h"
#include "src/base/time.h"

namespace ampprof::reports {

struct ChromeTrack {
  uint32_t pid = 0;
  uint32_t tid = 0;
};

// The "args" object of one event, written as its members are added; nothing is written without any.
class ChromeArgs {
 public:
  explicit ChromeArgs(fmt::memory_buffer& out) : out_(out) {}
  void Int(std::string_view key, int64_t value);
  void String(std::string_view key, std::string_view value);
  void Bool(std::string_view key, bool value);
  void Ints(std::string_view key, std::span<const uint32_t> values);
  void Strings(std::string_view key, std::span<const std::string> values);
  void Close();  // the closing brace, when members were written

 private:
  void Key(std::string_view key);

  fmt::memory_buffer& out_;
  bool open_ = false;
};

class ChromeEventWriter {
 public:
  explicit ChromeEventWriter(std::ostream& out) : out_(out) {}

  // Opens the document; `members` are top-level members written before "traceEvents" (JSON text
  // without the surrounding braces, may be empty).
  void BeginDocument(std::string_view members);
  // Closes the document and flushes; an error if any write failed.
  base::Status EndDocument();
  // Whether a write has failed: the document is lost, and the caller can stop producing events. Events
  // given after a failure are dropped.
  bool failed() const { return !out_; }
  // What is held in memory, not yet written: at most about a flush's worth (~1 MiB).
  size_t buffered_bytes() const { return buffer_.size(); }

  // "ph": "X": a slice on `track` over `interval`. `append_args` fills the event's args.
  template <typename AppendArgs>
  void Complete(std::string_view name, std::string_view category, ChromeTrack track,
                base::Interval interval, AppendArgs&& append_args) {
    Open('X', name, category, track, interval.start);
    buffer_.append(std::string_view(",\"dur\":"));
    AppendDuration(interval.duration());
    ChromeArgs args(buffer_);
    append_args(args);
    args.Close();
    Close();
  }
  // "ph": "i" with thread scope: an instant on `track`.
  template <typename AppendArgs>
  void Instant(std::string_view name, std::string_view category, ChromeTrack track,
               base::TimeNs timestamp, AppendArgs&& append_args) {
    Open('i', name, category, track, timestamp);
    buffer_.append(std::string_view(",\"s\":\"t\""));
    ChromeArgs args(buffer_);
    append_args(args);
    args.Close();
    Close();
  }
  // A flow arrow from the slice enclosing `from_time` on `from` to the slice enclosing `to_time` on
  // `to` ("ph": "s", then "ph": "f" with "bp": "e", binding to the enclosing slice rather than the
  // next).
  void Flow(uint64_t id, std::string_view name, std::string_view category, ChromeTrack from,
            base::TimeNs from_time, ChromeTrack to, base::TimeNs to_time);
  // "ph": "M" metadata: process_name, thread_name (a string "name") or process_sort_index,
  // thread_sort_index (an integer "sort_index").
  void ProcessName(uint32_t pid, std::string_view name);
  void ThreadName(ChromeTrack track, std::string_view name);
  void ProcessSortIndex(uint32_t pid, int64_t index);
  void ThreadSortIndex(ChromeTrack track, int64_t index);

 private:
  void Open(char phase, std::string_view name, std::string_view category, ChromeTrack track,
            base::TimeNs timestamp);
  void Close();
  void Metadata(std::string_view name, ChromeTrack track, std::string_view key,
                std::string_view json_value);
  void AppendDuration(base::DurationNs duration);
  void Flush();

  std::ostream& out_;
  fmt::memory_buffer buffer_;
  uint64_t events_ = 0;
};

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_EXPORT_CHROME_EVENT_WRITER_H_
