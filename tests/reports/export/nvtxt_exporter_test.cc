#include "reports/export/nvtxt_exporter.h"

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/reports/export/export_test_trace.h"

namespace ampprof::reports {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

struct NvtxtRange {
  int64_t start = 0;
  int64_t end = 0;
  int64_t thread = 0;
  std::string message;                           // without its quotes
  std::map<std::string, std::string> variables;  // the implicit arguments in force on its line
};

struct NvtxtFile {
  std::vector<NvtxtRange> ranges;
  std::vector<std::string> violations;
};

// Reads `text` against the NVTXT rules docs/formats/nvtxt.md lists (NVIDIA's "NVTXT File Extension"
// page and the Nsight Systems User Guide's "Import NVTXT"), and collects what breaks them:
//   - every line is a comment ('#'), a variable assignment (`Name = value`, value an integer,
//   decimal or
//     0x hex, or a string), an argument declaration (`@Instruction, Arg, ...`) or an instruction
//     (`Instruction, value, ...`);
//   - an instruction has exactly the explicit arguments its declaration lists, declared before use;
//   - RangeStartEnd's implicit arguments (ProcessId, CategoryId, Color, TimeBase) are assigned
//   before
//     it, TimeBase to a value ImportNvtxt supports (Manual, Relative, ClockMonotonicRaw, CNTVCT);
//   - times and ids are integers, a range does not end before it starts, a message is one quoted
//     string with no quote inside;
//   - SetFileDisplayName comes before the first range.
NvtxtFile ReadNvtxt(const std::string& text) {
  static const std::regex kAssignment(
      R"(^([A-Za-z_][A-Za-z0-9_]*) = (-?[0-9]+|0[xX][0-9A-Fa-f]+|"[^"]*"|[A-Za-z_][A-Za-z0-9_]*)$)");
  static const std::regex kInteger(R"(^-?[0-9]+$)");
  static const std::regex kQuoted(R"(^"[^"]*"$)");
  static const std::set<std::string> kTimeBases = {"Manual", "Relative", "ClockMonotonicRaw",
                                                   "CNTVCT"};
  NvtxtFile file;
  std::map<std::string, std::vector<std::string>> declarations;
  std::map<std::string, std::string> variables;
  bool display_name = false;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    auto violation = [&](const std::string& what) {
      file.violations.push_back("line " + std::to_string(number) + ": " + what + ": " + line);
    };
    std::smatch match;
    if (line.empty() || line[0] == '#') continue;
    if (std::regex_match(line, match, kAssignment)) {
      variables[match[1]] = match[2];
      continue;
    }
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (const char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) {
        fields.push_back(field);
        field.clear();
      } else {
        field.push_back(c);
      }
    }
    fields.push_back(field);
    for (size_t i = 1; i < fields.size(); ++i) {
      if (fields[i].empty() || fields[i][0] != ' ')
        violation("a field without its separating space");
      fields[i] = fields[i].substr(fields[i].empty() ? 0 : 1);
    }
    const std::string instruction = fields[0];
    const std::vector<std::string> arguments(fields.begin() + 1, fields.end());
    if (instruction.starts_with("@")) {
      declarations[instruction.substr(1)] = arguments;
      continue;
    }
    if (instruction == "SetFileDisplayName") {
      if (arguments.size() != 1) violation("SetFileDisplayName takes one argument");
      display_name = true;
      continue;
    }
    if (instruction != "RangeStartEnd") {
      violation("an instruction this export does not use");
      continue;
    }
    const auto declared = declarations.find(instruction);
    if (declared == declarations.end()) {
      violation("RangeStartEnd before its declaration");
      continue;
    }
    if (declared->second != std::vector<std::string>{"Start", "End", "ThreadId", "Message"} ||
        arguments.size() != declared->second.size()) {
      violation("arguments that do not match the declaration");
      continue;
    }
    if (!display_name) violation("a range before SetFileDisplayName");
    for (const char* implicit : {"ProcessId", "CategoryId", "Color", "TimeBase"}) {
      if (!variables.contains(implicit)) violation(std::string("no ") + implicit + " assigned");
    }
    if (!kTimeBases.contains(variables["TimeBase"]))
      violation("a TimeBase ImportNvtxt does not support");
    if (!std::regex_match(variables["ProcessId"], kInteger) ||
        !std::regex_match(variables["CategoryId"], kInteger)) {
      violation("ProcessId or CategoryId is not an integer");
    }
    if (!std::regex_match(arguments[0], kInteger) || !std::regex_match(arguments[1], kInteger) ||
        !std::regex_match(arguments[2], kInteger)) {
      violation("Start, End or ThreadId is not an integer");
      continue;
    }
    if (!std::regex_match(arguments[3], kQuoted)) violation("the message is not one quoted string");
    NvtxtRange range{std::stoll(arguments[0]), std::stoll(arguments[1]), std::stoll(arguments[2]),
                     arguments[3].substr(1, arguments[3].size() - 2), variables};
    if (range.end < range.start) violation("a range that ends before it starts");
    file.ranges.push_back(std::move(range));
  }
  return file;
}

