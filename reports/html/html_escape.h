#ifndef AMPPROF_REPORTS_HTML_HTML_ESCAPE_H_
#define AMPPROF_REPORTS_HTML_HTML_ESCAPE_H_

// Escaping for text that comes from traces (kernel names hold <, >, & and quotes: "void
// cutlass::Kernel<cutlass_80_tensorop_f16_s16816gemm_relu_f16_64x64_32x6_tn_align8>(...)").
//
//   out << "<td title=\"" << EscapeHtml(name) << "\">" << EscapeHtml(name) << "</td>";
//   out << "<script type=\"application/json\">[" << JsonString(name) << "]</script>";

#include <string>
#include <string_view>

namespace ampprof::reports {

// For element text and quoted attribute values: & < > " ' become character references.
std::string EscapeHtml(std::string_view text);

// A JSON string literal, quotes included, that is also safe inside a <script> element: '<' is
// written \u003c, so no "</script>" or "<!--" can appear, and control characters are escaped. Bytes
// that are not valid UTF-8 become U+FFFD, so that the page's JSON always parses.
std::string JsonString(std::string_view text);

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_HTML_ESCAPE_H_
