#include "src/model/model_builder.h"

#include <algorithm>
#include <tuple>

#include "src/model/correlation_index.h"
#include "src/model/permutation.h"
#include "src/model/range_nesting.h"

namespace ampprof::model {
namespace {

using records::RecordKind;

uint64_t PairKey(uint32_t high, uint32_t low) { return (uint64_t{high} << 32) | low; }

uint64_t Mix(uint64_t hash, uint64_t value) {
  // boost::hash_combine's mixing, widened to 64 bits.
  return hash ^ (value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2));
}

template <typename Table>
void ReserveTable(Table& table, uint64_t rows) {
  Table::ForEachColumn(table, [&](auto& column) { column.storage().reserve(rows); });
}

}  // namespace

size_t ModelBuilder::LabelHash::operator()(const RangeLabel& l) const noexcept {
  uint64_t hash = l.name.value;
  for (uint32_t v : {static_cast<uint32_t>(l.category), l.domain.value, l.args.value}) {
    hash = Mix(hash, v);
  }
  return static_cast<size_t>(hash);
}

size_t ModelBuilder::SignatureHash::operator()(const KernelSignature& s) const noexcept {
  uint64_t hash = s.name.value;
  for (uint32_t v : {s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2],
                     s.registers_per_thread, s.static_shared_bytes, s.dynamic_shared_bytes}) {
    hash = Mix(hash, v);
  }
  return static_cast<size_t>(hash);
}

// ---------------------------------------------------------------------------------------------------
// Accepting records
// ---------------------------------------------------------------------------------------------------

void ModelBuilder::Reserve(RecordKind kind, uint64_t count) {
  switch (kind) {
    case RecordKind::kKernel:
      ReserveTable(model_.kernels_, model_.kernels_.size() + count);
      kernel_correlation_.reserve(kernel_correlation_.size() + count);
      break;
    case RecordKind::kApiCall:
      ReserveTable(model_.api_calls_, model_.api_calls_.size() + count);
      api_correlation_.reserve(api_correlation_.size() + count);
      break;
    case RecordKind::kMemcpy: ReserveTable(model_.memcpys_, model_.memcpys_.size() + count); break;
    case RecordKind::kMemset: ReserveTable(model_.memsets_, model_.memsets_.size() + count); break;
    case RecordKind::kRange: ReserveTable(model_.ranges_, model_.ranges_.size() + count); break;
    default: break;  // small tables grow as they go
  }
}

void ModelBuilder::SetMetadata(std::string_view key, std::string_view value) {
  model_.metadata_.insert_or_assign(std::string(key), std::string(value));
}

void ModelBuilder::Add(const records::DeviceRecord& record) {
  device_records_.push_back(record);
  if (record.pid != 0) DeviceFor(record.pid, record.device_id);
}

void ModelBuilder::Add(const records::ProcessRecord& record) { process_records_.push_back(record); }

void ModelBuilder::Add(const records::ThreadRecord& record) {
  const ThreadRow row = ThreadFor(record.pid, record.tid);
  if (record.name != base::kEmptyStringId) model_.threads_[row.value].name = record.name;
}

void ModelBuilder::Add(const records::KernelRecord& record) {
  if (record.start == 0 && record.end == 0) {
    model_.stats_.Increment(base::Stat::kKernelMissingTimestamps);
    return;
  }
  KernelTable& kernels = model_.kernels_;
  if (!TimesValid(record.start, record.end) || !HasRoom(kernels.size())) return;
  const TimeNs end = RepairedEnd(record.start, record.end);
  kernels.start.storage().push_back(record.start);
  kernels.end.storage().push_back(end);
  kernels.signature.storage().push_back(SignatureFor(record));
  kernels.stream.storage().push_back(StreamFor(record.pid, record.device_id, record.stream_id));
  kernel_correlation_.push_back(record.correlation_id);
  NoteEnd(end);
}

