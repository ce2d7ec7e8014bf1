#include "reports/html/palette.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analyzers/facts/kernel_class.h"

namespace ampprof::reports {
namespace {

// Colour science for the check: sRGB -> CIELAB (D65), the CIEDE2000 difference, and Machado, Oliveira
// and Fernandes (2009)'s simulation of full deuteranopia and protanopia, applied in linear RGB.
using Rgb = std::array<double, 3>;  // linear, 0..1
using Lab = std::array<double, 3>;
using Matrix = std::array<std::array<double, 3>, 3>;

constexpr Matrix kDeuteranopia = {{{0.367322, 0.860646, -0.227968},
                                   {0.280085, 0.672501, 0.047413},
                                   {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kProtanopia = {{{0.152286, 1.052583, -0.204868},
                                 {0.114503, 0.786281, 0.099216},
                                 {-0.003882, -0.048116, 1.051998}}};

Rgb LinearRgb(std::string_view css) {
  EXPECT_EQ(css.size(), 7u) << css;
  Rgb rgb{};
  for (size_t i = 0; i < 3; ++i) {
    const double c = std::stoi(std::string(css.substr(1 + 2 * i, 2)), nullptr, 16) / 255.0;
    rgb[i] = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  }
  return rgb;
}

Rgb Simulate(const Rgb& rgb, const Matrix& m) {
  Rgb out{};
  for (size_t i = 0; i < 3; ++i) {
    out[i] = std::clamp(m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2], 0.0, 1.0);
  }
  return out;
}

Lab ToLab(const Rgb& l) {
  const double x = (0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2]) / 0.95047;
  const double y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
  const double z = (0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2]) / 1.08883;
  const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

double Radians(double degrees) { return degrees * std::numbers::pi / 180.0; }

// CIEDE2000 (Sharma, Wu and Dalal, 2005).
double DeltaE2000(const Lab& p, const Lab& q) {
  const double c1 = std::hypot(p[1], p[2]);
  const double c2 = std::hypot(q[1], q[2]);
  const double c_mean7 = std::pow((c1 + c2) / 2.0, 7.0);
  const double g = 0.5 * (1.0 - std::sqrt(c_mean7 / (c_mean7 + std::pow(25.0, 7.0))));
  const double a1 = (1.0 + g) * p[1];
  const double a2 = (1.0 + g) * q[1];
  const double c1p = std::hypot(a1, p[2]);
  const double c2p = std::hypot(a2, q[2]);
  const auto hue = [](double b, double a) {
    const double h = std::atan2(b, a) * 180.0 / std::numbers::pi;
    return h < 0 ? h + 360.0 : h;
  };
  const double h1 = hue(p[2], a1);
  const double h2 = hue(q[2], a2);
  double dh = 0.0;
  if (c1p * c2p != 0.0) {
    dh = h2 - h1;
    if (dh > 180.0) dh -= 360.0;
    if (dh < -180.0) dh += 360.0;
  }
  const double d_l = q[0] - p[0];
  const double d_c = c2p - c1p;
  const double d_h = 2.0 * std::sqrt(c1p * c2p) * std::sin(Radians(dh / 2.0));
  const double l_mean = (p[0] + q[0]) / 2.0;
  const double c_mean = (c1p + c2p) / 2.0;
  double h_mean = h1 + h2;
  if (c1p * c2p != 0.0) {
    h_mean = std::abs(h1 - h2) <= 180.0 ? (h1 + h2) / 2.0
             : (h1 + h2 < 360.0)         ? (h1 + h2 + 360.0) / 2.0
                                         : (h1 + h2 - 360.0) / 2.0;
  }
  const double t = 1.0 - 0.17 * std::cos(Radians(h_mean - 30.0)) + 0.24 * std::cos(Radians(2.0 * h_mean)) +
                   0.32 * std::cos(Radians(3.0 * h_mean + 6.0)) - 0.20 * std::cos(Radians(4.0 * h_mean - 63.0));
  const double d_theta = 30.0 * std::exp(-std::pow((h_mean - 275.0) / 25.0, 2.0));
  const double c_mean_7 = std::pow(c_mean, 7.0);
  const double r_c = 2.0 * std::sqrt(c_mean_7 / (c_mean_7 + std::pow(25.0, 7.0)));
  const double s_l = 1.0 + 0.015 * std::pow(l_mean - 50.0, 2.0) / std::sqrt(20.0 + std::pow(l_mean - 50.0, 2.0));
  const double s_c = 1.0 + 0.045 * c_mean;
  const double s_h = 1.0 + 0.015 * c_mean * t;
  const double r_t = -std::sin(Radians(2.0 * d_theta)) * r_c;
  return std::sqrt(std::pow(d_l / s_l, 2.0) + std::pow(d_c / s_c, 2.0) + std::pow(d_h / s_h, 2.0) +
                   r_t * (d_c / s_c) * (d_h / s_h));
}

TEST(ColourScience, MatchesPublishedCiede2000Values) {
  // Pairs 1 and 17 of Sharma, Wu and Dalal's test data.
  EXPECT_NEAR(DeltaE2000({50.0, 2.6772, -79.7751}, {50.0, 0.0, -82.7485}), 2.0425, 1e-4);
  EXPECT_NEAR(DeltaE2000({50.0, 2.5, 0.0}, {73.0, 25.0, -18.0}), 27.1492, 1e-4);
  const Lab white = ToLab(LinearRgb("#ffffff"));
  EXPECT_NEAR(white[0], 100.0, 1e-3);
  EXPECT_NEAR(white[1], 0.0, 1e-2);
}

// Every colour a chart of the page can show side by side: each kernel category (GEMMs and
// convolutions by unit) and each idle cause.
std::map<std::string, std::string> ChartColours() {
  std::map<std::string, std::string> colours;  // label -> colour
  for (int c = 0; c <= static_cast<int>(analyzers::KernelCategory::kOther); ++c) {
    for (int u = 0; u <= static_cast<int>(analyzers::MathUnit::kCudaCore); ++u) {
      analyzers::KernelClass k;
      k.category = static_cast<analyzers::KernelCategory>(c);
      k.math = static_cast<analyzers::MathUnit>(u);
      const std::string label = analyzers::CategoryLabel(k);
      colours[label] = std::string(CategoryColor(label));
    }
  }
  for (const analyzers::GapCause cause : analyzers::kAllGapCauses) {
    colours[fmt::format("idle: {}", analyzers::GapCauseName(cause))] = std::string(IdleColor(cause));
  }
  return colours;
}

// No two categories closer than these CIEDE2000 distances (about 2 is a just-noticeable difference;
// chart swatches need several times that), in normal vision and as the two common red-green colour
// vision deficiencies see them.
constexpr double kMinNormalDistance = 10.0;
constexpr double kMinColourBlindDistance = 6.0;

TEST(Palette, EveryTwoCategoriesStayDistinguishableAlsoForColourBlindReaders) {
  const std::map<std::string, std::string> colours = ChartColours();
  ASSERT_GE(colours.size(), 20u);
  struct View {
    const char* name;
    const Matrix* simulation;
    double min_distance;
  };
  const View views[] = {{"normal vision", nullptr, kMinNormalDistance},
                        {"deuteranopia", &kDeuteranopia, kMinColourBlindDistance},
                        {"protanopia", &kProtanopia, kMinColourBlindDistance}};
  for (const View& view : views) {
    for (auto a = colours.begin(); a != colours.end(); ++a) {
      for (auto b = std::next(a); b != colours.end(); ++b) {
        // Attention is one colour on every unit; any other two labels sharing a colour fail below.
        if (a->first.starts_with("attention") && b->first.starts_with("attention")) continue;
        const Rgb ra = LinearRgb(a->second);
        const Rgb rb = LinearRgb(b->second);
        const double distance = view.simulation == nullptr
                                    ? DeltaE2000(ToLab(ra), ToLab(rb))
                                    : DeltaE2000(ToLab(Simulate(ra, *view.simulation)),
                                                 ToLab(Simulate(rb, *view.simulation)));
        EXPECT_GE(distance, view.min_distance) << view.name << ": '" << a->first << "' " << a->second << " and '"
                                               << b->first << "' " << b->second;
      }
    }
  }
}

}  // namespace
}  // namespace ampprof::reports
