#ifndef AMPPROF_SRC_MODEL_TABLES_H_
#define AMPPROF_SRC_MODEL_TABLES_H_

// The TraceModel's tables.
//
// Activity tables (kernels, API calls, copies, ...) hold millions of rows and are struct-of-arrays: one
// Column per field, indexed by that table's typed row. Scans touch only the columns they read, and a
// kernel costs 28 bytes (start, end, signature, stream, launching call). Fields that repeat across
// launches of the same kernel (name, grid, block, registers, shared memory) are stored once per distinct
// combination in the KernelSignature table.
//
// Fields that repeat across ranges (category, domain, name, arguments) are stored once per distinct
// combination in the RangeLabel table.
//
// Dimension tables (devices, processes, threads, streams, signatures, labels) have a handful to
// thousands of rows and are plain vectors of structs.
//
// Sort orders (ModelBuilder establishes them; queries rely on them):
//   kernels      by (device, start, end): each device's kernels are one contiguous RowRange;
//   api_calls    by (process, thread, start): each thread's calls are one contiguous RowRange;
//   ranges       by (thread, start, end descending): parents before children;
//   marks        by (thread, timestamp);
//   memcpys, memsets, syncs, memory, overheads   by start (or timestamp).

#include <cstdint>
#include <span>
#include <vector>

#include "collectors/records/records.h"
#include "src/base/string_pool.h"
#include "src/base/time.h"
#include "src/model/ids.h"

namespace ampprof::model {

using base::DurationNs;
using base::StringId;
using base::TimeNs;

// A column of a struct-of-arrays table, indexed by the table's row type.
template <typename RowType, typename T>
class Column {
 public:
  const T& operator[](RowType row) const { return values_[row.value]; }
  std::span<const T> values() const { return values_; }
  size_t size() const { return values_.size(); }

  size_t capacity_bytes() const { return values_.capacity() * sizeof(T); }

  // Mutation is for ModelBuilder only; analyzers see tables through const references.
  std::vector<T>& storage() { return values_; }

 private:
  std::vector<T> values_;
};

// ---- Dimension tables ----

struct Process {
  uint32_t pid = 0;
  StringId command;
  StringId hostname;
  int32_t rank = -1;
  int32_t local_rank = -1;
  int32_t world_size = 0;
};

struct Thread {
  ProcessRow process;
  uint32_t pid = 0;
  uint32_t tid = 0;
  StringId name;
  RowRange<ApiCallRow> api_calls;  // this thread's calls, in start order
  RowRange<RangeRow> ranges;       // this thread's ranges, parents before children
  RowRange<MarkRow> marks;
};

struct Device {
  uint32_t pid = 0;  // the process that used it
  uint32_t device_id = 0;
  bool has_properties = false;  // a DeviceRecord described it (else only its id is known)
  StringId name;
  StringId uuid;
  uint32_t compute_major = 0;
  uint32_t compute_minor = 0;
  uint32_t sm_count = 0;
  uint64_t global_memory_bytes = 0;
  uint32_t core_clock_khz = 0;
  RowRange<KernelRow> kernels;  // this device's kernels, in start order
};

struct Stream {
  DeviceRow device;
  uint32_t pid = 0;
  uint32_t stream_id = 0;          // CUDA's id for the stream
  std::vector<KernelRow> kernels;  // this stream's kernels, in start order
};

// What a range is, apart from when and where: stored once per distinct combination (the same op names
// recur on every step), like kernel signatures.
struct RangeLabel {
  records::RangeCategory category = records::RangeCategory::kNvtx;
  StringId domain;  // NVTX domain; empty for the default domain and for framework ops
  StringId name;
  StringId args;    // free text the source attached (input shapes, ...), often empty

  friend bool operator==(const RangeLabel&, const RangeLabel&) = default;
};

struct KernelSignature {
  StringId name;
  uint32_t grid[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  uint32_t registers_per_thread = 0;
  uint32_t static_shared_bytes = 0;
  uint32_t dynamic_shared_bytes = 0;

  friend bool operator==(const KernelSignature&, const KernelSignature&) = default;
};

// ---- Activity tables ----

struct KernelTable {
  Column<KernelRow, TimeNs> start;
  Column<KernelRow, TimeNs> end;
  Column<KernelRow, KernelSignatureRow> signature;
  Column<KernelRow, StreamRow> stream;
  Column<KernelRow, ApiCallRow> launch;  // the API call that launched it; invalid when unknown

  size_t size() const { return start.size(); }
  DurationNs duration(KernelRow row) const { return end[row] - start[row]; }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.start);
    f(t.end);
    f(t.signature);
    f(t.stream);
    f(t.launch);
  }
};

struct ApiCallTable {
  Column<ApiCallRow, TimeNs> start;
  Column<ApiCallRow, TimeNs> end;
  Column<ApiCallRow, ThreadRow> thread;
  Column<ApiCallRow, StringId> name;
  Column<ApiCallRow, records::ApiDomain> domain;