void ModelBuilder::Add(const records::ApiCallRecord& record) {
  ApiCallTable& calls = model_.api_calls_;
  if (!TimesValid(record.start, record.end) || !HasRoom(calls.size())) return;
  const TimeNs end = RepairedEnd(record.start, record.end);
  calls.start.storage().push_back(record.start);
  calls.end.storage().push_back(end);
  calls.thread.storage().push_back(ThreadFor(record.pid, record.tid));
  calls.name.storage().push_back(record.name);
  calls.domain.storage().push_back(record.domain);
  api_correlation_.push_back(record.correlation_id);
  NoteEnd(end);
}

void ModelBuilder::Add(const records::MemcpyRecord& record) {
  MemcpyTable& copies = model_.memcpys_;
  if (!TimesValid(record.start, record.end) || !HasRoom(copies.size())) return;
  const TimeNs end = RepairedEnd(record.start, record.end);
  copies.start.storage().push_back(record.start);
  copies.end.storage().push_back(end);
  copies.stream.storage().push_back(StreamFor(record.pid, record.device_id, record.stream_id));
  copies.kind.storage().push_back(record.kind);
  copies.src_kind.storage().push_back(record.src_kind);
  copies.dst_kind.storage().push_back(record.dst_kind);
  copies.bytes.storage().push_back(record.bytes);
  memcpy_correlation_.push_back(record.correlation_id);
  NoteEnd(end);
}

void ModelBuilder::Add(const records::MemsetRecord& record) {
  MemsetTable& memsets = model_.memsets_;
  if (!TimesValid(record.start, record.end) || !HasRoom(memsets.size())) return;
  const TimeNs end = RepairedEnd(record.start, record.end);
  memsets.start.storage().push_back(record.start);
  memsets.end.storage().push_back(end);
  memsets.stream.storage().push_back(StreamFor(record.pid, record.device_id, record.stream_id));
  memsets.bytes.storage().push_back(record.bytes);
  memset_correlation_.push_back(record.correlation_id);
  NoteEnd(end);
}

void ModelBuilder::Add(const records::SyncRecord& record) {
  SyncTable& syncs = model_.syncs_;
  if (!TimesValid(record.start, record.end) || !HasRoom(syncs.size())) return;
  const TimeNs end = RepairedEnd(record.start, record.end);
  syncs.start.storage().push_back(record.start);
  syncs.end.storage().push_back(end);
  syncs.kind.storage().push_back(record.kind);
  syncs.thread.storage().push_back(record.tid != 0 ? ThreadFor(record.pid, record.tid) : ThreadRow());
  const bool has_stream = record.kind == records::SyncKind::kStreamSynchronize ||
                          record.kind == records::SyncKind::kStreamWaitEvent;
  syncs.stream.storage().push_back(
      has_stream ? StreamFor(record.pid, record.device_id, record.stream_id) : StreamRow());
  sync_correlation_.push_back(record.correlation_id);
  sync_pid_.push_back(record.pid);
  NoteEnd(end);
}

void ModelBuilder::Add(const records::RangeRecord& record) {
  RangeTable& ranges = model_.ranges_;
  if (!TimesValid(record.start, record.end) || !HasRoom(ranges.size())) return;
  const TimeNs end = RepairedEnd(record.start, record.end);
  ranges.start.storage().push_back(record.start);
  ranges.end.storage().push_back(end);
  ranges.thread.storage().push_back(ThreadFor(record.pid, record.tid));
  ranges.label.storage().push_back(LabelFor({record.category, record.domain, record.name, record.args}));
  ranges.sequence.storage().push_back(record.sequence_number < 0
                                          ? kNoSequence
                                          : static_cast<uint32_t>(static_cast<uint64_t>(record.sequence_number)));
  NoteEnd(end);
}

