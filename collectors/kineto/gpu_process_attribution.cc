#include "collectors/kineto/gpu_process_attribution.h"

#include <algorithm>

namespace ampprof::kineto {

void GpuProcessAttribution::IdSet::Insert(uint32_t id) {
  if (id >= kDenseIds) {
    sparse_.insert(id);
    return;
  }
  if (id / 64 >= bits_.size()) bits_.resize(std::max<size_t>(id / 64 + 1, bits_.size() * 2), 0);
  bits_[id / 64] |= uint64_t{1} << (id % 64);
}

bool GpuProcessAttribution::IdSet::Contains(uint32_t id) const {
  if (id >= kDenseIds) return sparse_.count(id) > 0;
  return id / 64 < bits_.size() && (bits_[id / 64] >> (id % 64) & 1) != 0;
}

uint32_t GpuProcessAttribution::IndexOf(uint32_t pid) {
  if (last_process_ < processes_.size() && processes_[last_process_].pid == pid) return last_process_;
  for (uint32_t i = 0; i < processes_.size(); ++i) {
    if (processes_[i].pid == pid) return last_process_ = i;
  }
  processes_.push_back(Process{pid, {}});
  return last_process_ = static_cast<uint32_t>(processes_.size() - 1);
}

void GpuProcessAttribution::NoteProcess(uint32_t pid) { IndexOf(pid); }

std::vector<uint32_t> GpuProcessAttribution::processes() const {
  std::vector<uint32_t> pids;
  for (const Process& process : processes_) pids.push_back(process.pid);
  return pids;
}

bool GpuProcessAttribution::Knows(uint32_t pid) const {
  return std::any_of(processes_.begin(), processes_.end(), [&](const Process& p) { return p.pid == pid; });
}

void GpuProcessAttribution::NoteCall(uint32_t pid, uint32_t correlation) {
  const uint32_t process = IndexOf(pid);
  if (correlation == 0) return;
  processes_[process].ids.Insert(correlation);
  recent_calls_[calls_ % kAdjacentCalls] = {process, correlation};
  ++calls_;
  // Held events just before this call: is it their launch? Those it was the last chance for go.
  size_t kept = 0;
  for (size_t i = 0; i < waiting_.size(); ++i) {
    Held& held = held_[waiting_[i]];
    if (held.correlation == correlation && held.after == kNone) {
      held.after = process;
      held.after_distance = static_cast<uint32_t>(calls_ - waiting_since_[i]);
    }
    if (calls_ - waiting_since_[i] < kAdjacentCalls) {
      waiting_[kept] = waiting_[i];
      waiting_since_[kept] = waiting_since_[i];
      ++kept;
    }
  }
  waiting_.resize(kept);
  waiting_since_.resize(kept);
}

void GpuProcessAttribution::NoteAttributed(uint32_t device) {
  if (!processes_.empty()) Vote(device, 0);
}

void GpuProcessAttribution::Hold(uint32_t device, uint32_t correlation) {
  Held held{device, correlation};
  // A launch among the calls just before it.
  for (size_t back = 1; back <= std::min<uint64_t>(calls_, kAdjacentCalls); ++back) {
    const RecentCall& call = recent_calls_[(calls_ - back) % kAdjacentCalls];
    if (call.correlation == correlation) {
      held.before = call.process;
      held.before_distance = static_cast<uint32_t>(back);
      break;
    }
  }
  waiting_.push_back(held_.size());
  waiting_since_.push_back(calls_);
  held_.push_back(held);
}

void GpuProcessAttribution::Vote(uint32_t device, uint32_t process) {
  std::vector<uint64_t>& votes = votes_[device];
  if (votes.size() <= process) votes.resize(processes_.size(), 0);
  ++votes[process];
}

uint32_t GpuProcessAttribution::OwnerOf(uint32_t device) const {
  const auto it = votes_.find(device);
  if (it == votes_.end()) return kNone;
  const auto most = std::max_element(it->second.begin(), it->second.end());
  return *most == 0 ? kNone : static_cast<uint32_t>(most - it->second.begin());
}

uint64_t GpuProcessAttribution::Resolve() {
  std::vector<uint32_t> candidates;
  std::vector<size_t> undecided;
  // First what the ids and the launches beside the events decide: that also says whose each device is.
  for (size_t i = 0; i < held_.size(); ++i) {
    Held& held = held_[i];
    candidates.clear();
    for (uint32_t process = 0; process < processes_.size(); ++process) {
      if (processes_[process].ids.Contains(held.correlation)) candidates.push_back(process);
    }
    if (candidates.size() == 1) {
      held.process = candidates[0];
    } else if (const uint32_t adjacent = held.Adjacent();
               adjacent != kNone && std::find(candidates.begin(), candidates.end(), adjacent) != candidates.end()) {
      held.process = adjacent;
    } else if (candidates.empty()) {
      held.process = 0;  // no call carries the id: the model counts it unmatched
      continue;
    } else {
      undecided.push_back(i);
      continue;
    }
    Vote(held.device, held.process);
  }
  for (const size_t i : undecided) {
    Held& held = held_[i];
    const uint32_t owner = OwnerOf(held.device);
    held.process = owner != kNone && processes_[owner].ids.Contains(held.correlation) ? owner : kNone;
    for (uint32_t process = 0; held.process == kNone; ++process) {
      if (processes_[process].ids.Contains(held.correlation)) held.process = process;
    }
  }
  return undecided.size();
}

}  // namespace ampprof::kineto
