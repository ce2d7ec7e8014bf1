#ifndef AMPPROF_TESTS_TESTING_RECORD_BUILDER_H_
#define AMPPROF_TESTS_TESTING_RECORD_BUILDER_H_

// RecordBuilder: short, readable synthetic traces for tests. It fills the fields a test does not care
// about from its current context (pid, tid, device, stream), which tests change between calls.
//
//   RecordSet records;
//   RecordBuilder b(records);
//   b.Device(0, "NVIDIA H100 80GB HBM3", 9, 0);
//   uint32_t c = b.Launch("volta_sgemm_128x64_nn", /*api=*/{100, 110}, /*kernel=*/{120, 500});
//   b.stream = 13;                          // later records go to stream 13
//   b.Range("aten::linear", 90, 130);

#include <cstdint>
#include <string>
#include <string_view>

#include "collectors/records/record_sink.h"
#include "src/base/time.h"

namespace ampprof::testing {

class RecordBuilder {
 public:
  explicit RecordBuilder(records::RecordSink& sink) : sink_(sink) {}

  // Context applied to the records built next.
  uint32_t pid = 100;
  uint32_t tid = 101;
  uint32_t device = 0;
  uint32_t stream = 7;
  std::string nvtx_domain;  // NVTX domain of the ranges built next ("" = the default domain)

  base::StringId Intern(std::string_view text) { return sink_.strings().Intern(text); }
  uint32_t NextCorrelation() { return ++correlation_; }

  void Device(uint32_t device_id, std::string_view name, uint32_t major, uint32_t minor);
  void Thread(std::string_view name);
  // A kernel; correlation 0 means "not launched by a recorded call".
  void Kernel(std::string_view name, base::TimeNs start, base::TimeNs end, uint32_t correlation = 0);
  void ApiCall(std::string_view name, base::TimeNs start, base::TimeNs end, uint32_t correlation,
               records::ApiDomain domain = records::ApiDomain::kRuntime);
  // cudaLaunchKernel on this thread plus the kernel it launched on this stream; returns the correlation.
  uint32_t Launch(std::string_view kernel, base::Interval api, base::Interval gpu);
  void Memcpy(records::MemcpyKind kind, uint64_t bytes, base::TimeNs start, base::TimeNs end,
              uint32_t correlation = 0);
  void Sync(records::SyncKind kind, base::TimeNs start, base::TimeNs end, uint32_t correlation = 0);
  void Range(std::string_view name, base::TimeNs start, base::TimeNs end,
             records::RangeCategory category = records::RangeCategory::kNvtx);
  void RangeStart(uint64_t range_id, std::string_view name, base::TimeNs at);
  void RangeEnd(uint64_t range_id, base::TimeNs at);
  void Mark(std::string_view name, base::TimeNs at);

  records::RecordSink& sink() { return sink_; }

 private:
  records::RecordSink& sink_;
  uint32_t correlation_ = 0;
};

}  // namespace ampprof::testing

#endif  // AMPPROF_TESTS_TESTING_RECORD_BUILDER_H_
