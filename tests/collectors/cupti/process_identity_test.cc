#include "collectors/cupti/process_identity.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <string>

#include "tests/testing/fake_environment.h"

namespace ampprof::cupti {
namespace {

using ampprof::testing::FakeEnvironment;

TEST(ProcessIdentityTest, TorchrunRankGoesIntoTheFileName) {
  const ProcessIdentity identity = ReadProcessIdentity(
      4242, FakeEnvironment({{"RANK", "3"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "8"}}));
  EXPECT_EQ(identity.rank, 3);
  EXPECT_EQ(identity.local_rank, 1);
  EXPECT_EQ(identity.world_size, 8);
  EXPECT_EQ(TraceFileName(identity), "ampprof-rank3-pid4242.ampt");
}

TEST(ProcessIdentityTest, WithoutARankTheNameHasOnlyThePid) {
  const ProcessIdentity identity = ReadProcessIdentity(4242, FakeEnvironment({}));
  EXPECT_EQ(identity.rank, -1);
  EXPECT_EQ(identity.world_size, 0);
  EXPECT_EQ(TraceFileName(identity), "ampprof-pid4242.ampt");
}

TEST(ProcessIdentityTest, FallsBackToOpenMpiThenSlurm) {
  EXPECT_EQ(ReadProcessIdentity(1, FakeEnvironment({{"OMPI_COMM_WORLD_RANK", "5"},
                                                    {"OMPI_COMM_WORLD_SIZE", "16"},
                                                    {"SLURM_PROCID", "9"}}))
                .rank,
            5);
  const ProcessIdentity slurm = ReadProcessIdentity(
      1, FakeEnvironment({{"SLURM_PROCID", "9"}, {"SLURM_LOCALID", "1"}, {"SLURM_NTASKS", "12"}}));
  EXPECT_EQ(slurm.rank, 9);
  EXPECT_EQ(slurm.local_rank, 1);
  EXPECT_EQ(slurm.world_size, 12);
}

TEST(ProcessIdentityTest, AValueThatIsNotARankIsIgnored) {
  for (const std::string bad : {"-1", "x", "3.0", "", "99999999999"}) {
    const ProcessIdentity identity = ReadProcessIdentity(7, FakeEnvironment({{"RANK", bad}}));
    EXPECT_EQ(identity.rank, -1) << bad;
    EXPECT_EQ(TraceFileName(identity), "ampprof-pid7.ampt") << bad;
  }
  // An invalid RANK does not hide a valid convention after it.
  EXPECT_EQ(ReadProcessIdentity(7, FakeEnvironment({{"RANK", "x"}, {"SLURM_PROCID", "2"}})).rank,
            2);
}

TEST(ProcessIdentityTest, CommandLineJoinsArguments) {
  EXPECT_EQ(CommandLineFromProcCmdline(std::string("python\0train.py\0--amp\0", 23)),
            "python train.py --amp");
  EXPECT_EQ(CommandLineFromProcCmdline(""), "");
}

TEST(ProcessIdentityTest, ReadsThisProcessCommandLineAndHost) {
  const ProcessIdentity identity =
      ReadProcessIdentity(static_cast<uint32_t>(getpid()), FakeEnvironment({}));
  EXPECT_NE(identity.command.find("ampprof_cupti_test"), std::string::npos) << identity.command;
  EXPECT_FALSE(identity.hostname.empty());
}

}  // namespace
}  // namespace ampprof::cupti
