#include "src/base/status.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "src/base/check.h"

namespace ampprof::base {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kOk);
  EXPECT_EQ(status.message(), "");
  EXPECT_EQ(status, OkStatus());
}

TEST(StatusTest, ErrorFactoriesSetCodeAndMessage) {
  struct Case {
    Status status;
    StatusCode code;
  };
  const Case cases[] = {
      {InvalidArgumentError("bad {}", 1), StatusCode::kInvalidArgument},
      {NotFoundError("bad {}", 1), StatusCode::kNotFound},
      {IoError("bad {}", 1), StatusCode::kIoError},
      {InvalidDataError("bad {}", 1), StatusCode::kInvalidData},
      {UnsupportedError("bad {}", 1), StatusCode::kUnsupported},
      {ResourceExhaustedError("bad {}", 1), StatusCode::kResourceExhausted},
      {InternalError("bad {}", 1), StatusCode::kInternal},
      {MakeError(StatusCode::kNotFound, "bad {}", 1), StatusCode::kNotFound},
  };
  for (const Case& c : cases) {
    EXPECT_FALSE(c.status.ok());
    EXPECT_EQ(c.status.code(), c.code);
    EXPECT_EQ(c.status.message(), "bad 1");
  }
}

TEST(StatusTest, FactoryWithoutArguments) {
  const Status status = InvalidDataError("not an .ampt file (wrong magic)");
  EXPECT_EQ(status.code(), StatusCode::kInvalidData);
  EXPECT_EQ(status.message(), "not an .ampt file (wrong magic)");
}

TEST(StatusTest, WithContextPrefixesMessage) {
  const Status status = InvalidDataError("not an .ampt file (wrong magic)");
  const Status with_context = status.WithContext("trace.ampt");
  EXPECT_EQ(with_context.code(), StatusCode::kInvalidData);
  EXPECT_EQ(with_context.message(), "trace.ampt: not an .ampt file (wrong magic)");
  // The original is unchanged.
  EXPECT_EQ(status.message(), "not an .ampt file (wrong magic)");
  EXPECT_EQ(with_context.WithContext("outer").message(),
            "outer: trace.ampt: not an .ampt file (wrong magic)");
}

TEST(StatusTest, WithContextIsNoOpOnOk) {
  const Status status = OkStatus().WithContext("trace.ampt");
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.message(), "");
  EXPECT_EQ(status, OkStatus());
}

TEST(StatusTest, ToString) {
  EXPECT_EQ(OkStatus().ToString(), "ok");
  EXPECT_EQ(NotFoundError("no such file 'x'").ToString(), "no such file 'x' (not found)");
  EXPECT_EQ(InvalidArgumentError("bad flag").ToString(), "bad flag (invalid argument)");
  EXPECT_EQ(IoError("read failed").ToString(), "read failed (i/o error)");
}

TEST(StatusTest, StatusCodeNames) {
  EXPECT_EQ(StatusCodeName(StatusCode::kOk), "ok");
  EXPECT_EQ(StatusCodeName(StatusCode::kInvalidArgument), "invalid argument");
  EXPECT_EQ(StatusCodeName(StatusCode::kNotFound), "not found");
  EXPECT_EQ(StatusCodeName(StatusCode::kIoError), "i/o error");
  EXPECT_EQ(StatusCodeName(StatusCode::kInvalidData), "invalid data");
  EXPECT_EQ(StatusCodeName(StatusCode::kUnsupported), "unsupported");
  EXPECT_EQ(StatusCodeName(StatusCode::kResourceExhausted), "resource exhausted");
  EXPECT_EQ(StatusCodeName(StatusCode::kInternal), "internal error");
}

TEST(StatusTest, Equality) {
  EXPECT_EQ(NotFoundError("a"), NotFoundError("a"));
  EXPECT_NE(NotFoundError("a"), NotFoundError("b"));
  EXPECT_NE(NotFoundError("a"), IoError("a"));
  EXPECT_NE(NotFoundError("a"), OkStatus());
}

TEST(StatusOrTest, HoldsValue) {
  StatusOr<std::string> result = std::string("hello");
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result.status().ok());
  EXPECT_EQ(result.value(), "hello");
  EXPECT_EQ(*result, "hello");
  EXPECT_EQ(result->size(), 5u);
  result.value() += "!";
  EXPECT_EQ(*result, "hello!");

  const StatusOr<std::string>& const_ref = result;
  EXPECT_EQ(const_ref.value(), "hello!");
  EXPECT_EQ(*const_ref, "hello!");
  EXPECT_EQ(const_ref->size(), 6u);

  const std::string moved = std::move(result).value();
  EXPECT_EQ(moved, "hello!");
}

TEST(StatusOrTest, HoldsError) {
  const StatusOr<int> result = NotFoundError("no such file '{}'", "x.ampt");
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(result.status().message(), "no such file 'x.ampt'");
}