void ModelBuilder::Add(const records::MarkRecord& record) {
  if (!TimesValid(record.timestamp, record.timestamp)) return;
  const ThreadRow thread = ThreadFor(record.pid, record.tid);
  NoteEnd(record.timestamp);
  switch (record.kind) {
    case records::MarkKind::kInstant: {
      MarkTable& marks = model_.marks_;
      if (!HasRoom(marks.size())) return;
      marks.timestamp.storage().push_back(record.timestamp);
      marks.thread.storage().push_back(thread);
      marks.domain.storage().push_back(record.domain);
      marks.name.storage().push_back(record.name);
      return;
    }
    case records::MarkKind::kRangeStart:
    case records::MarkKind::kRangeEnd: {
      if (record.kind == records::MarkKind::kRangeStart) {
        range_starts_.push_back({record.pid, record.range_id, record.timestamp, thread,
                                 LabelFor({record.category, record.domain, record.name, {}})});
      } else {
        range_ends_.push_back({record.pid, record.range_id, record.timestamp, thread, RangeLabelRow()});
      }
      return;
    }
  }
}

void ModelBuilder::Add(const records::MemoryRecord& record) {
  MemoryTable& memory = model_.memory_;
  if (!TimesValid(record.timestamp, record.timestamp) || !HasRoom(memory.size())) return;
  memory.timestamp.storage().push_back(record.timestamp);
  memory.device.storage().push_back(DeviceFor(record.pid, record.device_id));
  memory.operation.storage().push_back(record.operation);
  memory.memory_kind.storage().push_back(record.memory_kind);
  memory.address.storage().push_back(record.address);
  memory.bytes.storage().push_back(record.bytes);
  memory.source.storage().push_back(record.source);
  memory.total_allocated.storage().push_back(record.total_allocated);
  memory.total_reserved.storage().push_back(record.total_reserved);
  NoteEnd(record.timestamp);
}

void ModelBuilder::Add(const records::OverheadRecord& record) {
  OverheadTable& overheads = model_.overheads_;
  if (!TimesValid(record.start, record.end) || !HasRoom(overheads.size())) return;
  const TimeNs end = RepairedEnd(record.start, record.end);
  overheads.start.storage().push_back(record.start);
  overheads.end.storage().push_back(end);
  overheads.thread.storage().push_back(record.tid != 0 ? ThreadFor(record.pid, record.tid)
                                                       : ThreadRow());
  overheads.kind.storage().push_back(record.kind);
  NoteEnd(end);
}

// ---------------------------------------------------------------------------------------------------
// Interning dimensions
// ---------------------------------------------------------------------------------------------------

ThreadRow ModelBuilder::ThreadFor(uint32_t pid, uint32_t tid) {
  const uint64_t key = PairKey(pid, tid);
  if (key == last_thread_key_) return last_thread_;
  auto [it, inserted] = threads_by_key_.try_emplace(key, ThreadRow());
  if (inserted) {
    it->second = ThreadRow(static_cast<uint32_t>(model_.threads_.size()));
    Thread thread;
    thread.pid = pid;
    thread.tid = tid;
    model_.threads_.push_back(thread);
  }
  last_thread_key_ = key;
  last_thread_ = it->second;
  return it->second;
}

DeviceRow ModelBuilder::DeviceFor(uint32_t pid, uint32_t device_id) {
  auto [it, inserted] = devices_by_key_.try_emplace(PairKey(pid, device_id), DeviceRow());
  if (inserted) {
    it->second = DeviceRow(static_cast<uint32_t>(model_.devices_.size()));
    Device device;
    device.pid = pid;
    device.device_id = device_id;
    model_.devices_.push_back(device);
  }
  return it->second;
}

StreamRow ModelBuilder::StreamFor(uint32_t pid, uint32_t device_id, uint32_t stream_id) {
  // CUDA stream ids are unique within a process, so (pid, stream) is the key; the device is checked
  // too, because importers that do not know stream ids report 0 on every device.
  const uint64_t key = PairKey(pid, stream_id);
  if (key == last_stream_key_ && device_id == last_stream_device_id_) return last_stream_;
  const DeviceRow device = DeviceFor(pid, device_id);
  auto [it, inserted] = streams_by_key_.try_emplace(Mix(key, device.value), StreamRow());
  if (inserted) {
    it->second = StreamRow(static_cast<uint32_t>(model_.streams_.size()));
    Stream stream;
    stream.device = device;
    stream.pid = pid;
    stream.stream_id = stream_id;
    model_.streams_.push_back(std::move(stream));
  }
  last_stream_key_ = key;
  last_stream_device_id_ = device_id;
  last_stream_ = it->second;
  return it->second;
}

