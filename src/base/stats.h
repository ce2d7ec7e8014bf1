#ifndef AMPPROF_SRC_BASE_STATS_H_
#define AMPPROF_SRC_BASE_STATS_H_

// The stats catalog: data-quality counters that travel with a trace from the importer to every report.
// Bad or missing data inside a readable trace is never fatal: the code that meets it bumps a stat and
// goes on, and every report prints the non-zero stats in its header, so a reader knows what the numbers
// rest on. (After perfetto's trace_processor/storage/stats.h.)
//
//   stats.Increment(Stat::kKernelUnmatchedCorrelation);
//   for (const StatEntry& entry : stats.NonZero()) { print(entry.name, entry.value, entry.severity); }
//
// Severity:
//   kInfo      worth knowing, the analysis is still complete (e.g. unknown chunk kinds skipped);
//   kDataLoss  records were lost before ampprof saw them (dropped by CUPTI, truncated file);
//   kError     the input contradicts itself (end before start, undefined string ids); the record was
//              skipped or repaired as the description says.
//
// Names are stable: they are written into .ampt files and JSON reports. Add new stats at the end.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ampprof::base {

enum class StatSeverity : uint8_t { kInfo, kDataLoss, kError };

// X(enumerator, name, severity, description)
#define AMPPROF_STATS_CATALOG(X)                                                                         \
  X(kAmptTruncatedTail, "ampt_truncated_tail", kDataLoss,                                                \
    "the .ampt file ends inside a chunk (the process was killed or the disk filled while writing); "     \
    "records after that point were never written")                                                       \
  X(kAmptSalvagedRecords, "ampt_salvaged_records", kInfo,                                                \
    "complete records read from the incomplete last chunk of a truncated .ampt file")                    \
  X(kAmptUnknownChunks, "ampt_unknown_chunks", kInfo,                                                    \
    "chunks of a kind this version does not know (written by a newer minor version), skipped")           \
  X(kAmptUnknownStats, "ampt_unknown_stats", kInfo,                                                      \
    "data-quality counters in the file that this version does not know, ignored")                        \
  X(kAmptInvalidRecords, "ampt_invalid_records", kError,                                                 \
    "records with an undefined string id or an out-of-range enum value, skipped")                        \
  X(kCollectorDroppedRecords, "collector_dropped_records", kDataLoss,                                    \
    "activity records CUPTI dropped because no buffer was available")                                    \
  X(kCollectorWriteErrors, "collector_write_errors", kDataLoss,                                          \
    "records the collector could not write to the trace file (disk full, file unwritable)")              \
  X(kRecordNegativeDuration, "record_negative_duration", kError,                                         \
    "records whose end is before their start; their end was set to their start")                         \
  X(kRecordTimeOutOfRange, "record_time_out_of_range", kError,                                          \
    "records with a timestamp outside [0, 2^62) ns (damaged input), dropped")                           \
  X(kKernelMissingTimestamps, "kernel_missing_timestamps", kDataLoss,                                    \
    "kernels recorded without start and end (flushed before completion); kept in counts, not in time")   \
  X(kKernelUnmatchedCorrelation, "kernel_unmatched_correlation", kInfo,                                  \
    "kernels whose correlation id matches no recorded API call (API records filtered or lost)")          \
  X(kCopyUnmatchedCorrelation, "copy_unmatched_correlation", kInfo,                                      \
    "memcpy and memset records whose correlation id matches no recorded API call")                       \
  X(kSyncUnmatchedCorrelation, "sync_unmatched_correlation", kInfo,                                      \
    "synchronisation records whose correlation id matches no recorded API call (a wait made by a call "  \
    "ampprof does not record); kept, without the waiting thread")                                        \
  X(kApiDuplicateCorrelation, "api_duplicate_correlation", kInfo,                                        \
    "API calls sharing a correlation id with another call (a runtime call and the driver call inside "   \
    "it); kernels are attributed to the runtime call")                                                   \
  X(kRangeImproperNesting, "range_improper_nesting", kInfo,                                              \
    "ranges that overlap a sibling on their thread without nesting (start/end ranges may do this); "     \
    "they are kept but have no parent")                                                                  \
  X(kRangeUnclosed, "range_unclosed", kDataLoss,                                                          \
    "ranges that were started but never ended (the process ended inside them); they end at the end of "  \
    "the trace")                                                                                          \
  X(kRangeEndWithoutStart, "range_end_without_start", kInfo,                                              \
    "range ends whose start was not recorded (it came before tracing began), ignored")                   \
  X(kTableRowLimit, "table_row_limit", kDataLoss,                                                        \
    "records dropped because a table reached its limit of 2^32 - 2 rows")                                \
  X(kJsonTruncated, "json_truncated", kDataLoss,                                                          \
    "the JSON trace (or its gzip stream) ends before the document is complete: the file was cut; "        \
    "events after that point are lost")                                                                  \
  X(kJsonInvalidEvents, "json_invalid_events", kError,                                                    \
    "trace events that are not valid JSON objects, or whose fields have the wrong type or are missing "  \
    "(no timestamp), skipped")                                                                           \
  X(kCollectorBuffersDenied, "collector_buffers_denied", kDataLoss,                                       \
    "activity buffers the collector refused CUPTI because its buffer pool was exhausted (the writer "     \
    "fell behind); CUPTI drops the records it could not store (collector_dropped_records)")              \
  X(kCollectorForeignBuffers, "collector_foreign_buffers", kDataLoss,                                     \
    "activity buffers of another CUPTI client in the process (torch.profiler, a second tool) that CUPTI "  \
    "handed to the collector; left untouched: that client registered its own buffer callbacks, so GPU "   \
    "records after that moment may have gone to it instead of this trace")                               \
  X(kCollectorInternalErrors, "collector_internal_errors", kError,                                        \
    "failures caught inside the collector's writer thread (a bug, or memory exhausted); the rest of the " \
    "activity buffer being converted was lost")                                                           \
  X(kCuptiUnknownRecordKinds, "cupti_unknown_record_kinds", kInfo,                                        \
    "CUPTI activity records of a kind the collector does not convert (not enabled, or added by a newer "  \
    "CUPTI), skipped")                                                                                    \
  X(kCuptiUnknownValues, "cupti_unknown_values", kInfo,                                                   \
    "CUPTI record fields with a value the collector does not know (a copy, memory, synchronisation, "     \
    "marker or memory-operation kind; an API callback id outside its table; a context with no device "   \
    "record); the record was kept with the field unknown, except memory records without an operation")   \
  X(kCuptiMissingNames, "cupti_missing_names", kInfo,                                                     \
    "CUPTI kernel, device, thread or NVTX records whose name was missing (a null pointer); kept with an " \
    "empty name")                                                                                         \
  X(kCuptiMissingTimestamps, "cupti_missing_timestamps", kDataLoss,                                       \
    "CUPTI copies, memsets, synchronisations, API calls, NVTX markers, memory and overhead records "     \
    "without timestamps (CUPTI could not collect them), dropped; kernels without timestamps are kept "   \
    "and counted in kernel_missing_timestamps")                                                           \
  X(kCuptiUnstoredRecords, "cupti_unstored_records", kInfo,                                               \
    "CUPTI records that ampprof's records have no place for yet (external correlation ids, NVTX "         \
    "payloads and colours, NVTX sync markers, names of processes, devices, contexts and streams), "       \
    "skipped")                                                                                            \
  /* The importers' checks on damaged or hostile input (docs/reliability.md). */                          \
  X(kStringsTruncated, "strings_truncated", kInfo,                                                        \
    "names and other strings longer than 64 KiB (records::kMaxStringBytes), cut to that length and "     \
    "marked with \"[...]\"")                                                                              \
  X(kJsonOversizedValues, "json_oversized_values", kDataLoss,                                             \
    "trace events or top-level members larger than 2 MiB (kineto::JsonEventStream::kMaxValueBytes), "     \
    "skipped without being read into memory")                                                             \
  X(kAmptChunksMissing, "ampt_chunks_missing", kDataLoss,                                                 \
    "chunks missing from an .ampt file, found by a gap in the records chunks' sequence numbers (format "  \
    "1.1) or in the string tables' ids; their records are lost")                                          \
  X(kAmptChunksDuplicated, "ampt_chunks_duplicated", kDataLoss,                                           \
    "chunks found twice in an .ampt file (the same sequence number and contents, or a string table "     \
    "already read); the copies were skipped, so no record is counted twice")                             \
  X(kAmptChunksUnsequenced, "ampt_chunks_unsequenced", kInfo,                                             \
    "records chunks of an .ampt file of format 1.0, which carry no sequence number: a duplicated or "    \
    "missing chunk in such a file cannot be detected")                                                    \
  X(kNsysInvalidRows, "nsys_invalid_rows", kError,                                                        \
    "rows of an Nsight Systems export with a value of the wrong type (text, a real or a blob where an "  \
    "integer belongs, a blob where text belongs) or without a value the record needs (start, end, a "    \
    "name id), skipped")                                                                                  \
  X(kNsysMissingStrings, "nsys_missing_strings", kError,                                                  \
    "references to a string id that the export's StringIds table does not hold; the name reads "        \
    "\"<string id N missing>\"")                                                                          \
  X(kCorrelationAmbiguousProcess, "correlation_ambiguous_process", kError,                                \
    "GPU records of a PyTorch profiler trace holding several processes whose correlation id more than "  \
    "one of them used, and that were not written beside their launch; attributed to the process their "  \
    "device's other records went to, else to the first")

