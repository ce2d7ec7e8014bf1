#include "src/base/crc32c.h"

#include <array>
#include <cstring>

namespace ampprof::base {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78;  // Castagnoli, reflected

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (kPolynomial & (0u - (crc & 1u)));
    table[i] = crc;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kTable = MakeTable();

uint32_t Crc32cPortable(uint32_t crc, const uint8_t* data, size_t size) {
  for (size_t i = 0; i < size; ++i) crc = (crc >> 8) ^ kTable[(crc ^ data[i]) & 0xFF];
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cSse42(uint32_t crc, const uint8_t* data, size_t size) {
  uint64_t crc64 = crc;
  for (; size >= 8; size -= 8, data += 8) {
    uint64_t word;
    std::memcpy(&word, data, 8);
    crc64 = __builtin_ia32_crc32di(crc64, word);
  }
  auto crc32 = static_cast<uint32_t>(crc64);
  for (; size > 0; --size, ++data) crc32 = __builtin_ia32_crc32qi(crc32, *data);
  return crc32;
}

bool HasSse42() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

}  // namespace

uint32_t Crc32c(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
#if defined(__x86_64__)
  if (HasSse42()) return ~Crc32cSse42(~0u, bytes, size);
#endif
  return ~Crc32cPortable(~0u, bytes, size);
}

}  // namespace ampprof::base
