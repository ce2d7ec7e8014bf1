#include "analyzers/facts/op_description.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace ampprof::analyzers {
namespace {

// Bounds on what a label may make us hold: real ops have a few inputs of at most 8 dimensions, and a
// label can hold any text (an .ampt file is input ampprof does not control).
constexpr size_t kMaxInputs = 256;
constexpr size_t kMaxDims = 16;

// A cursor over text that never reads past its end.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Take(char c) {
    SkipSpace();
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  // An integer (JSON numbers of shapes are integers; "68.0" is read as 68).
  bool Integer(int64_t& out) {
    SkipSpace();
    bool negative = false;
    if (Peek() == '-') {
      negative = true;
      ++pos_;
    }
    const size_t begin = pos_;
    int64_t value = 0;
    while (!AtEnd() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (value > (INT64_MAX - 9) / 10) return false;
      value = value * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == begin) return false;
    if (Peek() == '.') {  // a fraction: skip it
      ++pos_;
      while (!AtEnd() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    }
    out = negative ? -value : value;
    return true;
  }
  // A JSON string; escapes other than \" and \\ are kept as written.
  bool String(std::string& out) {
    SkipSpace();
    if (Peek() != '"') return false;
    ++pos_;
    out.clear();
    while (!AtEnd() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == '"' || text_[pos_ + 1] == '\\')) {
        ++pos_;
      }
      out.push_back(text_[pos_++]);
    }
    if (AtEnd()) return false;
    ++pos_;
    return true;
  }
  // Skips one JSON value (number, string, literal, or a bracketed value with its nesting).
  bool SkipValue() {
    SkipSpace();
    if (Peek() == '"') {
      std::string ignored;
      return String(ignored);
    }
    if (Peek() == '[' || Peek() == '{') {
      int depth = 0;
      while (!AtEnd()) {
        const char c = text_[pos_];
        if (c == '"') {
          std::string ignored;
          if (!String(ignored)) return false;
          continue;
        }
        ++pos_;
        if (c == '[' || c == '{') ++depth;
        if (c == ']' || c == '}') {
          if (--depth == 0) return true;
        }
      }
      return false;
    }
    const size_t begin = pos_;
    while (!AtEnd() && text_[pos_] != ',' && text_[pos_] != ']' && text_[pos_] != '}') ++pos_;
    return pos_ > begin;
  }
  size_t position() const { return pos_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// One element of "Input Dims": a shape, a list of shapes, or something else.
bool ParseInput(Scanner& in, OpInput& input) {
  in.SkipSpace();
  if (in.Peek() != '[') return in.SkipValue();
  in.Take('[');
  in.SkipSpace();
  if (in.Peek() == '[') {  // a list of tensors
    input.tensor_list = true;
    for (;;) {
      if (!in.SkipValue()) return false;
      if (in.Take(']')) return true;
      if (!in.Take(',')) return false;
    }
  }
  if (in.Take(']')) return true;
  for (;;) {
    int64_t dim = 0;
    if (!in.Integer(dim)) return false;
    if (input.dims.size() < kMaxDims) input.dims.push_back(dim);
    if (in.Take(']')) return true;
    if (!in.Take(',')) return false;
  }
}

// The text of the JSON value after `"key":` in an object's text, or "".
std::string_view MemberValue(std::string_view object, std::string_view key) {
  const std::string quoted = fmt::format("\"{}\"", key);
  const size_t at = object.find(quoted);
  if (at == std::string_view::npos) return {};
  Scanner in(object.substr(at + quoted.size()));
  if (!in.Take(':')) return {};
  in.SkipSpace();
  const size_t begin = in.position();
  if (!in.SkipValue()) return {};
  return object.substr(at + quoted.size()).substr(begin, in.position() - begin);
}

// The digits after `key` in `text` (after `=` and spaces), as a sequence number.
uint32_t NumberAfter(std::string_view text, std::string_view key) {
  const size_t at = text.find(key);
  if (at == std::string_view::npos) return model::kNoSequence;
  Scanner in(text.substr(at + key.size()));
  in.Take('=');
  int64_t value = 0;
  if (!in.Integer(value) || value < 0) return model::kNoSequence;
  return static_cast<uint32_t>(static_cast<uint64_t>(value));
}

bool EndsWithBackwardNode(std::string_view name) {
  while (!name.empty() && name.back() >= '0' && name.back() <= '9') name.remove_suffix(1);
  return name.ends_with("Backward");
}

}  // namespace

