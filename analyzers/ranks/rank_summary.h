#ifndef AMPPROF_ANALYZERS_RANKS_RANK_SUMMARY_H_
#define AMPPROF_ANALYZERS_RANKS_RANK_SUMMARY_H_

// The per-rank summary: what the cross-rank report (job_report.h) needs of one rank's trace, and
// nothing else, so that it is small enough to send over a network (a few KiB) and can be written by
// one process (`ampprof analyze TRACE --summary-only`) and reduced by another. Both ways into the
// reduction start here: analysing traces directly builds a RankSummary from each trace's Report and
// drops the model; reading summary files (reports/json/rank_summary_json.h) gives back the same
// structs. ReduceRanks sees nothing else, so the two ways give the same cross-rank report.
//
//   const AnalysisInput input(model);
//   TraceAnalysis analysis = AnalyzeTrace(input, identity, inputs);
//   RankSummary summary = SummarizeRank(input, analysis.report);
//
// Every string is valid UTF-8 (repaired where it is made), so that writing a summary as JSON and
// reading it back gives the same bytes. Times are totals over the primary GPU's analysed window
// (docs/step-account.md); per-step values are derived by the reduction (PerStep), never stored twice.
// docs/formats/rank-summary.md documents the JSON form field by field.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/facts/idle_gaps.h"
#include "analyzers/findings/finding.h"
#include "analyzers/report/report.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

// One collective (AllReduce, AllGather, ...) on the primary GPU over the analysed window.
struct RankCollective {
  std::string collective;
  uint64_t kernels = 0;
  base::DurationNs kernel_ns = 0;      // the collective's kernels' own durations
  base::DurationNs exposed_ns = 0;     // charged to exposed communication
  base::DurationNs overlapped_ns = 0;  // under compute
  base::DurationNs shortest_ns = 0;    // one kernel: the shortest and the median
  base::DurationNs median_ns = 0;
  friend bool operator==(const RankCollective&, const RankCollective&) = default;
};

// A finding as the cross-rank report uses it: what it is, how bad, what fixing it would save. The
// evidence stays in the rank's own report.
struct RankFinding {
  std::string id;
  Severity severity = Severity::kWarning;
  int32_t device_id = -1;
  Statement verdict;
  Saving saving;
};

struct RankSummary {
  // Who the trace is, and of which job.
  std::string trace;        // the input as messages name it
  std::string format;       // what it was read as ("PyTorch profiler (Kineto) JSON", "ampprof trace, format 1.1")
  std::string label;        // "rank 3 of 8", "rank 3 (from the file name)", "pid 4242"
  int32_t rank = -1;        // -1 when the trace is not a rank of a distributed job
  int32_t world_size = 0;   // 0 when the trace does not say
  std::string backend;      // the distributed backend the trace names ("nccl"), or ""
  std::string hostname;
  uint32_t pid = 0;
  std::string workload;
  std::string gpu;          // the primary GPU's name, or ""
  // 16 hex digits from the trace's kernel timeline (TraceFingerprint): two traces with the same
  // fingerprint are one trace read twice, whatever their names or formats.
  std::string fingerprint;

  // The primary GPU's step account (summary.h's AccountSummary), totals over the analysed window.
  std::string basis;        // "measured steps", "whole run", "all warm-up"; "" when no GPU has kernels
  std::string step_source;  // where the steps came from (StepSourceName), "" without steps
  uint64_t steps = 0;       // measured steps (1 for a whole run)
  base::DurationNs window_ns = 0;
  base::DurationNs median_step_ns = 0;
  base::DurationNs p90_step_ns = 0;
  base::DurationNs compute_ns = 0;
  base::DurationNs exposed_communication_ns = 0;
  base::DurationNs overlapped_communication_ns = 0;
  base::DurationNs copy_ns = 0;
  ByCause<base::DurationNs> idle;
  std::vector<RankCollective> communication;  // by exposed time, largest first

  std::vector<RankFinding> findings;     // the Report's order: most severe first, then by saving
  std::vector<std::string> checks_run;

  bool data_loss = false;
  std::vector<std::pair<std::string, int64_t>> stats;  // the non-zero data-quality counters, by name

  // True when the account covers measured training steps (so per-step values mean "per step").
  bool per_step() const { return basis == "measured steps"; }
  bool has_account() const { return !basis.empty() && steps > 0; }
  // A total over the window as a mean per step: the window divided among its steps, as
  // DeviceAccount::PerStep divides it.
  base::DurationNs PerStep(base::DurationNs total_ns) const {
    return steps == 0 ? 0 : total_ns / static_cast<base::DurationNs>(steps);
  }
  // The GPU waiting for its host: idle waiting for launches, refilling after a sync, host busy.
  base::DurationNs host_wait_ns() const;
  // Every collective kernel's time, exposed or not: where a rank waits for its peers.
  base::DurationNs collective_ns() const;
};

// Builds a rank's summary from its analysis. `input` is the trace the report was made from.
RankSummary SummarizeRank(const AnalysisInput& input, const Report& report);

// 16 lowercase hex digits that identify a trace's kernel timeline: its kernel count and every kernel's
// start and end, in model order. Independent of the file's name and format (the same trace exported
// as .ampt and as Kineto JSON has one fingerprint); two ranks of a job never share one.
std::string TraceFingerprint(const model::TraceModel& model);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_RANKS_RANK_SUMMARY_H_
