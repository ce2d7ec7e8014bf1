#ifndef AMPPROF_SRC_MODEL_MODEL_BUILDER_H_
#define AMPPROF_SRC_MODEL_MODEL_BUILDER_H_

// ModelBuilder: the RecordSink that turns records, in any order and from any number of sources, into a
// TraceModel.
//
//   ModelBuilder builder;
//   RETURN_IF_ERROR(ReadAmptFile("rank0.ampt", builder));
//   RETURN_IF_ERROR(ReadAmptFile("rank1.ampt", builder));
//   TraceModel model = std::move(builder).Build();
//
// While records arrive it appends them to the model's columns, interning devices, streams, threads and
// kernel signatures, and repairs what it can (end before start) with a stat. Build() then:
//   1. sorts API calls by (process, thread, start) and indexes them by (process, correlation id);
//   2. links kernels, copies, memsets and syncs to their API call (graph launches included: every kernel
//      of a graph carries the graph launch's correlation id);
//   3. sorts kernels by (device, start) and builds the per-device ranges and per-stream lists;
//   4. pairs range start/end marks into ranges, sorts ranges per thread and nests them;
//   5. sorts the remaining tables by time and fills in processes for every pid seen.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "collectors/records/record_sink.h"
#include "src/model/range_nesting.h"
#include "src/model/row_index.h"
#include "src/model/trace_model.h"

namespace ampprof::model {

class ModelBuilder final : public records::RecordSink {
 public:
  ModelBuilder() = default;

  base::StringPool& strings() override { return model_.strings_; }
  base::Stats& stats() override { return model_.stats_; }
  void Reserve(records::RecordKind kind, uint64_t count) override;
  void SetMetadata(std::string_view key, std::string_view value) override;

  void Add(const records::DeviceRecord& record) override;
  void Add(const records::ProcessRecord& record) override;
  void Add(const records::ThreadRecord& record) override;
  void Add(const records::KernelRecord& record) override;
  void Add(const records::ApiCallRecord& record) override;
  void Add(const records::MemcpyRecord& record) override;
  void Add(const records::MemsetRecord& record) override;
  void Add(const records::SyncRecord& record) override;
  void Add(const records::RangeRecord& record) override;
  void Add(const records::MarkRecord& record) override;
  void Add(const records::MemoryRecord& record) override;
  void Add(const records::OverheadRecord& record) override;

  // Metadata set so far, for callers that label each input as they load it.
  std::string_view Metadata(std::string_view key) const { return model_.Metadata(key); }

  TraceModel Build() &&;

 private:
  struct SignatureHash {
    size_t operator()(const KernelSignature& s) const noexcept;
  };
  struct LabelHash {
    size_t operator()(const RangeLabel& l) const noexcept;
  };

  ThreadRow ThreadFor(uint32_t pid, uint32_t tid);
  DeviceRow DeviceFor(uint32_t pid, uint32_t device_id);
  StreamRow StreamFor(uint32_t pid, uint32_t device_id, uint32_t stream_id);
  KernelSignatureRow SignatureFor(const records::KernelRecord& record);
  RangeLabelRow LabelFor(const RangeLabel& label);
  // Returns `end`, or `start` (with a stat) when the record claims to end before it starts.
  TimeNs RepairedEnd(TimeNs start, TimeNs end);
  // False (with a stat) when a timestamp is outside [0, 2^62): damaged input.
  bool TimesValid(TimeNs start, TimeNs end);
  // False (with a stat) when `rows` already fills a table.
  bool HasRoom(size_t rows);
  // Tracks the end of the trace, where ranges left open are closed.
  void NoteEnd(TimeNs end);

  void SortApiCalls();
  void LinkToApiCalls();
  void SortKernels();
  void SortTimeTables();
  void ApplyDeviceProperties();
  void FillProcesses();

  TraceModel model_;

  // Correlation ids by row, until Build() has linked them (they are not kept in the model).
  std::vector<uint32_t> kernel_correlation_;
  std::vector<uint32_t> api_correlation_;
  std::vector<uint32_t> memcpy_correlation_;
  std::vector<uint32_t> memset_correlation_;
  std::vector<uint32_t> sync_correlation_;
  std::vector<uint32_t> sync_pid_;  // syncs may have neither thread nor stream to take a pid from

  std::vector<records::DeviceRecord> device_records_;
  std::vector<records::ProcessRecord> process_records_;
  std::vector<RangeMark> range_starts_;
  std::vector<RangeMark> range_ends_;
  TimeNs latest_time_ = 0;

  std::unordered_map<uint64_t, ThreadRow> threads_by_key_;
  std::unordered_map<uint64_t, DeviceRow> devices_by_key_;
  std::unordered_map<uint64_t, StreamRow> streams_by_key_;
  RowIndex<KernelSignature, SignatureHash> signatures_by_value_;
  std::vector<KernelSignatureRow> last_signature_of_name_;  // by name StringId
  RowIndex<RangeLabel, LabelHash> labels_by_value_;
  std::vector<RangeLabelRow> last_label_of_name_;  // by name StringId
  // One-entry caches: records of one stream and one thread arrive in runs.
  uint64_t last_stream_key_ = UINT64_MAX;
  StreamRow last_stream_;
  uint32_t last_stream_device_id_ = 0;
  uint64_t last_thread_key_ = UINT64_MAX;
  ThreadRow last_thread_;
};

}  // namespace ampprof::model

#endif  // AMPPROF_SRC_MODEL_MODEL_BUILDER_H_
