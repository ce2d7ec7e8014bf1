#include "collectors/cupti/process_identity.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <fstream>
#include <iterator>
#include <optional>

namespace ampprof::cupti {
namespace {

std::optional<int32_t> NonNegativeInteger(const std::optional<std::string>& text) {
  if (!text || text->empty()) return std::nullopt;
  int32_t value = 0;
  const char* end = text->data() + text->size();
  const auto [parsed_to, error] = std::from_chars(text->data(), end, value);
  if (error != std::errc() || parsed_to != end || value < 0) return std::nullopt;
  return value;
}

// The first launcher convention whose rank variable holds a valid rank.
struct RankVariables {
  std::string_view rank;
  std::string_view local_rank;
  std::string_view world_size;
};
constexpr std::array<RankVariables, 3> kRankConventions = {{
    {"RANK", "LOCAL_RANK", "WORLD_SIZE"},
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE"},
    {"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS"},
}};

std::string ReadCommandLine(uint32_t pid) {
  std::ifstream file(fmt::format("/proc/{}/cmdline", pid), std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return CommandLineFromProcCmdline(bytes);
}

std::string Hostname() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return {};
  return std::string(name.data());
}

}  // namespace

std::string CommandLineFromProcCmdline(std::string_view cmdline) {
  while (!cmdline.empty() && cmdline.back() == '\0') cmdline.remove_suffix(1);
  std::string command(cmdline);
  for (char& c : command) {
    if (c == '\0') c = ' ';
  }
  return command;
}

ProcessIdentity ReadProcessIdentity(uint32_t pid, const EnvironmentLookup& environment) {
  ProcessIdentity identity;
  identity.pid = pid;
  for (const RankVariables& convention : kRankConventions) {
    const std::optional<int32_t> rank = NonNegativeInteger(environment(convention.rank));
    if (!rank) continue;
    identity.rank = *rank;
    identity.local_rank = NonNegativeInteger(environment(convention.local_rank)).value_or(-1);
    identity.world_size = NonNegativeInteger(environment(convention.world_size)).value_or(0);
    break;
  }
  identity.command = ReadCommandLine(pid);
  identity.hostname = Hostname();
  return identity;
}

std::string TraceFileName(const ProcessIdentity& identity) {
  if (identity.rank >= 0)
    return fmt::format("ampprof-rank{}-pid{}.ampt", identity.rank, identity.pid);
  return fmt::format("ampprof-pid{}.ampt", identity.pid);
}

}  // namespace ampprof::cupti
