#ifndef AMPPROF_TESTS_TESTING_CHROME_TRACE_CHECKS_H_
#define AMPPROF_TESTS_TESTING_CHROME_TRACE_CHECKS_H_

// Reading a Chrome trace (Trace Event Format JSON) back in tests, with simdjson, and checking what
// the Perfetto UI and chrome://tracing need of it beyond valid JSON.
//
//   ASSIGN_OR_RETURN(ChromeDocument document, ParseChromeTrace(json));
//   EXPECT_THAT(ChromeTraceProblems(document), IsEmpty());

#include <cstdint>
#include <string>
#include <vector>

#include "src/base/status.h"
#include "src/base/time.h"

namespace ampprof::testing {

struct ChromeEvent {
  std::string ph;
  std::string name;
  std::string cat;
  int64_t pid = -1;
  int64_t tid = -1;
  base::TimeNs ts = 0;  // read from the text exactly (ParseMicrosecondsToNs)
  base::DurationNs dur = 0;
  bool has_id = false;
  uint64_t id = 0;
  std::string bp;
  std::string args;  // the args object as JSON text, "" when absent
};

struct ChromeDocument {
  std::string display_time_unit;
  std::vector<ChromeEvent> events;
};

// Every event of `json`, which must be a JSON object with a traceEvents array whose events carry
// what their phase needs (ts for slices, instants and flows; dur for "X"; id for flows; args for
// "M").
base::StatusOr<ChromeDocument> ParseChromeTrace(const std::string& json);

// What a viewer would draw wrongly, one line per problem (empty when none):
//   - "X" slices on one (pid, tid) that overlap without nesting (thread tracks must nest:
//   Perfetto's
//     JSON importer and chrome://tracing both draw them as a stack);
//   - flow ids without exactly one "s" and one "f";
//   - a flow end that no slice on its track encloses (with "bp": "e" it binds to the enclosing
//   slice),
//     or a flow start that no slice on its track encloses.
std::vector<std::string> ChromeTraceProblems(const ChromeDocument& document);

}  // namespace ampprof::testing

#endif  // AMPPROF_TESTS_TESTING_CHROME_TRACE_CHECKS_H_
