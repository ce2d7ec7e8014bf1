#ifndef AMPPROF_COLLECTORS_KINETO_EVENT_BLOCKS_H_
#define AMPPROF_COLLECTORS_KINETO_EVENT_BLOCKS_H_

// The parallel part of the Kineto import: the traceEvents array, read a window at a time, split into
// blocks at event boundaries, each block's events found and parsed (simdjson) by whichever thread takes
// the block, and the parsed events handed on in file order, so that what the importer builds from them is what the
// one-thread import builds.
//
//   ParallelEventParser parallel({.threads = 8});
//   while (...) {
//     if (stream.between_events()) parallel.Parse(stream, [&](const ParsedEvent& event) { ... });
//     ... stream.Next() reads what the blocks left: the end of the array, an oversized or malformed
//     event, a cut file ...
//   }
//
// Where to split is guessed: the first "}, {" (blanks allowed) after each 1/N of the window. A guess can
// be wrong (inside a string that holds "}, {"), so each guess is checked after the fact: block k-1 is
// scanned from its start, which is known to lie between two events, tracking strings and brackets as
// the one-thread scanner does; its last event must end exactly where block k starts. Where it does not,
// block k and those after it are dropped and the next window starts where block k-1 really ended.
// Anything a block cannot take (the ']' that ends the array, a byte that cannot start an event, an event
// over JsonEventStream::kMaxValueBytes, an event the data ends inside) stops it, and when a whole window
// makes no progress the caller's JsonEventStream reads on from there, as it would have without threads:
// same items, same errors, same counts.
//
// The next window is read and parsed while the events of the one before are handed on: the reading
// thread starts the window's blocks on the other threads, hands on the events of the window before (the
// one step that must run in file order), then parses whatever blocks are left. A window splits into
// several blocks per thread, taken by whichever thread is free, so the reading thread's share of the
// parsing shrinks by what handing on the events took, and no thread waits for a slower one's single
// block. The threads live as long as the parser: a thread started per block and window left the second
// block of each window waiting some 2 ms for its thread on a 2-core machine, a third of the window.
//
// Memory: the window (window_bytes of JSON text) and the parsed events of two windows (a few hundred
// bytes each, the strings they keep included): about four times window_bytes, whatever the number of
// threads.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string_view>
#include <thread>
#include <vector>

#include "collectors/kineto/json_event_stream.h"
#include "collectors/kineto/parsed_event.h"

namespace ampprof::kineto {

struct EventBlockOptions {
  // Threads that parse: the calling (reading) thread and threads - 1 more, at most one per block a
  // window can have. The importer makes no ParallelEventParser for 1: its one-thread import is simpler.
  unsigned threads = 1;
  size_t window_bytes = size_t{4} << 20;  // JSON text read and split at a time
  size_t min_block_bytes = 128 << 10;  // a window splits into fewer blocks below this
};

// A run of a block's events, scanned and parsed. Internal to event_blocks.cc; here for the tests.
struct EventBlock {
  std::vector<ParsedEvent> events;  // what the importer reads (skipped events are only counted)
  StringArena strings;              // the events' names and args
  uint64_t scanned = 0;             // events scanned, skipped ones included
  size_t stop = 0;                  // where the scan stopped, between two events
  bool reached_limit = false;       // stopped because the next event starts at or after `limit`
  double cpu_s = 0;                 // CPU time the block took (its thread's clock)
};

// Scans `text` from `begin`, which must lie between two events, event after event, until the next event
// would start at or after `limit`, or something that is not an event (or is one too large, or is cut by
// the end of `text`) comes. `text` must be followed by JsonEventStream::kPadding readable bytes.
void ParseEventBlock(std::string_view text, size_t begin, size_t limit, KinetoEventParser& parser,
                     EventBlock& block);

// Where an event probably starts at or after `from` (before `to`): the '{' of the first "}, {". npos if
// there is none.
size_t FindLikelyEventStart(std::string_view text, size_t from, size_t to);

// What the threads did, for the log (`--log-level info`) and bench/kineto_import_bench.sh: CPU time
// (each thread's own clock), so that it says what N idle cores would take even on a busy machine.
struct EventBlockStats {
  uint64_t windows = 0;
  uint64_t blocks = 0;
  uint64_t guesses_dropped = 0;  // wrong splits: a block before did not end where the next one started
  double blocks_cpu_s = 0;       // scanning and parsing, all blocks
  double reading_thread_blocks_cpu_s = 0;  // the part of it the reading thread took
  double handle_cpu_s = 0;       // handing events on in file order (making records), the reading thread
  double read_cpu_s = 0;         // reading (and inflating) the windows, the same thread
  double wait_s = 0;             // wall time it waited for the other threads' last blocks
};

class ParallelEventParser {
 public:
  explicit ParallelEventParser(const EventBlockOptions& options);
  ~ParallelEventParser();
  ParallelEventParser(const ParallelEventParser&) = delete;
  ParallelEventParser& operator=(const ParallelEventParser&) = delete;

