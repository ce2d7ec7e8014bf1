#include "reports/json/json_writer.h"

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "src/base/check.h"
#include "src/base/utf8.h"

namespace ampprof::reports {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

}  // namespace

void JsonWriter::NewLine() {
  out_ << '\n';
  for (size_t i = 0; i < levels_.size(); ++i) out_ << "  ";
}

void JsonWriter::BeforeValue() {
  AMPPROF_CHECK_MSG(!done_, "a JSON document has one top-level value");
  if (levels_.empty()) return;
  Level& level = levels_.back();
  if (level.scope == Scope::kObject) {
    AMPPROF_CHECK_MSG(key_pending_, "a value inside a JSON object needs its key first");
    key_pending_ = false;
    return;  // Key() wrote the separator and the indentation
  }
  if (!level.empty) out_ << ',';
  level.empty = false;
  NewLine();
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  AMPPROF_CHECK_MSG(!levels_.empty() && levels_.back().scope == Scope::kObject, "a JSON key outside an object");
  AMPPROF_CHECK_MSG(!key_pending_, "two JSON keys without a value between them");
  Level& level = levels_.back();
  if (!level.empty) out_ << ',';
  level.empty = false;
  NewLine();
  WriteEscaped(key);
  out_ << ": ";
  key_pending_ = true;
  return *this;
}

JsonWriter& JsonWriter::Open(Scope scope, char bracket) {
  BeforeValue();
  out_ << bracket;
  levels_.push_back({scope});
  return *this;
}

JsonWriter& JsonWriter::Close(Scope scope, char bracket) {
  AMPPROF_CHECK_MSG(!levels_.empty() && levels_.back().scope == scope, "unbalanced JSON object or array");
  AMPPROF_CHECK_MSG(!key_pending_, "a JSON key without its value");
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) NewLine();
  out_ << bracket;
  if (levels_.empty()) {
    out_ << '\n';
    done_ = true;
  }
  return *this;
}

JsonWriter& JsonWriter::BeginObject() { return Open(Scope::kObject, '{'); }
JsonWriter& JsonWriter::EndObject() { return Close(Scope::kObject, '}'); }
JsonWriter& JsonWriter::BeginArray() { return Open(Scope::kArray, '['); }
JsonWriter& JsonWriter::EndArray() { return Close(Scope::kArray, ']'); }

void JsonWriter::WriteEscaped(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size() + 2);
  escaped += '"';
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      const size_t length = base::Utf8SequenceLength(text.substr(i));
      if (length == 0) {
        escaped += kReplacementCharacter;
        ++i;
      } else {
        escaped.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"': escaped += "\\\""; break;
      case '\\': escaped += "\\\\"; break;
      case '\n': escaped += "\\n"; break;
      case '\r': escaped += "\\r"; break;
      case '\t': escaped += "\\t"; break;
      case '\b': escaped += "\\b"; break;
      case '\f': escaped += "\\f"; break;
      default:
        if (byte < 0x20 || byte == 0x7F) {
          escaped += fmt::format("\\u{:04x}", byte);
        } else {
          escaped += c;
        }
    }
    ++i;
  }
  escaped += '"';
  out_ << escaped;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  BeforeValue();
  WriteEscaped(value);
  done_ = levels_.empty();
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  fmt::print(out_, "{}", value);
  done_ = levels_.empty();
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t value) {
  BeforeValue();
  fmt::print(out_, "{}", value);
  done_ = levels_.empty();
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  if (!std::isfinite(value)) return Null();
  BeforeValue();
  std::string text = fmt::format("{}", value);  // shortest form that reads back as the same double
  if (text.find_first_of(".e") == std::string::npos) text += ".0";  // stays a double for every reader
  out_ << text;
  done_ = levels_.empty();
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ << (value ? "true" : "false");
  done_ = levels_.empty();
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ << "null";
  done_ = levels_.empty();
  return *this;
}

}  // namespace ampprof::reports
