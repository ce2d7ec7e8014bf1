#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

const Quantity* Statement::Find(std::string_view key) const {
  for (const Quantity& value : values) {
    if (value.key == key) return &value;
  }
  return nullptr;
}

}  // namespace ampprof::analyzers
