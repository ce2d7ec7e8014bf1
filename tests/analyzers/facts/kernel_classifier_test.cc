// The kernel classifier against real kernel names, Volta to Blackwell: tests/data/kernels/known_kernels.tsv
// holds every distinct kernel name of ../shared/fixtures (Kineto and Nsight Systems traces from V100,
// RTX 2080 Ti, GP100, A100, H100, H200, B300), every rule's example, and names from public profiles of
// modern stacks (FlashAttention 3/4, DeepGEMM, DeepEP, TensorRT-LLM, vLLM, SGLang, FlashInfer, ...), each
// with what ampprof must conclude, checked by hand against what the name states. A change that moves a
// row is a change in what ampprof reports: review it as such.

#include "analyzers/facts/kernel_classifier.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace ampprof::analyzers {
namespace {

struct Row {
  std::string name;
  std::string category, unit, dtype, library;
  int alignment = 0;
  bool grouped = false;
  std::string origin;
  int line = 0;
};

std::vector<Row> ReadKnownKernels() {
  const std::string path = std::string(AMPPROF_SOURCE_DIR) + "/tests/data/kernels/known_kernels.tsv";
  std::ifstream file(path);
  EXPECT_TRUE(file) << path;
  std::vector<Row> rows;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, '\t');) fields.push_back(field);
    if (fields.size() != 8) {
      ADD_FAILURE() << path << ":" << number << ": 8 tab-separated fields, not " << fields.size();
      continue;
    }
    rows.push_back({fields[0], fields[1], fields[2], fields[3], fields[4], std::stoi(fields[5]), fields[6] == "yes",
                    fields[7], number});
  }
  return rows;
}

const std::vector<Row>& KnownKernels() {
  static const std::vector<Row> rows = ReadKnownKernels();
  return rows;
}

TEST(KernelClassifier, ClassifiesRealKernelNames) {
  for (const Row& row : KnownKernels()) {
    SCOPED_TRACE("known_kernels.tsv:" + std::to_string(row.line) + ": " + row.name);
    const KernelClass k = ClassifyKernel(row.name);
    EXPECT_EQ(KernelCategoryId(k.category), row.category);
    EXPECT_EQ(MathUnitId(ReportedMathUnit(k)), row.unit);
    EXPECT_EQ(DataTypeId(k.dtype), row.dtype);
    EXPECT_EQ(KernelLibraryId(k.library), row.library);
    EXPECT_EQ(k.alignment, row.alignment);
    EXPECT_EQ(k.grouped, row.grouped);
  }
}

TEST(KernelClassifier, TheTableHoldsEveryRuleExample) {
  std::set<std::string> names;
  for (const Row& row : KnownKernels()) EXPECT_TRUE(names.insert(row.name).second) << "twice: " << row.name;
  const KernelClassifier& builtin = KernelClassifier::Builtin();
  for (const auto rules : {builtin.rules(), builtin.library_rules()}) {
    for (const KernelRule& rule : rules) EXPECT_TRUE(names.contains(rule.example)) << rule.id << ": " << rule.example;
  }
}

TEST(KernelClassifier, TheTableIsLargeAndSpansArchitecturesAndCategories) {
  std::set<std::string> categories;
  for (const Row& row : KnownKernels()) categories.insert(row.category);
  EXPECT_GE(KnownKernels().size(), 500u);
  for (const char* category : {"gemm", "convolution", "attention", "communication", "normalization", "cast",
                               "grad_scaler", "layout_transform", "optimizer"}) {
    EXPECT_TRUE(categories.contains(category)) << category;
  }
  for (const char* generation : {"maxwell_", "volta_", "turing_", "ampere_", "sm80_", "sm90_", "nvjet_sm100_",
                                 "nvjet_sm103_", "sm100f"}) {
    bool found = false;
    for (const Row& row : KnownKernels()) found = found || row.name.find(generation) != std::string::npos;
    EXPECT_TRUE(found) << generation;
  }
}

