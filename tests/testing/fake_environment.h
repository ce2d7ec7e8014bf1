#ifndef AMPPROF_TESTS_TESTING_FAKE_ENVIRONMENT_H_
#define AMPPROF_TESTS_TESTING_FAKE_ENVIRONMENT_H_

// An environment lookup over a fixed map, for code that reads its settings through one (the collector's
// configuration, the launcher's environment) instead of getenv.
//
//   ReadCollectorConfig(FakeEnvironment({{"AMPPROF_DELAY_S", "2"}}));

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ampprof::testing {

inline std::function<std::optional<std::string>(std::string_view)> FakeEnvironment(
    std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](std::string_view name) -> std::optional<std::string> {
    const auto it = variables.find(std::string(name));
    if (it == variables.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace ampprof::testing

#endif  // AMPPROF_TESTS_TESTING_FAKE_ENVIRONMENT_H_
