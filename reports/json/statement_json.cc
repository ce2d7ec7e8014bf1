#include "reports/json/statement_json.h"

#include <string>

#include "reports/common/statement_text.h"

namespace ampprof::reports {

void WriteStatement(JsonWriter& json, std::string_view key, const analyzers::Statement& statement) {
  json.Field(key, RenderStatement(statement));
  json.Key(std::string(key) + "_values").BeginObject();
  for (const analyzers::Quantity& value : statement.values) {
    json.Key(value.key);
    switch (value.unit) {
      case analyzers::Unit::kDuration:
      case analyzers::Unit::kCount: json.Int(QuantityAs<int64_t>(value.value)); break;
      case analyzers::Unit::kBytes: json.Uint(QuantityAs<uint64_t>(value.value)); break;
      default: json.Double(value.value); break;
    }
  }
  json.EndObject();
}

}  // namespace ampprof::reports