TEST(StatusOrTest, HoldsMoveOnlyValue) {
  StatusOr<std::unique_ptr<int>> result = std::make_unique<int>(7);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(**result, 7);
  std::unique_ptr<int> taken = std::move(result).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, 7);
}

// Helpers for the macros.

Status Check(bool fail) {
  if (fail) return InvalidArgumentError("failed");
  return OkStatus();
}

int g_after_return_if_error = 0;

Status TwoChecks(bool fail_first, bool fail_second) {
  RETURN_IF_ERROR(Check(fail_first));
  ++g_after_return_if_error;
  RETURN_IF_ERROR(Check(fail_second).WithContext("second"));
  ++g_after_return_if_error;
  return OkStatus();
}

StatusOr<int> Half(int value) {
  if (value % 2 != 0) return InvalidArgumentError("{} is odd", value);
  return value / 2;
}

StatusOr<int> Quarter(int value) {
  ASSIGN_OR_RETURN(int half, Half(value));
  ASSIGN_OR_RETURN(const int quarter, Half(half));
  return quarter;
}

StatusOr<std::unique_ptr<int>> MakeBox(int value) {
  if (value < 0) return InvalidArgumentError("negative");
  return std::make_unique<int>(value);
}

StatusOr<int> UnboxPlusOne(int value) {
  ASSIGN_OR_RETURN(std::unique_ptr<int> box, MakeBox(value));
  return *box + 1;
}

Status UnboxInto(int value, int* out) {
  ASSIGN_OR_RETURN(std::unique_ptr<int> box, MakeBox(value));
  *out = *box;
  return OkStatus();
}

TEST(StatusMacrosTest, ReturnIfErrorSuccess) {
  g_after_return_if_error = 0;
  EXPECT_TRUE(TwoChecks(false, false).ok());
  EXPECT_EQ(g_after_return_if_error, 2);
}

TEST(StatusMacrosTest, ReturnIfErrorFailure) {
  g_after_return_if_error = 0;
  const Status first = TwoChecks(true, false);
  EXPECT_EQ(first.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(first.message(), "failed");
  EXPECT_EQ(g_after_return_if_error, 0);

  g_after_return_if_error = 0;
  const Status second = TwoChecks(false, true);
  EXPECT_EQ(second.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(second.message(), "second: failed");
  EXPECT_EQ(g_after_return_if_error, 1);
}

TEST(StatusMacrosTest, AssignOrReturnSuccess) {
  const StatusOr<int> result = Quarter(12);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, 3);
}

TEST(StatusMacrosTest, AssignOrReturnFailure) {
  const StatusOr<int> first = Quarter(7);
  EXPECT_EQ(first.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(first.status().message(), "7 is odd");

  const StatusOr<int> second = Quarter(6);
  EXPECT_EQ(second.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(second.status().message(), "3 is odd");
}

TEST(StatusMacrosTest, AssignOrReturnMoveOnly) {
  const StatusOr<int> ok = UnboxPlusOne(41);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 42);

  const StatusOr<int> error = UnboxPlusOne(-1);
  EXPECT_EQ(error.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(error.status().message(), "negative");

  int out = 0;
  EXPECT_TRUE(UnboxInto(5, &out).ok());
  EXPECT_EQ(out, 5);
  out = 0;
  EXPECT_EQ(UnboxInto(-5, &out), InvalidArgumentError("negative"));
  EXPECT_EQ(out, 0);
}

TEST(StatusDeathTest, StatusOrFromOkStatusAborts) {
  EXPECT_DEATH(
      {
        StatusOr<int> result(OkStatus());
        (void)result;
      },
      "StatusOr constructed from an OK status without a value");
}

TEST(StatusDeathTest, ValueOnErrorAborts) {
  EXPECT_DEATH(
      {
        StatusOr<int> result = NotFoundError("missing thing");
        (void)result.value();
      },
      "CHECK failed.*missing thing");
}

TEST(StatusDeathTest, OkStatusWithMessageAborts) {
  EXPECT_DEATH(
      {
        Status status(StatusCode::kOk, "oops");
        (void)status;
      },
      "CHECK failed");
}

TEST(CheckDeathTest, CheckFalseAborts) {
  EXPECT_DEATH(AMPPROF_CHECK(false), "CHECK failed");
  EXPECT_DEATH(AMPPROF_CHECK_MSG(1 + 1 == 3, "arithmetic is broken"),
               "CHECK failed: 1 \\+ 1 == 3 arithmetic is broken");
}

TEST(CheckTest, CheckTrueDoesNothing) {
  AMPPROF_CHECK(true);
  AMPPROF_CHECK_MSG(1 + 1 == 2, "unused");
  AMPPROF_DCHECK(true);
  SUCCEED();
}

}  // namespace
}  // namespace ampprof::base