KernelSignatureRow ModelBuilder::SignatureFor(const records::KernelRecord& record) {
  KernelSignature signature;
  signature.name = record.name;
  signature.grid[0] = record.grid_x;
  signature.grid[1] = record.grid_y;
  signature.grid[2] = record.grid_z;
  signature.block[0] = record.block_x;
  signature.block[1] = record.block_y;
  signature.block[2] = record.block_z;
  signature.registers_per_thread = record.registers_per_thread;
  signature.static_shared_bytes = record.static_shared_bytes;
  signature.dynamic_shared_bytes = record.dynamic_shared_bytes;
  // Most launches of a kernel repeat its last launch configuration: check that before hashing.
  if (record.name.value >= last_signature_of_name_.size()) {
    last_signature_of_name_.resize(strings().size(), KernelSignatureRow());
  }
  KernelSignatureRow& last = last_signature_of_name_[record.name.value];
  if (last.valid() && model_.signatures_[last.value] == signature) return last;
  last = KernelSignatureRow(signatures_by_value_.FindOrAppend(signature, model_.signatures_));
  return last;
}

RangeLabelRow ModelBuilder::LabelFor(const RangeLabel& label) {
  // Ranges of one name usually repeat their last label: check that before hashing.
  if (label.name.value >= last_label_of_name_.size()) {
    last_label_of_name_.resize(strings().size(), RangeLabelRow());
  }
  RangeLabelRow& last = last_label_of_name_[label.name.value];
  if (last.valid() && model_.range_labels_[last.value] == label) return last;
  last = RangeLabelRow(labels_by_value_.FindOrAppend(label, model_.range_labels_));
  return last;
}

TimeNs ModelBuilder::RepairedEnd(TimeNs start, TimeNs end) {
  if (end >= start) return end;
  model_.stats_.Increment(base::Stat::kRecordNegativeDuration);
  return start;
}

bool ModelBuilder::TimesValid(TimeNs start, TimeNs end) {
  if (base::IsValidTraceTime(start) && base::IsValidTraceTime(end)) return true;
  model_.stats_.Increment(base::Stat::kRecordTimeOutOfRange);
  return false;
}

bool ModelBuilder::HasRoom(size_t rows) {
  if (rows < kMaxRows) return true;
  model_.stats_.Increment(base::Stat::kTableRowLimit);
  return false;
}

void ModelBuilder::NoteEnd(TimeNs end) { latest_time_ = std::max(latest_time_, end); }

// ---------------------------------------------------------------------------------------------------
// Build
// ---------------------------------------------------------------------------------------------------

TraceModel ModelBuilder::Build() && {
  SortApiCalls();
  LinkToApiCalls();
  SortKernels();
  AppendPairedRanges(std::move(range_starts_), std::move(range_ends_), latest_time_, model_.ranges_,
                     model_.stats_);
  SortAndNestRanges(model_.ranges_, model_.threads_, model_.stats_);
  SortTimeTables();
  ApplyDeviceProperties();
  FillProcesses();
  return std::move(model_);
}

void ModelBuilder::SortApiCalls() {
  ApiCallTable& calls = model_.api_calls_;
  const auto threads = calls.thread.values();
  const auto starts = calls.start.values();
  auto pid_of = [&](uint32_t row) { return model_.threads_[threads[row].value].pid; };
  // By process first, so that each process's calls (and their correlation ids) are contiguous.
  internal::SortRows(
      calls, calls.size(),
      [&](uint32_t a, uint32_t b) {
        return std::make_tuple(pid_of(a), threads[a].value, starts[a]) <
               std::make_tuple(pid_of(b), threads[b].value, starts[b]);
      },
      api_correlation_);
  // Each thread's calls are now contiguous.
  for (uint32_t row = 0; row < calls.size();) {
    const ThreadRow thread = calls.thread[ApiCallRow(row)];
    uint32_t end = row;
    while (end < calls.size() && calls.thread[ApiCallRow(end)] == thread) ++end;
    model_.threads_[thread.value].api_calls = {row, end};
    row = end;
  }
}

