#include "collectors/liblogs/cublaslt_log.h"

#include <gtest/gtest.h>

#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {
namespace {

// Real lines from public sources (CUPTI-NOTES §5.1 and public issues): TF32 torch.matmul in FP32 (no
// timestamp, older build), an FP16 GEMM from TensorFlow/XLA with a timestamp and a stream, and an mxfp8
// GEMM with a transposed B (joined from the lines a README wrapped).
constexpr const char* kTf32Line =
    "[cublasLt][3794797][Trace][cublasLtSSSMatmul] A=0X400380DD0A00 Adesc=[type=R_32F rows=1000 cols=1000 ld=1000] "
    "B=0X400380DD0A00 Bdesc=[type=R_32F rows=1000 cols=1000 ld=1000] C=0X400381000000 Cdesc=[type=R_32F rows=1000 "
    "cols=1000 ld=1000] D=0X400381000000 Ddesc=[type=R_32F rows=1000 cols=1000 ld=1000] "
    "computeDesc=[computeType=COMPUTE_32F_FAST_TF32 scaleType=R_32F smCountTarget=108] algo=[algoId=21 "
    "tile=MATMUL_TILE_128x128 stages=MATMUL_STAGES_32x5] workSpace=0X0 workSpaceSizeInBytes=0 beta=0 outOfPlace=0 "
    "stream=0X0";
constexpr const char* kFp16Line =
    "[2023-04-07 04:57:13][cublasLt][8291][Trace][cublasLtMatmul] A=0X7F8EB6002300 Adesc=[type=R_16F rows=32 "
    "cols=16 ld=32] B=0X7F8EB6001B00 Bdesc=[type=R_16F rows=16 cols=64 ld=16] C=0X7F8EB6003200 Cdesc=[type=R_16F "
    "rows=32 cols=64 ld=32] D=0X7F8EB6003200 Ddesc=[type=R_16F rows=32 cols=64 ld=32] "
    "computeDesc=[computeType=COMPUTE_32F scaleType=R_32F] algo=[algoId=21 tile=MATMUL_TILE_32x32 "
    "stages=MATMUL_STAGES_64x1] workSpace=0X0 workSpaceSizeInBytes=0 beta=? outOfPlace=0 stream=0X7EB04D0";
constexpr const char* kFp8Line =
    "[2025-11-03 19:02:38][cublasLt][557785][Trace][cublasLtMatmul] A=0X736CB315E800 Adesc=[type=R_8F_E4M3 "
    "rows=64 cols=1088 ld=64] B=0X736C9B644000 Bdesc=[type=R_8F_E4M3 rows=128 cols=1088 ld=128] C=0X0 "
    "Cdesc=[type=R_16BF rows=64 cols=128 ld=64] D=0X736CB30A4400 Ddesc=[type=R_16BF rows=64 cols=128 ld=64] "
    "computeDesc=[computeType=COMPUTE_32F scaleType=R_32F transb=OP_T aScalePointer=0x736cb30b4c00 "
    "bScalePointer=0x736cb30ba200 aScaleMode=VEC32_UE8M0 bScaleMode=VEC32_UE8M0] algo=[algoId=66 "
    "tile=MATMUL_TILE_128x128 stages=MATMUL_STAGES_128xAUTO customOption=3 clusterShape=CLUSTER_SHAPE_1x1x1] "
    "workSpace=0X0 workSpaceSizeInBytes=0 beta=0 outOfPlace=1 stream=0X0";
// An Api-level line (heuristics query, launches nothing), from CUPTI-NOTES §5.1 (shortened there).
constexpr const char* kApiLine =
    "[2025-09-10 17:32:51][cublasLt][133267][Api][cublasLtMatmulAlgoGetHeuristic] Adesc=[type=R_8F_E4M3 rows=128 "
    "cols=1088 ld=128] computeDesc=[computeType=COMPUTE_32F scaleType=R_32F transb=OP_T]";

TEST(CublasLtLog, ReadsATf32GemmWithoutTimestamp) {
  LibraryCall call;
  ASSERT_EQ(ParseCublasLtLine(kTf32Line, call), CublasLtLine::kCall);
  EXPECT_EQ(call.library, Library::kCublasLt);
  EXPECT_EQ(call.function, "cublasLtSSSMatmul");
  EXPECT_EQ(call.pid, 3794797u);
  EXPECT_EQ(call.tid, 0u) << "cuBLASLt lines carry no thread";
  ASSERT_TRUE(call.stream.has_value());
  EXPECT_EQ(*call.stream, 0u);
  ASSERT_TRUE(call.gemm.has_value());
  EXPECT_EQ(call.gemm->a_type, DataType::kFloat32);
  EXPECT_EQ(call.gemm->d_type, DataType::kFloat32);
  EXPECT_EQ(call.gemm->compute_type, ComputeType::kFloat32FastTf32);
  EXPECT_EQ(call.gemm->m, 1000);
  EXPECT_EQ(call.gemm->n, 1000);
  EXPECT_EQ(call.gemm->k, 1000);
  EXPECT_FALSE(call.gemm->transpose_a);
}

TEST(CublasLtLog, ReadsDimensionsTypesAndStreamOfAnFp16Gemm) {
  LibraryCall call;
  ASSERT_EQ(ParseCublasLtLine(kFp16Line, call), CublasLtLine::kCall);
  EXPECT_EQ(call.pid, 8291u);
  EXPECT_EQ(call.stream, 0x7EB04D0u);
  ASSERT_TRUE(call.gemm.has_value());
  EXPECT_EQ(call.gemm->a_type, DataType::kFloat16);
  EXPECT_EQ(call.gemm->b_type, DataType::kFloat16);
  EXPECT_EQ(call.gemm->c_type, DataType::kFloat16);
  EXPECT_EQ(call.gemm->compute_type, ComputeType::kFloat32);
  EXPECT_EQ(call.gemm->m, 32);
  EXPECT_EQ(call.gemm->n, 64);
  EXPECT_EQ(call.gemm->k, 16) << "A is m x k = 32 x 16, not transposed";
  EXPECT_EQ(call.gemm->batch_count, 1);
}

TEST(CublasLtLog, TransposesComeFromTheComputeDescriptor) {
  LibraryCall call;
  ASSERT_EQ(ParseCublasLtLine(kFp8Line, call), CublasLtLine::kCall);
  ASSERT_TRUE(call.gemm.has_value());
  EXPECT_FALSE(call.gemm->transpose_a);
  EXPECT_TRUE(call.gemm->transpose_b);
  EXPECT_EQ(call.gemm->a_type, DataType::kFp8E4M3);
  EXPECT_EQ(call.gemm->d_type, DataType::kBFloat16);
  EXPECT_EQ(call.gemm->m, 64);
  EXPECT_EQ(call.gemm->n, 128);
  EXPECT_EQ(call.gemm->k, 1088);
}

TEST(CublasLtLog, KTakesATransposedAsRows) {
  // The same line with A transposed: A is stored k x m, so k is its row count.
  std::string line = kFp16Line;
  line.replace(line.find("scaleType=R_32F]"), 16, "scaleType=R_32F transa=OP_T]");
  LibraryCall call;
  ASSERT_EQ(ParseCublasLtLine(line, call), CublasLtLine::kCall);
  EXPECT_TRUE(call.gemm->transpose_a);
  EXPECT_EQ(call.gemm->k, 32);
}

TEST(CublasLtLog, OtherLevelsLaunchNothingAndForeignLinesAreCounted) {
  const std::string text = std::string(kApiLine) + "\n" + kFp16Line + "\r\n\nnot a cuBLASLt line\n" +
                           "[cublasLt][12][Trace]\n" + kTf32Line;  // a torn line: counted, not fatal
  const LibraryLog log = ParseLibraryLog(Library::kCublasLt, text);
  ASSERT_EQ(log.calls.size(), 2u);
  EXPECT_EQ(log.calls[0].line, 2u);
  EXPECT_EQ(log.calls[1].line, 6u);
  EXPECT_EQ(log.lines, 6u);
  EXPECT_EQ(log.unknown_lines, 2u);
}

}  // namespace
}  // namespace ampprof::liblogs
