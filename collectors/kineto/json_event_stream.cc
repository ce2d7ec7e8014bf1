#include "collectors/kineto/json_event_stream.h"

#include <cstring>

#include "collectors/kineto/json_scan.h"

namespace ampprof::kineto {
namespace {

// Reads grow to kReadBlock; the buffer starts small so that small files (and fuzz inputs) stay cheap.
constexpr size_t kReadBlock = 4 << 20;
constexpr size_t kInitialBuffer = 64 << 10;

bool IsWhitespace(char c) { return IsJsonBlank(c); }

}  // namespace

const char* JsonEventStream::FindQuoteOrBackslash(const char* p, const char* end) {
  return FindFirstOf<'"', '\\'>(p, end);
}

const char* JsonEventStream::FindStructural(const char* p, const char* end) {
  return FindFirstOf<'"', '{', '}', '[', ']'>(p, end);
}

JsonEventStream::JsonEventStream(DecompressingReader& reader) : reader_(reader) {
  buffer_.resize(kInitialBuffer + kPadding);
}

base::StatusOr<bool> JsonEventStream::Fill() {
  if (cursor_ < end_) return true;
  if (!deferred_error_.ok()) return deferred_error_;
  if (eof_) return false;
  // An item past the limit is not kept: its scan goes on from cursor_ (== end_), over new data only.
  if (end_ - anchor_ > kMaxValueBytes) {
    oversized_ = true;
    anchor_ = cursor_;
  }
  // Keep the item being scanned (from anchor_), drop what is before it.
  if (anchor_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + anchor_, end_ - anchor_);
    consumed_bytes_ += anchor_;
    cursor_ -= anchor_;
    end_ -= anchor_;
    anchor_ = 0;
  }
  // Grow while the data keeps coming (a big file reads in kReadBlock steps), or when one value needs
  // more room than is free. What is kept is at most kMaxValueBytes, so twice that always has room.
  const size_t capacity = buffer_.size() - kPadding;
  if (((last_read_filled_ && capacity < kReadBlock) || capacity - end_ < capacity / 2) &&
      capacity < std::max(kReadBlock, 2 * kMaxValueBytes)) {
    buffer_.resize(buffer_.size() * 2);
  }
  const size_t wanted = buffer_.size() - kPadding - end_;
  ASSIGN_OR_RETURN(const size_t got, reader_.Read(buffer_.data() + end_, wanted));
  last_read_filled_ = got == wanted;
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += got;
  std::memset(buffer_.data() + end_, 0, std::min(kPadding, buffer_.size() - end_));
  return true;
}

std::string_view JsonEventStream::PeekEvents(size_t bytes) {
  // Keep what is not read yet, at the start of the buffer.
  std::memmove(buffer_.data(), buffer_.data() + cursor_, end_ - cursor_);
  consumed_bytes_ += cursor_;
  end_ -= cursor_;
  cursor_ = 0;
  anchor_ = 0;
  if (buffer_.size() < bytes + kPadding) buffer_.resize(bytes + kPadding);
  while (end_ < bytes && !eof_ && deferred_error_.ok()) {
    auto got = reader_.Read(buffer_.data() + end_, buffer_.size() - kPadding - end_);
    if (!got.ok()) {
      deferred_error_ = got.status();
    } else if (*got == 0) {
      eof_ = true;
    } else {
      end_ += *got;
    }
  }
  std::memset(buffer_.data() + end_, 0, std::min(kPadding, buffer_.size() - end_));
  return std::string_view(buffer_.data(), end_);
}

void JsonEventStream::SkipEvents(size_t bytes, uint64_t events) {
  cursor_ += bytes;
  anchor_ = cursor_;
  events_ += events;
}

base::StatusOr<bool> JsonEventStream::SkipWhitespace() {
  for (;;) {
    ASSIGN_OR_RETURN(const bool more, Fill());
    if (!more) return false;
    while (cursor_ < end_ && IsWhitespace(buffer_[cursor_])) ++cursor_;
    if (cursor_ < end_) return true;
  }
}

