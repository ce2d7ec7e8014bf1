#include "tests/testing/record_builder.h"

namespace ampprof::testing {

void RecordBuilder::Device(uint32_t device_id, std::string_view name, uint32_t major, uint32_t minor) {
  records::DeviceRecord record;
  record.pid = pid;
  record.device_id = device_id;
  record.name = Intern(name);
  record.compute_major = major;
  record.compute_minor = minor;
  record.sm_count = 132;
  record.global_memory_bytes = uint64_t{80} << 30;
  sink_.Add(record);
}

void RecordBuilder::Thread(std::string_view name) {
  records::ThreadRecord record;
  record.pid = pid;
  record.tid = tid;
  record.name = Intern(name);
  sink_.Add(record);
}

void RecordBuilder::Kernel(std::string_view name, base::TimeNs start, base::TimeNs end,
                           uint32_t correlation) {
  records::KernelRecord record;
  record.pid = pid;
  record.device_id = device;
  record.stream_id = stream;
  record.correlation_id = correlation;
  record.name = Intern(name);
  record.start = start;
  record.end = end;
  record.grid_x = record.grid_y = record.grid_z = 1;
  record.block_x = 128;
  record.block_y = record.block_z = 1;
  sink_.Add(record);
}

void RecordBuilder::ApiCall(std::string_view name, base::TimeNs start, base::TimeNs end,
                            uint32_t correlation, records::ApiDomain domain) {
  records::ApiCallRecord record;
  record.pid = pid;
  record.tid = tid;
  record.name = Intern(name);
  record.start = start;
  record.end = end;
  record.correlation_id = correlation;
  record.domain = domain;
  sink_.Add(record);
}

uint32_t RecordBuilder::Launch(std::string_view kernel, base::Interval api, base::Interval gpu) {
  const uint32_t correlation = NextCorrelation();
  ApiCall("cudaLaunchKernel", api.start, api.end, correlation);
  Kernel(kernel, gpu.start, gpu.end, correlation);
  return correlation;
}

void RecordBuilder::Memcpy(records::MemcpyKind kind, uint64_t bytes, base::TimeNs start,
                           base::TimeNs end, uint32_t correlation) {
  records::MemcpyRecord record;
  record.pid = pid;
  record.device_id = device;
  record.stream_id = stream;
  record.correlation_id = correlation;
  record.kind = kind;
  record.bytes = bytes;
  record.start = start;
  record.end = end;
  sink_.Add(record);
}

void RecordBuilder::Sync(records::SyncKind kind, base::TimeNs start, base::TimeNs end,
                         uint32_t correlation) {
  records::SyncRecord record;
  record.pid = pid;
  record.device_id = device;
  record.stream_id = stream;
  record.correlation_id = correlation;
  record.kind = kind;
  record.start = start;
  record.end = end;
  sink_.Add(record);
}

void RecordBuilder::Range(std::string_view name, base::TimeNs start, base::TimeNs end,
                          records::RangeCategory category) {
  records::RangeRecord record;
  record.pid = pid;
  record.tid = tid;
  record.category = category;
  record.domain = Intern(nvtx_domain);
  record.name = Intern(name);
  record.start = start;
  record.end = end;
  sink_.Add(record);
}

void RecordBuilder::RangeStart(uint64_t range_id, std::string_view name, base::TimeNs at) {
  records::MarkRecord record;
  record.pid = pid;
  record.tid = tid;
  record.kind = records::MarkKind::kRangeStart;
  record.range_id = range_id;
  record.name = Intern(name);
  record.timestamp = at;
  sink_.Add(record);
}

void RecordBuilder::RangeEnd(uint64_t range_id, base::TimeNs at) {
  records::MarkRecord record;
  record.pid = pid;
  record.tid = tid;
  record.kind = records::MarkKind::kRangeEnd;
  record.range_id = range_id;
  record.timestamp = at;
  sink_.Add(record);
}

void RecordBuilder::Mark(std::string_view name, base::TimeNs at) {
  records::MarkRecord record;
  record.pid = pid;
  record.tid = tid;
  record.kind = records::MarkKind::kInstant;
  record.name = Intern(name);
  record.timestamp = at;
  sink_.Add(record);
}

}  // namespace ampprof::testing
