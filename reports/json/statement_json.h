#ifndef AMPPROF_REPORTS_JSON_STATEMENT_JSON_H_
#define AMPPROF_REPORTS_JSON_STATEMENT_JSON_H_

// A statement in the JSON report (schema 2): its rendered text under `key` and its typed values under
// `key`_values, so that scripts read the numbers, people the text, and both are the same facts. Shared
// by the per-trace report and the cross-rank report.

#include <string_view>

#include "analyzers/findings/finding.h"
#include "reports/json/json_writer.h"

namespace ampprof::reports {

void WriteStatement(JsonWriter& json, std::string_view key, const analyzers::Statement& statement);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_JSON_STATEMENT_JSON_H_
