#include "collectors/liblogs/api_log_blocks.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace ampprof::liblogs {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

template <typename T>
std::optional<T> ParseInteger(std::string_view text, int base = 10) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// "I! CuDNN (v91200 46) function cudnnBackendFinalize() called:"
// "I! cuBLAS (v11.0) function cublasStatus_t cublasGemmEx(cublasHandle_t, ...) called:"
std::optional<ApiBlock> ParseHeader(std::string_view line) {
  if (line.size() < 3 || (line[0] != 'I' && line[0] != 'W' && line[0] != 'E') || line[1] != '!') return std::nullopt;
  const std::string_view rest = Trim(line.substr(2));
  const size_t function_at = rest.find(" function ");
  if (function_at == std::string_view::npos || !rest.ends_with("called:")) return std::nullopt;
  const std::string_view signature = rest.substr(function_at + 10);
  const size_t paren = signature.find('(');
  if (paren == std::string_view::npos) return std::nullopt;
  size_t begin = paren;
  while (begin > 0 && IsIdentifierChar(signature[begin - 1])) --begin;
  if (begin == paren) return std::nullopt;
  ApiBlock block;
  block.severity = line[0];
  block.library = std::string(rest.substr(0, rest.find(' ')));
  block.function = std::string(signature.substr(begin, paren - begin));
  return block;
}

// "Process=3600; Thread=10156; GPU=NULL; Handle=NULL; StreamId=NULL." or "Process: 21264, Thread: ..."
bool ParseTrailer(std::string_view body, ApiBlock& block) {
  if (!body.starts_with("Process")) return false;
  auto value_of = [&](std::string_view key) -> std::string_view {
    size_t at = body.find(key);
    while (at != std::string_view::npos) {
      const size_t after = at + key.size();
      if (after < body.size() && (body[after] == '=' || body[after] == ':')) {
        std::string_view value = Trim(body.substr(after + 1));
        const size_t end = value.find_first_of(";,");
        value = Trim(end == std::string_view::npos ? value : value.substr(0, end));
        if (value.ends_with('.')) value.remove_suffix(1);
        return value;
      }
      at = body.find(key, after);
    }
    return {};
  };
  block.pid = ParseInteger<uint32_t>(value_of("Process")).value_or(0);
  block.tid = ParseInteger<uint64_t>(value_of("Thread")).value_or(0);
  const std::string_view stream = value_of("StreamId");
  if (stream != "NULL") block.stream = ParseHandle(stream);  // NULL: not logged (no handle), not stream 0
  return true;
}

// "    dimA: type=int; val=[1,1152,27,27];" or "    descriptor: type=CUDNN_BACKEND_TENSOR_DESCRIPTOR:" or
// "    xData: location=dev; addr=0x7f1f48d80000;"
std::optional<BlockField> ParseField(std::string_view body) {
  BlockField field;
  while (static_cast<size_t>(field.indent) < body.size() && body[static_cast<size_t>(field.indent)] == ' ') {
    ++field.indent;
  }
  const std::string_view text = Trim(body.substr(static_cast<size_t>(field.indent)));
  const size_t colon = text.find(": ");
  const size_t trailing_colon = text.ends_with(':') ? text.size() - 1 : std::string_view::npos;
  const size_t name_end = std::min(colon, trailing_colon);
  if (name_end == std::string_view::npos) return std::nullopt;
  field.name = std::string(Trim(text.substr(0, name_end)));
  std::string_view rest = name_end + 1 < text.size() ? Trim(text.substr(name_end + 1)) : std::string_view();
  field.text = std::string(rest);
  if (rest.starts_with("type=")) {
    rest.remove_prefix(5);
    const size_t end = rest.find(';');
    if (end == std::string_view::npos) {
      // "type=CUDNN_BACKEND_TENSOR_DESCRIPTOR:": members follow on deeper lines.
      field.has_members = rest.ends_with(':');
      field.type = std::string(field.has_members ? rest.substr(0, rest.size() - 1) : rest);
    } else {
      field.type = std::string(rest.substr(0, end));
      std::string_view after = Trim(rest.substr(end + 1));
      if (after.starts_with("val=")) {
        after.remove_prefix(4);
        if (after.ends_with(';')) after.remove_suffix(1);
        field.value = std::string(Trim(after));
      }
    }
  }
  return field;
}

}  // namespace

int ApiBlock::Find(std::string_view name, int parent) const {
  size_t begin = 0;
  size_t end = fields.size();
  int member_indent = -1;
  if (parent >= 0) {
    begin = static_cast<size_t>(parent) + 1;
    for (end = begin; end < fields.size() && fields[end].indent > fields[static_cast<size_t>(parent)].indent; ++end) {
    }
    if (begin < end) member_indent = fields[begin].indent;
  } else if (!fields.empty()) {
    member_indent = fields.front().indent;
  }
  for (size_t i = begin; i < end; ++i) {
    if (fields[i].indent == member_indent && fields[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::string_view ApiBlock::Value(std::string_view name, int parent) const {
  const int at = Find(name, parent);
  return at < 0 ? std::string_view() : std::string_view(fields[static_cast<size_t>(at)].value);
}

std::optional<ApiBlock> BlockReader::Add(std::string_view line) {
  ++lines_;
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  if (std::optional<ApiBlock> header = ParseHeader(line)) {
    header->line = lines_;
    std::optional<ApiBlock> done = std::move(current_);
    current_ = std::move(header);
    return done;
  }
  if (Trim(line).empty()) return std::nullopt;
  const bool marked = line.size() >= 2 && (line[0] == 'i' || line[0] == 'w' || line[0] == 'e') && line[1] == '!';
  if (!marked || !current_ || !AddToBlock(line.substr(2))) ++unknown_lines_;
  return std::nullopt;
}

bool BlockReader::AddToBlock(std::string_view body) {
  const std::string_view trimmed = Trim(body);
  if (trimmed.starts_with("Time:")) return true;
  if (ParseTrailer(trimmed, *current_)) return true;
  std::optional<BlockField> field = ParseField(body);
  if (!field) return false;
  current_->fields.push_back(std::move(*field));
  return true;
}

std::optional<ApiBlock> BlockReader::Finish() { return std::exchange(current_, std::nullopt); }

std::optional<std::vector<int64_t>> ParseIntegerList(std::string_view text) {
  text = Trim(text);
  if (!text.starts_with('[') || !text.ends_with(']')) return std::nullopt;
  text = text.substr(1, text.size() - 2);
  std::vector<int64_t> values;
  while (!Trim(text).empty()) {
    const size_t comma = text.find(',');
    const std::optional<int64_t> value = ParseInteger<int64_t>(Trim(text.substr(0, comma)));
    if (!value) return std::nullopt;
    values.push_back(*value);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return values;
}

std::optional<uint64_t> ParseHandle(std::string_view text) {
  text = Trim(text);
  if (text == "(nil)" || text == "NULL" || text == "NULL_PTR") return 0;
  if (text.starts_with("0x") || text.starts_with("0X")) return ParseInteger<uint64_t>(text.substr(2), 16);
  return ParseInteger<uint64_t>(text);
}

}  // namespace ampprof::liblogs
