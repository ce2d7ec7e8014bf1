#include "reports/html/palette.h"

#include <string>

#include "analyzers/report/compare.h"

namespace ampprof::reports {
namespace {

constexpr std::string_view kUnknownColor = "#d2b4c3";

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// A matrix category's colours by the unit the label names.
struct MatrixColors {
  std::string_view tensor, tf32, cuda, helpers, unit_unknown;
};

std::string_view MatrixColor(std::string_view label, const MatrixColors& colors) {
  if (Contains(label, "(TF32)")) return colors.tf32;
  if (Contains(label, "on Tensor Cores")) return colors.tensor;
  if (Contains(label, "on CUDA cores")) return colors.cuda;
  if (Contains(label, "helpers")) return colors.helpers;
  return colors.unit_unknown;
}

}  // namespace

// Chosen so that no two of these (and the idle causes) are closer than CIEDE2000 13 in normal vision
// and 7.9 as deuteranopes and protanopes see them (Machado et al. 2009's simulation), keeping the
// meanings that matter most: Tensor-Core GEMMs green, GEMMs on CUDA cores red. palette_test.cc checks it.
std::string_view CategoryColor(std::string_view label) {
  if (label.starts_with("GEMM")) return MatrixColor(label, {"#1a9850", "#d2f000", "#d73027", "#9ab59e", "#e100c3"});
  if (label.starts_with("convolution")) {
    return MatrixColor(label, {"#35978f", "#c7eae5", "#a58778", "#5affc3", "#4b4b4b"});
  }
  if (label.starts_with("attention")) return "#1e694b";
  if (label == "elementwise") return "#4b6969";
  if (label == "reduction") return "#4b5aff";
  if (label == "layout transform") return "#872d2d";
  if (label == "cast") return "#762a83";
  if (label == "optimizer") return "#f05a00";
  if (label == "GradScaler") return "#de77ae";
  if (label == "communication") return "#0000f0";
  if (label == "normalization") return "#b4a578";
  if (label == "copy") return "#3cb4d2";
  if (label == "other") return "#786987";
  return kUnknownColor;
}

std::string_view IdleColor(analyzers::GapCause cause) {
  switch (cause) {
    case analyzers::GapCause::kHostLaunch:
      return "#f0a53c";
    case analyzers::GapCause::kHostSync:
      return "#c31e69";
    case analyzers::GapCause::kHostOther:
      return "#fee08b";
    case analyzers::GapCause::kQueued:
      return "#e1e1ff";
    case analyzers::GapCause::kAutotuning:
      return "#b478ff";
    case analyzers::GapCause::kUnattributed:
      return "#b4b4ff";
  }
  return kUnknownColor;
}

std::string_view ComparisonRowColor(std::string_view row_label) {
  for (analyzers::GapCause cause : analyzers::kAllGapCauses) {
    if (row_label == "idle: " + std::string(analyzers::GapCauseName(cause))) return IdleColor(cause);
  }
  if (row_label == "exposed communication") return CategoryColor("communication");
  if (row_label == "copies and memsets only") return CategoryColor("copy");
  return CategoryColor(row_label);
}

std::string_view AccountRowColor(const analyzers::AccountRow& row) {
  if (row.key == "compute") return CategoryColor(row.label.substr(0, row.label.find(", ")));
  return ComparisonRowColor(row.label);
}

}  // namespace ampprof::reports
