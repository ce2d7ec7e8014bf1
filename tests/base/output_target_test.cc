// OutputTarget: where an output goes, checked before anything is written, and when two outputs are
// one file (through links: `analyze --html X -o X` wrote one over the other without a word).

#include "src/base/output_target.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/testing/temp_dir.h"

namespace ampprof::base {
namespace {

using ::testing::HasSubstr;

TEST(OutputTarget, DashAndTheNamesOfOpenDescriptorsAreThoseDescriptors) {
  for (const char* path : {"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    const auto target = OutputTarget::Resolve(path);
    ASSERT_TRUE(target.ok()) << path << ": " << target.status().ToString();
    EXPECT_EQ(target->kind(), OutputTarget::Kind::kDescriptor) << path;
    EXPECT_EQ(target->descriptor(), 1) << path;
  }
  EXPECT_EQ(OutputTarget::Resolve("-")->name(), "standard output");
  EXPECT_EQ(OutputTarget::Resolve("/dev/stderr")->descriptor(), 2);
}

TEST(OutputTarget, ADeviceIsWrittenInPlace) {
  const auto target = OutputTarget::Resolve("/dev/null");
  ASSERT_TRUE(target.ok()) << target.status().ToString();
  EXPECT_EQ(target->kind(), OutputTarget::Kind::kDevice);
  EXPECT_FALSE(target->regular());
  // A device takes two outputs one after the other; only regular files are "the same file".
  EXPECT_FALSE(target->SameFileAs(*OutputTarget::Resolve("/dev/null")));
}

TEST(OutputTarget, ErrorsNameThePathAndTheReason) {
  const testing::TempDir dir;
  EXPECT_EQ(OutputTarget::Resolve(dir.File("no/such/dir/report.txt")).status().message(),
            dir.File("no/such/dir/report.txt") + ": cannot write: No such file or directory");
  EXPECT_EQ(OutputTarget::Resolve(dir.path()).status().message(),
            dir.path() + ": cannot write: Is a directory");
  const std::string long_name = dir.File(std::string(300, 'n'));
  EXPECT_EQ(OutputTarget::Resolve(long_name).status().message(),
            long_name + ": cannot write: File name too long");
  std::ofstream(dir.File("file")) << "x";
  EXPECT_EQ(OutputTarget::Resolve(dir.File("file/report.txt")).status().message(),
            dir.File("file/report.txt") + ": cannot write: Not a directory");
  EXPECT_FALSE(OutputTarget::Resolve("").ok());
}

TEST(OutputTarget, FollowsSymbolicLinksToTheFileTheyName) {
  const testing::TempDir dir;
  std::ofstream(dir.File("real.txt")) << "x";
  std::filesystem::create_symlink("real.txt", dir.File("link.txt"));
  std::filesystem::create_symlink("new.txt", dir.File("dangling.txt"));
  const auto link = OutputTarget::Resolve(dir.File("link.txt"));
  ASSERT_TRUE(link.ok()) << link.status().ToString();
  EXPECT_EQ(link->kind(), OutputTarget::Kind::kFile);
  EXPECT_EQ(link->file(), dir.File("real.txt"));
  EXPECT_TRUE(link->SameFileAs(*OutputTarget::Resolve(dir.File("real.txt"))));
  const auto dangling = OutputTarget::Resolve(dir.File("dangling.txt"));
  ASSERT_TRUE(dangling.ok()) << dangling.status().ToString();
  EXPECT_EQ(dangling->file(), dir.File("new.txt"));
  EXPECT_FALSE(dangling->identity().has_value());
  EXPECT_TRUE(dangling->SameFileAs(*OutputTarget::Resolve(dir.File("./new.txt"))));

  std::filesystem::create_symlink("loop-b", dir.File("loop-a"));
  std::filesystem::create_symlink("loop-a", dir.File("loop-b"));
  EXPECT_THAT(OutputTarget::Resolve(dir.File("loop-a")).status().message(),
              HasSubstr("cannot write: Too many levels of symbolic links"));
}

TEST(OutputTarget, HardLinksAreTheSameFileAndOtherFilesAreNot) {
  const testing::TempDir dir;
  std::ofstream(dir.File("a.txt")) << "a";
  std::ofstream(dir.File("b.txt")) << "b";
  std::filesystem::create_hard_link(dir.File("a.txt"), dir.File("hard.txt"));
  const auto a = OutputTarget::Resolve(dir.File("a.txt"));
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->regular());
  EXPECT_TRUE(a->SameFileAs(*OutputTarget::Resolve(dir.File("hard.txt"))));
  EXPECT_FALSE(a->SameFileAs(*OutputTarget::Resolve(dir.File("b.txt"))));
  EXPECT_FALSE(OutputTarget::Resolve(dir.File("new1.txt"))
                   ->SameFileAs(*OutputTarget::Resolve(dir.File("new2.txt"))));
}

TEST(OutputTarget, KeepsTheModeOfTheFileItReplaces) {
  const testing::TempDir dir;
  std::ofstream(dir.File("script.sh")) << "x";
  ASSERT_EQ(::chmod(dir.File("script.sh").c_str(), 0750), 0);
  EXPECT_EQ(OutputTarget::Resolve(dir.File("script.sh"))->mode(), 0750);
  EXPECT_EQ(OutputTarget::Resolve(dir.File("new.sh"))->mode(), std::nullopt);
}

}  // namespace
}  // namespace ampprof::base
