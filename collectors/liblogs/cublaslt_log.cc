#include "collectors/liblogs/cublaslt_log.h"

#include <charconv>
#include <map>
#include <string>

#include "collectors/liblogs/api_log_blocks.h"
#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {
namespace {

bool IsBlank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// "[text]" at the front of `rest`: returns text and advances past it.
std::optional<std::string_view> TakeBracketed(std::string_view& rest) {
  if (!rest.starts_with('[')) return std::nullopt;
  const size_t close = rest.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view inside = rest.substr(1, close - 1);
  rest.remove_prefix(close + 1);
  return inside;
}

// key=value and key=[k=v k=v] pairs, in order; a nested group's own pairs are parsed by the same function.
std::map<std::string_view, std::string_view> ParsePairs(std::string_view body) {
  std::map<std::string_view, std::string_view> pairs;
  while (!body.empty()) {
    while (!body.empty() && body.front() == ' ') body.remove_prefix(1);
    const size_t equals = body.find('=');
    if (equals == std::string_view::npos) break;
    const std::string_view key = body.substr(0, equals);
    body.remove_prefix(equals + 1);
    size_t end = 0;
    if (body.starts_with('[')) {
      int depth = 0;
      for (end = 0; end < body.size(); ++end) {
        if (body[end] == '[') ++depth;
        if (body[end] == ']' && --depth == 0) break;
      }
      pairs[key] = body.substr(1, std::min(end, body.size()) - 1);
      end = std::min(end + 1, body.size());
    } else {
      end = std::min(body.find(' '), body.size());
      pairs[key] = body.substr(0, end);
    }
    body.remove_prefix(end);
  }
  return pairs;
}

int64_t IntegerOr(const std::map<std::string_view, std::string_view>& pairs, std::string_view key, int64_t fallback) {
  const auto it = pairs.find(key);
  if (it == pairs.end()) return fallback;
  int64_t value = 0;
  const auto [end, error] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
  return error == std::errc() && end == it->second.data() + it->second.size() ? value : fallback;
}

std::string_view ValueOr(const std::map<std::string_view, std::string_view>& pairs, std::string_view key) {
  const auto it = pairs.find(key);
  return it == pairs.end() ? std::string_view() : it->second;
}

std::optional<GemmCall> GemmFacts(const std::map<std::string_view, std::string_view>& fields) {
  if (!fields.contains("Adesc") || !fields.contains("Ddesc")) return std::nullopt;
  const auto a = ParsePairs(ValueOr(fields, "Adesc"));
  const auto b = ParsePairs(ValueOr(fields, "Bdesc"));
  const auto c = ParsePairs(ValueOr(fields, "Cdesc"));
  const auto d = ParsePairs(ValueOr(fields, "Ddesc"));
  const auto compute = ParsePairs(ValueOr(fields, "computeDesc"));
  GemmCall gemm;
  gemm.a_type = ParseDataType(ValueOr(a, "type"));
  gemm.b_type = ParseDataType(ValueOr(b, "type"));
  gemm.c_type = ParseDataType(ValueOr(c, "type"));
  gemm.d_type = ParseDataType(ValueOr(d, "type"));
  gemm.compute_type = ParseComputeType(ValueOr(compute, "computeType"));
  gemm.transpose_a = ValueOr(compute, "transa") == "OP_T" || ValueOr(compute, "transa") == "OP_C";
  gemm.transpose_b = ValueOr(compute, "transb") == "OP_T" || ValueOr(compute, "transb") == "OP_C";
  gemm.m = IntegerOr(d, "rows", 0);
  gemm.n = IntegerOr(d, "cols", 0);
  gemm.k = IntegerOr(a, gemm.transpose_a ? "rows" : "cols", 0);
  gemm.batch_count = IntegerOr(d, "batchCount", 1);
  return gemm;
}

}  // namespace

CublasLtLine ParseCublasLtLine(std::string_view line, LibraryCall& call) {
  std::string_view rest = line;
  std::optional<std::string_view> tag = TakeBracketed(rest);
  if (tag && *tag != "cublasLt") tag = TakeBracketed(rest);  // the timestamp of newer builds
  if (!tag || *tag != "cublasLt") return CublasLtLine::kUnknown;
  const std::optional<std::string_view> pid = TakeBracketed(rest);
  const std::optional<std::string_view> level = TakeBracketed(rest);
  const std::optional<std::string_view> function = TakeBracketed(rest);
  if (!pid || !level || !function) return CublasLtLine::kUnknown;
  if (*level != "Trace") return CublasLtLine::kOtherLevel;
  call = LibraryCall();
  call.library = Library::kCublasLt;
  call.function = std::string(*function);
  call.pid = static_cast<uint32_t>(ParseHandle(*pid).value_or(0));
  const auto fields = ParsePairs(rest);
  if (const auto stream = fields.find("stream"); stream != fields.end()) call.stream = ParseHandle(stream->second);
  call.gemm = GemmFacts(fields);
  return CublasLtLine::kCall;
}

namespace {

class CublasLtLogParser : public LogParser {
 public:
  CublasLtLogParser() { log_.library = Library::kCublasLt; }

  void Add(std::string_view line) override {
    ++log_.lines;
    LibraryCall call;
    switch (ParseCublasLtLine(line, call)) {
      case CublasLtLine::kCall:
        call.line = log_.lines;
        log_.calls.push_back(std::move(call));
        break;
      case CublasLtLine::kOtherLevel:
        break;
      case CublasLtLine::kUnknown:
        if (!IsBlank(line)) ++log_.unknown_lines;
        break;
    }
  }

  LibraryLog Finish() override { return std::move(log_); }

 private:
  LibraryLog log_;
};

}  // namespace

std::unique_ptr<LogParser> NewCublasLtLogParser() { return std::make_unique<CublasLtLogParser>(); }

}  // namespace ampprof::liblogs
