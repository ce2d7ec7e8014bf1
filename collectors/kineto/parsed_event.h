#ifndef AMPPROF_COLLECTORS_KINETO_PARSED_EVENT_H_
#define AMPPROF_COLLECTORS_KINETO_PARSED_EVENT_H_

// One traceEvents element, parsed as far as the importer needs before it turns it into records: its
// fields and args (kineto_event.h) and its times in nanoseconds, or the verdict that it is skipped or
// invalid. Parsing needs nothing from the events before it, so it can run on any thread; turning events
// into records (kineto_importer.cc) runs in file order on one.
//
//   ParsedEvent event = ParseEvent(parser, json);          // views into the parser and `json`
//   KeepStrings(event, arena);                             // now views into the arena
//
// The serial import uses the views at once; the parallel one (event_blocks.h) keeps a block's events
// until the blocks before it are handled, so it copies the strings the importer reads into an arena.

#include <memory>
#include <string_view>
#include <vector>

#include "collectors/kineto/kineto_event.h"
#include "src/base/time.h"

namespace ampprof::kineto {

struct ParsedEvent {
  enum class Outcome : uint8_t {
    kSkipped,   // a category that is not read, or a metadata event that names nothing
    kInvalid,   // counted in json_invalid_events
    kMetadata,  // process_name or thread_name, with args.name
    kActivity,  // a kernel, call, copy, range, memory event ...: start and end are set
  };
  Outcome outcome = Outcome::kSkipped;
  KinetoEvent event;
  EventArgs args;
  base::TimeNs start = 0;
  base::TimeNs end = 0;
};

ParsedEvent ParseEvent(KinetoEventParser& parser, std::string_view json);

// Bump allocation for copies of strings that must outlive the parser's buffers; emptied all at once.
// Clear() keeps the chunks for the next window's strings: freeing and allocating them again, window after
// window, cost the parallel import a page fault per page (glibc hands freed chunks at the top of a
// thread's heap back to the system) and malloc's arena lock, taken by the thread that parses a block and
// the one that empties it.
class StringArena {
 public:
  std::string_view Copy(std::string_view text);
  void Clear();

 private:
  static constexpr size_t kChunk = 64 << 10;
  std::vector<std::unique_ptr<char[]>> chunks_;  // of kChunk bytes, kept by Clear()
  size_t current_ = 0;                           // the chunk being filled (when there are chunks)
  size_t used_ = 0;                              // bytes of chunks_[current_] taken
  std::vector<std::unique_ptr<char[]>> large_;   // strings over kChunk / 4, one each, freed by Clear()
};

// Points the strings the importer reads (name, process or thread name, sync kind, input shapes and
// types) at copies in `arena`; the raw ts, dur and args texts, read by then, are cleared.
void KeepStrings(ParsedEvent& parsed, StringArena& arena);

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_PARSED_EVENT_H_
