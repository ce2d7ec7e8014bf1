// libFuzzer target: the kernel rules parser (a user's --kernel-rules file) and the classifier. Any input
// must give a Status or a classifier, and every line of it, read as a kernel name (mangled or not), a
// KernelClass: never a crash, a hang or a sanitizer report.

#include <string_view>

#include "analyzers/facts/kernel_classifier.h"
#include "analyzers/facts/kernel_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ampprof::analyzers::KernelClassifier;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto rules = ampprof::analyzers::ParseKernelRules(text, "fuzz.rules");
  const auto user = rules.ok() ? KernelClassifier::WithUserRules(std::move(*rules))
                               : ampprof::base::StatusOr<KernelClassifier>(rules.status());
  const KernelClassifier& classifier = user.ok() ? *user : KernelClassifier::Builtin();
  static_cast<void>(classifier.Decide(text));
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const KernelClassifier::Decision decision = classifier.Decide(text.substr(start, end - start));
    static_cast<void>(KernelClassifier::Builtin().Classify(text.substr(start, end - start)));
    static_cast<void>(decision.rule);
    start = end + 1;
  }
  return 0;
}
