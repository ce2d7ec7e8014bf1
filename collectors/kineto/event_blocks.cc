#include "collectors/kineto/event_blocks.h"

#include <time.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "collectors/kineto/json_scan.h"

namespace ampprof::kineto {
namespace {

// The end (one past the closing bracket) of the object or array that starts at `begin`, counting
// brackets outside strings as JsonEventStream does (so a '{' closed by ']' ends there too, and the
// event is then invalid to simdjson alike); npos if `text` ends first.
size_t EndOfContainer(std::string_view text, size_t begin) {
  const char* const data = text.data();
  const char* p = data + begin;
  const char* const end = data + text.size();
  int64_t depth = 0;
  while (p < end) {
    p = FindFirstOf<'"', '{', '}', '[', ']'>(p, end);
    if (p == end) break;
    const char c = *p++;
    if (c == '"') {
      for (;;) {  // to the closing quote; a backslash takes the byte after it with it
        p = FindFirstOf<'"', '\\'>(p, end);
        if (p == end) return std::string_view::npos;
        if (*p == '"') break;
        p += 2;
        if (p >= end) return std::string_view::npos;
      }
      ++p;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (--depth == 0) {
      return static_cast<size_t>(p - data);
    }
  }
  return std::string_view::npos;
}

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

size_t SkipSeparators(std::string_view text, size_t at) {
  while (at < text.size() && (IsJsonBlank(text[at]) || text[at] == ',')) ++at;
  return at;
}

}  // namespace

void ParseEventBlock(std::string_view text, size_t begin, size_t limit, KinetoEventParser& parser,
                     EventBlock& block) {
  block.events.clear();
  block.strings.Clear();
  block.scanned = 0;
  block.reached_limit = false;
  size_t at = begin;
  for (;;) {
    // Commas and blanks between events are skipped as JsonEventStream skips them (it takes ",," too).
    at = SkipSeparators(text, at);
    block.stop = at;
    if (at >= limit) {
      block.reached_limit = true;
      return;
    }
    if (text[at] != '{') return;  // the end of the array, or not an event: the stream's to read
    const size_t end = EndOfContainer(text, at);
    if (end == std::string_view::npos || end - at > JsonEventStream::kMaxValueBytes) return;
    ParsedEvent event = ParseEvent(parser, text.substr(at, end - at));
    ++block.scanned;
    if (event.outcome != ParsedEvent::Outcome::kSkipped) {
      KeepStrings(event, block.strings);  // before the parser's buffers, which the views point into, go
      block.events.push_back(event);
    }
    parser.ReleaseLargeBuffers();
    at = end;
  }
}

size_t FindLikelyEventStart(std::string_view text, size_t from, size_t to) {
  to = std::min(to, text.size());
  while (from < to) {
    const void* close = std::memchr(text.data() + from, '}', to - from);
    if (close == nullptr) return std::string_view::npos;
    size_t at = static_cast<size_t>(static_cast<const char*>(close) - text.data()) + 1;
    from = at;
    while (at < to && IsJsonBlank(text[at])) ++at;
    if (at >= to || text[at] != ',') continue;
    ++at;
    while (at < to && IsJsonBlank(text[at])) ++at;
    if (at < to && text[at] == '{') return at;
  }
  return std::string_view::npos;
}

ParallelEventParser::ParallelEventParser(const EventBlockOptions& options)
    : options_(options), parsers_(std::max(1u, options.threads)) {
  for (WindowBlocks& set : sets_) set.blocks.resize(parsers_.size());
}

void ParallelEventParser::ParseWindow(std::string_view window, WindowBlocks& set) {
  // Block k starts at the first likely event start after k/N of the window: blocks of about equal size.
  const size_t wanted = std::clamp<size_t>(window.size() / std::max<size_t>(options_.min_block_bytes, 1), 1,
                                           set.blocks.size());
  set.starts.assign(1, 0);
  for (size_t k = 1; k < wanted; ++k) {
    const size_t guess = FindLikelyEventStart(
        window, std::max(window.size() * k / wanted, set.starts.back() + 1), window.size());
    if (guess == std::string_view::npos) break;
    set.starts.push_back(guess);
  }
  const size_t count = set.starts.size();
  std::vector<double> cpu_s(count, 0);
  const auto parse = [&](size_t k) {
    const double start = ThreadCpuSeconds();
    const size_t limit = k + 1 < count ? set.starts[k + 1] : window.size();
    ParseEventBlock(window, set.starts[k], limit, parsers_[k], set.blocks[k]);
    cpu_s[k] = ThreadCpuSeconds() - start;
  };
  {
    std::vector<std::jthread> threads;
    threads.reserve(count - 1);
    for (size_t k = 1; k < count; ++k) threads.emplace_back(parse, k);
    parse(0);
  }
  ++stats_.windows;
  stats_.blocks += count;
  for (const double seconds : cpu_s) stats_.blocks_cpu_s += seconds;
  stats_.slowest_blocks_cpu_s += *std::max_element(cpu_s.begin(), cpu_s.end());
}

void ParallelEventParser::Confirm(WindowBlocks& set) {
  // Block 0 starts between two events (the stream is there); block k's start is confirmed when block
  // k-1 ended exactly there.
  set.confirmed = 0;
  set.taken = 0;
  set.events = 0;
  for (size_t k = 0; k < set.starts.size(); ++k) {
    if (k > 0 && !set.blocks[k - 1].reached_limit) break;  // the stream's to read from there
    if (k > 0 && set.blocks[k - 1].stop != set.starts[k]) {
      ++stats_.guesses_dropped;
      break;
    }
    set.confirmed = k + 1;
    set.taken = set.blocks[k].stop;
    set.events += set.blocks[k].scanned;
  }
}

bool ParallelEventParser::Parse(JsonEventStream& stream, const std::function<void(const ParsedEvent&)>& handle) {
  // The stream may hold more than a window; what follows the window is the padding simdjson needs.
  const auto next_window = [&] {
    const double start = ThreadCpuSeconds();
    const std::string_view window = stream.PeekEvents(options_.window_bytes).substr(0, options_.window_bytes);
    stats_.read_cpu_s += ThreadCpuSeconds() - start;
    return window;
  };
  WindowBlocks* current = &sets_[0];
  WindowBlocks* next = &sets_[1];
  ParseWindow(next_window(), *current);
  Confirm(*current);
  bool any = false;
  while (current->events > 0) {
    any = true;
    // The parsed events hold copies of their strings, so the window's text may go: the next window is
    // read and parsed while this one's events are handed on, in file order, on this thread.
    stream.SkipEvents(current->taken, current->events);
    const std::string_view window = next_window();
    {
      const std::jthread parsing([&] { ParseWindow(window, *next); });
      const double handle_start = ThreadCpuSeconds();
      for (size_t k = 0; k < current->confirmed; ++k) {
        for (const ParsedEvent& event : current->blocks[k].events) handle(event);
      }
      stats_.handle_cpu_s += ThreadCpuSeconds() - handle_start;
    }
    for (EventBlock& block : current->blocks) block.strings.Clear();
    std::swap(current, next);
    Confirm(*current);
  }
  for (EventBlock& block : current->blocks) block.strings.Clear();
  return any;
}

}  // namespace ampprof::kineto
