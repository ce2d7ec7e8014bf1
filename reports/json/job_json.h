#ifndef AMPPROF_REPORTS_JSON_JOB_JSON_H_
#define AMPPROF_REPORTS_JSON_JOB_JSON_H_

// The cross-rank report (analyzers/ranks/job_report.h) as the "job" member of the JSON report
// (docs/formats/report-json.md): the same facts as the other views, sentences with their typed values
// beside them, times in integer nanoseconds, shares as fractions, a missing value as null.
//
//   JsonWriter json(out);
//   json.BeginObject();
//   json.Key("job");
//   WriteJob(json, job);

#include "analyzers/ranks/job_report.h"
#include "reports/json/json_writer.h"

namespace ampprof::reports {

void WriteJob(JsonWriter& json, const analyzers::JobReport& job);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_JSON_JOB_JSON_H_