std::string Export(const ExportInput& input, NvtxtTimeBase time_base) {
  std::ostringstream out;
  const base::Status status = WriteNvtxt(input, {time_base}, out);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return out.str();
}

TEST(NvtxtExporter, FollowsTheFormatRules) {
  const ExportTestTrace trace;
  const std::string text = Export(trace.input(), NvtxtTimeBase::kRelative);
  const NvtxtFile file = ReadNvtxt(text);
  EXPECT_THAT(file.violations, IsEmpty()) << text;
  EXPECT_THAT(text, StartsWith("# ampprof's diagnosis of run \"1\".ampt"));
  EXPECT_THAT(
      text,
      HasSubstr("\nSetFileDisplayName, ampprof\n@RangeStartEnd, Start, End, ThreadId, Message\n"));
}

TEST(NvtxtExporter, WritesTheStepsThenTheFindingsOnTheLaunchingThread) {
  const ExportTestTrace trace;
  const NvtxtFile file = ReadNvtxt(Export(trace.input(), NvtxtTimeBase::kRelative));
  ASSERT_EQ(file.ranges.size(), 5u);
  for (int step = 0; step < 4; ++step) {
    const NvtxtRange& range = file.ranges[step];
    EXPECT_EQ(range.message, "ampprof step " + std::to_string(step));
    EXPECT_EQ(range.start, kTestOrigin + step * kTestStepNs)
        << "in the trace's own clock, unchanged";
    EXPECT_EQ(range.end, kTestOrigin + step * kTestStepNs + 90'000);
    EXPECT_EQ(range.thread, 101);
    EXPECT_EQ(range.variables.at("ProcessId"), "100");
    EXPECT_EQ(range.variables.at("CategoryId"), "1");
    EXPECT_EQ(range.variables.at("TimeBase"), "Relative");
  }
  // The test finding has no locations: drawn over the window, the measured steps.
  const NvtxtRange& finding = file.ranges[4];
  EXPECT_EQ(finding.variables.at("CategoryId"), "2");
  EXPECT_EQ(finding.message,
            "ampprof warning gpu.launch_bound: GPU 0 is idle 60.1% of the time waiting for the "
            "host to launch 'kernels'");
  EXPECT_EQ(finding.start, kTestOrigin);
  EXPECT_EQ(finding.end, kTestOrigin + 3 * kTestStepNs + 90'000);
}

TEST(NvtxtExporter, DrawsAFindingAtItsLocationsInTimeOrder) {
  ExportTestTrace trace;
  analyzers::Finding& finding = trace.findings[0];
  // Two launch waits, kept longest first as the analyzers keep them, and 5 more not kept.
  finding.locations = {
      {{kTestOrigin + 2 * kTestStepNs + 45'000, kTestOrigin + 3 * kTestStepNs + 9'000},
       analyzers::LocationKind::kLaunchWait, 0, -1, "waiting for the host to launch"},
      {{kTestOrigin + 40'007, kTestOrigin + 41'000}, analyzers::LocationKind::kLaunchWait, 0, -1,
       "waiting for the host to launch"}};
  finding.locations_left_out = 5;
  const std::string text = Export(trace.input(), NvtxtTimeBase::kRelative);
  const NvtxtFile file = ReadNvtxt(text);
  EXPECT_THAT(file.violations, IsEmpty()) << text;
  ASSERT_EQ(file.ranges.size(), 4u + 2u) << "the four steps, then one range per location" << text;
  const NvtxtRange& first = file.ranges[4];
  const NvtxtRange& second = file.ranges[5];
  EXPECT_EQ(first.start, kTestOrigin + 40'007) << "in time order, not longest first";
  EXPECT_EQ(first.end, kTestOrigin + 41'000);
  EXPECT_EQ(second.start, kTestOrigin + 2 * kTestStepNs + 45'000);
  EXPECT_EQ(second.end, kTestOrigin + 3 * kTestStepNs + 9'000);
  for (const NvtxtRange* range : {&first, &second}) {
    EXPECT_EQ(range->message, "ampprof warning gpu.launch_bound: waiting for the host to launch");
    EXPECT_EQ(range->variables.at("CategoryId"), "2");
    EXPECT_EQ(range->thread, 101);
  }
  // The verdict, which a range cannot carry, and the count of places, in a comment before them.
  EXPECT_THAT(text, HasSubstr("\n# warning gpu.launch_bound: GPU 0 is idle 60.1% of the time waiting "
                              "for the host to launch \"kernels\" (2 of 7 places, the longest)\n"));
}

TEST(NvtxtExporter, TraceClockTimeBaseIsManual) {
  const ExportTestTrace trace;
  const std::string text = Export(trace.input(), NvtxtTimeBase::kManual);
  const NvtxtFile file = ReadNvtxt(text);
  EXPECT_THAT(file.violations, IsEmpty());
  ASSERT_FALSE(file.ranges.empty());
  EXPECT_EQ(file.ranges[0].variables.at("TimeBase"), "Manual");
  EXPECT_THAT(text, HasSubstr("ImportNvtxt --cmd create"));
}

TEST(NvtxtExporter, MessagesStayOneQuotedAsciiString) {
  const model::TraceModel model = BuildExportTestModel();
  const std::optional<analyzers::Steps> no_steps;
  analyzers::Finding finding = ExportTestFinding();
  finding.verdict = "a \"quoted\" name,\nwith a line break, a back\\slash and \xce\xbcs";
  const std::vector<analyzers::Finding> findings = {finding};
  const NvtxtFile file =
      ReadNvtxt(Export({model, no_steps, findings, "run.ampt"}, NvtxtTimeBase::kManual));
  EXPECT_THAT(file.violations, IsEmpty());
  ASSERT_EQ(file.ranges.size(), 1u);
  EXPECT_EQ(
      file.ranges[0].message,
      "ampprof warning gpu.launch_bound: a 'quoted' name, with a line break, a back/slash and ??s");
  // Without steps the finding spans the GPU activity.
  ASSERT_TRUE(model.GpuSpan().has_value());
  EXPECT_EQ(file.ranges[0].start, model.GpuSpan()->start);
  EXPECT_EQ(file.ranges[0].end, model.GpuSpan()->end);
}

TEST(NvtxtExporter, ATraceWithNothingFoundIsAHeaderOnly) {
  const model::TraceModel model = BuildExportTestModel();
  const std::optional<analyzers::Steps> no_steps;
  const NvtxtFile file =
      ReadNvtxt(Export({model, no_steps, {}, "run.ampt"}, NvtxtTimeBase::kManual));
  EXPECT_THAT(file.violations, IsEmpty());
  EXPECT_THAT(file.ranges, IsEmpty());
}

TEST(NvtxtExporter, ReportsAFailedStream) {
  const ExportTestTrace trace;
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_FALSE(WriteNvtxt(trace.input(), {}, out).ok());
}

}  // namespace
}  // namespace ampprof::reports
