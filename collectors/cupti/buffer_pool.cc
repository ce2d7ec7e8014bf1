#include "collectors/cupti/buffer_pool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace ampprof::cupti {

BufferPool::BufferPool(const Options& options) : options_(options) {
  options_.max_buffers = std::max<size_t>(options_.max_buffers, 1);
  options_.buffer_bytes = std::max<size_t>(options_.buffer_bytes, 1024);
  all_.reserve(options_.max_buffers);
  free_.reserve(options_.max_buffers);
  const size_t preallocate = std::min(options_.preallocated_buffers, options_.max_buffers);
  for (size_t i = 0; i < preallocate; ++i) {
    auto* buffer = static_cast<uint8_t*>(std::calloc(1, options_.buffer_bytes));
    if (buffer == nullptr) break;  // Acquire() will try again, and say no if it must
    all_.push_back(buffer);
    free_.push_back(buffer);
  }
}

BufferPool::~BufferPool() {
  for (uint8_t* buffer : all_) std::free(buffer);
}

uint8_t* BufferPool::Acquire() noexcept {
  std::lock_guard lock(mutex_);
  if (!free_.empty()) {
    uint8_t* buffer = free_.back();
    free_.pop_back();
    return buffer;
  }
  if (all_.size() < options_.max_buffers) {
    // Warm-up only: at most max_buffers times in the life of the process. calloc of megabytes maps
    // fresh zero pages, so this costs a system call, not a memset.
    if (auto* buffer = static_cast<uint8_t*>(std::calloc(1, options_.buffer_bytes))) {
      all_.push_back(buffer);
      return buffer;
    }
  }
  denied_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void BufferPool::Release(uint8_t* buffer) noexcept {
  if (buffer == nullptr) return;
  std::memset(buffer, 0, options_.buffer_bytes);  // outside the lock
  std::lock_guard lock(mutex_);
  if (free_.size() < free_.capacity()) free_.push_back(buffer);  // else not ours: never happens
}

bool BufferPool::Owns(const uint8_t* buffer) const noexcept {
  std::lock_guard lock(mutex_);
  return std::find(all_.begin(), all_.end(), buffer) != all_.end();  // max_buffers entries at most
}

size_t BufferPool::allocated() const {
  std::lock_guard lock(mutex_);
  return all_.size();
}

}  // namespace ampprof::cupti
