// ampprof-synth: writes a synthetic AMP training trace, for the demo and for benchmarks, or the same
// loop in FP32 to compare with; as an ampprof trace, a PyTorch profiler (Kineto) JSON file or an Nsight
// Systems SQLite export, chosen by the output's extension (.ampt, .json, .sqlite) or by --format.
//
//   ampprof-synth --kernels 10000000 --output big.ampt
//   ampprof-synth --kernels 1000000 --output big.json       # the same loop, as Kineto JSON
//   ampprof-synth --kernels 6000 --precision fp32 --output fp32.ampt
//   ampprof-synth --ranks 16 --straggler 5 -o job/          # a 16-rank job, rank 5 a straggler
//   ampprof-synth --ranks 8 --imbalance 0.5 -o job/         # uneven work: rank 7 computes 50% more

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <functional>

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

// Writes one trace of `format` to `path` with `generate`.
Status WriteTrace(const std::string& format, const std::string& path, bool force,
                  const std::function<Status(ampprof::records::RecordSink&)>& generate) {
  const auto write = [&](auto writer) -> Status {
    if (!writer.ok()) return writer.status();
    Status status = generate(**writer);
    const Status closed = (*writer)->Close();
    return status.ok() ? closed : status;
  };
  if (format == "kineto") return write(ampprof::synthetic::KinetoJsonWriter::Create(path));
  if (format == "nsys") return write(ampprof::synthetic::NsysSqliteWriter::Create(path));
  ampprof::records::AmptWriter::Options writer_options;
  writer_options.overwrite = force;
  return write(ampprof::records::AmptWriter::Create(path, writer_options));
}

struct JobOptions {
  int32_t ranks = 0;
  int32_t straggler = -1;
  double straggler_slowdown = 1.5;
  std::string straggler_cause = "gpu";
  double imbalance = 0.0;
};

// --ranks: DIR/rank-<r>.<ext>, one trace per rank of a synchronous job (synthetic_trace.h).
Status WriteJob(const ampprof::synthetic::SyntheticTraceOptions& base, const JobOptions& job,
                const std::string& format, const std::string& directory, bool force) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return ampprof::base::IoError("{}: cannot create the directory: {}", directory, error.message());
  std::vector<ampprof::synthetic::SyntheticTraceOptions> ranks;
  for (int32_t r = 0; r < job.ranks; ++r) {
    ampprof::synthetic::SyntheticTraceOptions rank = base;
    rank.rank = r;
    rank.world_size = job.ranks;
    rank.seed = base.seed * 1'000'003 + static_cast<uint64_t>(r);  // each rank its own jitter
    if (job.ranks > 1) rank.compute_scale = 1.0 + job.imbalance * r / (job.ranks - 1);
    if (r == job.straggler) {
      (job.straggler_cause == "host" ? rank.host_scale : rank.compute_scale) *= job.straggler_slowdown;
    }
    ranks.push_back(rank);
  }
  ASSIGN_OR_RETURN(const std::vector<ampprof::base::TimeNs> ends, ampprof::synthetic::SyntheticCollectiveEnds(ranks));
  const std::string extension = format == "kineto" ? ".json" : format == "nsys" ? ".sqlite" : ".ampt";
  const int digits = static_cast<int>(fmt::format("{}", job.ranks - 1).size());
  for (int32_t r = 0; r < job.ranks; ++r) {
    const std::string path = (std::filesystem::path(directory) / fmt::format("rank-{:0{}}{}", r, digits, extension)).string();
    if (format != "ampt" && !force && std::filesystem::exists(path)) {
      return ampprof::base::InvalidArgumentError("{}: file exists (pass --force to replace it)", path);
    }
    RETURN_IF_ERROR(WriteTrace(format, path, force, [&](ampprof::records::RecordSink& sink) {
      return ampprof::synthetic::GenerateSyntheticRank(ranks[static_cast<size_t>(r)], ends, sink);
    }));
  }
  return ampprof::base::OkStatus();
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
  app.add_option("-o,--output", output, "Trace file to write (a directory with --ranks)")->required();
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
  JobOptions job;
  app.add_option("--ranks", job.ranks,
                 "Write an N-rank synchronous data-parallel job: OUTPUT is a directory, one trace per rank "
                 "(rank-<r>.ampt, or .json/.sqlite with --format), each stating its rank and the world size")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--straggler", job.straggler, "With --ranks: this rank is slow (--straggler-slowdown)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--straggler-slowdown", job.straggler_slowdown,
                 "How much slower the straggler is: its GPU kernels (or its host work) take this many times as long")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 100.0));
  app.add_option("--straggler-cause", job.straggler_cause, "gpu: its kernels are slower; host: its host work is")
      ->capture_default_str()
      ->check(CLI::IsMember({"gpu", "host"}));
  app.add_option("--imbalance", job.imbalance,
                 "With --ranks: uneven work, rank r's kernels take 1 + F * r / (N - 1) times as long")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  CLI11_PARSE(app, argc, argv);
  if (job.straggler >= 0 && job.straggler >= job.ranks) {
    std::fprintf(stderr, "ampprof-synth: --straggler %d needs --ranks above it\n", job.straggler);
    return 1;
  }
  options.precision = precision == "fp32" ? ampprof::synthetic::SyntheticPrecision::kFp32
                                          : ampprof::synthetic::SyntheticPrecision::kAmp;

  if (job.ranks > 0) {
    if (format.empty()) format = "ampt";
    const Status status = WriteJob(options, job, format, output, force);
    if (!status.ok()) {
      std::fprintf(stderr, "ampprof-synth: %s\n", status.message().c_str());
      return 2;
    }
    return 0;
  }
  if (job.straggler >= 0 || job.imbalance > 0) {
    std::fprintf(stderr, "ampprof-synth: --straggler and --imbalance need --ranks\n");
    return 1;
  }
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