// PyTorch's key_averages() table prints a kernel's first 52 characters and "...": for ATen's kernels in
// its anonymous namespace that leaves 12 characters of the kernel's own name. Every such name of the table,
// cut that way, keeps its category, except GradScaler's multi_tensor_apply_kernel, whose functor (the
// only word that says grad scaler) is cut: it reads as the optimizer step, the common kernel of that name.
TEST(KernelClassifier, AtenNamesCutByPyTorchsTableKeepTheirCategory) {
  constexpr std::string_view kAnonymous = "void at::native::(anonymous namespace)::";
  int cut = 0;
  for (const Row& row : KnownKernels()) {
    if (!row.name.starts_with(kAnonymous) || row.name.size() <= 52 || row.name.ends_with("...") ||
        row.name.ends_with("\xe2\x80\xa6")) {
      continue;
    }
    const std::string name = row.name.substr(0, 52) + "...";
    SCOPED_TRACE(name + " (cut from known_kernels.tsv:" + std::to_string(row.line) + ")");
    const std::string category(KernelCategoryId(ClassifyKernel(name).category));
    EXPECT_EQ(category, row.category == "grad_scaler" ? "optimizer" : row.category);
    ++cut;
  }
  EXPECT_GE(cut, 40);
}

// Nsight Systems' kernel summary cuts names at 100 characters and appends "\u2026". Thrust's parallel_for
// agents lose the functor that names their operation, ATen's copies the end of direct_copy_kernel: the
// agent and what is left of the functor's name still say what they are.
TEST(KernelClassifier, ThrustAgentsAndAtenCopiesCutByNsightSystemsKeepTheirCategory) {
  int cut = 0;
  for (const Row& row : KnownKernels()) {
    const bool thrust_agent = row.name.find("__parallel_for::ParallelForAgent") != std::string::npos;
    // (an ATen copy cut before "native::direct_copy" says nothing about copying, and is not expected to)
    const size_t direct_copy = row.name.find("native::direct_copy");
    const bool aten_copy = direct_copy != std::string::npos && direct_copy + 19 <= 100 && row.category == "copy";
    if (!(thrust_agent || aten_copy) || row.name.size() <= 100 || row.name.ends_with("\xe2\x80\xa6")) continue;
    const std::string name = row.name.substr(0, 100) + "\xe2\x80\xa6";
    SCOPED_TRACE(name + " (cut from known_kernels.tsv:" + std::to_string(row.line) + ")");
    EXPECT_EQ(KernelCategoryId(ClassifyKernel(name).category), row.category);
    ++cut;
  }
  EXPECT_GE(cut, 8);
}

// Matrix-vector products (tensor_cores.fp32_math and amp.opportunity leave them out): every one is a GEMM
// (on any unit: an NVFP4 GEMV of the table is on Tensor Cores), cuBLAS's gemv kernels all are one, and its
// small-N and K = 1 GEMMs are not.
TEST(KernelClassifier, MatrixVectorProductsAreGemms) {
  int matrix_vector = 0;
  for (const Row& row : KnownKernels()) {
    SCOPED_TRACE("known_kernels.tsv:" + std::to_string(row.line) + ": " + row.name);
    const KernelClass k = ClassifyKernel(row.name);
    if (k.matrix_vector) {
      ++matrix_vector;
      EXPECT_EQ(k.category, KernelCategory::kGemm);
    }
    if (row.name.starts_with("void gemv2T_kernel_val") || row.name.starts_with("void gemv2N_kernel")) {
      EXPECT_TRUE(k.matrix_vector);
    }
    if (row.name.starts_with("void gemmk1_kernel") || row.name.starts_with("void gemmSN_")) {
      EXPECT_FALSE(k.matrix_vector);
    }
  }
  EXPECT_GE(matrix_vector, 40);
}

// The precision property: a GEMM, convolution or attention kernel is on CUDA cores only where its rule
// says so (no default, no inference from a dtype), and FP8/FP4 matrix math is always on Tensor Cores.
TEST(KernelClassifier, TheMathUnitIsNeverGuessed) {
  const KernelClassifier& builtin = KernelClassifier::Builtin();
  for (const Row& row : KnownKernels()) {
    SCOPED_TRACE(row.name);
    const KernelClassifier::Decision decision = builtin.Decide(row.name);
    if (decision.kernel.math == MathUnit::kCudaCore) {
      ASSERT_NE(decision.rule, nullptr);
      EXPECT_EQ(decision.rule->unit, RuleUnit::kCudaCores);
    }
    const bool matrix = row.category == "gemm" || row.category == "convolution" || row.category == "attention";
    if (matrix && (row.dtype == "fp8" || row.dtype == "fp4") && row.unit != "none") {
      EXPECT_EQ(row.unit, "tensor_cores");
    }
  }
}

