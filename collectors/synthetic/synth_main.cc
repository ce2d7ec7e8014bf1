// ampprof-synth: writes a synthetic AMP training trace, for the demo and for benchmarks, or the same
// loop in FP32 to compare with; as an ampprof trace, a PyTorch profiler (Kineto) JSON file or an Nsight
// Systems SQLite export, chosen by the output's extension (.ampt, .json, .sqlite) or by --format.
//
//   ampprof-synth --kernels 10000000 --output big.ampt
//   ampprof-synth --kernels 1000000 --output big.json       # the same loop, as Kineto JSON
//   ampprof-synth --kernels 6000 --precision fp32 --output fp32.ampt

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/kineto_json_writer.h"
#include "collectors/synthetic/nsys_sqlite_writer.h"
#include "collectors/synthetic/synthetic_trace.h"

namespace {

using ampprof::base::Status;
using ampprof::base::StatusOr;

// Generates the trace into a writer of the chosen format and closes it.
template <typename Writer>
Status Write(StatusOr<std::unique_ptr<Writer>> writer, const ampprof::synthetic::SyntheticTraceOptions& options) {
  if (!writer.ok()) return writer.status();
  Status status = ampprof::synthetic::GenerateSyntheticTrace(options, **writer);
  const Status closed = (*writer)->Close();
  return status.ok() ? closed : status;
}

std::string FormatOf(const std::string& output) {
  const std::string extension = std::filesystem::path(output).extension().string();
  if (extension == ".json") return "kineto";
  if (extension == ".sqlite") return "nsys";
  return "ampt";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Write a synthetic trace of a mixed-precision (or FP32) training loop on one H100."};
  ampprof::synthetic::SyntheticTraceOptions options;
  std::string output;
  bool force = false;
  app.add_option("-o,--output", output, "Trace file to write")->required();
  app.add_option("--kernels", options.kernels, "Stop after the step that reaches this many kernels")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  app.add_option("--layers", options.layers, "Linear layers in the model (7 kernels each per step)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 10'000u));
  app.add_option("--seed", options.seed, "Random seed")->capture_default_str();
  std::string precision = "amp";
  app.add_option("--precision", precision,
                 "amp: autocast FP16 + GradScaler; fp32: the same loop in FP32 (a baseline for --baseline)")
      ->capture_default_str()
      ->check(CLI::IsMember({"amp", "fp32"}));
  app.add_flag("-f,--force", force, "Overwrite the output file if it exists");
  std::string format;
  app.add_option("--format", format, "ampt, kineto (PyTorch profiler JSON) or nsys (SQLite export); default: "
                 "from the output's extension (.json, .sqlite, else ampt)")
      ->check(CLI::IsMember({"ampt", "kineto", "nsys"}));
  CLI11_PARSE(app, argc, argv);
  options.precision = precision == "fp32" ? ampprof::synthetic::SyntheticPrecision::kFp32
                                          : ampprof::synthetic::SyntheticPrecision::kAmp;

  if (format.empty()) format = FormatOf(output);
  if (format != "ampt" && !force && std::filesystem::exists(output)) {
    std::fprintf(stderr, "ampprof-synth: %s: file exists (pass --force to replace it)\n", output.c_str());
    return 2;
  }
  ampprof::records::AmptWriter::Options writer_options;
  writer_options.overwrite = force;
  const Status status =
      format == "kineto" ? Write(ampprof::synthetic::KinetoJsonWriter::Create(output), options)
      : format == "nsys" ? Write(ampprof::synthetic::NsysSqliteWriter::Create(output), options)
                         : Write(ampprof::records::AmptWriter::Create(output, writer_options), options);
  if (!status.ok()) {
    std::fprintf(stderr, "ampprof-synth: %s\n", status.message().c_str());
    return 2;
  }
  return 0;
}
