#ifndef AMPPROF_REPORTS_JSON_RANK_SUMMARY_JSON_H_
#define AMPPROF_REPORTS_JSON_RANK_SUMMARY_JSON_H_

// The per-rank summary as a file: what `ampprof analyze --summary-only` writes and what `ampprof
// analyze SUMMARY...` reduces to the cross-rank report, so that the map over ranks can run anywhere (a
// Slurm job array, Dask workers) and the reduce on one machine. docs/formats/rank-summary.md documents
// it field by field; kRankSummarySchemaVersion is its version.
//
//   WriteRankSummaries(summaries, file, {.generator = "ampprof 0.1.0"});
//   ASSIGN_OR_RETURN(std::vector<RankSummary> read, ParseRankSummaries(text, "rank-3.summary.json"));
//   // read == summaries, field for field: doubles in their shortest round-trip form, strings valid UTF-8
//
// A document holds any number of ranks: one per map task, or all of them.

#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/ranks/rank_summary.h"
#include "src/base/status.h"

namespace ampprof::reports {

// The value of the document's first member, "schema", which is how a file is recognised as a summary.
inline constexpr std::string_view kRankSummarySchema = "ampprof.rank_summary";
// Raised when a field is removed or renamed or its meaning changes; new fields may appear within a
// version. A reader refuses a newer version: a reduction over numbers it misreads would be wrong
// without a word.
inline constexpr int kRankSummarySchemaVersion = 1;

struct RankSummaryJsonOptions {
  std::string generator;  // the program and version that wrote it; "" leaves the key out
};

void WriteRankSummaries(std::span<const analyzers::RankSummary> summaries, std::ostream& out,
                        const RankSummaryJsonOptions& options);

// Errors name `name` and the field: not JSON, not a rank summary, a newer schema version, a field
// missing or of the wrong type.
base::StatusOr<std::vector<analyzers::RankSummary>> ParseRankSummaries(std::string_view json, std::string_view name);
base::StatusOr<std::vector<analyzers::RankSummary>> ReadRankSummaries(const std::string& path, std::string_view name);

// True when `head`, the first bytes of a file, open a rank summary: a JSON object (after blank space and
// a byte-order mark) whose first member is "schema": "ampprof.rank_summary".
bool LooksLikeRankSummary(std::string_view head);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_JSON_RANK_SUMMARY_JSON_H_
