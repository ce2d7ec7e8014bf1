#ifndef AMPPROF_ANALYZERS_FINDING_CATALOG_H_
#define AMPPROF_ANALYZERS_FINDING_CATALOG_H_

// The catalog of finding ids: what each finding means, how ampprof detects it, and how to fix it.
// `ampprof explain <id>` prints an entry; reports link findings to it. Ids are stable forever: never
// renumber or rename one (ARCHITECTURE.md, "Findings").
//
//   const FindingInfo* info = FindFinding("gpu.launch_bound");
//   if (info) std::cout << info->title << "\n" << info->fix;

#include <span>
#include <string_view>

namespace ampprof::analyzers {

enum class Severity { kInfo, kWarning, kCritical };
std::string_view SeverityName(Severity severity);

struct FindingInfo {
  std::string_view id;             // "gpu.launch_bound"
  std::string_view title;          // one line, what is wrong, no numbers
  Severity default_severity;       // analyzers may raise or lower it with the evidence
  std::string_view meaning;        // what is happening on the GPU and why it costs time, a paragraph
  std::string_view detection;      // what ampprof looks for in the trace, and with what thresholds
  std::string_view evidence;       // the numbers a finding of this id carries
  std::string_view fix;            // what to change, with code the user can paste
  std::string_view seen_in;        // where this problem shows up in practice (forum threads, recipes)
};

// Every finding id, in the order of ARCHITECTURE.md's table.
std::span<const FindingInfo> FindingCatalog();
// nullptr when `id` is not a finding id.
const FindingInfo* FindFinding(std::string_view id);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDING_CATALOG_H_
