#ifndef AMPPROF_SRC_BASE_CRC32C_H_
#define AMPPROF_SRC_BASE_CRC32C_H_

// CRC-32C (Castagnoli), the checksum of .ampt chunks. Uses the SSE4.2 crc32 instruction where the CPU
// has it (every x86-64 CPU since 2008; several GB/s, so checking a trace costs little next to parsing
// it) and a table otherwise. Crc32c("123456789") == 0xE3069283.

#include <cstddef>
#include <cstdint>

namespace ampprof::base {

uint32_t Crc32c(const void* data, size_t size);

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_CRC32C_H_