void ModelBuilder::LinkToApiCalls() {
  // One index per process: correlation ids restart in every process.
  std::unordered_map<uint32_t, CorrelationIndex> index_of_pid;
  const ApiCallTable& calls = model_.api_calls_;
  int64_t duplicates = 0;
  for (uint32_t row = 0; row < calls.size();) {
    const uint32_t pid = model_.threads_[calls.thread[ApiCallRow(row)].value].pid;
    uint32_t end = row;
    while (end < calls.size() && model_.threads_[calls.thread[ApiCallRow(end)].value].pid == pid) ++end;
    const std::span<const uint32_t> ids(api_correlation_.data() + row, end - row);
    duplicates += static_cast<int64_t>(
        index_of_pid[pid].Build(ids, calls.domain.values().subspan(row, end - row), row));
    row = end;
  }
  model_.stats_.Increment(base::Stat::kApiDuplicateCorrelation, duplicates);
  std::vector<uint32_t>().swap(api_correlation_);

  auto find = [&](uint32_t pid, uint32_t correlation) {
    const auto it = index_of_pid.find(pid);
    return it == index_of_pid.end() ? ApiCallRow() : it->second.Find(correlation);
  };
  auto link = [&](std::vector<uint32_t>& correlation, const auto& pid_of_row,
                  std::vector<ApiCallRow>& launch, base::Stat unmatched) {
    launch.resize(correlation.size());
    int64_t misses = 0;
    for (uint32_t i = 0; i < correlation.size(); ++i) {
      launch[i] = find(pid_of_row(i), correlation[i]);
      misses += launch[i].valid() ? 0 : 1;
    }
    model_.stats_.Increment(unmatched, misses);
    std::vector<uint32_t>().swap(correlation);
  };
  auto stream_pid = [&](const auto& table) {
    return [&](uint32_t i) { return model_.streams_[table.stream.values()[i].value].pid; };
  };
  link(kernel_correlation_, stream_pid(model_.kernels_), model_.kernels_.launch.storage(),
       base::Stat::kKernelUnmatchedCorrelation);
  link(memcpy_correlation_, stream_pid(model_.memcpys_), model_.memcpys_.launch.storage(),
       base::Stat::kCopyUnmatchedCorrelation);
  link(memset_correlation_, stream_pid(model_.memsets_), model_.memsets_.launch.storage(),
       base::Stat::kCopyUnmatchedCorrelation);
  link(sync_correlation_, [&](uint32_t i) { return sync_pid_[i]; }, model_.syncs_.launch.storage(),
       base::Stat::kSyncUnmatchedCorrelation);
  std::vector<uint32_t>().swap(sync_pid_);

  // CUPTI does not say which thread waited in a synchronisation; its API call does.
  SyncTable& syncs = model_.syncs_;
  for (uint32_t i = 0; i < syncs.size(); ++i) {
    const SyncRow row(i);
    if (!syncs.thread[row].valid() && syncs.launch[row].valid()) {
      syncs.thread.storage()[i] = model_.api_calls_.thread[syncs.launch[row]];
    }
  }
}

