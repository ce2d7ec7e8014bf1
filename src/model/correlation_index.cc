#include "src/model/correlation_index.h"

#include <algorithm>

namespace ampprof::model {
namespace {

// True if `candidate` should replace `current` as the call that owns a shared correlation id.
bool Preferred(records::ApiDomain candidate, records::ApiDomain current) {
  return candidate == records::ApiDomain::kRuntime && current != records::ApiDomain::kRuntime;
}

}  // namespace

uint64_t CorrelationIndex::Build(std::span<const uint32_t> correlation,
                                 std::span<const records::ApiDomain> domain, uint32_t first_row) {
  dense_.clear();
  sparse_.clear();
  uint32_t max_id = 0;
  for (uint32_t id : correlation) max_id = std::max(max_id, id);
  uint64_t duplicates = 0;
  // Dense when the array costs at most about twice what the pairs would.
  if (static_cast<uint64_t>(max_id) <= 4 * static_cast<uint64_t>(correlation.size()) + 1024) {
    dense_.assign(static_cast<size_t>(max_id) + 1, ApiCallRow());
    for (uint32_t i = 0; i < correlation.size(); ++i) {
      const uint32_t id = correlation[i];
      if (id == 0) continue;
      ApiCallRow& slot = dense_[id];
      if (!slot.valid()) {
        slot = ApiCallRow(first_row + i);
      } else {
        ++duplicates;
        if (Preferred(domain[i], domain[slot.value - first_row])) slot = ApiCallRow(first_row + i);
      }
    }
    return duplicates;
  }
  sparse_.reserve(correlation.size());
  for (uint32_t i = 0; i < correlation.size(); ++i) {
    if (correlation[i] != 0) sparse_.emplace_back(correlation[i], ApiCallRow(first_row + i));
  }
  std::sort(sparse_.begin(), sparse_.end());  // by id, then by row
  size_t out = 0;
  for (size_t i = 0; i < sparse_.size(); ++i) {
    if (out > 0 && sparse_[out - 1].first == sparse_[i].first) {
      ++duplicates;
      if (Preferred(domain[sparse_[i].second.value - first_row],
                    domain[sparse_[out - 1].second.value - first_row])) {
        sparse_[out - 1] = sparse_[i];
      }
      continue;
    }
    sparse_[out++] = sparse_[i];
  }
  sparse_.resize(out);
  return duplicates;
}

ApiCallRow CorrelationIndex::Find(uint32_t correlation_id) const {
  if (correlation_id == 0) return ApiCallRow();
  if (!dense_.empty() || sparse_.empty()) {
    return correlation_id < dense_.size() ? dense_[correlation_id] : ApiCallRow();
  }
  const auto it = std::lower_bound(sparse_.begin(), sparse_.end(),
                                   std::pair<uint32_t, ApiCallRow>(correlation_id, ApiCallRow(0)));
  if (it == sparse_.end() || it->first != correlation_id) return ApiCallRow();
  return it->second;
}

}  // namespace ampprof::model
