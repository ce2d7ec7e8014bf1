// The three ways a sample trains, as `--precision` names them:
//   fp32  weights, activations and GEMMs/convolutions in FP32 (no TF32 for GEMMs, cuDNN's default math
//         for convolutions: what PyTorch does by default);
//   fp16  FP32 master weights copied to FP16 every step, FP16 activations, Tensor-Core math accumulating
//         in FP32, FP32 weight gradients, GradScaler loss scaling (torch.autocast + GradScaler);
//   bf16  the same with BF16.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime.h>
#include <cudnn.h>
#include <library_types.h>

namespace ampsample {

enum class Precision { kFp32, kFp16, kBf16 };

// "fp32", "fp16" or "bf16"; anything else is a usage error the flag parser has already rejected.
Precision ParsePrecision(const std::string& name);
const char* PrecisionName(Precision precision);

inline bool IsMixed(Precision precision) { return precision != Precision::kFp32; }

// The element type of activations (and of the weight copies the GEMMs read) in this precision.
cudaDataType_t ActivationType(Precision precision);
cudnnDataType_t CudnnActivationType(Precision precision);
size_t ActivationBytes(Precision precision);

}  // namespace ampsample
