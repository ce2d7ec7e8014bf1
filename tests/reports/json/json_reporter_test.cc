#include "reports/json/json_reporter.h"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

namespace ampprof::reports {
namespace {

analyzers::Report SampleReport() {
  analyzers::Report report;
  report.label = "rank 3 of 8";
  report.rank = 3;
  report.inputs.push_back({"run.ampt", "ampprof trace, format 1.0"});
  report.summary.workload = "python train.py";
  report.summary.kernels = 1234;
  report.summary.gpu_span = base::Interval{1'000, 2'001'000};
  report.summary.kernel_time_ns = 1'000'000;
  report.summary.steps = 3;
  report.summary.warmup_steps = 1;
  report.summary.step_source = "ProfilerStep ranges";
  report.summary.median_step_ns = 500'000;
  report.summary.step_times = {{0, {1'000, 901'000}, true}, {1, {901'000, 1'401'000}, false}};
  analyzers::DeviceSummary device;
  device.pid = 77;
  device.name = "NVIDIA H100 80GB HBM3";
  device.compute_major = 9;
  device.kernels = 1234;
  device.span = base::Interval{1'000, 2'001'000};
  analyzers::AccountSummary account;
  account.basis = "measured steps";
  account.steps = 2;
  account.window = base::Interval{901'000, 2'001'000};
  account.median_step_ns = 500'000;
  account.busy_ns = 400'000;
  account.busy_fraction = 400'000.0 / 1'100'000.0;
  account.compute_ns = 400'000;
  account.idle[analyzers::GapCause::kHostLaunch] = 700'000;
  account.gaps[analyzers::GapCause::kHostLaunch] = 12;
  account.rows = {{"compute", "GEMM on Tensor Cores, FP16", 400'000, 200'000, 400'000.0 / 1'100'000.0, 1234},
                  {"idle:launch_waits", "idle: waiting for kernel launches", 700'000, 350'000, 700'000.0 / 1'100'000.0,
                   0}};
  device.account = account;
  report.summary.devices.push_back(device);
  report.summary.account_basis = "measured steps";
  report.summary.top_kernels.push_back({"sm90_xmma_gemm", "GEMM, Tensor Cores, FP16, cuBLASLt", 1234, 1'000'000, 1.0});
  analyzers::Finding finding;
  finding.id = "gpu.launch_bound";
  finding.severity = analyzers::Severity::kWarning;
  finding.device_id = 0;
  finding.verdict = analyzers::Statement("GPU 0 waits for the host to launch kernels {share} of the step",
                                         {analyzers::Fraction("share", 700'000.0 / 1'100'000.0)});
  finding.evidence = {{"GPU busy", analyzers::Statement("{busy} of the time", {analyzers::Fraction("busy", 0.364)})},
                      {"idle", analyzers::Statement("{idle} in {gaps:gap}", {analyzers::Duration("idle", 700'000),
                                                                            analyzers::Count("gaps", 12)})}};
  finding.examples = {"void k<4>(int)"};
  finding.saving = analyzers::Saving::Exact(350'000, 700'000.0 / 1'100'000.0, "the launch waits");
  finding.fix = "Give the GPU more work per launch, or launch fewer kernels from Python.";
  report.findings.push_back(finding);
  report.checks_run = {"gpu.launch_bound", "layout.nchw_nhwc"};
  report.stats.Increment(base::Stat::kJsonTruncated);
  return report;
}

simdjson::dom::element Parse(simdjson::dom::parser& parser, const std::string& text) {
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(simdjson::padded_string(text)).get(doc), simdjson::SUCCESS) << text;
  return doc;
}

std::vector<std::string> Keys(simdjson::dom::object object) {
  std::vector<std::string> keys;
  for (auto field : object) keys.emplace_back(field.key);
  return keys;
}

std::string Render(const std::vector<analyzers::Report>& reports) {
  std::ostringstream out;
  RenderJson(reports, out, {.generator = "ampprof test"});
  return out.str();
}

TEST(RenderJson, TheContractScriptsRelyOn) {
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = Parse(parser, Render({SampleReport()}));
  EXPECT_EQ(Keys(doc.get_object().value()), (std::vector<std::string>{"schema_version", "generator", "reports"}));
  EXPECT_EQ(doc["schema_version"].get_int64().value(), kJsonSchemaVersion);
  const simdjson::dom::element report = doc["reports"].at(0).value();
  EXPECT_EQ(Keys(report.get_object().value()),
            (std::vector<std::string>{"label", "rank", "inputs", "verdict", "findings", "checks_run", "summary",
                                      "data_quality"}))
      << "stable key order; no comparison key without a baseline";
  EXPECT_EQ(report["rank"].get_int64().value(), 3);
  const simdjson::dom::element finding = report["findings"].at(0).value();
  EXPECT_EQ(finding["id"].get_string().value(), "gpu.launch_bound");
  EXPECT_EQ(finding["severity"].get_string().value(), "warning");
  EXPECT_EQ(finding["saving_ns"].get_int64().value(), 350'000) << "per measured step";
  EXPECT_NEAR(finding["saving_fraction"].get_double().value(), 0.636, 0.001);
  EXPECT_EQ(finding["saving"]["basis"].get_string().value(), "the launch waits");
  EXPECT_EQ(finding["device_id"].get_int64().value(), 0);
  EXPECT_EQ(finding["verdict"].get_string().value(), "GPU 0 waits for the host to launch kernels 63.6% of the step");
  EXPECT_NEAR(finding["verdict_values"]["share"].get_double().value(), 0.636, 0.001)
      << "the numbers of the sentence, for scripts";
  EXPECT_EQ(finding["title"].get_string().value(), "GPU idles between kernels: the host cannot launch work fast enough");
  EXPECT_EQ(finding["fix"].get_string().value(), "Give the GPU more work per launch, or launch fewer kernels from Python.");
  EXPECT_EQ(finding["evidence"].at(0)["value"].get_string().value(), "36.4% of the time");
  EXPECT_EQ(finding["evidence"].at(1)["value"].get_string().value(), "700 us in 12 gaps");
  EXPECT_EQ(finding["evidence"].at(1)["value_values"]["idle"].get_int64().value(), 700'000);
  EXPECT_EQ(finding["evidence"].at(1)["value_values"]["gaps"].get_int64().value(), 12);
  EXPECT_EQ(finding["examples"].at(0).get_string().value(), "void k<4>(int)");
  EXPECT_EQ(report["verdict"]["worst_severity"].get_string().value(), "warning");
  EXPECT_EQ(report["verdict"]["warning"].get_uint64().value(), 1u);
  EXPECT_EQ(report["verdict"]["start_with"].get_string().value(), "gpu.launch_bound");
}

TEST(RenderJson, FindingsListWhereTheyShowInTheTrace) {
  analyzers::Report report = SampleReport();
  report.findings[0].locations = {
      {{1'000'000, 1'008'000}, analyzers::LocationKind::kLaunchWait, 0, -1, "waiting for the host to launch"},
      {{2'000'000, 2'003'000}, analyzers::LocationKind::kKernel, 1, 7, "void k<4>"}};
  report.findings[0].locations_left_out = 10;
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = Parse(parser, Render({report}));
  const simdjson::dom::element finding = doc["reports"].at(0)["findings"].at(0).value();
  const simdjson::dom::element wait = finding["locations"].at(0).value();
  EXPECT_EQ(Keys(wait.get_object().value()),
            (std::vector<std::string>{"start_ns", "end_ns", "kind", "device", "stream", "label"}));
  EXPECT_EQ(wait["start_ns"].get_int64().value(), 1'000'000) << "the trace's clock, in ns";
  EXPECT_EQ(wait["end_ns"].get_int64().value(), 1'008'000);
  EXPECT_EQ(wait["kind"].get_string().value(), "launch_wait");
  EXPECT_EQ(wait["device"].get_int64().value(), 0);
  EXPECT_TRUE(wait["stream"].is_null()) << "a gap is the whole device's: no stream, not stream 0";
  const simdjson::dom::element kernel = finding["locations"].at(1).value();
  EXPECT_EQ(kernel["kind"].get_string().value(), "kernel");
  EXPECT_EQ(kernel["stream"].get_int64().value(), 7);
  EXPECT_EQ(kernel["label"].get_string().value(), "void k<4>");
  EXPECT_EQ(finding["locations_left_out"].get_uint64().value(), 10u);
  // A finding without locations still has both keys: lists are always present.
  const simdjson::dom::element again = Parse(parser, Render({SampleReport()}));  // `finding` is gone now
  const simdjson::dom::element plain = again["reports"].at(0)["findings"].at(0).value();
  EXPECT_EQ(plain["locations"].get_array().value().size(), 0u);
  EXPECT_EQ(plain["locations_left_out"].get_uint64().value(), 0u);
}

TEST(RenderJson, TheWorkloadOutcomeFollowsTheInputsWhenARunMadeTheReport) {
  analyzers::Report report = SampleReport();
  report.workload_outcome = analyzers::WorkloadOutcome{.exit_code = 0, .signal = 6};
  analyzers::Report exited = SampleReport();
  exited.workload_outcome = analyzers::WorkloadOutcome{.exit_code = 3, .signal = 0};
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = Parse(parser, Render({report, exited}));
  const simdjson::dom::element killed = doc["reports"].at(0).value();
  EXPECT_EQ(Keys(killed.get_object().value())[3], "workload_outcome");
  const simdjson::dom::element outcome = killed["workload_outcome"].value();
  EXPECT_EQ(Keys(outcome.get_object().value()),
            (std::vector<std::string>{"exit_status", "exit_code", "signal", "signal_name", "text"}));
  EXPECT_EQ(outcome["exit_status"].get_int64().value(), 134);
  EXPECT_TRUE(outcome["exit_code"].is_null());
  EXPECT_EQ(outcome["signal"].get_int64().value(), 6);
  EXPECT_EQ(outcome["signal_name"].get_string().value(), "SIGABRT");
  EXPECT_EQ(outcome["text"].get_string().value(), "killed by signal 6 (SIGABRT)");
  const simdjson::dom::element normal = doc["reports"].at(1)["workload_outcome"].value();
  EXPECT_EQ(normal["exit_status"].get_int64().value(), 3);
  EXPECT_EQ(normal["exit_code"].get_int64().value(), 3);
  EXPECT_TRUE(normal["signal"].is_null());
  EXPECT_TRUE(normal["signal_name"].is_null());
}

TEST(RenderJson, TimesAreIntegerNanosecondsAndSharesDoubles) {
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = Parse(parser, Render({SampleReport()}));
  const simdjson::dom::element summary = doc["reports"].at(0)["summary"].value();
  EXPECT_EQ(summary["gpu_span"]["duration_ns"].type().value(), simdjson::dom::element_type::INT64);
  EXPECT_EQ(summary["gpu_span"]["duration_ns"].get_int64().value(), 2'000'000);
  const simdjson::dom::element device = summary["devices"].at(0).value();
  const simdjson::dom::element account = device["account"].value();
  EXPECT_EQ(account["busy_fraction"].type().value(), simdjson::dom::element_type::DOUBLE);
  EXPECT_NEAR(account["busy_fraction"].get_double().value(), 0.364, 0.001);
  EXPECT_EQ(account["window"]["duration_ns"].get_int64().value(), 1'100'000);
  EXPECT_EQ(summary["top_kernels"].at(0)["share_of_kernel_time"].type().value(), simdjson::dom::element_type::DOUBLE);
  EXPECT_EQ(account["idle_ns"]["launch_waits"].get_int64().value(), 700'000);
  EXPECT_EQ(account["gaps"]["launch_waits"].get_int64().value(), 12);
  EXPECT_EQ(account["rows"].at(0)["label"].get_string().value(), "GEMM on Tensor Cores, FP16");
  EXPECT_EQ(account["rows"].at(0)["per_step_ns"].get_int64().value(), 200'000);
  EXPECT_EQ(summary["account_basis"].get_string().value(), "measured steps");
  EXPECT_EQ(device["compute_capability"].get_string().value(), "9.0");
  EXPECT_TRUE(device["sm_count"].is_null()) << "not recorded is null, not 0";
  EXPECT_TRUE(device["peak_allocated_bytes"].is_null());
  const simdjson::dom::element steps = summary["steps"].value();
  EXPECT_EQ(steps["count"].get_uint64().value(), 3u);
  EXPECT_EQ(steps["first"].at(0)["duration_ns"].get_int64().value(), 900'000);
  EXPECT_TRUE(steps["first"].at(0)["warmup"].get_bool().value());
}

TEST(RenderJson, DataQualityListsTheCountersThatAreNotZero) {
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = Parse(parser, Render({SampleReport()}));
  const simdjson::dom::element quality = doc["reports"].at(0)["data_quality"].value();
  EXPECT_TRUE(quality["data_loss"].get_bool().value());
  EXPECT_EQ(quality["stats"].get_array().value().size(), 1u);
  EXPECT_EQ(quality["stats"].at(0)["name"].get_string().value(), "json_truncated");
  EXPECT_EQ(quality["stats"].at(0)["severity"].get_string().value(), "data-loss");
  EXPECT_EQ(quality["stats"].at(0)["value"].get_int64().value(), 1);
}

TEST(RenderJson, ComparisonInsideTheReportWhenThereIsABaseline) {
  analyzers::Report report = SampleReport();
  analyzers::Comparison comparison;
  comparison.speedup = 0.85;
  comparison.baseline.trace = "fp32.ampt";
  comparison.rows = {{"idle: waiting for kernel launches", 1'200'000, 3'200'000, "gpu.launch_bound"},
                     {"GEMM on CUDA cores", 3'100'000, 0, ""}};
  comparison.notes = {"a note"};
  report.comparison = comparison;
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = Parse(parser, Render({report, SampleReport()}));
  const simdjson::dom::element c = doc["reports"].at(0)["comparison"].value();
  EXPECT_EQ(c["basis"].get_string().value(), "median_step");
  EXPECT_DOUBLE_EQ(c["speedup"].get_double().value(), 0.85);
  EXPECT_EQ(c["baseline"]["trace"].get_string().value(), "fp32.ampt");
  EXPECT_EQ(c["rows"].at(0)["change_ns"].get_int64().value(), 2'000'000);
  EXPECT_EQ(c["rows"].at(0)["explained_by"].get_string().value(), "gpu.launch_bound");
  EXPECT_TRUE(c["rows"].at(1)["explained_by"].is_null());
  EXPECT_EQ(c["rows"].at(1)["change_ns"].get_int64().value(), -3'100'000);
  EXPECT_EQ(doc["reports"].get_array().value().size(), 2u);
  EXPECT_EQ(doc["reports"].at(1)["comparison"].error(), simdjson::NO_SUCH_FIELD);
}

TEST(RenderJson, AnEmptyReportIsStillAValidDocument) {
  simdjson::dom::parser parser;
  const simdjson::dom::element doc = Parse(parser, Render({analyzers::Report{}}));
  const simdjson::dom::element report = doc["reports"].at(0).value();
  EXPECT_TRUE(report["rank"].is_null());
  EXPECT_TRUE(report["verdict"]["worst_severity"].is_null());
  EXPECT_TRUE(report["summary"]["gpu_span"].is_null());
  EXPECT_TRUE(report["summary"]["steps"].is_null());
  EXPECT_TRUE(report["summary"]["workload"].is_null());
}

}  // namespace
}  // namespace ampprof::reports
