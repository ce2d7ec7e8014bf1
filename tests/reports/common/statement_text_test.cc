#include "reports/common/statement_text.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace ampprof::reports {
namespace {

using analyzers::Quantity;
using analyzers::Unit;

TEST(FormatQuantity, ValuesOutsideTheIntegerRangeAreClampedNotUndefined) {
  // A trace made a count of 2^64 - 1 (the ampt fuzzer): the conversion to int64 was undefined
  // behaviour (UBSan: "1.84467e+19 is outside the range of representable values of type 'long'").
  EXPECT_EQ(FormatQuantity(Quantity{"n", 18446744073709551615.0, Unit::kCount}), "9,223,372,036,854,775,807");
  EXPECT_EQ(FormatQuantity(Quantity{"n", -1e30, Unit::kCount}), "-9,223,372,036,854,775,808");
  EXPECT_EQ(FormatQuantity(Quantity{"n", std::nan(""), Unit::kCount}), "0");
  EXPECT_EQ(FormatQuantity(Quantity{"b", -5.0, Unit::kBytes}), FormatQuantity(Quantity{"b", 0.0, Unit::kBytes}));
  EXPECT_EQ(FormatQuantity(Quantity{"d", 1e300, Unit::kDuration}),
            FormatQuantity(Quantity{"d", static_cast<double>(std::numeric_limits<int64_t>::max() / 2) * 2.0,
                                    Unit::kDuration}));
  EXPECT_EQ(FormatQuantity(Quantity{"n", 1234.0, Unit::kCount}), "1,234");
}

}  // namespace
}  // namespace ampprof::reports
