#ifndef AMPPROF_COLLECTORS_RECORDS_RECORD_SET_H_
#define AMPPROF_COLLECTORS_RECORDS_RECORD_SET_H_

// RecordSet: a RecordSink that keeps every record in a vector per kind, in arrival order. For tests
// (round trips, importer expectations) and for replaying a small trace into another sink.
//
//   RecordSet set;
//   ASSERT_TRUE(ReadAmptFile(path, set).ok());
//   EXPECT_EQ(set.kernels.size(), 3u);
//   set.ReplayInto(model_builder);

#include <map>
#include <string>
#include <vector>

#include "collectors/records/record_sink.h"

namespace ampprof::records {

class RecordSet final : public RecordSink {
 public:
  base::StringPool& strings() override { return strings_; }
  base::Stats& stats() override { return stats_; }
  const base::StringPool& strings() const { return strings_; }
  const base::Stats& stats() const { return stats_; }
  void SetMetadata(std::string_view key, std::string_view value) override {
    metadata[std::string(key)] = std::string(value);
  }

  void Add(const DeviceRecord& r) override { devices.push_back(r); }
  void Add(const ProcessRecord& r) override { processes.push_back(r); }
  void Add(const ThreadRecord& r) override { threads.push_back(r); }
  void Add(const KernelRecord& r) override { kernels.push_back(r); }
  void Add(const ApiCallRecord& r) override { api_calls.push_back(r); }
  void Add(const MemcpyRecord& r) override { memcpys.push_back(r); }
  void Add(const MemsetRecord& r) override { memsets.push_back(r); }
  void Add(const SyncRecord& r) override { syncs.push_back(r); }
  void Add(const RangeRecord& r) override { ranges.push_back(r); }
  void Add(const MarkRecord& r) override { marks.push_back(r); }
  void Add(const MemoryRecord& r) override { memory.push_back(r); }
  void Add(const OverheadRecord& r) override { overheads.push_back(r); }

  size_t record_count() const;
  std::string_view Text(StringId id) const { return strings_.Get(id); }

  // Sends everything to `sink`, re-interning strings into its pool, in kind order (devices first).
  void ReplayInto(RecordSink& sink) const;

  std::map<std::string, std::string> metadata;
  std::vector<DeviceRecord> devices;
  std::vector<ProcessRecord> processes;
  std::vector<ThreadRecord> threads;
  std::vector<KernelRecord> kernels;
  std::vector<ApiCallRecord> api_calls;
  std::vector<MemcpyRecord> memcpys;
  std::vector<MemsetRecord> memsets;
  std::vector<SyncRecord> syncs;
  std::vector<RangeRecord> ranges;
  std::vector<MarkRecord> marks;
  std::vector<MemoryRecord> memory;
  std::vector<OverheadRecord> overheads;

 private:
  base::StringPool strings_;
  base::Stats stats_;
};

}  // namespace ampprof::records

#endif  // AMPPROF_COLLECTORS_RECORDS_RECORD_SET_H_
