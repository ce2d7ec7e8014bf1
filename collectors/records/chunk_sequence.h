#ifndef AMPPROF_COLLECTORS_RECORDS_CHUNK_SEQUENCE_H_
#define AMPPROF_COLLECTORS_RECORDS_CHUNK_SEQUENCE_H_

// ChunkSequence: what the sequence numbers of an .ampt file's records chunks (format 1.1,
// ampt_format.h) say about the chunk the reader has just met, in file order.
//
//   ChunkSequence sequence;
//   for (each records chunk) {
//     if (sequence.Next(chunk_sequence_number, chunk_payload_crc) == ChunkSequence::kDuplicate) skip it;
//   }
//   sequence.missing();   // chunks that should have come before the last one read
//
// A writer numbers its records chunks 0, 1, 2, ... modulo 2^16. So the chunk that follows chunk N is
// N + 1; a jump forward (by less than 2^15) is that many chunks missing; a chunk that repeats both the
// number and the payload checksum of one already read is a copy of it (a legitimate chunk 2^16 chunks
// later carries other records, so another checksum) and is skipped; a chunk behind the expected one
// that is not a copy is read, and if its number was counted missing it no longer is. The
// checksum of the last chunk read under each of the 2^16 numbers is kept: 512 KiB, allocated at the
// first chunk. A gap of 2^15 chunks or more (8 GiB of records at the writer's chunk size) in one
// place reads as chunks behind, so it is not counted.

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace ampprof::records {

class ChunkSequence {
 public:
  enum Verdict { kNew, kDuplicate };

  Verdict Next(uint16_t sequence, uint32_t payload_crc);

  uint64_t missing() const { return missing_; }
  uint64_t duplicated() const { return duplicated_; }

 private:
  static constexpr uint64_t kSeen = uint64_t{1} << 32;
  // Numbers up to half the range ahead of the expected one are a gap; further ones are behind it.
  static constexpr uint16_t kHalfRange = 1u << 15;

  // Numbers counted missing, so that one arriving late is no longer counted. Gaps wider than this are
  // not remembered number by number.
  static constexpr uint16_t kRememberedGap = 4096;

  uint16_t expected_ = 0;
  uint64_t missing_ = 0;
  std::unordered_set<uint16_t> missing_numbers_;
  uint64_t duplicated_ = 0;
  std::vector<uint64_t> last_crc_;  // by sequence number: kSeen | payload crc, or 0
};

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_CHUNK_SEQUENCE_H_