base::StatusOr<bool> JsonEventStream::SkipString() {
  ++cursor_;  // the opening quote
  for (;;) {
    ASSIGN_OR_RETURN(const bool more, Fill());
    if (!more) return false;
    const char* data = buffer_.data();
    while (cursor_ < end_) {
      const char c = data[cursor_];
      if (c == '\\') {
        if (cursor_ + 1 >= end_) break;  // the escaped byte is in the next block
        cursor_ += 2;
        continue;
      }
      ++cursor_;
      if (c == '"') return true;
    }
    if (cursor_ + 1 == end_ && data[cursor_] == '\\') {
      // A backslash ends the block: make sure the byte it escapes is read with it.
      ++cursor_;
      ASSIGN_OR_RETURN(const bool escaped, Fill());
      if (!escaped) return false;
      ++cursor_;
    }
  }
}

base::StatusOr<bool> JsonEventStream::SkipValue() {
  ASSIGN_OR_RETURN(const bool more, Fill());
  if (!more) return false;
  const char first = buffer_[cursor_];
  if (first == '"') return SkipString();
  if (first != '{' && first != '[') {  // a number, true, false or null: up to the next delimiter
    for (;;) {
      while (cursor_ < end_) {
        const char c = buffer_[cursor_];
        if (c == ',' || c == '}' || c == ']' || IsWhitespace(c)) return true;
        ++cursor_;
      }
      ASSIGN_OR_RETURN(const bool again, Fill());
      if (!again) return true;  // a scalar may end the data; the caller decides whether that is fine
    }
  }
  // An object or array: count brackets outside strings until the one that closes `first`. The scan
  // state lives in members so that it resumes where it stopped when a block ends mid-value.
  scan_ = ScanState{};
  for (;;) {
    if (ScanContainer()) return true;
    ASSIGN_OR_RETURN(const bool again, Fill());
    if (!again) return false;
  }
}

bool JsonEventStream::ScanContainer() {
  const char* const data = buffer_.data();
  const char* p = data + cursor_;
  const char* const end = data + end_;
  while (p < end) {
    if (scan_.in_string) {
      if (scan_.escaped) {
        scan_.escaped = false;
        ++p;
        continue;
      }
      p = FindQuoteOrBackslash(p, end);
      if (p == end) break;
      if (*p == '\\') {
        scan_.escaped = true;
      } else {
        scan_.in_string = false;
      }
      ++p;
      continue;
    }
    p = FindStructural(p, end);
    if (p == end) break;
    const char c = *p++;
    if (c == '"') {
      scan_.in_string = true;
    } else if (c == '{' || c == '[') {
      ++scan_.depth;
    } else if (--scan_.depth == 0) {  // '}' or ']'
      cursor_ = static_cast<size_t>(p - data);
      return true;
    }
  }
  cursor_ = end_;
  return false;
}

base::Status JsonEventStream::Unexpected(std::string_view expected) const {
  const char c = buffer_[cursor_];
  const bool printable = c >= 0x20 && c < 0x7f;
  return base::InvalidDataError("byte {}: expected {}, found {}", OffsetOf(cursor_), expected,
                                printable ? fmt::format("'{}'", c) : fmt::format("byte 0x{:02x}", static_cast<uint8_t>(c)));
}

