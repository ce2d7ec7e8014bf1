#include "collectors/cupti/buffer_pool.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace ampprof::cupti {
namespace {

bool AllZero(const uint8_t* data, size_t size) {
  return std::all_of(data, data + size, [](uint8_t byte) { return byte == 0; });
}

TEST(BufferPoolTest, PreallocatesAndHandsOutZeroedAlignedBuffers) {
  BufferPool pool({.buffer_bytes = 64 * 1024, .max_buffers = 4, .preallocated_buffers = 2});
  EXPECT_EQ(pool.allocated(), 2u);
  uint8_t* buffer = pool.Acquire();
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer) % 8, 0u);  // CUPTI's requirement
  EXPECT_TRUE(AllZero(buffer, pool.buffer_bytes()));
  pool.Release(buffer);
}

TEST(BufferPoolTest, RefusesPastItsBoundAndCounts) {
  BufferPool pool({.buffer_bytes = 4096, .max_buffers = 3, .preallocated_buffers = 1});
  std::set<uint8_t*> taken;
  for (int i = 0; i < 3; ++i) {
    uint8_t* buffer = pool.Acquire();
    ASSERT_NE(buffer, nullptr);
    EXPECT_TRUE(taken.insert(buffer).second);
  }
  EXPECT_EQ(pool.Acquire(), nullptr);
  EXPECT_EQ(pool.Acquire(), nullptr);
  EXPECT_EQ(pool.denied(), 2u);
  EXPECT_EQ(pool.allocated(), 3u);
  // Given one back, the pool lends that one again and allocates nothing new.
  uint8_t* returned = *taken.begin();
  pool.Release(returned);
  EXPECT_EQ(pool.Acquire(), returned);
  EXPECT_EQ(pool.allocated(), 3u);
  for (uint8_t* buffer : taken) pool.Release(buffer);
}

TEST(BufferPoolTest, ReleaseZeroesTheWholeBuffer) {
  BufferPool pool({.buffer_bytes = 4096, .max_buffers = 1, .preallocated_buffers = 1});
  uint8_t* buffer = pool.Acquire();
  ASSERT_NE(buffer, nullptr);
  // CUPTI reports how many bytes are valid, but may have written past them: none may survive.
  std::memset(buffer, 0xAB, pool.buffer_bytes());
  pool.Release(buffer);
  uint8_t* again = pool.Acquire();
  ASSERT_EQ(again, buffer);
  EXPECT_TRUE(AllZero(again, pool.buffer_bytes()));
  pool.Release(again);
}

TEST(BufferPoolTest, AtLeastOneBufferOfSomeSize) {
  BufferPool pool({.buffer_bytes = 0, .max_buffers = 0, .preallocated_buffers = 5});
  EXPECT_EQ(pool.max_buffers(), 1u);
  EXPECT_GE(pool.buffer_bytes(), 1024u);
  EXPECT_EQ(pool.allocated(), 1u);
}

}  // namespace
}  // namespace ampprof::cupti
