#include "collectors/liblogs/cudnn_log.h"

#include <gtest/gtest.h>

#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {
namespace {

// Real cuDNN 9.12 blocks as run under PyTorch 2.10 (pytorch/pytorch issue #167242): a finalize status,
// and an attribute set on a channels-last FP32 tensor (uid 119).
constexpr const char* kBackendBlocks =
    "I! CuDNN (v91200 46) function cudnnBackendFinalize() called:\n"
    "i!     status: type=cudnnStatus_t; val=CUDNN_STATUS_SUCCESS (0);\n"
    "i! Time: 2025-11-14T23:49:41.702901 (0d+0h+1m+39s since start)\n"
    "i! Process=3600; Thread=10156; GPU=NULL; Handle=NULL; StreamId=NULL.\n"
    "\n"
    "\n"
    "I! CuDNN (v91200 46) function cudnnBackendSetAttribute() called:\n"
    "i!     descriptor: type=CUDNN_BACKEND_TENSOR_DESCRIPTOR:\n"
    "i!         type: type=cudnnDataType_t; val=CUDNN_DATA_FLOAT (0);\n"
    "i!         nbDims: type=int; val=4;\n"
    "i!         dimA: type=int; val=[1152,3,14,14];\n"
    "i!         strideA: type=int; val=[588,1,42,3];\n"
    "i!         uid: type=int64_t; val=119;\n"
    "i!         alignmentInBytes: type=int64_t; val=1;\n"
    "i!         isVirtual: type=bool; val=false;\n"
    "i!         isByVal: type=bool; val=false;\n"
    "i!     attributeName: type=cudnnBackendAttributeName_t; val=CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT (900);\n"
    "i!     attributeType: type=cudnnBackendAttributeType_t; val=CUDNN_TYPE_INT64 (3);\n"
    "i!     elementCount: type=int64_t; val=1;\n"
    "i!     [0]: type=int64_t; val=32;\n"
    "i! Time: 2025-11-14T23:49:41.702901 (0d+0h+1m+39s since start)\n"
    "i! Process=3600; Thread=10156; GPU=NULL; Handle=NULL; StreamId=NULL.\n";

// A tensor descriptor still being built (cuDNN 8.2.4, NVIDIA/cudnn-frontend issue #39): no uid yet.
constexpr const char* kUnfinishedTensor =
    "I! CuDNN (v8204) function cudnnBackendSetAttribute() called:\n"
    "i!     descriptor: type=CUDNN_BACKEND_TENSOR_DESCRIPTOR:\n"
    "i!         type: type=cudnnDataType_t; val=CUDNN_DATA_FLOAT (0);\n"
    "i!         nbDims: type=int; val=-1;\n"
    "i!         dimA: type=int; val=[];\n"
    "i!         strideA: type=int; val=[];\n"
    "i!         uid: type=int64_t; val=-1;\n"
    "i!         alignmentInBytes: type=int64_t; val=1;\n"
    "i!         isVirtual: type=bool; val=false;\n"
    "i!     attributeName: type=cudnnBackendAttributeName_t; val=CUDNN_ATTR_TENSOR_DATA_TYPE (901);\n"
    "i!     attributeType: type=cudnnBackendAttributeType_t; val=CUDNN_TYPE_DATA_TYPE (1);\n"
    "i!     elementCount: type=int64_t; val=1;\n"
    "i!     [0]: type=cudnnDataType_t; val=CUDNN_DATA_FLOAT (0);\n"
    "i! Time: 2022-11-25T08:47:46.254362 (0d+0h+0m+0s since start)\n"
    "i! Process=391; Thread=391; GPU=NULL; Handle=NULL; StreamId=NULL.\n";

// A legacy forward convolution as PyTorch issued it (cuDNN 8.0.5, microsoft/onnxruntime PR #7348). The
// real block is quoted up to the convolution's strideA; the rest (dilationA, groupCount, yDesc and the
// trailer) follows the same format, with the values of this convolution.
constexpr const char* kLegacyForward =
    "I! CuDNN (v8005) function cudnnConvolutionForward() called:\n"
    "i!     handle: type=cudnnHandle_t; streamId=(nil) (defaultStream);\n"
    "i!     alpha: type=CUDNN_DATA_FLOAT; val=1.000000;\n"
    "i!     xDesc: type=cudnnTensorDescriptor_t:\n"
    "i!         dataType: type=cudnnDataType_t; val=CUDNN_DATA_HALF (2);\n"
    "i!         nbDims: type=int; val=4;\n"
    "i!         dimA: type=int; val=[32,896,1,832];\n"
    "i!         strideA: type=int; val=[745472,832,832,1];\n"
    "i!     xData: location=dev; addr=0x7f1f48d80000;\n"
    "i!     wDesc: type=cudnnFilterDescriptor_t:\n"
    "i!         dataType: type=cudnnDataType_t; val=CUDNN_DATA_HALF (2);\n"
    "i!         vect: type=int; val=0;\n"
    "i!         nbDims: type=int; val=4;\n"
    "i!         dimA: type=int; val=[1792,896,1,19];\n"
    "i!         format: type=cudnnTensorFormat_t; val=CUDNN_TENSOR_NCHW (0);\n"
    "i!     wData: location=dev; addr=0x7f1fc4000000;\n"
    "i!     convDesc: type=cudnnConvolutionDescriptor_t:\n"
    "i!         mode: type=cudnnConvolutionMode_t; val=CUDNN_CROSS_CORRELATION (1);\n"
    "i!         dataType: type=cudnnDataType_t; val=CUDNN_DATA_FLOAT (0);\n"
    "i!         mathType: type=cudnnMathType_t; val=CUDNN_TENSOR_OP_MATH (1);\n"
    "i!         reorderType: type=int; val=0;\n"
    "i!         arrayLength: type=int; val=2;\n"
    "i!         padA: type=int; val=[0,9];\n"
    "i!         strideA: type=int; val=[1,2];\n"
    "i!         dilationA: type=int; val=[1,1];\n"
    "i!         groupCount: type=int; val=1;\n"
    "i!     yDesc: type=cudnnTensorDescriptor_t:\n"
    "i!         dataType: type=cudnnDataType_t; val=CUDNN_DATA_HALF (2);\n"
    "i!         nbDims: type=int; val=4;\n"
    "i!         dimA: type=int; val=[32,1792,1,416];\n"
    "i!         strideA: type=int; val=[745472,416,416,1];\n"
    "i! Time: 2021-04-19T10:00:00.000000 (0d+0h+0m+1s since start)\n"
    "i! Process=7001; Thread=7002; GPU=0; Handle=0x5581fd0; StreamId=(nil) (defaultStream).\n";

TEST(CudnnLog, ReadsALegacyForwardConvolution) {
  const LibraryLog log = ParseLibraryLog(Library::kCudnn, kLegacyForward);
  EXPECT_EQ(log.unknown_lines, 0u);
  ASSERT_EQ(log.calls.size(), 1u);
  const LibraryCall& call = log.calls[0];
  EXPECT_EQ(call.library, Library::kCudnn);
  EXPECT_EQ(call.function, "cudnnConvolutionForward");
  EXPECT_EQ(call.pid, 7001u);
  EXPECT_EQ(call.tid, 7002u);
  EXPECT_EQ(call.stream, 0u) << "(nil): the legacy default stream";
  ASSERT_TRUE(call.convolution.has_value());
  const ConvolutionCall& conv = *call.convolution;
  EXPECT_EQ(conv.direction, ConvolutionDirection::kForward);
  EXPECT_EQ(conv.x.type, DataType::kFloat16);
  EXPECT_EQ(conv.x.dims, (std::vector<int64_t>{32, 896, 1, 832}));
  EXPECT_EQ(conv.x.layout(), Layout::kNchw);
  EXPECT_EQ(conv.w.dims, (std::vector<int64_t>{1792, 896, 1, 19}));
  EXPECT_EQ(conv.w.layout(), Layout::kNchw) << "a filter's layout is its format";
  EXPECT_EQ(conv.y.dims, (std::vector<int64_t>{32, 1792, 1, 416}));
  EXPECT_EQ(conv.compute_type, ComputeType::kFloat32);
  EXPECT_EQ(conv.math_type, MathType::kTensorOp);
  EXPECT_EQ(conv.group_count, 1);
  EXPECT_EQ(conv.groups(), 1);
  EXPECT_TRUE(conv.x.strides.size() == 4 && conv.w.strides.empty()) << "the convolution's own strideA is not x's";
}

TEST(CudnnLog, GroupsOfADepthwiseConvolution) {
  std::string block = kLegacyForward;
  auto replace = [&](std::string_view from, std::string_view to) { block.replace(block.find(from), from.size(), to); };
  replace("dimA: type=int; val=[1792,896,1,19]", "dimA: type=int; val=[896,1,1,19]");
  replace("groupCount: type=int; val=1", "groupCount: type=int; val=896");
  const LibraryLog log = ParseLibraryLog(Library::kCudnn, block);
  ASSERT_EQ(log.calls.size(), 1u);
  EXPECT_EQ(log.calls[0].convolution->groups(), 896);
  ConvolutionCall without_count = *log.calls[0].convolution;
  without_count.group_count = 0;
  EXPECT_EQ(without_count.groups(), 896) << "input channels over filter channels: 896 / 1";
}

TEST(CudnnLog, CollectsBackendTensorsWithTheirLayout) {
  const LibraryLog log = ParseLibraryLog(Library::kCudnn, std::string(kUnfinishedTensor) + kBackendBlocks);
  EXPECT_TRUE(log.calls.empty()) << "descriptors are set up, nothing is executed";
  EXPECT_EQ(log.unknown_lines, 0u);
  ASSERT_EQ(log.backend_tensors.size(), 1u) << "the unfinished tensor has no uid yet";
  const TensorDescriptor& tensor = log.backend_tensors[0];
  EXPECT_EQ(tensor.uid, 119);
  EXPECT_EQ(tensor.type, DataType::kFloat32);
  EXPECT_EQ(tensor.dims, (std::vector<int64_t>{1152, 3, 14, 14}));
  EXPECT_EQ(tensor.layout(), Layout::kNhwc) << "channel stride 1: channels_last";
}

TEST(CudnnLog, BackendExecutionsAreCallsWithTheirThreadAndStream) {
  // The header and trailer formats of cuDNN 9; an execute's own parameters are not read.
  const LibraryLog log = ParseLibraryLog(Library::kCudnn,
                                         "I! CuDNN (v91200 46) function cudnnBackendExecute() called:\n"
                                         "i!     handle: type=cudnnHandle_t; streamId=0x55d77f0d1e30;\n"
                                         "i! Time: 2025-11-14T23:49:42.000001 (0d+0h+1m+40s since start)\n"
                                         "i! Process=3600; Thread=10156; GPU=0; Handle=0x55d77efbb970; "
                                         "StreamId=0x55d77f0d1e30.\n");
  ASSERT_EQ(log.calls.size(), 1u);
  EXPECT_EQ(log.calls[0].function, "cudnnBackendExecute");
  EXPECT_EQ(log.calls[0].tid, 10156u);
  EXPECT_EQ(log.calls[0].stream, 0x55d77f0d1e30u);
  EXPECT_FALSE(log.calls[0].convolution.has_value());
}

TEST(CudnnLog, AcceptsTheColonTrailerAndSkipsWarnings) {
  const LibraryLog log = ParseLibraryLog(Library::kCudnn,
                                         "W! CuDNN (v90000) function cudnnBackendExecute() called:\n"
                                         "w!     Info: something to warn about\n"
                                         "I! CuDNN (v90000) function cudnnBackendExecute() called:\n"
                                         "i! Time: 2024-01-01T00:00:00.000000 (0d+0h+0m+0s since start)\n"
                                         "i! Process: 21264, Thread: 21270, GPU: 0, Handle: 0x1, StreamId: 0x2.\n");
  ASSERT_EQ(log.calls.size(), 1u) << "a warning block is not a second execution";
  EXPECT_EQ(log.calls[0].pid, 21264u);
  EXPECT_EQ(log.calls[0].tid, 21270u);
  EXPECT_EQ(log.calls[0].stream, 2u);
}

}  // namespace
}  // namespace ampprof::liblogs
