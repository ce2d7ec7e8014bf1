#include "collectors/records/chunk_sequence.h"

namespace ampprof::records {

ChunkSequence::Verdict ChunkSequence::Next(uint16_t sequence, uint32_t payload_crc) {
  if (last_crc_.empty()) last_crc_.assign(uint64_t{1} << 16, 0);
  uint64_t& last = last_crc_[sequence];
  // The expected chunk is always new: a copy would have to stand exactly where its successor 2^16
  // chunks later belongs.
  if (sequence != expected_ && last == (kSeen | payload_crc)) {
    ++duplicated_;
    return kDuplicate;
  }
  const auto ahead = static_cast<uint16_t>(sequence - expected_);
  if (ahead < kHalfRange) {
    missing_ += ahead;  // 0 for the expected chunk
    if (ahead <= kRememberedGap) {
      for (uint16_t gap = expected_; gap != sequence; ++gap) missing_numbers_.insert(gap);
    }
    expected_ = static_cast<uint16_t>(sequence + 1);
    if (!missing_numbers_.empty()) missing_numbers_.erase(sequence);
  } else if (missing_numbers_.erase(sequence) > 0) {
    --missing_;  // a chunk counted missing that came late
  }
  last = kSeen | payload_crc;
  return kNew;
}

}  // namespace ampprof::records
