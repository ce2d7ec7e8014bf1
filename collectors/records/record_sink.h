#ifndef AMPPROF_COLLECTORS_RECORDS_RECORD_SINK_H_
#define AMPPROF_COLLECTORS_RECORDS_RECORD_SINK_H_

// RecordSink: where every source of records (the .ampt reader, the Kineto and Nsight Systems importers,
// the synthetic generator, the CUPTI collector's writer thread) delivers what it found. The model builder
// is a sink; so is the .ampt writer, and RecordSet (an in-memory list, for tests).
//
//   Status ImportSomething(std::string_view bytes, RecordSink& sink) {
//     KernelRecord kernel;
//     kernel.name = sink.strings().Intern(name_from_input);
//     ...
//     sink.Add(kernel);
//     if (input_said_end_before_start) sink.stats().Increment(base::Stat::kRecordNegativeDuration);
//   }
//
// Records arrive in any order; sorting is the model builder's job. Strings in records must be ids from
// this sink's strings() pool.

#include <cstdint>
#include <string_view>

#include "collectors/records/records.h"
#include "src/base/stats.h"
#include "src/base/string_pool.h"

namespace ampprof::records {

class RecordSink {
 public:
  virtual ~RecordSink() = default;

  virtual base::StringPool& strings() = 0;
  virtual base::Stats& stats() = 0;

  // A hint that about `count` records of `kind` will follow, so columns can be sized once.
  virtual void Reserve(RecordKind kind, uint64_t count) {
    static_cast<void>(kind);
    static_cast<void>(count);
  }
  // Free-form facts about the trace ("source", "command", "clock", ...). A later value replaces an earlier.
  virtual void SetMetadata(std::string_view key, std::string_view value) = 0;

  virtual void Add(const DeviceRecord& record) = 0;
  virtual void Add(const ProcessRecord& record) = 0;
  virtual void Add(const ThreadRecord& record) = 0;
  virtual void Add(const KernelRecord& record) = 0;
  virtual void Add(const ApiCallRecord& record) = 0;
  virtual void Add(const MemcpyRecord& record) = 0;
  virtual void Add(const MemsetRecord& record) = 0;
  virtual void Add(const SyncRecord& record) = 0;
  virtual void Add(const RangeRecord& record) = 0;
  virtual void Add(const MarkRecord& record) = 0;
  virtual void Add(const MemoryRecord& record) = 0;
  virtual void Add(const OverheadRecord& record) = 0;
};

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_RECORD_SINK_H_
