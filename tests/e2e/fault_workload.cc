// ampprof_fault_workload: a stand-in for a process traced by ampprof's CUPTI collector, for the
// fault tests of `ampprof run` and `compare` on machines without a GPU (tests/e2e/fault_test.sh).
//
// It writes its trace as the collector does: into $AMPPROF_OUTPUT_DIR, under the collector's name
// (ampprof-rank<R>-pid<P>.ampt, process_identity.h, ranks from RANK/OMPI/Slurm variables), through
// the real AmptWriter, with the records of the synthetic AMP training loop, flushed after every
// step as the collector's writer thread does whenever CUPTI hands it buffers; the FP32 loop when
// AMPPROF_PRECISION=fp32, as `ampprof compare` asks of its FP32 run. Then it ends the way it is
// told:
//
//   --end exit:N            closes the trace (the collector's atexit flush) and exits with N
//   --end segfault          a write through a null pointer, the trace not closed
//   --end abort             abort(), the trace not closed
//   --end sigkill           SIGKILL to itself, the trace not closed
//   --end sigkill-mid-write SIGKILL, with the file cut in the middle of the last chunk written:
//   what a
//                           kill that lands inside the write(2) of a chunk leaves (a large write to
//                           a file stops between pages when a fatal signal arrives)
//   --end sigint            runs until SIGINT, finishes the step and dies of SIGINT (status 130) as
//                           Python 3.8+ does on an uncaught KeyboardInterrupt: after its own
//                           finalisation, before the C library's atexit handlers, so the
//                           collector's exit flush never runs and the trace holds what the flushes
//                           after each step wrote. With --sigint-linger-ms the shutdown first takes
//                           that long, unless a second SIGINT cuts it short. Without a SIGINT by
//                           --kernels kernels, it says so and exits with 1 (a test that went wrong
//                           stays bounded)
//
// With --hostile-names, every kernel name, the GPU's name, the process's command and the workload's
// description (the metadata "workload") end with terminal control sequences (set the window title,
// write the clipboard, clear the screen, a C1 CSI), as a hostile or broken trace would have them:
// what reaches the terminal is checked.
//
// Progress goes to stderr, one line each: "writing PATH" after the 8th step, when kernels are in
// the file (the synthetic loop delivers them in batches, as CUPTI does, about every third step),
// then how it ends.

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "collectors/cupti/collector_config.h"
#include "collectors/cupti/process_identity.h"
#include "collectors/records/ampt_writer.h"
#include "collectors/synthetic/synthetic_trace.h"

