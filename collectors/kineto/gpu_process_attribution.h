#ifndef AMPPROF_COLLECTORS_KINETO_GPU_PROCESS_ATTRIBUTION_H_
#define AMPPROF_COLLECTORS_KINETO_GPU_PROCESS_ATTRIBUTION_H_

// GpuProcessAttribution: which process of a PyTorch profiler (Kineto) trace a GPU event belongs to.
//
// Kineto writes GPU events (kernels, copies, memsets, synchronisations) with "pid" = the device, and
// names their process only through the correlation id, which CUPTI hands out per process: Kineto
// scopes correlation ids to the one process it profiles, and a trace file normally holds one. A file
// that holds several (the traces of several ranks or workers merged into one) repeats the same ids in
// each, so an id alone does not say whose a kernel is. The model links GPU records to API calls by
// (process, correlation id), so the importer gives each GPU record its process:
//
//   - every API call's correlation id is noted for its process (a bit per id);
//   - until a second process shows itself, GPU events belong to the one there is (nothing is held:
//     the common case costs a bit per call);
//   - after that, GPU events are held (about 100 bytes each) until the end of the file, and each goes
//     to the process whose calls carry its correlation id. When several processes used the id, to
//     the process of the launch Kineto wrote next to it: Kineto writes each GPU activity beside the
//     runtime call that launched it (kernel, flow, launch), so the nearest call with the same id
//     among the kAdjacentCalls API calls just after or before it is its launch. A GPU event that neither tells
//     apart is counted in Stat::kCorrelationAmbiguousProcess and attributed to the candidate its
//     device's other GPU events went to, else to the first candidate.
//
//   GpuProcessAttribution attribution;
//   attribution.NoteCall(pid, correlation);                 // each API call, in file order
//   if (!attribution.several_processes()) emit(record, first process), attribution.NoteAttributed(device);
//   else held.push_back(record), attribution.Hold(device, correlation);
//   ... at the end:
//   ambiguous = attribution.Resolve();
//   pid of held[i] = attribution.ProcessOf(i);

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ampprof::kineto {

class GpuProcessAttribution {
 public:
  // How far from a GPU event (in API calls, either way) its launch may stand to count as beside it.
  static constexpr size_t kAdjacentCalls = 4;

  // A CPU-side event of process `pid`.
  void NoteProcess(uint32_t pid);
  // An API call of process `pid` carrying `correlation` (0: none).
  void NoteCall(uint32_t pid, uint32_t correlation);
  // A GPU event given to the only process there was (before a second one showed itself).
  void NoteAttributed(uint32_t device);
  // A GPU event held for Resolve(); its index is the number of events held before it.
  void Hold(uint32_t device, uint32_t correlation);

  bool several_processes() const { return processes_.size() > 1; }
  // The processes with CPU-side events, in the order they showed themselves.
  std::vector<uint32_t> processes() const;
  bool Knows(uint32_t pid) const;

  // Attributes the held events; returns how many stayed ambiguous.
  uint64_t Resolve();
  uint32_t ProcessOf(size_t held) const { return processes_[held_[held].process].pid; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;

  // Correlation ids of one process: a bitset for the dense ids CUPTI hands out, a set for the rest.
  class IdSet {
   public:
    void Insert(uint32_t id);
    bool Contains(uint32_t id) const;

   private:
    static constexpr uint32_t kDenseIds = 1u << 26;  // 8 MiB of bits at most
    std::vector<uint64_t> bits_;
    std::unordered_set<uint32_t> sparse_;
  };
  struct Process {
    uint32_t pid = 0;
    IdSet ids;
  };
  struct Held {
    uint32_t device = 0;
    uint32_t correlation = 0;
    // The process of the nearest call with its id among the kAdjacentCalls before it, and after it.
    uint32_t before = kNone;
    uint32_t before_distance = 0;
    uint32_t after = kNone;
    uint32_t after_distance = 0;
    uint32_t process = kNone;  // after Resolve()

    // The launch written beside it: the nearer one, the one after it on a tie (Kineto writes a GPU
    // activity just before its launch).
    uint32_t Adjacent() const {
      if (after != kNone && (before == kNone || after_distance <= before_distance)) return after;
      return before;
    }
  };
  struct RecentCall {
    uint32_t process = kNone;
    uint32_t correlation = 0;
  };

  uint32_t IndexOf(uint32_t pid);
  void Vote(uint32_t device, uint32_t process);
  uint32_t OwnerOf(uint32_t device) const;  // kNone when no vote

  std::vector<Process> processes_;
  uint32_t last_process_ = 0;  // events of one process arrive in runs
  std::array<RecentCall, kAdjacentCalls> recent_calls_{};  // a ring, by call count
  uint64_t calls_ = 0;
  std::vector<Held> held_;
  std::vector<size_t> waiting_;  // held events whose next calls may still be their launch
  std::vector<uint64_t> waiting_since_;  // calls_ when each was held
  std::unordered_map<uint32_t, std::vector<uint64_t>> votes_;  // by device, then by process
};

}  // namespace ampprof::kineto

#endif  // AMPPROF_COLLECTORS_KINETO_GPU_PROCESS_ATTRIBUTION_H_
