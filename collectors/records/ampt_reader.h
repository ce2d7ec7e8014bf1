#ifndef AMPPROF_COLLECTORS_RECORDS_AMPT_READER_H_
#define AMPPROF_COLLECTORS_RECORDS_AMPT_READER_H_

// Reads an .ampt file (ampt_format.h) into a RecordSink.
//
//   RecordSet records;
//   RETURN_IF_ERROR(ReadAmptFile("trace.ampt", records));
//
// What is an error (returned, with the file name and the byte offset in the message) and what is data
// loss (counted in the sink's stats, reading succeeds):
//   - empty file, wrong magic, a header cut short, a major version this reader does not know: error;
//   - a chunk whose header or payload fails its checksum, or whose payload is malformed: error, because
//     nothing after a corrupt chunk can be trusted (the writer never produces one);
//   - the file ends inside a chunk (the writing process was killed): data loss, Stat::kAmptTruncatedTail;
//     complete records in that last chunk are kept (Stat::kAmptSalvagedRecords);
//   - unknown chunk kinds and record kinds (a newer minor version): skipped, Stat::kAmptUnknownChunks;
//   - a record naming an undefined string or an out-of-range enum: skipped, Stat::kAmptInvalidRecords;
//   - a chunk found twice or missing, told by the records chunks' sequence numbers (format 1.1) and the
//     string tables' first ids: a copy is skipped (Stat::kAmptChunksDuplicated), a gap is data loss
//     (Stat::kAmptChunksMissing); in a 1.0 file, which cannot tell, Stat::kAmptChunksUnsequenced;
//   - strings longer than records::kMaxStringBytes: cut, Stat::kStringsTruncated.
// Memory is bounded whatever the file claims: chunks are read one at a time and a chunk larger than
// ampt::kMaxChunkPayloadBytes is refused.

#include <cstdint>
#include <span>
#include <string>

#include "collectors/records/record_sink.h"
#include "src/base/status.h"

namespace ampprof::records {

// True if `prefix` (the first bytes of a file) starts with the .ampt magic.
bool LooksLikeAmpt(std::span<const uint8_t> prefix);

base::Status ReadAmptFile(const std::string& path, RecordSink& sink);

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_AMPT_READER_H_
