#include "analyzers/findings/finding_catalog.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "src/base/edit_distance.h"

namespace ampprof::analyzers {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "unknown";  // only reachable with a value cast from outside the enum
}

const FindingInfo* FindFinding(std::string_view id) {
  for (const FindingInfo& info : FindingCatalog()) {
    if (info.id == id) return &info;
  }
  return nullptr;
}

std::string_view FindingDoc(std::string_view id) {
  for (const FindingDocFile& doc : EmbeddedFindingDocs()) {
    if (doc.id == id) return doc.markdown;
  }
  return {};
}

std::string_view ClosestFindingId(std::string_view text) {
  std::string typed(text);
  std::transform(typed.begin(), typed.end(), typed.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // A user may leave out the prefix ("launch_bound") or type part of a name ("sync"): compare with
  // the part after the dot as well, and take a fragment that names one id only.
  std::string_view fragment_of;
  size_t fragment_matches = 0;
  std::string_view closest;
  size_t closest_distance = std::string_view::npos;
  for (const FindingInfo& info : FindingCatalog()) {
    const std::string_view name = info.id.substr(info.id.find('.') + 1);
    const size_t distance =
        std::min(base::EditDistance(typed, info.id), base::EditDistance(typed, name));
    if (distance < closest_distance) {
      closest = info.id;
      closest_distance = distance;
    }
    if (typed.size() >= 3 && info.id.find(typed) != std::string_view::npos) {
      fragment_of = info.id;
      ++fragment_matches;
    }
  }
  // Up to half the typed length apart (at least 3) is a typo; further than that is another word.
  if (closest_distance <= std::max<size_t>(3, typed.size() / 2)) return closest;
  if (fragment_matches == 1) return fragment_of;
  return {};
}

}  // namespace ampprof::analyzers