TEST(KernelClassifier, UnknownNamesAreNotGuessed) {
  for (const char* name : {"", "saxpy(double *, double *, double *, double, int)", "my_custom_kernel",
                           "void compute_cuda_kernel<long>(long*, long*, long*, long, long)", "kernel_0"}) {
    SCOPED_TRACE(name);
    const KernelClassifier::Decision decision = KernelClassifier::Builtin().Decide(name);
    EXPECT_EQ(decision.rule, nullptr);
    EXPECT_EQ(decision.kernel.category, KernelCategory::kUnknown);
    EXPECT_EQ(decision.kernel.library, KernelLibrary::kUnknown);
    EXPECT_EQ(decision.kernel.math, MathUnit::kNotApplicable);
  }
  // Its template arguments still state its element type.
  EXPECT_EQ(ClassifyKernel("void compute_cuda_kernel<long>(long*, long*, long*, long, long)").dtype, DataType::kInt64);
}

TEST(KernelClassifier, MangledAndDemangledNamesAgree) {
  const std::pair<const char*, const char*> pairs[] = {
      {"_ZN5cudnn19engines_precompiled16nchwToNhwcKernelI6__halfS2_fLb0ELb0EL21cudnnKernelDataType_t0EEEvNS0_"
       "18nchw2nhwc_params_tIT1_EEPKT_PT0_",
       "void cudnn::engines_precompiled::nchwToNhwcKernel<__half, __half, float, false, false, "
       "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, __half const*, __half*)"},
      // RCCL's build of NCCL's kernel, as a symbol table lists it (a public rocprof script).
      {"_Z42ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_tP11ncclDevCommPvP8ncclWork",
       "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, void*, ncclWork*)"},
  };
  for (const auto& [mangled, demangled] : pairs) {
    SCOPED_TRACE(demangled);
    EXPECT_EQ(ClassifyKernel(mangled), ClassifyKernel(demangled));
    EXPECT_NE(ClassifyKernel(mangled).category, KernelCategory::kUnknown);
  }
}

TEST(KernelClassifier, FbgemmIsNotAGemm) {
  // "fbgemm" holds "gemm"; FBGEMM's embedding kernels are not matrix multiplies.
  EXPECT_EQ(ClassifyKernel("void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int const*, int*)")
                .category,
            KernelCategory::kOther);
}

TEST(KernelClassifier, NamesAndIdsOfTheEnums) {
  EXPECT_EQ(KernelCategoryName(KernelCategory::kLayoutTransform), "layout transform");
  EXPECT_EQ(KernelCategoryId(KernelCategory::kLayoutTransform), "layout_transform");
  EXPECT_EQ(KernelCategoryName(KernelCategory::kCommunication), "communication");
  EXPECT_EQ(MathUnitName(MathUnit::kTensorCoreTf32), "Tensor Cores (TF32)");
  EXPECT_EQ(MathUnitId(MathUnit::kTensorCoreTf32), "tensor_cores");
  EXPECT_EQ(MathUnitId(MathUnit::kNotApplicable), "none");
  EXPECT_EQ(DataTypeName(DataType::kBf16), "BF16");
  EXPECT_EQ(DataTypeId(DataType::kFp4), "fp4");
  EXPECT_EQ(KernelLibraryName(KernelLibrary::kCublasLt), "cuBLASLt");
  EXPECT_EQ(KernelLibraryId(KernelLibrary::kTensorRtLlm), "tensorrt_llm");
  for (KernelCategory category : AllKernelCategories()) {
    EXPECT_EQ(ParseKernelCategoryId(KernelCategoryId(category)), category);
  }
  for (DataType dtype : AllDataTypes()) EXPECT_EQ(ParseDataTypeId(DataTypeId(dtype)), dtype);
  for (KernelLibrary library : AllKernelLibraries()) EXPECT_EQ(ParseKernelLibraryId(KernelLibraryId(library)), library);
  EXPECT_EQ(ParseDataTypeId("float"), std::nullopt);
}

}  // namespace
}  // namespace ampprof::analyzers
