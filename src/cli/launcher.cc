#include "src/cli/launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>

extern char** environ;

namespace ampprof::cli {
namespace {

// The child being waited for; read by the signal handler.
volatile sig_atomic_t g_child_pid = 0;

constexpr std::array kForwardedSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

void ForwardSignal(int signal, siginfo_t* info, void* /*context*/) {
  // Terminal-generated signals (si_code SI_KERNEL) already reached the child in our process group.
  if (info != nullptr && info->si_code > 0) return;
  const pid_t child = g_child_pid;
  if (child > 0) kill(child, signal);
}

class SignalForwarding {
 public:
  SignalForwarding() {
    struct sigaction action {};
    action.sa_sigaction = &ForwardSignal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < kForwardedSignals.size(); ++i) sigaction(kForwardedSignals[i], &action, &previous_[i]);
  }
  ~SignalForwarding() {
    for (size_t i = 0; i < kForwardedSignals.size(); ++i) sigaction(kForwardedSignals[i], &previous_[i], nullptr);
    g_child_pid = 0;
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;

  // What the child inherits: the dispositions ampprof itself was started with.
  const struct sigaction& previous(size_t i) const { return previous_[i]; }

 private:
  std::array<struct sigaction, kForwardedSignals.size()> previous_{};
};

// The child's environment: ours, byte for byte and in its order (duplicates, entries without '='
// and all), with `overrides` set. A variable already there gets its new value where it stands, in
// every entry of that name, so that whichever one a program reads (C's getenv takes the first,
// Python's os.environ the last) it sees the same; the others are appended in their order.
std::vector<std::string> ChildEnvironment(const std::vector<std::pair<std::string, std::string>>& overrides) {
  // Each name once, with its last value, in the order the names first appear.
  std::vector<std::pair<std::string, std::string>> settings;
  for (const auto& override_setting : overrides) {
    const std::string& name = override_setting.first;
    const auto same = std::find_if(settings.begin(), settings.end(),
                                   [&](const auto& set) { return set.first == name; });
    if (same != settings.end()) {
      same->second = override_setting.second;
    } else {
      settings.push_back(override_setting);
    }
  }
  std::vector<bool> placed(settings.size(), false);
  std::vector<std::string> result;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const size_t equals = text.find('=');
    const auto setting = equals == std::string_view::npos
                             ? settings.end()
                             : std::find_if(settings.begin(), settings.end(), [&](const auto& set) {
                                 return set.first == text.substr(0, equals);
                               });
    if (setting == settings.end()) {
      result.emplace_back(text);
      continue;
    }
    result.push_back(setting->first + "=" + setting->second);
    placed[static_cast<size_t>(setting - settings.begin())] = true;
  }
  for (size_t i = 0; i < settings.size(); ++i) {
    if (!placed[i]) result.push_back(settings[i].first + "=" + settings[i].second);
  }
  return result;
}

// Signals whose default action writes a core file (signal(7)).
bool DumpsCore(int signal) {
  switch (signal) {
    case SIGABRT:
    case SIGBUS:
    case SIGFPE:
    case SIGILL:
    case SIGQUIT:
    case SIGSEGV:
    case SIGSYS:
    case SIGTRAP:
    case SIGXCPU:
    case SIGXFSZ:
      return true;
    default:
      return false;
  }
}

}  // namespace

base::StatusOr<analyzers::WorkloadOutcome> RunWorkload(const LaunchRequest& request) {
  if (request.argv.empty()) return base::InvalidArgumentError("no command to run");
  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<char*> argv;
  for (const std::string& arg : request.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const std::vector<std::string> environment = ChildEnvironment(request.environment);
  std::vector<char*> envp;
  for (const std::string& entry : environment) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);

  // exec failures come back through a close-on-exec pipe: EOF means the exec succeeded.
  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    return base::IoError("cannot create a pipe: {}", std::strerror(errno));
  }
  SignalForwarding forwarding;
  // Blocked until the child's pid is known, so that a signal sent while it is being started is
  // forwarded to it rather than dropped; the child has them unblocked again before exec.
  sigset_t forwarded;
  sigset_t unblocked;
  sigemptyset(&forwarded);
  for (const int signal : kForwardedSignals) sigaddset(&forwarded, signal);
  sigprocmask(SIG_BLOCK, &forwarded, &unblocked);
  const pid_t child = fork();
  if (child < 0) {
    const int error = errno;
    sigprocmask(SIG_SETMASK, &unblocked, nullptr);
    close(error_pipe[0]);
    close(error_pipe[1]);
    return base::IoError("cannot start '{}': {}", request.argv[0], std::strerror(error));
  }
  if (child == 0) {
    close(error_pipe[0]);
    for (size_t i = 0; i < kForwardedSignals.size(); ++i) sigaction(kForwardedSignals[i], &forwarding.previous(i), nullptr);
    sigprocmask(SIG_SETMASK, &unblocked, nullptr);
    execvpe(argv[0], argv.data(), envp.data());
    const int error = errno;
    ssize_t ignored = write(error_pipe[1], &error, sizeof(error));
    (void)ignored;
    _exit(kExitCommandNotFound);
  }
  g_child_pid = child;
  sigprocmask(SIG_SETMASK, &unblocked, nullptr);
  close(error_pipe[1]);
  int exec_error = 0;
  ssize_t got;
  do {
    got = read(error_pipe[0], &exec_error, sizeof(exec_error));
  } while (got < 0 && errno == EINTR);
  close(error_pipe[0]);

  // Waited for without being reaped: until it is, its pid cannot be reused, so a signal forwarded
  // while it exits reaches no other process. Forwarding stops before it is reaped.
  siginfo_t ended{};
  while (waitid(P_PID, static_cast<id_t>(child), &ended, WEXITED | WNOWAIT) != 0) {
    if (errno != EINTR) return base::IoError("waiting for '{}': {}", request.argv[0], std::strerror(errno));
  }
  g_child_pid = 0;
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return base::IoError("waiting for '{}': {}", request.argv[0], std::strerror(errno));
  }
  if (got == static_cast<ssize_t>(sizeof(exec_error))) {
    // ENOENT: not found (a shell's 127); anything else: found but not executable (126).
    if (exec_error == ENOENT) return base::NotFoundError("cannot run '{}': {}", request.argv[0], std::strerror(exec_error));
    return base::UnsupportedError("cannot run '{}': {}", request.argv[0], std::strerror(exec_error));
  }
  analyzers::WorkloadOutcome outcome;
  if (WIFSIGNALED(status)) {
    outcome.signal = WTERMSIG(status);
  } else {
    outcome.exit_code = WEXITSTATUS(status);
  }
  return outcome;
}

int ExitLikeWorkload(const analyzers::WorkloadOutcome& outcome) {
  if (outcome.signal == 0) return outcome.exit_code;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const int signal = outcome.signal;
  if (DumpsCore(signal)) {
    // The workload's core file, if any, is the one that matters. RLIMIT_CORE stops a core written
    // to a file; a core_pattern that pipes to a program (systemd-coredump, apport) ignores it, but
    // not a process that is not dumpable.
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  }
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal, &default_action, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal);
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  raise(signal);  // delivered before raise returns: the signal is unblocked in this thread
  return outcome.ShellStatus();
}

}  // namespace ampprof::cli
