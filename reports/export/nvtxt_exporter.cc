#include "reports/export/nvtxt_exporter.h"

#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analyzers/findings/finding_catalog.h"
#include "reports/export/diagnosis_timeline.h"

// The NVTXT grammar, from NVIDIA's documentation (docs/formats/nvtxt.md cites each source):
// - "NVTXT File Extension", NVIDIA Nsight documentation
//   (docs.nvidia.com/gameworks/content/gameworkslibrary/nvtx/analysis_nvtxt_file_extension.htm):
//   one instruction or comment per line; '#' starts a comment line; variables are assigned with
//   `Variable = value` and keep their value until reassigned; values are strings or integers.
// - Nsight Systems User Guide, "Import NVTXT": the TimeBase values ImportNvtxt supports (Manual,
//   Relative, ClockMonotonicRaw, CNTVCT) and its create/merge commands.
// - The instruction lines themselves (`@RangeStartEnd, Start, End, ThreadId, Message` declaring the
//   explicit arguments, the implicit ones given as ProcessId/CategoryId/Color/TimeBase variables,
//   then `RangeStartEnd, start, end, tid, "message"`) follow the form public NVTXT writers use; see
//   the doc.
namespace ampprof::reports {
namespace {

constexpr int kStepCategory = 1;
constexpr int kFindingCategory = 2;

std::string_view TimeBaseName(NvtxtTimeBase time_base) {
  switch (time_base) {
    case NvtxtTimeBase::kRelative:
      return "Relative";
    case NvtxtTimeBase::kManual:
      return "Manual";
  }
  return "Manual";
}

// A message is one quoted string on one line. The documentation shows no escape sequences, so
// characters that could end the string or the line are replaced rather than escaped: '"' by '\'',
// '\' by '/', line breaks and tabs by spaces; and bytes outside printable ASCII by '?', since which
// encodings the parser accepts is not documented.
std::string MessageText(std::string_view text) {
  std::string message;
  message.reserve(text.size() + 2);
  message.push_back('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"') {
      message.push_back('\'');
    } else if (c == '\\') {
      message.push_back('/');
    } else if (c == '\n' || c == '\r' || c == '\t') {
      message.push_back(' ');
    } else if (byte < 0x20 || byte >= 0x7F) {
      message.push_back('?');
    } else {
      message.push_back(c);
    }
  }
  message.push_back('"');
  return message;
}

// A file or path name for a comment line: one line, whatever bytes it holds.
std::string CommentText(std::string_view text) {
  std::string comment(text);
  for (char& c : comment) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return comment;
}

}  // namespace

base::Status WriteNvtxt(const ExportInput& input, const NvtxtOptions& options, std::ostream& out) {
  const DiagnosisTimeline timeline = PlanDiagnosis(input);
  const uint32_t tid = timeline.loop_thread.tid;
  fmt::print(out, "# ampprof's diagnosis of {}, as NVTX ranges for Nsight Systems.\n",
             CommentText(input.trace_path));
  fmt::print(out,
             "# Category {}: the training steps ampprof found; category {}: its findings, each at the "
             "places it is about (the longest), or over {} when it has none.\n",
             kStepCategory, kFindingCategory, timeline.window_description);
  if (options.time_base == NvtxtTimeBase::kRelative) {
    fmt::print(out,
               "# Timestamps are the Nsight Systems report's own (ns from its start). Merge with:\n"
               "#   ImportNvtxt --cmd merge -i REPORT.nsys-rep -n THIS_FILE -o MERGED.nsys-rep\n");
  } else {
    fmt::print(out,
               "# Timestamps are the trace's own clock (ns), not an Nsight Systems report's. "
               "Create a report:\n"
               "#   ImportNvtxt --cmd create -n THIS_FILE -o NEW.nsys-rep\n");
  }
  fmt::print(out, "SetFileDisplayName, ampprof\n");
  fmt::print(out, "@RangeStartEnd, Start, End, ThreadId, Message\n");
  fmt::print(out, "ProcessId = {}\n", timeline.loop_thread.pid);
  fmt::print(out, "CategoryId = {}\n", kStepCategory);
  fmt::print(out, "Color = Blue\n");
  fmt::print(out, "TimeBase = {}\n", TimeBaseName(options.time_base));
  for (const StepRange& step : timeline.steps) {
    fmt::print(out, "RangeStartEnd, {}, {}, {}, {}\n", step.interval.start, step.interval.end, tid,
               MessageText("ampprof " + StepLabel(step)));
  }
  if (!input.findings.empty()) fmt::print(out, "CategoryId = {}\n", kFindingCategory);
  for (const analyzers::Finding& finding : input.findings) {
    if (finding.locations.empty()) {  // about the run as a whole: the window is its place in time
      fmt::print(out, "RangeStartEnd, {}, {}, {}, {}\n", timeline.window.start, timeline.window.end,
                 tid, MessageText("ampprof " + FindingLabel(finding)));
      continue;
    }
    // A range has no arguments to carry the verdict, so a comment does; each range names the finding
    // and the place, as the Chrome export's slices do.
    fmt::print(out, "# {} ({} of {} places, the longest)\n", CommentText(FindingLabel(finding)),
               finding.locations.size(), finding.locations.size() + finding.locations_left_out);
    for (const analyzers::Location* location : LocationsInTimeOrder(finding)) {
      fmt::print(out, "RangeStartEnd, {}, {}, {}, {}\n", location->interval.start,
                 location->interval.end, tid,
                 MessageText(fmt::format("ampprof {} {}", analyzers::SeverityName(finding.severity),
                                         LocationLabel(finding, *location))));
    }
  }
  out.flush();
  if (!out) return base::IoError("cannot write the NVTXT file");
  return base::OkStatus();
}

}  // namespace ampprof::reports
