#ifndef AMPPROF_ANALYZERS_FINDINGS_SYNC_STALL_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_SYNC_STALL_ANALYZER_H_

// gpu.sync_stall: host synchronisations drain the GPU's queue and it idles while the host refills it.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/step_account.h"
#include "analyzers/findings/finding.h"
#include "analyzers/findings/finding_locations.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeSyncStall(const AnalysisInput& input);

struct SyncOrigin {
  uint64_t count = 0;
  base::DurationNs idle = 0;
};

// What the finding counts on one GPU, read from its account: the idle gaps that a draining host call
// left (kHostSync gaps with their draining call, idle_gaps.h), by the call and the op it ran in, and
// those same gaps as its locations, each named by its call. A gap without a draining call is neither
// counted nor located: the finding is about the syncs. (The account gives every kHostSync gap its
// call today; this keeps the places and the count one set should that change.)
struct DrainingSyncs {
  explicit DrainingSyncs(base::Interval window) : locations(window) {}
  uint64_t syncs = 0;
  std::map<std::string, SyncOrigin> by_origin;  // "cudaMemcpyAsync in aten::item"
  LocationList locations;
};
DrainingSyncs CountDrainingSyncs(const AnalysisInput& input, const DeviceAccount& gpu);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_SYNC_STALL_ANALYZER_H_
