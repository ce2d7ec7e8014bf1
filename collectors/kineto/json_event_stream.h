#ifndef AMPPROF_COLLECTORS_KINETO_JSON_EVENT_STREAM_H_
#define AMPPROF_COLLECTORS_KINETO_JSON_EVENT_STREAM_H_

// Splits a Chrome-trace JSON document into the parts an importer needs, without holding the document in
// memory: each element of the top-level "traceEvents" array, and each other top-level member
// ("deviceProperties", "distributedInfo", ...), one at a time, as JSON text. Traces are gigabytes; their
// events are a few hundred bytes each, so memory stays at one read block plus the largest single value.
//
//   JsonEventStream stream(reader);
//   for (;;) {
//     ASSIGN_OR_RETURN(JsonEventStream::Item item, stream.Next());
//     if (item.kind == JsonEventStream::ItemKind::kEnd) break;
//     ... item.json is one event (kEvent) or the value of member item.key (kMember) ...
//   }
//
// The scanner checks structure (brackets, strings, commas) but not values; each item is then parsed
// on its own (simdjson on-demand), which validates it. A document that is a bare array (Chrome's "JSON
// array format") is all events. Views stay valid until the next call and are followed by at least
// kPadding readable bytes, as simdjson requires.
//
// An item larger than kMaxValueBytes (a 1 GB kernel name inflated from a 1 MB gzip file) is scanned
// to its end without being kept, and comes out as kOversized: memory stays bounded whatever the file
// holds, and the rest of the trace is read.

#include <cstdint>
#include <string_view>
#include <vector>

#include "collectors/kineto/decompressing_reader.h"
#include "src/base/status.h"

namespace ampprof::kineto {

class JsonEventStream {
 public:
  static constexpr size_t kPadding = 64;  // >= SIMDJSON_PADDING
  // The largest event or top-level member kept: a bound on memory whatever the file holds. Real
  // events are a few hundred bytes, a few KiB with CUTLASS kernel names, up to some 100 KiB for an
  // op with the shapes of thousands of inputs. simdjson needs about 6 bytes per byte parsed, and an
  // event's args are parsed again on their own, so an event at the limit costs some 30 MiB at once.
  static constexpr size_t kMaxValueBytes = size_t{2} << 20;

  enum class ItemKind { kEvent, kMember, kOversized, kEnd };
  struct Item {
    ItemKind kind = ItemKind::kEnd;
    std::string_view key;   // kMember only
    std::string_view json;  // the value's text (not for kOversized)
    uint64_t offset = 0;    // where it starts in the (uncompressed) document
  };

  explicit JsonEventStream(DecompressingReader& reader);

  // kEnd at the end of the document, or where the data ended early (see truncated()). Malformed
  // structure is an error naming the byte offset.
  base::StatusOr<Item> Next();

  // True when the data ended before the document was complete (a cut file).
  bool truncated() const { return truncated_; }
  uint64_t events() const { return events_; }
  // True once a traceEvents array (or a bare top-level array) has been entered.
  bool saw_event_array() const { return saw_event_array_; }

  // Bulk access for the parallel importer (event_blocks.h), which splits the event array into blocks
  // parsed on several threads and hands back to Next() whatever it does not take (the end of the array,
  // a malformed or oversized event, a cut file), so that those read exactly as they do here.
  //
  // True between two events of the event array: what follows is commas, blanks, an event or the ']'.
  bool between_events() const { return state_ == State::kEvents; }
  // The text from here on, read up to at least `bytes` bytes (fewer at the end of the data), followed by
  // kPadding readable bytes; valid until the next call. A read error is not returned here but by the
  // Next() that needs the data past what was read, as if the text had been read item by item.
  std::string_view PeekEvents(size_t bytes);
  // Marks the first `bytes` bytes of the last PeekEvents() as read, `events` events among them. They
  // must end between two events.
  void SkipEvents(size_t bytes, uint64_t events);

 private:
  enum class State { kStart, kMemberOrEnd, kEvents, kDone };

  // Makes at least one more byte available at cursor_ (reading, compacting or growing the buffer).
  // False at the end of the data. When the item being scanned passes kMaxValueBytes, its bytes are
  // dropped (oversized_), keeping only the scan's state.
  base::StatusOr<bool> Fill();
  // Skips whitespace; false at the end of the data.
  base::StatusOr<bool> SkipWhitespace();
  // Advances cursor_ past the JSON value that starts there. False if the data ends inside it.
  base::StatusOr<bool> SkipValue();
  // Advances cursor_ past a string whose opening quote is at cursor_.
  base::StatusOr<bool> SkipString();
  // Scans the object or array that starts at the value being skipped, from cursor_ on; true when it
  // closed (cursor_ just after it), false when the data in the buffer ran out first.
  bool ScanContainer();
  static const char* FindQuoteOrBackslash(const char* p, const char* end);
  static const char* FindStructural(const char* p, const char* end);
  base::Status Unexpected(std::string_view expected) const;
  uint64_t OffsetOf(size_t position) const { return consumed_bytes_ + position; }

  struct ScanState {
    int64_t depth = 0;
    bool in_string = false;
    bool escaped = false;
  };

  DecompressingReader& reader_;
  ScanState scan_;
  std::vector<char> buffer_;
  size_t cursor_ = 0;     // next byte to look at
  size_t end_ = 0;        // end of valid data in buffer_
  size_t anchor_ = 0;     // start of the item being scanned: bytes before it may be discarded
  uint64_t consumed_bytes_ = 0;  // document offset of buffer_[0]
  uint64_t item_offset_ = 0;     // document offset of the item being scanned
  bool oversized_ = false;       // the item passed kMaxValueBytes and is no longer kept
  State state_ = State::kStart;
  bool bare_array_ = false;
  bool truncated_ = false;
  bool eof_ = false;
  bool last_read_filled_ = false;
  bool saw_event_array_ = false;
  uint64_t events_ = 0;
  base::Status deferred_error_;  // a read error met by PeekEvents(), returned when Fill() gets there
};

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_JSON_EVENT_STREAM_H_
