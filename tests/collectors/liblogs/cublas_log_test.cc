#include "collectors/liblogs/cublas_log.h"

#include <gtest/gtest.h>

#include "collectors/liblogs/log_parser.h"

namespace ampprof::liblogs {
namespace {

// A real cublasGemmEx block (cuBLAS 11.0, from JuliaGPU/CUDA.jl PR #417; m/n/k and transb changed so
// that each field is distinguishable), with the "Time:" and "Process=" trailer lines of cuBLAS 13.4
// (CUPTI-NOTES §5.2, whose elided thread and handle values are filled in), preceded by a call that
// launches nothing.
constexpr const char* kLog =
    "I! cuBLAS (v11.0) function cublasStatus_t cublasSetStream_v2(cublasHandle_t, cudaStream_t) called:\n"
    "i!  handle: type=cublasHandle_t; val=POINTER (IN HEX:0x0xb850e50)\n"
    "i! Time: 2026-09-11T18:38:49 elapsed from start 0.000000 minutes or 0.000000 seconds\n"
    "i!Process=14102; Thread=22711; GPU=0; Handle=POINTER (IN HEX:0x0xb850e50)\n"
    "\n"
    "I! cuBLAS (v11.0) function cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t, cublasOperation_t, "
    "int, int, int, const void*, const void*, cudaDataType_t, int, const void*, cudaDataType_t, int, const void*, "
    "void*, cudaDataType_t, int, cublasComputeType_t, cublasGemmAlgo_t) called:\n"
    "i!  handle: type=cublasHandle_t; val=POINTER (IN HEX:0x0xb850e50)\n"
    "i!  transa: type=cublasOperation_t; val=CUBLAS_OP_N(0)\n"
    "i!  transb: type=cublasOperation_t; val=CUBLAS_OP_T(1)\n"
    "i!  m: type=int; val=2\n"
    "i!  n: type=int; val=3\n"
    "i!  k: type=int; val=4\n"
    "i!  alpha: type=void; val=POINTER (IN HEX:0x0x7f55b02f3490)\n"
    "i!  A: type=void; val=POINTER (IN HEX:0x0x7f54c9230200)\n"
    "i!  Atype: type=cudaDataType_t; val=CUDA_R_16F(2)\n"
    "i!  lda: type=int; val=2\n"
    "i!  B: type=void; val=POINTER (IN HEX:0x0x7f54c9250c00)\n"
    "i!  Btype: type=cudaDataType_t; val=CUDA_R_16F(2)\n"
    "i!  ldb: type=int; val=2\n"
    "i!  beta: type=void; val=POINTER (IN HEX:0x0x7f55b02f34a0)\n"
    "i!  C: type=void; val=POINTER (IN HEX:0x0x7f54c9230400)\n"
    "i!  Ctype: type=cudaDataType_t; val=CUDA_R_32F(0)\n"
    "i!  ldc: type=int; val=2\n"
    "i!  computeType: type=cublasComputeType_t; val=CUBLAS_COMPUTE_32F(68)\n"
    "i!  algo: type=SOME TYPE; val=CUBLAS_GEMM_DEFAULT(-1)\n"
    "i! Time: 2026-09-11T18:38:49 elapsed from start 0.000000 minutes or 0.000000 seconds\n"
    "i!Process=14102; Thread=22711; GPU=0; Handle=POINTER (IN HEX:0x0xb850e50)\n";

TEST(CublasLog, ReadsAGemmExBlock) {
  const LibraryLog log = ParseLibraryLog(Library::kCublas, kLog);
  ASSERT_EQ(log.calls.size(), 1u) << "cublasSetStream launches nothing";
  const LibraryCall& call = log.calls[0];
  EXPECT_EQ(call.library, Library::kCublas);
  EXPECT_EQ(call.function, "cublasGemmEx");
  EXPECT_EQ(call.line, 6u);
  EXPECT_EQ(call.pid, 14102u);
  EXPECT_EQ(call.tid, 22711u);
  ASSERT_TRUE(call.gemm.has_value());
  EXPECT_EQ(call.gemm->m, 2);
  EXPECT_EQ(call.gemm->n, 3);
  EXPECT_EQ(call.gemm->k, 4);
  EXPECT_FALSE(call.gemm->transpose_a);
  EXPECT_TRUE(call.gemm->transpose_b);
  EXPECT_EQ(call.gemm->a_type, DataType::kFloat16);
  EXPECT_EQ(call.gemm->b_type, DataType::kFloat16);
  EXPECT_EQ(call.gemm->c_type, DataType::kFloat32);
  EXPECT_EQ(call.gemm->compute_type, ComputeType::kFloat32);
  EXPECT_EQ(log.unknown_lines, 0u);
}

TEST(CublasLog, TypedGemmsTakeTheirTypeFromTheirName) {
  const LibraryLog log = ParseLibraryLog(Library::kCublas,
                                         "I! cuBLAS (v13.4.1) function cublasStatus_t cublasSgemm_v2(cublasHandle_t, "
                                         "...) called:\n"
                                         "i!  m: type=int; val=1024\n"
                                         "i!Process=1; Thread=2; GPU=0\n"
                                         "I! cuBLAS (v13.4.1) function cublasStatus_t cublasHgemmStridedBatched("
                                         "cublasHandle_t, ...) called:\n"
                                         "i!  batchCount: type=int; val=12\n");
  ASSERT_EQ(log.calls.size(), 2u);
  EXPECT_EQ(log.calls[0].gemm->a_type, DataType::kFloat32);
  EXPECT_EQ(log.calls[0].gemm->compute_type, ComputeType::kFloat32);
  EXPECT_EQ(log.calls[0].gemm->m, 1024);
  EXPECT_EQ(log.calls[1].gemm->a_type, DataType::kFloat16);
  EXPECT_EQ(log.calls[1].gemm->batch_count, 12);
  EXPECT_EQ(log.calls[1].pid, 0u) << "the log ended before the block's trailer";
}

TEST(CublasLog, CountsLinesOutsideBlocks) {
  const LibraryLog log = ParseLibraryLog(Library::kCublas, "garbage\ni!  m: type=int; val=2\n");
  EXPECT_TRUE(log.calls.empty());
  EXPECT_EQ(log.unknown_lines, 2u) << "a parameter line before any header belongs to no call";
}

}  // namespace
}  // namespace ampprof::liblogs
