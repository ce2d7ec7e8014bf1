#ifndef AMPPROF_ANALYZERS_FINDINGS_ALIGNMENT_ANALYZER_H_
#define AMPPROF_ANALYZERS_FINDINGS_ALIGNMENT_ANALYZER_H_

// tensor_cores.misaligned: Tensor-Core GEMM/convolution kernels on their unaligned variants.
// CUTLASS-built kernels (in cuBLAS and PyTorch) carry the vector alignment of the A operand in
// their name (align8, align2, ...; KernelClass::alignment). Tensor-Core kernels are fast when
// operands load in 16-byte vectors: 8 FP16/BF16 elements, 4 TF32, 16 FP8/INT8. A variant with a
// smaller alignment is what the library picks when a dimension or leading dimension is not a
// multiple of that, e.g. an odd vocabulary size (the PyTorch AMP recipe: "make sure matmuls
// participating sizes are multiples of 8"). Names without an alignment tag (cuBLAS's own xmma/nvjet
// kernels) say nothing either way, and count as Tensor-Core time only.

#include <vector>

#include "analyzers/facts/analysis_input.h"
#include "analyzers/findings/finding.h"

namespace ampprof::analyzers {

std::vector<Finding> AnalyzeAlignment(const AnalysisInput& input);

}  // namespace ampprof::analyzers

#endif  // AMPPROF_ANALYZERS_FINDINGS_ALIGNMENT_ANALYZER_H_
