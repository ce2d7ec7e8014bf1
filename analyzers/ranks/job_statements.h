#ifndef AMPPROF_ANALYZERS_RANKS_JOB_STATEMENTS_H_
#define AMPPROF_ANALYZERS_RANKS_JOB_STATEMENTS_H_

// The sentences of the cross-rank report, made once with their numbers as typed values, so that the
// text, Markdown, HTML and JSON views print the same words and the same numbers (each formats the
// values with reports/common/statement_text.h).
//
//   RenderStatement(DescribeJob(job))
//   // "8 ranks of a world of 128: rank 5 is a straggler; start with gpu.launch_bound on ranks 0-7"

#include <string>

#include "analyzers/findings/finding.h"
#include "analyzers/ranks/job_report.h"

namespace ampprof::analyzers {

// The headline: how many ranks, the stragglers or the imbalance, and the finding to start with.
Statement DescribeJob(const JobReport& job);

// "rank 5 is a straggler: its compute takes 1.20 ms per step, ..."
Statement DescribeStraggler(const Straggler& straggler);
Statement DescribeImbalance(const Imbalance& imbalance);
// What was judged when no rank is named: "no straggler: ..." or "stragglers not judged: ...".
Statement DescribeNoStraggler(const StragglerVerdict& verdict);

// "ranks 0-7, 9" (and traces without a rank by label); "all 16 ranks" when every rank of the job has it.
std::string DescribeRanks(const MergedFinding& finding, const JobReport& job);

// The merged saving as a Saving (a range when the ranks differ), for DescribeSaving.
Saving MergedSaving(const MergedFinding& finding);

// Text from a trace (a file name, a label) made literal inside a Statement's text: braces doubled.
std::string LiteralText(std::string_view text);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_RANKS_JOB_STATEMENTS_H_
