// ampprof-synth: writes a synthetic AMP training trace (.ampt), for the demo and for benchmarks, or the
// same loop in FP32 to compare with.
//
//   ampprof-synth --kernels 10000000 --output big.ampt
//   ampprof-synth --kernels 6000 --precision fp32 --output fp32.ampt

#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"

int main(int argc, char** argv) {
  CLI::App app{"Write a synthetic trace of a mixed-precision (or FP32) training loop on one H100 (.ampt)."};
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
  CLI11_PARSE(app, argc, argv);
  options.precision = precision == "fp32" ? ampprof::synthetic::SyntheticPrecision::kFp32
                                          : ampprof::synthetic::SyntheticPrecision::kAmp;

  ampprof::records::AmptWriter::Options writer_options;
  writer_options.overwrite = force;
  auto writer = ampprof::records::AmptWriter::Create(output, writer_options);
  if (!writer.ok()) {
    std::fprintf(stderr, "ampprof-synth: %s\n", writer.status().message().c_str());
    return 2;
  }
  ampprof::base::Status status = ampprof::synthetic::GenerateSyntheticTrace(options, **writer);
  if (status.ok()) status = (*writer)->Close();
  if (!status.ok()) {
    std::fprintf(stderr, "ampprof-synth: %s\n", status.message().c_str());
    return 2;
  }
  return 0;
}
