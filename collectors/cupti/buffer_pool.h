#ifndef AMPPROF_COLLECTORS_CUPTI_BUFFER_POOL_H_
#define AMPPROF_COLLECTORS_CUPTI_BUFFER_POOL_H_

// BufferPool: a bounded set of equally sized, zero-filled activity buffers that CUPTI fills and the
// writer thread gives back.
//
// Why a pool: CUPTI asks for a buffer on the application's thread (bufferRequested), in the middle
// of a kernel launch. A pool answers from a free list under a short lock; after warm-up it never
// allocates. Why bounded: if the writer falls behind (a slow disk), buffers pile up; past
// max_buffers the pool says no (nullptr), CUPTI drops the records it cannot store and counts them,
// and the application's memory stays bounded. Each refusal is counted (denied(),
// collector_buffers_denied in the trace). Why zero-filled: CUPTI zeroes every buffer it is given,
// on the application's thread, unless the injection sets
// CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER; then the buffers must come zeroed. New buffers
// come from calloc (zero pages), and Release() zeroes the whole buffer, on the writer thread: not
// only the valid bytes CUPTI reported, because nothing in CUPTI's documentation promises that it
// writes nothing past them, and a stale byte there would be read as part of a record. Zeroing 8 MiB
// costs about a millisecond of the writer thread per buffer, none of the application's.
//
//   BufferPool pool({.buffer_bytes = 8 << 20, .max_buffers = 32});
//   uint8_t* buffer = pool.Acquire();          // CUPTI's bufferRequested
//   ...                                        // CUPTI fills it; the writer converts it
//   pool.Release(buffer);                      // the writer, when done
//
// Thread-safe. Buffers are 16-byte aligned (CUPTI needs 8) and live until the pool is destroyed.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace ampprof::cupti {

class BufferPool {
 public:
  struct Options {
    // CUPTI suggests 1-10 MiB; Kineto uses 4, NVIDIA's samples 8.
    size_t buffer_bytes = size_t{8} << 20;
    // 256 MiB at most in flight.
    size_t max_buffers = 32;
    // Allocated up front, so that the first requests do not allocate.
    size_t preallocated_buffers = 2;
  };

  explicit BufferPool(const Options& options);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A zeroed buffer of buffer_bytes(), or nullptr when max_buffers are out (or memory is
  // exhausted).
  uint8_t* Acquire() noexcept;
  // Gives back a buffer from Acquire(), zeroed.
  void Release(uint8_t* buffer) noexcept;
  // Whether `buffer` came from Acquire(). CUPTI hands a buffer to the buffer-completed callback that
  // is registered when it completes, which may be another client's buffer: a program that is itself
  // a CUPTI client (torch.profiler) registered first, or after, the collector (seen on an H100: the
  // collector zeroed such a 1 MiB buffer as one of its 8 MiB ones and the program crashed).
  bool Owns(const uint8_t* buffer) const noexcept;

  size_t buffer_bytes() const { return options_.buffer_bytes; }
  size_t max_buffers() const { return options_.max_buffers; }
  uint64_t denied() const { return denied_.load(std::memory_order_relaxed); }
  size_t allocated() const;

 private:
  Options options_;
  mutable std::mutex mutex_;
  std::vector<uint8_t*> all_;   // every buffer allocated; capacity max_buffers, reserved up front
  std::vector<uint8_t*> free_;  // capacity max_buffers, so pushing never allocates
  std::atomic<uint64_t> denied_{0};
};

}  // namespace ampprof::cupti

#endif  // AMPPROF_COLLECTORS_CUPTI_BUFFER_POOL_H_
