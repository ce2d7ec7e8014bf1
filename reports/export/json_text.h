#ifndef AMPPROF_REPORTS_EXPORT_JSON_TEXT_H_
#define AMPPROF_REPORTS_EXPORT_JSON_TEXT_H_

// The two pieces of JSON text the Chrome-trace export writes by hand: string literals and
// timestamps. The export streams millions of events into a buffer; a JSON library would build them
// in memory.
//
//   fmt::memory_buffer out;
//   AppendJsonString(out, "volta_sgemm \"tn\"");   // "volta_sgemm \"tn\""
//   AppendMicroseconds(out, 1'234'567);           // 1234.567

#include <cstdint>
#include <string_view>

#include <fmt/format.h>

namespace ampprof::reports {

// `text` as a JSON string literal, quotes included. Quotes, backslashes and control characters are
// escaped; bytes that are not valid UTF-8 (a trace may carry any bytes in a kernel or range name)
// become U+FFFD, so that the output is always valid JSON that strict parsers accept.
void AppendJsonString(fmt::memory_buffer& out, std::string_view text);

// Nanoseconds as microseconds with exactly three decimals: the Trace Event Format's unit at
// ampprof's precision, written from the integer digits so that no nanosecond is lost to floating
// point (ParseMicrosecondsToNs reads it back exactly).
void AppendMicroseconds(fmt::memory_buffer& out, int64_t ns);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_EXPORT_JSON_TEXT_H_
