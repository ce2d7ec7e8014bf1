// libampprof_inject.so as the CUDA driver uses it: loaded with dlopen, InitializeInjection called,
// then the process goes on and exits. Each case runs in a forked child so that what the library does
// to a process (atexit handlers, CUPTI state, its exit status) is observed from outside, as a
// workload's launcher would see it. The machine needs no GPU: without one CUPTI refuses the
// subscription, which is one of the paths under test.

#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "collectors/records/ampt_reader.h"
#include "collectors/records/record_set.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::cupti {
namespace {

using testing::TempDir;

struct ChildResult {
  int exit_code = -1;  // -1: it did not exit normally
  std::string stderr_text;
};

// Runs `body` in a forked child whose stderr is captured; the child ends with exit(body()), so
// atexit handlers run as in a real process end.
ChildResult RunInChild(const std::function<int()>& body) {
  int pipe_fds[2];
  EXPECT_EQ(pipe(pipe_fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::exit(body());
  }
  close(pipe_fds[1]);
  ChildResult result;
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0)
    result.stderr_text.append(buffer, size_t(got));
  close(pipe_fds[0]);
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

// In the child: load the library and call its entry point as the driver does. Returns what
// InitializeInjection returned, or 100 + a code when the library could not be used at all.
int LoadAndInitialize() {
  void* library = dlopen(AMPPROF_INJECT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 101;
  }
  auto* initialize = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
  if (initialize == nullptr) return 102;
  return initialize();
}

std::vector<std::filesystem::path> TracesIn(const std::string& dir) {
  std::vector<std::filesystem::path> traces;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".ampt") traces.push_back(entry.path());
  }
  return traces;
}

TEST(InjectionTest, LoadingWithoutAGpuReturnsCleanlyAndKeepsTheExitStatus) {
  TempDir dir;
  const ChildResult child = RunInChild([&] {
    setenv("AMPPROF_OUTPUT_DIR", dir.path().c_str(), 1);
    const int initialized = LoadAndInitialize();
    return initialized == 1 ? 42 : initialized;
  });
  EXPECT_EQ(child.exit_code, 42) << child.stderr_text;
  // Whatever CUPTI decided without a GPU, a trace file, if written, is a complete, readable trace
  // that says what the collector did.
  for (const auto& trace : TracesIn(dir.path())) {
    records::RecordSet set;
    const base::Status status = records::ReadAmptFile(trace.string(), set);
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(set.metadata["source"], "ampprof CUPTI collector");
    EXPECT_FALSE(set.metadata["collector_mode"].empty());
    EXPECT_EQ(trace.filename().string(),
              "ampprof-pid" + std::to_string(set.processes.at(0).pid) + ".ampt");
  }
  // Every line the collector printed is one of its own, one line each.
  for (size_t at = 0; at < child.stderr_text.size();) {
    EXPECT_EQ(child.stderr_text.compare(at, 19, "ampprof collector: "), 0) << child.stderr_text;
    at = child.stderr_text.find('\n', at);
    if (at == std::string::npos) break;
    ++at;
  }
}

TEST(InjectionTest, InitializingTwiceIsHarmless) {
  TempDir dir;
  const ChildResult child = RunInChild([&] {
    setenv("AMPPROF_OUTPUT_DIR", dir.path().c_str(), 1);
    if (LoadAndInitialize() != 1) return 1;
    return LoadAndInitialize() == 1 ? 0 : 2;
  });
  EXPECT_EQ(child.exit_code, 0) << child.stderr_text;
  EXPECT_LE(TracesIn(dir.path()).size(), 1u);
}

// The PyTorch shim's Python atexit function calls ampprof_collector_finish. Without a GPU the collector
// is off, so there is nothing to finish: the call says so (0), twice, and the process keeps its status.
TEST(InjectionTest, TheFinishEntryPointIsHarmlessWhenThereIsNothingToFinish) {
  TempDir dir;
  const ChildResult child = RunInChild([&] {
    setenv("AMPPROF_OUTPUT_DIR", dir.path().c_str(), 1);
    if (LoadAndInitialize() != 1) return 1;
    void* library = dlopen(AMPPROF_INJECT_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
    if (library == nullptr) return 2;
    auto* finish = reinterpret_cast<int (*)()>(dlsym(library, "ampprof_collector_finish"));
    if (finish == nullptr) return 3;
    if (finish() != 0 || finish() != 0) return 4;
    return 42;
  });
  EXPECT_EQ(child.exit_code, 42) << child.stderr_text;
}

TEST(InjectionTest, ForkedChildrenExitUntouched) {
  TempDir dir;
  const ChildResult child = RunInChild([&] {
    setenv("AMPPROF_OUTPUT_DIR", dir.path().c_str(), 1);
    if (LoadAndInitialize() != 1) return 1;
    // A DataLoader worker: forked after CUDA initialisation, never uses CUDA, ends with exit().
    const pid_t worker = fork();
    if (worker == 0) std::exit(5);
    int status = 0;
    if (waitpid(worker, &status, 0) != worker || !WIFEXITED(status) || WEXITSTATUS(status) != 5)
      return 3;
    return 0;
  });
  EXPECT_EQ(child.exit_code, 0) << child.stderr_text;
  EXPECT_LE(TracesIn(dir.path()).size(), 1u);  // the worker wrote no trace of its own
}

TEST(InjectionTest, ASettingItCannotUnderstandTurnsItOffWithOneLine) {
  TempDir dir;
  const ChildResult child = RunInChild([&] {
    setenv("AMPPROF_OUTPUT_DIR", dir.path().c_str(), 1);
    setenv("AMPPROF_CAPTURE_RANGE", "nvtx", 1);
    return LoadAndInitialize() == 1 ? 7 : 8;
  });
  EXPECT_EQ(child.exit_code, 7);
  EXPECT_EQ(child.stderr_text,
            "ampprof collector: AMPPROF_CAPTURE_RANGE=\"nvtx\": expected none or cudaProfilerApi; "
            "recording nothing\n");
  EXPECT_TRUE(TracesIn(dir.path()).empty());
}

TEST(InjectionTest, AnOutputDirectoryItCannotWriteTurnsItOffWithOneLine) {
  TempDir dir;
  const std::string missing = dir.File("no/such/dir");
  const ChildResult child = RunInChild([&] {
    setenv("AMPPROF_OUTPUT_DIR", missing.c_str(), 1);
    return LoadAndInitialize() == 1 ? 9 : 10;
  });
  EXPECT_EQ(child.exit_code, 9);
  // Either CUPTI's version check or the file's creation stops it; both say so in one line.
  EXPECT_EQ(child.stderr_text.rfind("ampprof collector: ", 0), 0u) << child.stderr_text;
  EXPECT_NE(child.stderr_text.find("recording nothing"), std::string::npos) << child.stderr_text;
  EXPECT_EQ(std::count(child.stderr_text.begin(), child.stderr_text.end(), '\n'), 1);
}

}  // namespace
}  // namespace ampprof::cupti