namespace {

using ampprof::records::AmptWriter;

volatile sig_atomic_t g_interrupts = 0;

// The step after which the workload says it is writing: by then kernels are in the file.
constexpr uint64_t kAnnouncedStep = 7;

void CountInterrupt(int /*signal*/) { g_interrupts = g_interrupts + 1; }

void Say(const std::string& message) {
  std::fprintf(stderr, "ampprof_fault_workload: %s\n", message.c_str());
  std::fflush(stderr);
}

std::optional<std::string> Environment(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// Dies of `signal` with its default action, whatever handler a sanitizer runtime installed, and
// without a core file in the test's directory.
[[noreturn]] void DieOf(int number) {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  std::signal(number, SIG_DFL);
  if (number == SIGSEGV) {
    int* volatile nowhere = nullptr;  // volatile: the write is done, not optimised into a trap
    *nowhere = 1;
  }
  raise(number);
  _exit(128 + number);  // unreachable: the default action of these signals ends the process
}

// Window title (OSC 0), clipboard (OSC 52), clear screen (CSI 2 J), blink, C1 CSI in UTF-8, a
// newline.
constexpr std::string_view kHostileSuffix =
    "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[5m\xc2\x9b"
    "31m\n";

// A sink in front of the writer that appends kHostileSuffix to the names a trace carries.
class HostileNames final : public ampprof::records::RecordSink {
 public:
  explicit HostileNames(AmptWriter& writer) : writer_(writer) {}

  ampprof::base::StringPool& strings() override { return writer_.strings(); }
  ampprof::base::Stats& stats() override { return writer_.stats(); }
  void SetMetadata(std::string_view key, std::string_view value) override {
    writer_.SetMetadata(key, key == "workload" ? std::string(value) + std::string(kHostileSuffix)
                                               : std::string(value));
  }
  void Add(const ampprof::records::DeviceRecord& record) override {
    ampprof::records::DeviceRecord hostile = record;
    hostile.name = Hostile(record.name);
    writer_.Add(hostile);
  }
  void Add(const ampprof::records::ProcessRecord& record) override {
    ampprof::records::ProcessRecord hostile = record;
    hostile.command = Hostile(record.command);
    writer_.Add(hostile);
  }
  void Add(const ampprof::records::KernelRecord& record) override {
    ampprof::records::KernelRecord hostile = record;
    hostile.name = Hostile(record.name);
    writer_.Add(hostile);
  }
  void Add(const ampprof::records::ThreadRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::ApiCallRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::MemcpyRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::MemsetRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::SyncRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::RangeRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::MarkRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::MemoryRecord& record) override { writer_.Add(record); }
  void Add(const ampprof::records::OverheadRecord& record) override { writer_.Add(record); }

 private:
  ampprof::base::StringId Hostile(ampprof::base::StringId name) {
    if (name == ampprof::base::kEmptyStringId) return name;
    auto [it, added] = renamed_.try_emplace(name.value);
    if (added) {
      it->second = writer_.strings().Intern(std::string(writer_.strings().Get(name)) +
                                            std::string(kHostileSuffix));
    }
    return it->second;
  }

  AmptWriter& writer_;
  std::unordered_map<uint32_t, ampprof::base::StringId> renamed_;  // by the original name's id
};

struct Options {
  uint64_t kernels = 20'000;
  std::string end = "exit:0";
  uint32_t step_delay_ms = 0;
  uint32_t sigint_linger_ms = 0;
  uint32_t kernel_name_bytes = 0;
  uint64_t kernel_name_variants = 0;
  bool hostile_names = false;
};

int Run(const Options& options) {
  const ampprof::base::StatusOr<ampprof::cupti::CollectorConfig> config =
      ampprof::cupti::ReadCollectorConfig(&Environment);
  if (!config.ok()) {
    Say(std::string(config.status().message()));
    return 2;
  }
  const ampprof::cupti::ProcessIdentity identity =
      ampprof::cupti::ReadProcessIdentity(static_cast<uint32_t>(getpid()), &Environment);
  const std::string path = fmt::format("{}/{}", config->output_dir, TraceFileName(identity));
  ampprof::base::StatusOr<std::unique_ptr<AmptWriter>> created = AmptWriter::Create(path, {});
  if (!created.ok()) {
    Say(std::string(created.status().message()));
    return 2;
  }
  AmptWriter& writer = **created;
  HostileNames hostile(writer);
  ampprof::records::RecordSink& sink =
      options.hostile_names ? static_cast<ampprof::records::RecordSink&>(hostile) : writer;
  sink.SetMetadata("workload", identity.command);

  const bool until_sigint = options.end == "sigint";
  if (until_sigint) {
    struct sigaction action {};
    action.sa_handler = &CountInterrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
  }
  ampprof::synthetic::SyntheticTraceOptions synthetic;
  synthetic.kernels = options.kernels;
  if (Environment("AMPPROF_PRECISION") == "fp32") synthetic.precision = ampprof::synthetic::SyntheticPrecision::kFp32;
  synthetic.kernel_name_bytes = options.kernel_name_bytes;
  synthetic.kernel_name_variants = options.kernel_name_variants;
  uint64_t steps = 0;
  uint64_t before_last_flush = 0;
  synthetic.after_step = [&](uint64_t step) {
    before_last_flush = writer.bytes_written();
    static_cast<void>(writer.Flush());  // a failed write sticks in the writer and is reported below
    if (step == kAnnouncedStep) Say(fmt::format("writing {}", path));
    steps = step + 1;
    if (options.step_delay_ms > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(options.step_delay_ms));
    }
    return !until_sigint || g_interrupts == 0;
  };
  if (const ampprof::base::Status generated = GenerateSyntheticTrace(synthetic, sink);
      !generated.ok()) {
    Say(std::string(generated.message()));
    return 2;
  }

  if (options.end == "segfault") DieOf(SIGSEGV);
  if (options.end == "abort") {
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    std::abort();
  }
  if (options.end == "sigkill") DieOf(SIGKILL);
  if (options.end == "sigkill-mid-write") {
    const uint64_t cut = (before_last_flush + writer.bytes_written()) / 2;
    if (truncate(path.c_str(), static_cast<off_t>(cut)) != 0) return 2;
    Say(fmt::format("killed while writing byte {} of {}", cut, path));
    DieOf(SIGKILL);
  }
  if (until_sigint && g_interrupts > 0) {
    Say(fmt::format("interrupted after {} steps", steps));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.sigint_linger_ms);
    while (g_interrupts < 2 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    Say(fmt::format("{} SIGINT(s) received", static_cast<int>(g_interrupts)));
    DieOf(SIGINT);
  }
  // The other endings close the trace first, as the collector's atexit handler does.
  if (const ampprof::base::Status closed = writer.Close(); !closed.ok()) {
    Say(fmt::format("the trace was not written completely: {}", closed.message()));
  }
  if (until_sigint) {
    Say(fmt::format("no SIGINT came in {} steps", steps));
    return 1;
  }
  return std::stoi(options.end.substr(5));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"A stand-in for a process traced by ampprof's collector, that ends the way it is told"};
  Options options;
  app.add_option("--kernels", options.kernels, "Kernels to write before the end (with --end sigint: at most)")
      ->capture_default_str();
  app.add_option("--end", options.end, "exit:N, segfault, abort, sigkill, sigkill-mid-write or sigint")
      ->capture_default_str()
      ->check([](const std::string& end) -> std::string {
        if (end == "segfault" || end == "abort" || end == "sigkill" || end == "sigkill-mid-write" ||
            end == "sigint")
          return "";
        if (end.rfind("exit:", 0) == 0 && end.size() > 5 && end.size() <= 8 &&
            end.find_first_not_of("0123456789", 5) == std::string::npos && std::stoi(end.substr(5)) <= 255)
          return "";
        return "not an ending: " + end;
      });
  app.add_option("--step-delay-ms", options.step_delay_ms, "Sleep after every step");
  app.add_option("--sigint-linger-ms", options.sigint_linger_ms,
                 "With --end sigint: the time the shutdown takes, unless a second SIGINT ends it");
  app.add_option("--kernel-name-bytes", options.kernel_name_bytes, "Pad every kernel name to this length");
  app.add_option("--kernel-name-variants", options.kernel_name_variants,
                 "Launch i's kernel name gets variant i mod N (N >= --kernels: all distinct)");
  app.add_flag("--hostile-names", options.hostile_names,
               "End every kernel, GPU, process and workload name with terminal control sequences");
  CLI11_PARSE(app, argc, argv);
  return Run(options);
}
