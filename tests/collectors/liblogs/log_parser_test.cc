#include "collectors/liblogs/log_parser.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "collectors/liblogs/log_environment.h"
#include "tests/testing/temp_dir.h"

namespace ampprof::liblogs {
namespace {

void Write(const std::filesystem::path& path, std::string_view text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(LibraryLogFile, RecognisesTheLibraryFromTheContent) {
  testing::TempDir dir;
  const std::filesystem::path path = std::filesystem::path(dir.path()) / "whatever.txt";
  Write(path,
        "some preamble a process printed\n"
        "[cublasLt][8291][Trace][cublasLtMatmul] Adesc=[type=R_16F rows=32 cols=16 ld=32] Ddesc=[type=R_16F "
        "rows=32 cols=64 ld=32] stream=0X0\n");
  const base::StatusOr<LibraryLog> log = ParseLibraryLogFile(path);
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->library, Library::kCublasLt);
  ASSERT_EQ(log->calls.size(), 1u);
  EXPECT_EQ(log->calls[0].line, 2u);
  EXPECT_EQ(log->unknown_lines, 1u);
}

// tests/data/liblogs: the real log text the parser tests quote, read as files (library recognised from
// the content, streamed line by line).
TEST(LibraryLogFile, ReadsTheProjectsRealLogs) {
  const std::filesystem::path data = std::filesystem::path(AMPPROF_SOURCE_DIR) / "tests/data/liblogs";
  struct Expected {
    const char* file;
    Library library;
    size_t calls;
  };
  for (const Expected& expected : {Expected{"cublaslt.log", Library::kCublasLt, 3},
                                   Expected{"cublas.log", Library::kCublas, 1},
                                   Expected{"cudnn.log", Library::kCudnn, 1}}) {
    const base::StatusOr<LibraryLog> log = ParseLibraryLogFile(data / expected.file);
    ASSERT_TRUE(log.ok()) << log.status().message();
    EXPECT_EQ(log->library, expected.library) << expected.file;
    EXPECT_EQ(log->calls.size(), expected.calls) << expected.file;
    EXPECT_EQ(log->unknown_lines, 0u) << expected.file;
  }
  const base::StatusOr<LibraryLog> cudnn = ParseLibraryLogFile(data / "cudnn.log");
  ASSERT_TRUE(cudnn.ok());
  EXPECT_EQ(cudnn->backend_tensors.size(), 1u);
  EXPECT_EQ(cudnn->calls[0].convolution->x.layout(), Layout::kNchw);
}

TEST(LibraryLogFile, BadFilesAreOneLineErrorsNamingTheFile) {
  testing::TempDir dir;
  const std::filesystem::path root(dir.path());
  const std::filesystem::path empty = root / "cudnn.1.log";
  Write(empty, "");
  const std::filesystem::path foreign = root / "notes.log";
  Write(foreign, "hello\nworld\n");
  for (const auto& [path, expected] : {std::pair{empty, std::string("the library log is empty")},
                                       std::pair{foreign, std::string("not a cuBLASLt, cuBLAS or cuDNN API log")},
                                       std::pair{root / "missing.log", std::string("cannot open")}}) {
    const base::StatusOr<LibraryLog> log = ParseLibraryLogFile(path);
    ASSERT_FALSE(log.ok());
    EXPECT_NE(log.status().message().find(path.string()), std::string::npos) << log.status().message();
    EXPECT_NE(log.status().message().find(expected), std::string::npos) << log.status().message();
    EXPECT_EQ(log.status().message().find('\n'), std::string::npos);
  }
}

// A damaged log with one enormous "line" (here 384 MiB without a newline) must not make the reader hold
// that line: it is parsed in a child whose heap may grow by 128 MiB at most, which reading the line whole
// (std::getline) cannot fit. The call after it is still found.
TEST(LibraryLogFile, AnEnormousLineIsNotHeldInMemory) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves memory outside RLIMIT_DATA's accounting";
#endif
  testing::TempDir dir;
  const std::filesystem::path path = std::filesystem::path(dir.path()) / "cublaslt.log";
  const std::string call =
      "[cublasLt][8291][Trace][cublasLtMatmul] Adesc=[type=R_16F rows=32 cols=16 ld=32] Ddesc=[type=R_16F "
      "rows=32 cols=64 ld=32] stream=0X0\n";
  {
    std::ofstream out(path, std::ios::binary);
    out << call;
    const std::string block(1 << 20, 'x');
    for (int i = 0; i < 384; ++i) out << block;
    out << "\n" << call;
  }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    rlimit data{};
    getrlimit(RLIMIT_DATA, &data);
    std::ifstream status("/proc/self/status");
    std::string line;
    size_t in_use = 0;
    while (std::getline(status, line)) {
      if (line.rfind("VmData:", 0) == 0) in_use = std::stoull(line.substr(7)) * 1024;
    }
    data.rlim_cur = in_use + (size_t{128} << 20);
    setrlimit(RLIMIT_DATA, &data);
    const base::StatusOr<LibraryLog> log = ParseLibraryLogFile(path);
    _exit(log.ok() && log->calls.size() == 2 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the reader died (signal " << WTERMSIG(status) << "): it held the whole line";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "both calls around the enormous line are found";
}

TEST(LibraryLogEnvironment, OneFilePerProcessAndLibrary) {
  const std::vector<EnvironmentVariable> variables = LibraryLogEnvironment("/tmp/run1/logs");
  auto value = [&](std::string_view name) {
    for (const EnvironmentVariable& variable : variables) {
      if (variable.name == name) return variable.value;
    }
    return std::string("<unset>");
  };
  EXPECT_EQ(value("CUBLASLT_LOG_LEVEL"), "2");
  EXPECT_EQ(value("CUBLASLT_LOG_FILE"), "/tmp/run1/logs/cublaslt.%i.log");
  EXPECT_EQ(value("CUBLAS_LOGINFO_DBG"), "1");
  EXPECT_EQ(value("CUBLAS_LOGDEST_DBG"), "/tmp/run1/logs/cublas.%i.log");
  EXPECT_EQ(value("CUDNN_LOGLEVEL_DBG"), "3");
  EXPECT_EQ(value("CUDNN_LOGDEST_DBG"), "/tmp/run1/logs/cudnn.%i.log");
  EXPECT_EQ(variables.size(), 6u);
  EXPECT_EQ(LibraryOfLogFileName("/x/cudnn.4242.log"), Library::kCudnn);
  EXPECT_EQ(LibraryOfLogFileName("/x/cublaslt.4242.log"), Library::kCublasLt);
  EXPECT_EQ(LibraryOfLogFileName("/x/cublas.4242.log"), Library::kCublas);
  EXPECT_EQ(LibraryOfLogFileName("/x/trace.ampt"), std::nullopt);
}

}  // namespace
}  // namespace ampprof::liblogs
