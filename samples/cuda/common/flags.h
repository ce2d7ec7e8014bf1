// Command-line flags for the samples: `--name VALUE` or `--name=VALUE`, integers with a lower bound and
// strings from a fixed set of choices, `--help`. A bad command line prints one line naming the flag and
// exits with status 2 (the CUDA failures exit with 1), so a test runner can tell them apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ampsample {

class Flags {
 public:
  // `summary` is the first line of --help: what the sample reproduces.
  explicit Flags(std::string summary);

  // The flag's current value is its default, shown in --help.
  void AddInt(std::string name, int64_t* value, int64_t min_value, std::string help);
  void AddChoice(std::string name, std::string* value, std::vector<std::string> choices, std::string help);

  // Parses argv, sets the program name for messages, prints --help and exits 0 when asked.
  void Parse(int argc, char** argv);

 private:
  struct Flag {
    std::string name;
    std::string help;
    int64_t* int_value = nullptr;
    int64_t min_value = 0;
    std::string* string_value = nullptr;
    std::vector<std::string> choices;
  };

  [[noreturn]] void UsageError(const std::string& message) const;
  void PrintHelp() const;
  void Set(const Flag& flag, const std::string& text) const;

  std::string summary_;
  std::vector<Flag> flags_;
};

}  // namespace ampsample