  const EventBlockStats& stats() const { return stats_; }

  // Reads events from `stream` (between_events()) window by window, handing each one that is not
  // skipped to `handle` in file order, until a window makes no progress. False if none was read.
  // What `handle` (or a thread, out of memory) throws passes on once no thread reads the stream's
  // buffer any more, so the caller may let the stream go; the parser may be used again.
  bool Parse(JsonEventStream& stream, const std::function<void(const ParsedEvent&)>& handle);

 private:
  // One window's blocks: while one set's events are handed on, the next window is parsed into the other.
  struct WindowBlocks {
    std::vector<EventBlock> blocks;  // the first starts.size() are this window's; grown, never shrunk
    std::vector<size_t> starts;      // of each block in the window
    size_t confirmed = 0;            // blocks whose start is confirmed (Confirm)
    size_t taken = 0;                // bytes of the window they cover
    uint64_t events = 0;             // events they scanned
  };

  // Splits `window` into blocks and lets the other threads start on them.
  void StartWindow(std::string_view window, WindowBlocks& set);
  // Parses the started window's blocks no thread has taken yet, on the calling (reading) thread, then
  // waits until the other threads' blocks are done too; rethrows what one of them threw.
  void FinishWindow();
  // Waits until no other thread is inside the started window and closes it; what one of them threw.
  std::exception_ptr CloseWindow();
  // Leaves the started window unfinished: no thread takes another block of it, and it returns once
  // every thread is out of it. For an exception while a window is open (see Parse).
  void AbandonWindow();
  // Takes blocks of the started window until none is left, parsing with parsers_[parser_index].
  void ParseBlocks(size_t parser_index, std::string_view window, WindowBlocks& set);
  // What each thread but the reading one does: enter each window while it is open, take blocks.
  void Work(const std::stop_token& stop, size_t parser_index);
  bool ParseWindows(JsonEventStream& stream, const std::function<void(const ParsedEvent&)>& handle);
  // Which blocks' starts are confirmed, and what they cover.
  void Confirm(WindowBlocks& set);

  EventBlockOptions options_;
  std::vector<KinetoEventParser> parsers_;  // one per thread; [0] is the reading thread's
  WindowBlocks sets_[2];
  EventBlockStats stats_;

  // The window being parsed, and the threads' hand-over. Guarded by mutex_, but for next_block_ (atomic)
  // and window_ and set_, which only the reading thread writes, and only while no thread is inside a
  // window (before it opens one).
  std::mutex mutex_;
  std::condition_variable_any work_;  // a window was started, or the parser is going
  std::condition_variable done_;      // a thread finished its part of the window
  uint64_t window_number_ = 0;        // of the window started last: the other threads wait for a new one
  bool window_open_ = false;          // from StartWindow until FinishWindow has seen every thread out
  std::string_view window_;
  WindowBlocks* set_ = nullptr;
  std::atomic<size_t> next_block_{0};  // the next block no thread has taken
  static constexpr size_t kNoBlockLeft = SIZE_MAX / 2;  // past any window's blocks, far from wrapping
  // Other threads inside the window. A thread enters before it takes a block, so once the reading
  // thread has found no block left, none inside means every block is parsed.
  size_t threads_inside_ = 0;
  std::exception_ptr thread_error_;   // the first exception another thread met in the window
  std::vector<std::jthread> threads_;  // last: they stop (and are joined) before the rest goes
};

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_EVENT_BLOCKS_H_