enum class Stat : uint16_t {
#define AMPPROF_STAT_ENUM(enumerator, name, severity, description) enumerator,
  AMPPROF_STATS_CATALOG(AMPPROF_STAT_ENUM)
#undef AMPPROF_STAT_ENUM
};

inline constexpr size_t kStatCount = 0
#define AMPPROF_STAT_COUNT(enumerator, name, severity, description) +1
    AMPPROF_STATS_CATALOG(AMPPROF_STAT_COUNT)
#undef AMPPROF_STAT_COUNT
    ;

struct StatInfo {
  std::string_view name;
  StatSeverity severity;
  std::string_view description;
};

const StatInfo& GetStatInfo(Stat stat);
std::optional<Stat> FindStat(std::string_view name);
std::string_view SeverityName(StatSeverity severity);

struct StatEntry {
  Stat stat;
  const StatInfo* info;
  int64_t value;
};

class Stats {
 public:
  void Increment(Stat stat, int64_t by = 1) { values_[Index(stat)] += by; }
  void Set(Stat stat, int64_t value) { values_[Index(stat)] = value; }
  int64_t Get(Stat stat) const { return values_[Index(stat)]; }
  void MergeFrom(const Stats& other);
  bool HasDataLoss() const;
  // Non-zero counters in catalog order.
  std::vector<StatEntry> NonZero() const;
  friend bool operator==(const Stats&, const Stats&) = default;

 private:
  static size_t Index(Stat stat) { return static_cast<size_t>(stat); }
  std::array<int64_t, kStatCount> values_{};
};

}  // namespace ampprof::base

#endif  // AMPPROF_SRC_BASE_STATS_H_
