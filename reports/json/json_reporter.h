#ifndef AMPPROF_REPORTS_JSON_JSON_REPORTER_H_
#define AMPPROF_REPORTS_JSON_JSON_REPORTER_H_

// Renders Reports as one JSON document for scripts and CI (`ampprof analyze --format json`). The
// schema is documented field by field in docs/formats/report-json.md; kJsonSchemaVersion is its
// version. Times are integer nanoseconds (`*_ns`), shares and fractions are doubles in [0, 1], keys
// come in a fixed order, and a value the trace does not have is null rather than a made-up 0.
//
//   RenderJson(reports, std::cout, {.generator = "ampprof 0.1.0"});
//   // {"schema_version": 1, "generator": "ampprof 0.1.0", "reports": [{..., "findings": [...]}]}

#include <ostream>
#include <span>
#include <string>

#include "analyzers/ranks/job_report.h"
#include "analyzers/report/report.h"

namespace ampprof::reports {

// Raised when a field is removed or renamed or its meaning changes; new fields may appear within a
// version, so readers ignore keys they do not know.
inline constexpr int kJsonSchemaVersion = 2;

struct JsonOptions {
  std::string generator;  // the program and version that wrote the document; "" leaves the key out
};

void RenderJson(std::span<const analyzers::Report> reports, std::ostream& out, const JsonOptions& options);

// Several ranks of one job: the cross-rank report under "job" (job_json.h), then the per-rank reports
// asked for (none by default) under "reports".
void RenderJson(const analyzers::JobReport& job, std::span<const analyzers::Report> reports, std::ostream& out,
                const JsonOptions& options);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_JSON_JSON_REPORTER_H_
