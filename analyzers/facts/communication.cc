#include "analyzers/facts/communication.h"

#include <string_view>

namespace ampprof::analyzers {
namespace {

struct Collective {
  std::string_view token;  // as it appears in the kernel name
  std::string_view name;   // as reports say it
};

// Longer tokens before the tokens they contain ("ReduceScatter" before "Reduce", "SendRecv" before
// "Send"), so the first match is the collective.
constexpr Collective kCollectives[] = {
    {"AllReduce", "AllReduce"},          {"all_reduce", "AllReduce"},
    {"ReduceScatter", "ReduceScatter"},  {"reduce_scatter", "ReduceScatter"},
    {"AllGather", "AllGather"},          {"all_gather", "AllGather"},
    {"AllToAll", "AllToAll"},            {"all_to_all", "AllToAll"},
    {"SendRecv", "SendRecv"},            {"Broadcast", "Broadcast"},
    {"Send", "Send"},                    {"Recv", "Recv"},
    {"Reduce", "Reduce"},                {"multimem", "AllReduce"},
    {"dispatch", "AllToAll"},            {"combine", "AllToAll"},
};

}  // namespace

std::string_view CollectiveOf(std::string_view kernel_name) {
  for (const Collective& collective : kCollectives) {
    if (kernel_name.find(collective.token) != std::string_view::npos) return collective.name;
  }
  return "other communication";
}

}  // namespace ampprof::analyzers
