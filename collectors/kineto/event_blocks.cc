#include "collectors/kineto/event_blocks.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <system_error>
#include <thread>
#include <utility>

#include "collectors/kineto/json_scan.h"
#include "src/base/logging.h"

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
  block.reached_limit = false;
  // Counted in locals and stored once: blocks next to each other in the window's vector are parsed
  // at the same time, and their ends share a cache line with the neighbour's start.
  uint64_t scanned = 0;
  size_t at = begin;
  for (;;) {
    // Commas and blanks between events are skipped as JsonEventStream skips them (it takes ",," too).
    at = SkipSeparators(text, at);
    if (at >= limit) {
      block.reached_limit = true;
      break;
    }
    if (text[at] != '{') break;  // the end of the array, or not an event: the stream's to read
    const size_t end = EndOfContainer(text, at);
    if (end == std::string_view::npos || end - at > JsonEventStream::kMaxValueBytes) break;
    ParsedEvent event = ParseEvent(parser, text.substr(at, end - at));
    ++scanned;
    if (event.outcome != ParsedEvent::Outcome::kSkipped) {
      KeepStrings(event, block.strings);  // before the parser's buffers, which the views point into, go
      block.events.push_back(event);
    }
    parser.ReleaseLargeBuffers();
    at = end;
  }
  block.stop = at;
  block.scanned = scanned;
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
    : options_(options),
      // A thread beyond the blocks a window can have would only be woken and waited for.
      parsers_(std::clamp<size_t>(options.threads, 1,
                                  std::max<size_t>(1, options.window_bytes / std::max<size_t>(options.min_block_bytes, 1)))) {
  threads_.reserve(parsers_.size() - 1);
  for (size_t parser_index = 1; parser_index < parsers_.size(); ++parser_index) {
    try {
      threads_.emplace_back([this, parser_index](const std::stop_token& stop) { Work(stop, parser_index); });
    } catch (const std::system_error& error) {
      // Out of threads (a container's limit, say): the blocks are taken by the threads there are.
      base::LogWarning("parallel import: {} of {} threads started ({})", threads_.size() + 1, parsers_.size(),
                       error.what());
      break;
    }
  }
}

// threads_ is destroyed first: each thread is asked to stop, woken, and joined.
ParallelEventParser::~ParallelEventParser() = default;

void ParallelEventParser::Work(const std::stop_token& stop, size_t parser_index) {
  uint64_t last_window_entered = 0;
  for (;;) {
    std::string_view window;
    WindowBlocks* set = nullptr;
    {
      std::unique_lock lock(mutex_);
      // Only while the window is open: a thread that wakes after the reading thread has finished the
      // window must not enter it, or it could take a block of the next one (next_block_ is reset for
      // it) and parse it out of the old window into the old set.
      if (!work_.wait(lock, stop, [&] { return window_open_ && window_number_ != last_window_entered; })) {
        return;  // stop requested
      }
      last_window_entered = window_number_;
      window = window_;
      set = set_;
      ++threads_inside_;  // the window stays until this thread is out (FinishWindow waits for it)
    }
    std::exception_ptr error;
    try {
      ParseBlocks(parser_index, window, *set);
    } catch (...) {  // out of memory: for the reading thread to throw, not std::terminate here
      error = std::current_exception();
    }
    {
      const std::lock_guard lock(mutex_);
      if (error && !thread_error_) thread_error_ = error;
      --threads_inside_;
    }
    done_.notify_one();
  }
}

void ParallelEventParser::ParseBlocks(size_t parser_index, std::string_view window, WindowBlocks& set) {
  const size_t count = set.starts.size();
  for (size_t k = next_block_.fetch_add(1); k < count; k = next_block_.fetch_add(1)) {
    const double start = ThreadCpuSeconds();
    const size_t limit = k + 1 < count ? set.starts[k + 1] : window.size();
    ParseEventBlock(window, set.starts[k], limit, parsers_[parser_index], set.blocks[k]);
    set.blocks[k].cpu_s = ThreadCpuSeconds() - start;
  }
}

