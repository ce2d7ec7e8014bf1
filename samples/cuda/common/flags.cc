#include "samples/cuda/common/flags.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "samples/cuda/common/check.h"

namespace ampsample {

Flags::Flags(std::string summary) : summary_(std::move(summary)) {}

void Flags::AddInt(std::string name, int64_t* value, int64_t min_value, std::string help) {
  Flag flag;
  flag.name = std::move(name);
  flag.help = std::move(help);
  flag.int_value = value;
  flag.min_value = min_value;
  flags_.push_back(std::move(flag));
}

void Flags::AddChoice(std::string name, std::string* value, std::vector<std::string> choices, std::string help) {
  Flag flag;
  flag.name = std::move(name);
  flag.help = std::move(help);
  flag.string_value = value;
  flag.choices = std::move(choices);
  flags_.push_back(std::move(flag));
}

void Flags::UsageError(const std::string& message) const {
  std::fprintf(stderr, "%s: %s (try --help)\n", ProgramName().c_str(), message.c_str());
  std::exit(2);
}

void Flags::PrintHelp() const {
  std::printf("%s\n\nusage: %s [FLAGS]\n\n", summary_.c_str(), ProgramName().c_str());
  for (const Flag& flag : flags_) {
    std::string value;
    if (flag.int_value != nullptr) {
      value = "N (default " + std::to_string(*flag.int_value) + ")";
    } else {
      for (const std::string& choice : flag.choices) value += (value.empty() ? "" : "|") + choice;
      value += " (default " + *flag.string_value + ")";
    }
    std::printf("  --%s %s\n      %s\n", flag.name.c_str(), value.c_str(), flag.help.c_str());
  }
}

void Flags::Set(const Flag& flag, const std::string& text) const {
  if (flag.int_value != nullptr) {
    char* end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE) UsageError("--" + flag.name + " wants an integer, got '" + text + "'");
    if (parsed < flag.min_value) {
      UsageError("--" + flag.name + " must be at least " + std::to_string(flag.min_value) + ", got " + text);
    }
    *flag.int_value = parsed;
    return;
  }
  for (const std::string& choice : flag.choices) {
    if (choice == text) {
      *flag.string_value = text;
      return;
    }
  }
  std::string choices;
  for (const std::string& choice : flag.choices) choices += (choices.empty() ? "" : ", ") + choice;
  UsageError("--" + flag.name + " must be one of " + choices + ", got '" + text + "'");
}

void Flags::Parse(int argc, char** argv) {
  if (argc > 0) SetProgramName(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      PrintHelp();
      std::exit(0);
    }
    if (arg.rfind("--", 0) != 0) UsageError("unexpected argument '" + arg + "'");
    std::string name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (const size_t equals = name.find('='); equals != std::string::npos) {
      value = name.substr(equals + 1);
      name = name.substr(0, equals);
      has_value = true;
    }
    const Flag* match = nullptr;
    for (const Flag& flag : flags_) {
      if (flag.name == name) match = &flag;
    }
    if (match == nullptr) UsageError("unknown flag --" + name);
    if (!has_value) {
      if (i + 1 >= argc) UsageError("--" + name + " needs a value");
      value = argv[++i];
    }
    Set(*match, value);
  }
}

}  // namespace ampsample
