// libFuzzer target: the rank-summary reader (`ampprof analyze --summary-only` output, schema 1,
// reports/json/rank_summary_json.h), then the reduce over what it read and the cross-rank report's
// JSON. Any input must give a Status or summaries, never a crash, a hang or a sanitizer report; and what
// it reads must write back to a document that reads back to the same summaries (written twice, the same
// text): a difference is a finding (an abort).

#include <cstdlib>
#include <sstream>
#include <string_view>

#include "analyzers/ranks/job_report.h"
#include "reports/json/json_reporter.h"
#include "reports/json/rank_summary_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace reports = ampprof::reports;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto summaries = reports::ParseRankSummaries(text, "fuzz.summary.json");
  if (!summaries.ok()) return 0;
  std::ostringstream written;
  reports::WriteRankSummaries(*summaries, written, {});
  auto again = reports::ParseRankSummaries(written.str(), "written.summary.json");
  if (!again.ok()) std::abort();
  std::ostringstream rewritten;
  reports::WriteRankSummaries(*again, rewritten, {});
  if (rewritten.str() != written.str()) std::abort();
  if (ampprof::analyzers::IsJob(*summaries)) {
    const ampprof::analyzers::JobReport job = ampprof::analyzers::ReduceRanks(*summaries);
    std::ostringstream json;
    reports::RenderJson(job, {}, json, {});
  }
  return 0;
}