void ParallelEventParser::StartWindow(std::string_view window, WindowBlocks& set) {
  // Several blocks per thread, so that a thread that comes late (the reading thread, after handing on
  // the window before) or runs slow takes fewer; each at least min_block_bytes, so that a block's cost
  // stays well above taking it.
  constexpr size_t kBlocksPerThread = 8;
  const size_t wanted = std::clamp<size_t>(window.size() / std::max<size_t>(options_.min_block_bytes, 1), 1,
                                           kBlocksPerThread * parsers_.size());
  set.starts.assign(1, 0);
  for (size_t k = 1; k < wanted; ++k) {
    // Block k starts at the first likely event start after k/N of the window: blocks of about equal size.
    const size_t guess = FindLikelyEventStart(
        window, std::max(window.size() * k / wanted, set.starts.back() + 1), window.size());
    if (guess == std::string_view::npos) break;
    set.starts.push_back(guess);
  }
  if (set.blocks.size() < set.starts.size()) set.blocks.resize(set.starts.size());
  {
    const std::lock_guard lock(mutex_);
    window_ = window;
    set_ = &set;
    next_block_.store(0);
    ++window_number_;
    window_open_ = true;
  }
  work_.notify_all();
}

void ParallelEventParser::FinishWindow() {
  WindowBlocks& set = *set_;
  const double start = ThreadCpuSeconds();
  ParseBlocks(0, window_, set);
  stats_.reading_thread_blocks_cpu_s += ThreadCpuSeconds() - start;
  const auto wait_start = std::chrono::steady_clock::now();
  if (std::exception_ptr error = CloseWindow()) std::rethrow_exception(error);
  stats_.wait_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
  ++stats_.windows;
  stats_.blocks += set.starts.size();
  for (size_t k = 0; k < set.starts.size(); ++k) stats_.blocks_cpu_s += set.blocks[k].cpu_s;
}

std::exception_ptr ParallelEventParser::CloseWindow() {
  std::unique_lock lock(mutex_);
  // No block is left to take; a thread that took one is inside until it is parsed. One that woke
  // late for this window takes nothing, but must be out before the next window resets next_block_.
  done_.wait(lock, [&] { return threads_inside_ == 0; });
  window_open_ = false;  // under the same lock: no thread enters it from here on
  return std::exchange(thread_error_, nullptr);
}

void ParallelEventParser::AbandonWindow() {
  next_block_.store(kNoBlockLeft);  // the threads inside take no further block
  CloseWindow();  // what another thread threw goes with the exception already on its way
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
  try {
    return ParseWindows(stream, handle);
  } catch (...) {
    // handle() threw (or memory ran out) while the other threads may be parsing the next window out of
    // the stream's buffer: they must be out of it before the caller can let the stream go, and out of
    // the window before this parser starts another.
    AbandonWindow();
    throw;
  }
}

bool ParallelEventParser::ParseWindows(JsonEventStream& stream,
                                       const std::function<void(const ParsedEvent&)>& handle) {
  // The stream may hold more than a window; what follows the window is the padding simdjson needs.
  const auto next_window = [&] {
    const double start = ThreadCpuSeconds();
    const std::string_view window = stream.PeekEvents(options_.window_bytes).substr(0, options_.window_bytes);
    stats_.read_cpu_s += ThreadCpuSeconds() - start;
    return window;
  };
  WindowBlocks* current = &sets_[0];
  WindowBlocks* next = &sets_[1];
  StartWindow(next_window(), *current);
  FinishWindow();
  Confirm(*current);
  bool any = false;
  while (current->events > 0) {
    any = true;
    // The parsed events hold copies of their strings, so the window's text may go: the next window is
    // read, the other threads start on it, and this one's events are handed on, in file order, on this
    // thread, which then joins in on the blocks left.
    stream.SkipEvents(current->taken, current->events);
    StartWindow(next_window(), *next);
    const double handle_start = ThreadCpuSeconds();
    for (size_t k = 0; k < current->confirmed; ++k) {
      for (const ParsedEvent& event : current->blocks[k].events) handle(event);
    }
    stats_.handle_cpu_s += ThreadCpuSeconds() - handle_start;
    FinishWindow();
    for (EventBlock& block : current->blocks) block.strings.Clear();
    std::swap(current, next);
    Confirm(*current);
  }
  for (EventBlock& block : current->blocks) block.strings.Clear();
  return any;
}

}  // namespace ampprof::kineto
