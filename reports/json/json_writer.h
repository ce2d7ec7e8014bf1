#ifndef AMPPROF_REPORTS_JSON_JSON_WRITER_H_
#define AMPPROF_REPORTS_JSON_JSON_WRITER_H_

// A small streaming JSON writer: values go to the stream as they are written, keys in the order they
// are written (so output is stable), two-space indentation. Strings are escaped and made valid UTF-8
// (bytes that are not are replaced by U+FFFD: kernel names come from other people's traces). Doubles
// are written in their shortest round-trip form with a decimal point or exponent; NaN and infinities
// (which JSON has no spelling for) as null. Misuse (a value without its key inside an object, a key in
// an array, unbalanced ends) is a bug and CHECK-fails.
//
//   JsonWriter json(std::cout);
//   json.BeginObject();
//   json.Field("schema_version", 1);
//   json.Key("findings").BeginArray();
//   json.BeginObject().Field("id", "gpu.launch_bound").EndObject();
//   json.EndArray();
//   json.EndObject();   // and a final newline

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace ampprof::reports {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  ~JsonWriter() = default;
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);

  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Uint(uint64_t value);
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  // Key and value in one call.
  JsonWriter& Field(std::string_view key, std::string_view value) { return Key(key).String(value); }
  JsonWriter& Field(std::string_view key, const char* value) { return Key(key).String(value); }
  JsonWriter& Field(std::string_view key, int64_t value) { return Key(key).Int(value); }
  JsonWriter& Field(std::string_view key, int32_t value) { return Key(key).Int(value); }
  JsonWriter& Field(std::string_view key, uint64_t value) { return Key(key).Uint(value); }
  JsonWriter& Field(std::string_view key, uint32_t value) { return Key(key).Uint(value); }
  JsonWriter& Field(std::string_view key, double value) { return Key(key).Double(value); }
  JsonWriter& Field(std::string_view key, bool value) { return Key(key).Bool(value); }

  // True once the top-level value is complete.
  bool done() const { return done_; }

 private:
  enum class Scope : uint8_t { kObject, kArray };
  struct Level {
    Scope scope;
    bool empty = true;
  };

  void BeforeValue();  // separators, indentation, and the checks a value must pass
  JsonWriter& Open(Scope scope, char bracket);
  JsonWriter& Close(Scope scope, char bracket);
  void NewLine();
  void WriteEscaped(std::string_view text);

  std::ostream& out_;
  std::vector<Level> levels_;
  bool key_pending_ = false;
  bool done_ = false;
};

}  // namespace ampprof::reports

#endif  // AMPPROF_REPORTS_JSON_JSON_WRITER_H_
