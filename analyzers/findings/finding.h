#ifndef AMPPROF_ANALYZERS_FINDINGS_FINDING_H_
#define AMPPROF_ANALYZERS_FINDINGS_FINDING_H_

// A Finding: one diagnosed problem, with the numbers that prove it. Its id names an entry of the
// finding catalog (finding_catalog.h), which holds what it means and how to fix it; the finding holds
// what is specific to this trace.
//
//   Finding finding;
//   finding.id = "layout.nchw_nhwc";
//   finding.severity = Severity::kWarning;
//   finding.verdict = "12 NCHW<->NHWC conversion kernels take 2.6% of GPU kernel time";
//   finding.evidence = {{"conversion kernels", "12"}, {"their time", "277 us (2.6%)"}};
//   finding.time_ns = 277'000;   // what fixing it would save, at most

#include <string>
#include <vector>

#include "analyzers/findings/finding_catalog.h"
#include "src/base/time.h"

namespace ampprof::analyzers {

struct Evidence {
  std::string label;  // "GPU busy"
  std::string value;  // "36.6% of 1.01 s"
};

struct Finding {
  std::string id;  // a catalog id
  Severity severity = Severity::kWarning;
  std::string verdict;  // one line, with the numbers
  std::vector<Evidence> evidence;
  std::vector<std::string> examples;  // kernels, ops or steps that show it, most telling first
  base::DurationNs time_ns = 0;       // GPU time at stake, for ordering findings; 0 when not a time
};

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FINDING_H_
