#include "reports/html/palette.h"

#include <string>

#include "analyzers/report/compare.h"

namespace ampprof::reports {
namespace {

constexpr std::string_view kUnknownColor = "#b0b0b0";

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// GEMMs, convolutions and attention by the unit the label names.
std::string_view MatrixColor(std::string_view label, std::string_view tensor, std::string_view tf32,
                             std::string_view cuda) {
  if (Contains(label, "(TF32)")) return tf32;
  if (Contains(label, "on Tensor Cores")) return tensor;
  if (Contains(label, "on CUDA cores")) return cuda;
  if (Contains(label, "helpers")) return "#9ab59e";
  return "#7f8c8d";  // unit unknown
}

}  // namespace

std::string_view CategoryColor(std::string_view label) {
  if (label.starts_with("GEMM")) return MatrixColor(label, "#1a9850", "#a6d96a", "#d73027");
  if (label.starts_with("convolution")) return MatrixColor(label, "#35978f", "#c7eae5", "#f46d43");
  if (label.starts_with("attention")) return "#006837";
  if (label == "elementwise") return "#4575b4";
  if (label == "reduction") return "#74add1";
  if (label == "layout transform") return "#8c510a";
  if (label == "cast") return "#762a83";
  if (label == "optimizer") return "#bf812d";
  if (label == "GradScaler") return "#de77ae";
  if (label == "communication") return "#542788";
  if (label == "normalization") return "#fdb863";
  if (label == "copy") return "#92c5de";
  if (label == "other") return "#9e9ac8";
  return kUnknownColor;
}

std::string_view IdleColor(analyzers::GapCause cause) {
  switch (cause) {
    case analyzers::GapCause::kHostLaunch:
      return "#fdae61";
    case analyzers::GapCause::kHostSync:
      return "#e31a1c";
    case analyzers::GapCause::kHostOther:
      return "#fee08b";
    case analyzers::GapCause::kQueued:
      return "#c6dbef";
    case analyzers::GapCause::kAutotuning:
      return "#bcbddc";
    case analyzers::GapCause::kUnattributed:
      return "#d9d9d9";
  }
  return kUnknownColor;
}

std::string_view ComparisonRowColor(std::string_view row_label) {
  for (analyzers::GapCause cause : analyzers::kAllGapCauses) {
    if (row_label == "idle: " + std::string(analyzers::GapCauseName(cause))) return IdleColor(cause);
  }
  if (row_label == "exposed communication") return CategoryColor("NCCL");
  if (row_label == "copies and memsets only") return CategoryColor("copy");
  return CategoryColor(row_label);
}

std::string_view AccountRowColor(const analyzers::AccountRow& row) {
  if (row.key == "compute") return CategoryColor(row.label.substr(0, row.label.find(", ")));
  return ComparisonRowColor(row.label);
}

}  // namespace ampprof::reports
