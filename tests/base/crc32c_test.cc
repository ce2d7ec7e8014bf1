#include "src/base/crc32c.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace ampprof::base {
namespace {

TEST(Crc32c, KnownVectors) {
  EXPECT_EQ(Crc32c("", 0), 0u);
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);  // the CRC-32C check value
  const std::vector<uint8_t> zeros(32, 0);
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);  // RFC 3720, 32 bytes of zeros
  std::vector<uint8_t> ascending(32);
  for (uint8_t i = 0; i < 32; ++i) ascending[i] = i;
  EXPECT_EQ(Crc32c(ascending.data(), ascending.size()), 0x46DD794Eu);  // RFC 3720
}

TEST(Crc32c, EveryLengthAndAlignmentDetectsAFlippedBit) {
  std::string text(100, 'a');
  for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 26);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t length = 0; offset + length <= text.size(); length += 7) {
      const uint32_t crc = Crc32c(text.data() + offset, length);
      if (length == 0) continue;
      std::string flipped = text;
      flipped[offset + length / 2] ^= 0x10;
      EXPECT_NE(Crc32c(flipped.data() + offset, length), crc) << offset << " " << length;
    }
  }
}

}  // namespace
}  // namespace ampprof::base
