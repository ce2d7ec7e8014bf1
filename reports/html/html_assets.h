#ifndef AMPPROF_REPORTS_HTML_HTML_ASSETS_H_
#define AMPPROF_REPORTS_HTML_HTML_ASSETS_H_

// The HTML report's stylesheet and script, inlined into every page so that the file is complete on
// its own (no network, no CDN). They are reports/html/assets/report.{css,js}, built into the binary
// by embed_assets.cmake; the definitions live in the source file it generates.

#include <string_view>

namespace ampprof::reports {

std::string_view ReportStylesheet();
std::string_view ReportScript();

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_HTML_HTML_ASSETS_H_
