#ifndef AMPPROF_SRC_MODEL_CORRELATION_INDEX_H_
#define AMPPROF_SRC_MODEL_CORRELATION_INDEX_H_

// CorrelationIndex: correlation id -> the API call that carries it, for the calls of one process
// (correlation ids are per process: two ranks both have an id 1).
//
// CUPTI hands out correlation ids from one counter per process, so they are dense: the index is then a
// plain array (4 bytes per id). Ids from other sources may be sparse; past a density threshold the index
// falls back to a sorted array of (id, row) pairs and binary search.
//
// Several calls can share an id: a runtime call and the driver call it makes, when both are traced. The
// runtime call wins (it is the one the user's code made); ties go to the earlier row.
// Correlation id 0 means "none" and never matches.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "collectors/records/records.h"
#include "src/model/ids.h"

namespace ampprof::model {

class CorrelationIndex {
 public:
  // `correlation[i]` and `domain[i]` belong to ApiCallRow(first_row + i). Returns how many rows lost to
  // another row with the same id.
  uint64_t Build(std::span<const uint32_t> correlation, std::span<const records::ApiDomain> domain,
                 uint32_t first_row = 0);
  ApiCallRow Find(uint32_t correlation_id) const;

 private:
  std::vector<ApiCallRow> dense_;                       // by id, when ids are dense
  std::vector<std::pair<uint32_t, ApiCallRow>> sparse_;  // sorted by id, otherwise
};

}  // namespace ampprof::model

#endif  // AMPPROF_SRC_MODEL_CORRELATION_INDEX_H_
