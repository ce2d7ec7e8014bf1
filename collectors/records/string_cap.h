#ifndef AMPPROF_COLLECTORS_RECORDS_STRING_CAP_H_
#define AMPPROF_COLLECTORS_RECORDS_STRING_CAP_H_

// The most of one string that ampprof keeps: every importer and the .ampt writer cut longer kernel,
// API, range and thread names, NVTX text, op arguments and metadata values to kMaxStringBytes, so
// that what a name costs downstream (interning, the kernel classifier's substring search, reports)
// is bounded whatever the input holds. A 1 GB kernel name in a 1 MB gzip file otherwise reaches
// every stage whole.
//
//   const StringId name = InternCapped(sink, text_from_the_file);   // counts a cut in the sink's stats
//
// The limit comes from the longest real names: CUTLASS and CuTe template instantiations run to a few
// KiB (5,123 bytes is the longest in the shared fixtures, an A100 cuDNN/CUTLASS kernel), deep
// template nests to tens of KiB; 64 KiB keeps all of them whole.

#include <cstddef>
#include <string>
#include <string_view>

#include "collectors/records/record_sink.h"

namespace ampprof::records {

inline constexpr size_t kMaxStringBytes = 64 << 10;
// What a cut string ends with, within kMaxStringBytes.
inline constexpr std::string_view kCutMarker = "[...]";

// `text` when it fits; otherwise its first bytes up to a UTF-8 character boundary followed by
// kCutMarker, kMaxStringBytes in all, built in `storage`.
std::string_view CapString(std::string_view text, std::string& storage);

// Interns `text` into the sink's pool, cut by CapString; a cut is counted in Stat::kStringsTruncated.
StringId InternCapped(RecordSink& sink, std::string_view text);

// Sets a metadata value, cut and counted the same way.
void SetMetadataCapped(RecordSink& sink, std::string_view key, std::string_view value);

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_STRING_CAP_H_