  size_t size() const { return start.size(); }
  DurationNs duration(ApiCallRow row) const { return end[row] - start[row]; }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.start);
    f(t.end);
    f(t.thread);
    f(t.name);
    f(t.domain);
  }
};

struct MemcpyTable {
  Column<MemcpyRow, TimeNs> start;
  Column<MemcpyRow, TimeNs> end;
  Column<MemcpyRow, StreamRow> stream;
  Column<MemcpyRow, ApiCallRow> launch;
  Column<MemcpyRow, records::MemcpyKind> kind;
  Column<MemcpyRow, records::MemoryKind> src_kind;
  Column<MemcpyRow, records::MemoryKind> dst_kind;
  Column<MemcpyRow, uint64_t> bytes;

  size_t size() const { return start.size(); }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.start);
    f(t.end);
    f(t.stream);
    f(t.launch);
    f(t.kind);
    f(t.src_kind);
    f(t.dst_kind);
    f(t.bytes);
  }
};

struct MemsetTable {
  Column<MemsetRow, TimeNs> start;
  Column<MemsetRow, TimeNs> end;
  Column<MemsetRow, StreamRow> stream;
  Column<MemsetRow, ApiCallRow> launch;
  Column<MemsetRow, uint64_t> bytes;

  size_t size() const { return start.size(); }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.start);
    f(t.end);
    f(t.stream);
    f(t.launch);
    f(t.bytes);
  }
};

struct SyncTable {
  Column<SyncRow, TimeNs> start;
  Column<SyncRow, TimeNs> end;
  Column<SyncRow, records::SyncKind> kind;
  Column<SyncRow, ThreadRow> thread;  // the waiting thread, from the record or its API call
  Column<SyncRow, StreamRow> stream;  // invalid for context-wide synchronisation
  Column<SyncRow, ApiCallRow> launch;

  size_t size() const { return start.size(); }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.start);
    f(t.end);
    f(t.kind);
    f(t.thread);
    f(t.stream);
    f(t.launch);
  }
};

// The low 32 bits of a range's sequence number (records::RangeRecord::sequence_number), or kNoSequence.
// 32 bits tell apart the ops of any trace: PyTorch numbers the ops of one thread 0, 1, 2, ..., and a
// trace would need four billion autograd ops between a forward op and its backward to wrap.
inline constexpr uint32_t kNoSequence = UINT32_MAX;

struct RangeTable {
  Column<RangeRow, TimeNs> start;
  Column<RangeRow, TimeNs> end;
  Column<RangeRow, ThreadRow> thread;
  Column<RangeRow, RangeLabelRow> label;
  Column<RangeRow, RangeRow> parent;  // the innermost range on the thread that encloses it
  Column<RangeRow, uint16_t> depth;   // 0 for ranges with no parent
  Column<RangeRow, uint32_t> sequence;  // kNoSequence when the source gives none

  size_t size() const { return start.size(); }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.start);
    f(t.end);
    f(t.thread);
    f(t.label);
    f(t.parent);
    f(t.depth);
    f(t.sequence);
  }
};

struct MarkTable {
  Column<MarkRow, TimeNs> timestamp;
  Column<MarkRow, ThreadRow> thread;
  Column<MarkRow, StringId> domain;
  Column<MarkRow, StringId> name;

  size_t size() const { return timestamp.size(); }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.timestamp);
    f(t.thread);
    f(t.domain);
    f(t.name);
  }
};

struct MemoryTable {
  Column<MemoryEventRow, TimeNs> timestamp;
  Column<MemoryEventRow, DeviceRow> device;
  Column<MemoryEventRow, records::MemoryOperation> operation;
  Column<MemoryEventRow, records::MemoryKind> memory_kind;
  Column<MemoryEventRow, uint64_t> address;
  Column<MemoryEventRow, uint64_t> bytes;
  Column<MemoryEventRow, records::MemorySource> source;
  // What the framework's allocator held on the device after the event; MemoryRecord::kUnknownTotal
  // when not recorded.
  Column<MemoryEventRow, uint64_t> total_allocated;
  Column<MemoryEventRow, uint64_t> total_reserved;

  size_t size() const { return timestamp.size(); }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.timestamp);
    f(t.device);
    f(t.operation);
    f(t.memory_kind);
    f(t.address);
    f(t.bytes);
    f(t.source);
    f(t.total_allocated);
    f(t.total_reserved);
  }
};

struct OverheadTable {
  Column<OverheadRow, TimeNs> start;
  Column<OverheadRow, TimeNs> end;
  Column<OverheadRow, ThreadRow> thread;
  Column<OverheadRow, records::OverheadKind> kind;

  size_t size() const { return start.size(); }
  // Visits every column; Self is the table, const or not.
  template <typename Self, typename F>
  static void ForEachColumn(Self& t, F&& f) {
    f(t.start);
    f(t.end);
    f(t.thread);
    f(t.kind);
  }
};

}  // namespace ampprof::model

#endif  // AMPPROF_SRC_MODEL_TABLES_H_