bool OpDescription::HasShapes() const {
  return std::any_of(inputs.begin(), inputs.end(), [](const OpInput& input) { return !input.dims.empty(); });
}

std::string OpDescription::ShapesText() const {
  std::string text;
  for (const OpInput& input : inputs) {
    if (input.dims.empty()) continue;
    if (!text.empty()) text += ", ";
    text += fmt::format("[{}]", fmt::join(input.dims, ", "));
  }
  return text;
}

std::string_view OpDescription::FirstTensorType() const {
  for (const OpInput& input : inputs) {
    if (!input.dims.empty() && !input.type.empty()) return input.type;
  }
  return {};
}

std::optional<std::vector<OpInput>> ParseInputDims(std::string_view json) {
  Scanner in(json);
  if (!in.Take('[')) return std::nullopt;
  std::vector<OpInput> inputs;
  if (in.Take(']')) return inputs;
  for (;;) {
    OpInput input;
    if (!ParseInput(in, input)) return std::nullopt;
    if (inputs.size() < kMaxInputs) inputs.push_back(std::move(input));
    if (in.Take(']')) return inputs;
    if (!in.Take(',')) return std::nullopt;
  }
}

std::optional<std::vector<std::string>> ParseInputTypes(std::string_view json) {
  Scanner in(json);
  if (!in.Take('[')) return std::nullopt;
  std::vector<std::string> types;
  if (in.Take(']')) return types;
  for (;;) {
    std::string type;
    in.SkipSpace();
    if (in.Peek() == '"') {
      if (!in.String(type)) return std::nullopt;
    } else if (!in.SkipValue()) {
      return std::nullopt;
    }
    if (types.size() < kMaxInputs) types.push_back(std::move(type));
    if (in.Take(']')) return types;
    if (!in.Take(',')) return std::nullopt;
  }
}

bool IsBackwardOpName(std::string_view name) {
  return name.starts_with("autograd::engine::evaluate_function:") || name.ends_with("AccumulateGrad") ||
         EndsWithBackwardNode(name);
}

OpDescription ParseNvtxOpName(std::string_view text) {
  static constexpr std::array<std::string_view, 5> kKeys = {", seq = ", ", stashed seq", ", op_id = ",
                                                            ", sizes = ", ", input_op_ids = "};
  size_t name_end = text.size();
  for (std::string_view key : kKeys) name_end = std::min(name_end, text.find(key));
  OpDescription op;
  op.name = std::string(text.substr(0, name_end));
  const std::string_view rest = text.substr(name_end);
  op.sequence = NumberAfter(rest, ", seq");
  if (op.sequence == model::kNoSequence) op.sequence = NumberAfter(rest, "stashed seq");
  if (const size_t sizes = rest.find(", sizes = "); sizes != std::string_view::npos) {
    std::string_view value = rest.substr(sizes + 10);
    if (const size_t next = value.find(", input_op_ids = "); next != std::string_view::npos) {
      value = value.substr(0, next);
    }
    if (auto inputs = ParseInputDims(value)) op.inputs = std::move(*inputs);
  }
  op.backward = IsBackwardOpName(op.name);
  return op;
}

std::optional<OpDescription> DescribeOp(const model::TraceModel& model, const model::RangeLabel& label) {
  const std::string_view name = model.Text(label.name);
  if (label.category == records::RangeCategory::kCpuOp) {
    OpDescription op;
    op.name = std::string(name);
    const std::string_view args = model.Text(label.args);
    if (!args.empty()) {
      auto inputs = ParseInputDims(MemberValue(args, "Input Dims"));
      auto types = ParseInputTypes(MemberValue(args, "Input type"));
      if (inputs) op.inputs = std::move(*inputs);
      if (types) {
        if (op.inputs.size() < types->size()) op.inputs.resize(std::min(types->size(), kMaxInputs));
        for (size_t i = 0; i < types->size() && i < op.inputs.size(); ++i) op.inputs[i].type = (*types)[i];
      }
    }
    int64_t forward_thread = 0;
    const std::string_view thread = MemberValue(args, "Fwd thread id");
    Scanner in(thread);
    op.backward = (!thread.empty() && in.Integer(forward_thread) && forward_thread > 0) || IsBackwardOpName(name);
    return op;
  }
  if (label.category != records::RangeCategory::kNvtx || !model.Text(label.domain).empty()) return std::nullopt;
  OpDescription op = ParseNvtxOpName(name);
  const bool emit_nvtx = op.name.size() != name.size();
  if (!emit_nvtx && !name.starts_with("aten::")) return std::nullopt;
  return op;
}

}  // namespace ampprof::analyzers
