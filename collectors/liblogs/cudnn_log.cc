#include "collectors/liblogs/cudnn_log.h"

#include <charconv>
#include <string>

#include "collectors/liblogs/api_log_blocks.h"

namespace ampprof::liblogs {
namespace {

int64_t IntegerOr(std::string_view text, int64_t fallback) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : fallback;
}

// The descriptor parameter `name` of a legacy call: a tensor (dataType, dimA, strideA) or a filter
// (dataType, dimA, format).
TensorDescriptor TensorAt(const ApiBlock& block, int at) {
  TensorDescriptor tensor;
  if (at < 0) return tensor;
  // Legacy descriptors say dataType, backend tensors say type.
  const std::string_view type = block.Find("dataType", at) >= 0 ? block.Value("dataType", at) : block.Value("type", at);
  tensor.type = ParseDataType(type);
  tensor.dims = ParseIntegerList(block.Value("dimA", at)).value_or(std::vector<int64_t>());
  tensor.strides = ParseIntegerList(block.Value("strideA", at)).value_or(std::vector<int64_t>());
  const std::string_view format = block.Value("format", at);
  if (format.starts_with("CUDNN_TENSOR_NCHW")) tensor.format = Layout::kNchw;
  if (format.starts_with("CUDNN_TENSOR_NHWC")) tensor.format = Layout::kNhwc;
  tensor.uid = IntegerOr(block.Value("uid", at), -1);
  return tensor;
}

MathType ParseMathType(std::string_view text) {
  if (text.starts_with("CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION")) return MathType::kTensorOpAllowConversion;
  if (text.starts_with("CUDNN_TENSOR_OP_MATH")) return MathType::kTensorOp;
  if (text.starts_with("CUDNN_DEFAULT_MATH")) return MathType::kDefault;
  if (text.starts_with("CUDNN_FMA_MATH")) return MathType::kFma;
  return MathType::kUnknown;
}

std::optional<ConvolutionDirection> LegacyConvolution(std::string_view function) {
  if (function == "cudnnConvolutionForward" || function == "cudnnConvolutionBiasActivationForward") {
    return ConvolutionDirection::kForward;
  }
  if (function == "cudnnConvolutionBackwardData") return ConvolutionDirection::kBackwardData;
  if (function == "cudnnConvolutionBackwardFilter") return ConvolutionDirection::kBackwardFilter;
  return std::nullopt;
}

ConvolutionCall LegacyConvolutionFacts(const ApiBlock& block, ConvolutionDirection direction) {
  ConvolutionCall convolution;
  convolution.direction = direction;
  switch (direction) {
    case ConvolutionDirection::kForward:
      convolution.x = TensorAt(block, block.Find("xDesc"));
      convolution.w = TensorAt(block, block.Find("wDesc"));
      convolution.y = TensorAt(block, block.Find("yDesc"));
      break;
    case ConvolutionDirection::kBackwardData:
      convolution.x = TensorAt(block, block.Find("dxDesc"));
      convolution.w = TensorAt(block, block.Find("wDesc"));
      convolution.y = TensorAt(block, block.Find("dyDesc"));
      break;
    case ConvolutionDirection::kBackwardFilter:
      convolution.x = TensorAt(block, block.Find("xDesc"));
      convolution.w = TensorAt(block, block.Find("dwDesc"));
      convolution.y = TensorAt(block, block.Find("dyDesc"));
      break;
  }
  const int conv = block.Find("convDesc");
  if (conv >= 0) {
    convolution.compute_type = ParseComputeType(block.Value("dataType", conv));
    convolution.math_type = ParseMathType(block.Value("mathType", conv));
    convolution.group_count = IntegerOr(block.Value("groupCount", conv), 0);
  }
  return convolution;
}

// "handle: type=cudnnHandle_t; streamId=0x5581fd0 ..." (legacy calls name the stream in the handle line).
std::optional<uint64_t> StreamOfHandle(const ApiBlock& block) {
  const int at = block.Find("handle");
  if (at < 0) return std::nullopt;
  const std::string_view text = block.fields[static_cast<size_t>(at)].text;
  const size_t key = text.find("streamId=");
  if (key == std::string_view::npos) return std::nullopt;
  std::string_view value = text.substr(key + 9);
  value = value.substr(0, value.find_first_of(" ;"));
  return ParseHandle(value);
}

// Every backend tensor descriptor dumped in the block, at any depth, with a uid and dimensions.
void CollectBackendTensors(const ApiBlock& block, std::vector<TensorDescriptor>& tensors) {
  for (size_t i = 0; i < block.fields.size(); ++i) {
    const BlockField& field = block.fields[i];
    if (!field.has_members || field.type != "CUDNN_BACKEND_TENSOR_DESCRIPTOR") continue;
    TensorDescriptor tensor = TensorAt(block, static_cast<int>(i));
    if (tensor.uid < 0 || tensor.dims.empty()) continue;  // not set yet (descriptors are built in steps)
    bool seen = false;
    for (const TensorDescriptor& known : tensors) {
      seen = seen || (known.uid == tensor.uid && known.dims == tensor.dims && known.strides == tensor.strides &&
                      known.type == tensor.type);
    }
    if (!seen) tensors.push_back(std::move(tensor));
  }
}

class CudnnLogParser : public BlockLogParser {
 public:
  CudnnLogParser() : BlockLogParser(Library::kCudnn) {}

 private:
  void Take(const ApiBlock& block) override {
    if (block.severity != 'I') return;
    CollectBackendTensors(block, log_.backend_tensors);
    const std::optional<ConvolutionDirection> legacy = LegacyConvolution(block.function);
    if (!legacy && block.function != "cudnnBackendExecute") return;
    LibraryCall call;
    call.library = Library::kCudnn;
    call.function = block.function;
    call.pid = block.pid;
    call.tid = block.tid;
    call.stream = block.stream ? block.stream : StreamOfHandle(block);
    call.line = block.line;
    if (legacy) call.convolution = LegacyConvolutionFacts(block, *legacy);
    log_.calls.push_back(std::move(call));
  }
};

}  // namespace

std::unique_ptr<LogParser> NewCudnnLogParser() { return std::make_unique<CudnnLogParser>(); }

}  // namespace ampprof::liblogs
