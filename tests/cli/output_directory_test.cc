#include "src/cli/output_directory.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/testing/temp_dir.h"

namespace ampprof::cli {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

void Touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(OutputDirectoryTest, CreatesMissingDirectoriesAndReturnsAnAbsolutePath) {
  TempDir dir;
  const auto prepared = PrepareOutputDirectory(dir.File("a/b/c"), false);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  EXPECT_TRUE(fs::is_directory(*prepared));
  EXPECT_TRUE(fs::path(*prepared).is_absolute());
  EXPECT_EQ(*prepared, dir.File("a/b/c"));
}

TEST(OutputDirectoryTest, TracesOfAnEarlierRunAreNeverSilentlyOverwritten) {
  TempDir dir;
  Touch(dir.File("ampprof-pid1.ampt"));
  Touch(dir.File("notes.txt"));
  const auto refused = PrepareOutputDirectory(dir.path(), false);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--force"), std::string::npos)
      << refused.status().message();
  EXPECT_TRUE(fs::exists(dir.File("ampprof-pid1.ampt")));

  const auto replaced = PrepareOutputDirectory(dir.path(), true);
  ASSERT_TRUE(replaced.ok()) << replaced.status().ToString();
  EXPECT_FALSE(fs::exists(dir.File("ampprof-pid1.ampt")));
  EXPECT_TRUE(fs::exists(dir.File("notes.txt")));  // only traces are ours to remove
}

TEST(OutputDirectoryTest, AFileInTheWayIsAnError) {
  TempDir dir;
  Touch(dir.File("out"));
  const auto prepared = PrepareOutputDirectory(dir.File("out"), false);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("not a directory"), std::string::npos);
}

TEST(OutputDirectoryTest, AnUnwritableDirectoryIsAnErrorBeforeTheRun) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  TempDir dir;
  const std::string locked = dir.File("locked");
  fs::create_directory(locked);
  chmod(locked.c_str(), 0555);
  const auto prepared = PrepareOutputDirectory(locked, false);
  chmod(locked.c_str(), 0755);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("not writable"), std::string::npos);
}

TEST(OutputDirectoryTest, ADirectoryThatCannotBeCreatedIsAnErrorEvenForRoot) {
  const auto prepared = PrepareOutputDirectory("/proc/ampprof-cannot-exist/out", false);
  ASSERT_FALSE(prepared.ok());
  EXPECT_NE(prepared.status().message().find("cannot create the output directory"),
            std::string::npos)
      << prepared.status().message();
}

}  // namespace
}  // namespace ampprof::cli