void ModelBuilder::SortKernels() {
  KernelTable& kernels = model_.kernels_;
  const auto streams = kernels.stream.values();
  const auto starts = kernels.start.values();
  const auto ends = kernels.end.values();
  auto device_of = [&](uint32_t row) { return model_.streams_[streams[row].value].device.value; };
  internal::SortRows(kernels, kernels.size(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(device_of(a), starts[a], ends[a]) <
           std::make_tuple(device_of(b), starts[b], ends[b]);
  });
  // Sorting may have replaced the columns' storage: read the sorted stream column afresh.
  const auto sorted_streams = kernels.stream.values();
  auto sorted_device_of = [&](uint32_t row) {
    return model_.streams_[sorted_streams[row].value].device.value;
  };
  for (uint32_t row = 0; row < kernels.size();) {
    const uint32_t device = sorted_device_of(row);
    uint32_t end = row;
    while (end < kernels.size() && sorted_device_of(end) == device) ++end;
    model_.devices_[device].kernels = {row, end};
    row = end;
  }
  std::vector<uint32_t> per_stream(model_.streams_.size(), 0);
  for (StreamRow stream : sorted_streams) ++per_stream[stream.value];
  for (size_t s = 0; s < model_.streams_.size(); ++s) model_.streams_[s].kernels.reserve(per_stream[s]);
  for (uint32_t row = 0; row < kernels.size(); ++row) {
    model_.streams_[sorted_streams[row].value].kernels.push_back(KernelRow(row));
  }
}

void ModelBuilder::SortTimeTables() {
  {
    MarkTable& marks = model_.marks_;
    const auto threads = marks.thread.values();
    const auto times = marks.timestamp.values();
    internal::SortRows(marks, marks.size(), [&](uint32_t a, uint32_t b) {
      return std::tie(threads[a].value, times[a]) < std::tie(threads[b].value, times[b]);
    });
    for (uint32_t row = 0; row < marks.size();) {
      const ThreadRow thread = marks.thread[MarkRow(row)];
      uint32_t end = row;
      while (end < marks.size() && marks.thread[MarkRow(end)] == thread) ++end;
      model_.threads_[thread.value].marks = {row, end};
      row = end;
    }
  }
  auto sort_by_time = [](auto& table, const auto& times) {
    const auto values = times.values();
    internal::SortRows(table, table.size(), [&](uint32_t a, uint32_t b) { return values[a] < values[b]; });
  };
  sort_by_time(model_.memcpys_, model_.memcpys_.start);
  sort_by_time(model_.memsets_, model_.memsets_.start);
  sort_by_time(model_.syncs_, model_.syncs_.start);
  sort_by_time(model_.memory_, model_.memory_.timestamp);
  sort_by_time(model_.overheads_, model_.overheads_.start);
}

void ModelBuilder::ApplyDeviceProperties() {
  auto apply = [](Device& device, const records::DeviceRecord& record) {
    device.has_properties = true;
    device.name = record.name;
    device.uuid = record.uuid;
    device.compute_major = record.compute_major;
    device.compute_minor = record.compute_minor;
    device.sm_count = record.sm_count;
    device.global_memory_bytes = record.global_memory_bytes;
    device.core_clock_khz = record.core_clock_khz;
  };
  for (const records::DeviceRecord& record : device_records_) {
    bool applied = false;
    for (Device& device : model_.devices_) {
      // A record without a pid describes that device ordinal in every process.
      if (device.device_id == record.device_id && (record.pid == 0 || record.pid == device.pid)) {
        apply(device, record);
        applied = true;
      }
    }
    if (!applied) apply(model_.devices_[DeviceFor(record.pid, record.device_id).value], record);
  }
}

void ModelBuilder::FillProcesses() {
  std::unordered_map<uint32_t, ProcessRow> by_pid;
  auto process_for = [&](uint32_t pid) {
    auto [it, inserted] = by_pid.try_emplace(pid, ProcessRow());
    if (inserted) {
      it->second = ProcessRow(static_cast<uint32_t>(model_.processes_.size()));
      Process process;
      process.pid = pid;
      model_.processes_.push_back(process);
    }
    return it->second;
  };
  for (const records::ProcessRecord& record : process_records_) {
    Process& process = model_.processes_[process_for(record.pid).value];
    process.command = record.command;
    process.hostname = record.hostname;
    process.rank = record.rank;
    process.local_rank = record.local_rank;
    process.world_size = record.world_size;
  }
  for (Thread& thread : model_.threads_) thread.process = process_for(thread.pid);
  for (const Device& device : model_.devices_) {
    if (device.pid != 0) process_for(device.pid);
  }
}

}  // namespace ampprof::model
