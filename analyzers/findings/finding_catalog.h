#ifndef AMPPROF_ANALYZERS_FINDINGS_FINDING_CATALOG_H_
#define AMPPROF_ANALYZERS_FINDINGS_FINDING_CATALOG_H_

// The catalog of finding ids: each id's title and default severity, which code needs, and its
// reference page, docs/findings/<id>.md (what the finding means, how ampprof detects it, the
// evidence, how to fix it, where it was seen). The pages are built into the binary from the
// Markdown files, and the catalog is taken from them (analyzers/findings/embed_finding_docs.cmake:
// each page's title and default severity), so `ampprof explain <id>`, the page on GitHub and the
// catalog are one text. Ids are stable forever: never renumber or rename one (ARCHITECTURE.md,
// "Findings").
//
//   const FindingInfo* info = FindFinding("gpu.launch_bound");
//   if (info) std::cout << info->title << "\n\n" << FindingDoc(info->id);

#include <span>
#include <string_view>

namespace ampprof::analyzers {

enum class Severity { kInfo, kWarning, kCritical };
std::string_view SeverityName(Severity severity);

struct FindingInfo {
  std::string_view id;        // "gpu.launch_bound"
  std::string_view title;     // one line, what is wrong, no numbers; the page's "# " heading
  Severity default_severity;  // analyzers may raise or lower it with the evidence
};

// One page of docs/findings/, as the build embedded it.
struct FindingDocFile {
  std::string_view id;        // the file name without ".md"
  std::string_view markdown;  // the file's bytes
};

// Every finding id, in the order of ARCHITECTURE.md's table (the page list in
// analyzers/findings/CMakeLists.txt). Defined in the source file the build generates from the pages.
std::span<const FindingInfo> FindingCatalog();
// nullptr when `id` is not a finding id.
const FindingInfo* FindFinding(std::string_view id);

// The reference page of finding `id` in Markdown; empty when the build embedded none (the
// finding_catalog test makes sure every catalog id has one).
std::string_view FindingDoc(std::string_view id);
// Every embedded page, in file-name order: the files listed in analyzers/CMakeLists.txt. Defined in
// the source file the build generates from them.
std::span<const FindingDocFile> EmbeddedFindingDocs();

// The finding id a user most likely meant by `text` that is not an id ("gpu.launchbound",
// "launch_bound", "sync"), for "did you mean" hints; empty when none is close enough to suggest.
std::string_view ClosestFindingId(std::string_view text);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_FINDING_CATALOG_H_
