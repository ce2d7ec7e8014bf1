#ifndef AMPPROF_COLLECTORS_SYNTHETIC_KINETO_JSON_WRITER_H_
#define AMPPROF_COLLECTORS_SYNTHETIC_KINETO_JSON_WRITER_H_

// Writes records as a PyTorch profiler (Kineto) Chrome-trace JSON file, in the shape of the real ones
// in ../shared/fixtures: kernels on pid = device, tid = stream with their launch arguments; runtime and
// driver calls on the host thread; an "ac2g" flow pair from each launch to its GPU activity; cpu_op and
// user_annotation ranges (ProfilerStep#N); deviceProperties and distributedInfo. It exists so that
// benchmarks and the side-by-side with HolisticTraceAnalysis read the same synthetic trace that the
// .ampt and nsys benchmarks read (bench/run), not a different one per format.
//
//   ASSIGN_OR_RETURN(auto writer, KinetoJsonWriter::Create("trace.json"));
//   RETURN_IF_ERROR(GenerateSyntheticTrace(options, *writer));
//   RETURN_IF_ERROR(writer->Close());
//
// Memory records, overhead records and metadata have no Kineto event here and are left out.

#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "collectors/records/record_sink.h"
#include "collectors/synthetic/mark_ranges.h"
#include "src/base/status.h"

namespace ampprof::synthetic {

class KinetoJsonWriter final : public records::RecordSink {
 public:
  static base::StatusOr<std::unique_ptr<KinetoJsonWriter>> Create(const std::string& path);
  ~KinetoJsonWriter() override;
  KinetoJsonWriter(const KinetoJsonWriter&) = delete;
  KinetoJsonWriter& operator=(const KinetoJsonWriter&) = delete;

  base::StringPool& strings() override { return strings_; }
  base::Stats& stats() override { return stats_; }
  void SetMetadata(std::string_view, std::string_view) override {}

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
  void Add(const records::MemoryRecord&) override {}
  void Add(const records::OverheadRecord&) override {}

  // Writes the closing part (devices, rank) and closes the file; the first write error, if any.
  base::Status Close();

 private:
  struct Launch {
    uint32_t pid;
    uint32_t tid;
    base::TimeNs start;
  };
  KinetoJsonWriter(std::FILE* file, std::string path);
  void BeginEvent();
  void FlowTo(uint32_t correlation_id, uint32_t device, uint32_t stream, base::TimeNs start);
  void FlushBuffer();

  std::FILE* file_;
  std::string path_;
  std::string buffer_;
  bool first_event_ = true;
  bool failed_ = false;
  base::StringPool strings_;
  base::Stats stats_;
  std::vector<records::DeviceRecord> devices_;
  records::ProcessRecord process_;
  // Launches waiting for their kernel, copy or memset: the flow's start. Erased when it arrives.
  std::unordered_map<uint32_t, Launch> launches_;
  MarkRangePairer marks_;
};

}  // namespace ampprof::synthetic

#endif  // AMPPROF_COLLECTORS_SYNTHETIC_KINETO_JSON_WRITER_H_