base::StatusOr<JsonEventStream::Item> JsonEventStream::Next() {
  for (;;) {
    anchor_ = cursor_;
    oversized_ = false;
    ASSIGN_OR_RETURN(const bool more, SkipWhitespace());
    if (!more) {
      // The data ended. Fine after the document closed; anywhere else the file was cut.
      if (state_ != State::kDone) truncated_ = state_ != State::kStart || OffsetOf(end_) > 0;
      if (state_ == State::kStart && OffsetOf(end_) == 0) {
        return base::InvalidDataError("the file holds no JSON (it is empty)");
      }
      return Item{};
    }
    anchor_ = cursor_;
    item_offset_ = OffsetOf(anchor_);
    const char c = buffer_[cursor_];
    switch (state_) {
      case State::kDone:
        return Unexpected("nothing after the end of the JSON document");
      case State::kStart:
        if (c == '\xef') {  // a UTF-8 byte-order mark
          cursor_ += 1;
          while (cursor_ < end_ && (buffer_[cursor_] == '\xbb' || buffer_[cursor_] == '\xbf')) ++cursor_;
          continue;
        }
        if (c == '[') {
          bare_array_ = true;
          saw_event_array_ = true;
          state_ = State::kEvents;
          ++cursor_;
          continue;
        }
        if (c != '{') return Unexpected("a JSON object or array (the start of a Chrome trace)");
        state_ = State::kMemberOrEnd;
        ++cursor_;
        continue;
      case State::kMemberOrEnd: {
        if (c == '}') {
          ++cursor_;
          state_ = State::kDone;
          continue;
        }
        if (c == ',') {
          ++cursor_;
          continue;
        }
        if (c != '"') return Unexpected("a member name");
        const size_t key_start = cursor_;
        ASSIGN_OR_RETURN(const bool key_closed, SkipString());
        if (!key_closed) return Next();  // the data ended inside the key: report the end
        const size_t key_end = cursor_;
        ASSIGN_OR_RETURN(const bool has_colon, SkipWhitespace());
        if (!has_colon) return Next();
        if (buffer_[cursor_] != ':') return Unexpected("':' after a member name");
        ++cursor_;
        ASSIGN_OR_RETURN(const bool has_value, SkipWhitespace());
        if (!has_value) return Next();
        // Offsets, not pointers: Fill() may move the buffer while the value is scanned.
        const size_t key_offset = key_start - anchor_;
        const size_t key_length = key_end - key_start;
        if (!oversized_ && std::string_view(buffer_.data() + key_start, key_length) == "\"traceEvents\"" &&
            buffer_[cursor_] == '[') {
          ++cursor_;
          saw_event_array_ = true;
          state_ = State::kEvents;
          continue;
        }
        const size_t value_offset = cursor_ - anchor_;
        ASSIGN_OR_RETURN(const bool complete, SkipValue());
        if (!complete) return Next();
        if (oversized_ || cursor_ - anchor_ > kMaxValueBytes) return Item{ItemKind::kOversized, {}, {}, item_offset_};
        Item item;
        item.kind = ItemKind::kMember;
        item.key = std::string_view(buffer_.data() + anchor_ + key_offset + 1, key_length - 2);
        item.json = std::string_view(buffer_.data() + anchor_ + value_offset,
                                     cursor_ - anchor_ - value_offset);
        item.offset = OffsetOf(anchor_ + value_offset);
        return item;
      }
      case State::kEvents: {
        if (c == ']') {
          ++cursor_;
          state_ = bare_array_ ? State::kDone : State::kMemberOrEnd;
          continue;
        }
        if (c == ',') {
          ++cursor_;
          continue;
        }
        if (c != '{') return Unexpected("an event object in traceEvents");
        ASSIGN_OR_RETURN(const bool complete, SkipValue());
        if (!complete) return Next();
        ++events_;
        // Past the limit, but held whole because it fitted in the buffer: skipped all the same.
        if (oversized_ || cursor_ - anchor_ > kMaxValueBytes) return Item{ItemKind::kOversized, {}, {}, item_offset_};
        Item item;
        item.kind = ItemKind::kEvent;
        item.json = std::string_view(buffer_.data() + anchor_, cursor_ - anchor_);
        item.offset = OffsetOf(anchor_);
        return item;
      }
    }
  }
}

}  // namespace ampprof::kineto
