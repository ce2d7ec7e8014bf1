#include "collectors/liblogs/library_call.h"

#include <gtest/gtest.h>

namespace ampprof::liblogs {
namespace {

TEST(LibraryCall, DataTypesInEachLibrarysSpelling) {
  EXPECT_EQ(ParseDataType("R_16BF"), DataType::kBFloat16);
  EXPECT_EQ(ParseDataType("R_8F_E5M2"), DataType::kFp8E5M2);
  EXPECT_EQ(ParseDataType("CUDA_R_16F(2)"), DataType::kFloat16);
  EXPECT_EQ(ParseDataType("CUDNN_DATA_BFLOAT16 (9)"), DataType::kBFloat16);
  EXPECT_EQ(ParseDataType("CUDNN_DATA_FP8_E4M3 (12)"), DataType::kFp8E4M3);
  EXPECT_EQ(ParseDataType("R_4F_E2M1"), DataType::kOther);
  EXPECT_EQ(ParseDataType(""), DataType::kUnknown);
}

TEST(LibraryCall, ComputeTypes) {
  EXPECT_EQ(ParseComputeType("COMPUTE_32F_FAST_TF32"), ComputeType::kFloat32FastTf32);
  EXPECT_EQ(ParseComputeType("CUBLAS_COMPUTE_32F(68)"), ComputeType::kFloat32);
  EXPECT_EQ(ParseComputeType("CUBLAS_COMPUTE_16F(64)"), ComputeType::kFloat16);
  EXPECT_EQ(ParseComputeType("CUDNN_DATA_FLOAT (0)"), ComputeType::kFloat32);
  EXPECT_EQ(ParseComputeType("CUDA_R_32F(0)"), ComputeType::kFloat32) << "pre-11 cublasGemmEx";
}

TEST(LibraryCall, LayoutFromStrides) {
  auto layout = [](std::vector<int64_t> dims, std::vector<int64_t> strides) {
    TensorDescriptor tensor;
    tensor.dims = std::move(dims);
    tensor.strides = std::move(strides);
    return tensor.layout();
  };
  EXPECT_EQ(layout({1, 1152, 27, 27}, {839808, 1, 31104, 1152}), Layout::kNhwc);  // CUPTI-NOTES §5.3
  EXPECT_EQ(layout({8, 64, 56, 56}, {200704, 3136, 56, 1}), Layout::kNchw);
  EXPECT_EQ(layout({8, 1, 56, 56}, {3136, 3136, 56, 1}), Layout::kUnknown) << "one channel: both fit";
  EXPECT_EQ(layout({8, 64, 56, 56}, {0, 0, 0, 0}), Layout::kUnknown) << "a broadcast";
  EXPECT_EQ(layout({8, 64, 4, 56, 56}, {802816, 1, 200704, 3584, 64}), Layout::kNhwc) << "NDHWC";
  EXPECT_EQ(layout({64, 128}, {128, 1}), Layout::kUnknown) << "not a 4-d or 5-d tensor";
}

TEST(LibraryCall, GroupsNeedBothChannelCounts) {
  ConvolutionCall conv;
  EXPECT_EQ(conv.groups(), 0);
  conv.x.dims = {8, 64, 56, 56};
  conv.w.dims = {128, 16, 3, 3};
  EXPECT_EQ(conv.groups(), 4);
  conv.w.dims = {128, 48, 3, 3};
  EXPECT_EQ(conv.groups(), 0) << "48 does not divide 64: not a grouping";
}

}  // namespace
}  // namespace ampprof::liblogs
