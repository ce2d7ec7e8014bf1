#ifndef AMPPROF_SRC_MODEL_TRACE_MODEL_H_
#define AMPPROF_SRC_MODEL_TRACE_MODEL_H_

// TraceModel: everything ampprof knows about one traced run (one or more processes), in one clock domain,
// with strings interned, kernels and copies linked to the API calls that launched them, NVTX and framework
// ranges nested per thread, and kernels indexed by device and stream. Immutable once ModelBuilder has
// built it; analyzers read it through const references and never see where the data came from.
//
//   const TraceModel& model = ...;
//   for (const Device& device : model.devices()) {
//     for (KernelRow kernel : device.kernels) {                  // start order
//       std::string_view name = model.KernelName(kernel);
//       ApiCallRow launch = model.kernels().launch[kernel];       // may be invalid
//       ...
//     }
//   }
//
// The stats() travel with the model: every report prints the non-zero ones.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/stats.h"
#include "src/base/string_pool.h"
#include "src/model/tables.h"

namespace ampprof::model {

class TraceModel {
 public:
  TraceModel() = default;
  TraceModel(TraceModel&&) noexcept = default;
  TraceModel& operator=(TraceModel&&) noexcept = default;
  TraceModel(const TraceModel&) = delete;
  TraceModel& operator=(const TraceModel&) = delete;

  const base::StringPool& strings() const { return strings_; }
  std::string_view Text(StringId id) const { return strings_.Get(id); }
  const base::Stats& stats() const { return stats_; }
  const std::map<std::string, std::string, std::less<>>& metadata() const { return metadata_; }
  // The metadata value for `key`, or "" when absent.
  std::string_view Metadata(std::string_view key) const;

  const std::vector<Process>& processes() const { return processes_; }
  const std::vector<Thread>& threads() const { return threads_; }
  const std::vector<Device>& devices() const { return devices_; }
  const std::vector<Stream>& streams() const { return streams_; }
  const std::vector<KernelSignature>& kernel_signatures() const { return signatures_; }
  const std::vector<RangeLabel>& range_labels() const { return range_labels_; }

  const Process& process(ProcessRow row) const { return processes_[row.value]; }
  const Thread& thread(ThreadRow row) const { return threads_[row.value]; }
  const Device& device(DeviceRow row) const { return devices_[row.value]; }
  const Stream& stream(StreamRow row) const { return streams_[row.value]; }
  const KernelSignature& signature(KernelSignatureRow row) const { return signatures_[row.value]; }
  const RangeLabel& label(RangeRow row) const { return range_labels_[ranges_.label[row].value]; }

  const KernelTable& kernels() const { return kernels_; }
  const ApiCallTable& api_calls() const { return api_calls_; }
  const MemcpyTable& memcpys() const { return memcpys_; }
  const MemsetTable& memsets() const { return memsets_; }
  const SyncTable& syncs() const { return syncs_; }
  const RangeTable& ranges() const { return ranges_; }
  const MarkTable& marks() const { return marks_; }
  const MemoryTable& memory() const { return memory_; }
  const OverheadTable& overheads() const { return overheads_; }

  std::string_view KernelName(KernelRow row) const;
  std::string_view RangeName(RangeRow row) const { return strings_.Get(label(row).name); }
  DeviceRow DeviceOf(KernelRow row) const { return streams_[kernels_.stream[row].value].device; }
  // From the first start to the last end of GPU work (kernels, copies, memsets); nullopt if there is none.
  std::optional<base::Interval> GpuSpan() const;
  // Approximate heap bytes held by the model (tables, indexes, strings).
  size_t MemoryBytes() const;

 private:
  friend class ModelBuilder;

  base::StringPool strings_;
  base::Stats stats_;
  std::map<std::string, std::string, std::less<>> metadata_;
  std::vector<Process> processes_;
  std::vector<Thread> threads_;
  std::vector<Device> devices_;
  std::vector<Stream> streams_;
  std::vector<KernelSignature> signatures_;
  std::vector<RangeLabel> range_labels_;
  KernelTable kernels_;
  ApiCallTable api_calls_;
  MemcpyTable memcpys_;
  MemsetTable memsets_;
  SyncTable syncs_;
  RangeTable ranges_;
  MarkTable marks_;
  MemoryTable memory_;
  OverheadTable overheads_;
};

}  // namespace ampprof::model

#endif  // AMPPROF_SRC_MODEL_TRACE_MODEL_H_
