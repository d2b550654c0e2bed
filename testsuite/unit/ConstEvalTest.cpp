// Unit tests for compile-time integer arithmetic (sema/ConstEval) and the
// did-you-mean suggestions (sema/Suggest).
#include <doctest/doctest.h>

#include <limits>

#include "sema/ConstEval.h"
#include "sema/Suggest.h"

using namespace cake::sema;
using cake::ast::BinaryOp;

TEST_CASE("arithmetic folds exactly") {
  CHECK(foldIntBinary(BinaryOp::Add, 2, 3).value == 5);
  CHECK(foldIntBinary(BinaryOp::Sub, 2, 3).value == -1);
  CHECK(foldIntBinary(BinaryOp::Mul, 128, 256).value == 32768);
  CHECK(foldIntBinary(BinaryOp::Pow, 2, 10).value == 1024);
  CHECK(foldIntBinary(BinaryOp::Pow, 7, 0).value == 1);
}

TEST_CASE("floor division and modulo round toward negative infinity, as in Python") {
  CHECK(foldIntBinary(BinaryOp::FloorDiv, 7, 2).value == 3);
  CHECK(foldIntBinary(BinaryOp::FloorDiv, -7, 2).value == -4);
  CHECK(foldIntBinary(BinaryOp::FloorDiv, 7, -2).value == -4);
  CHECK(foldIntBinary(BinaryOp::Mod, -7, 2).value == 1);
  CHECK(foldIntBinary(BinaryOp::Mod, 7, -2).value == -1);
  CHECK(foldIntBinary(BinaryOp::Mod, 6, 3).value == 0);
}

TEST_CASE("overflow, division by zero and negative exponents are errors, never wrapped") {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  CHECK(foldIntBinary(BinaryOp::Add, max, 1).error == ConstError::Overflow);
  CHECK(foldIntBinary(BinaryOp::Sub, min, 1).error == ConstError::Overflow);
  CHECK(foldIntBinary(BinaryOp::Mul, 1ll << 32, 1ll << 31).error == ConstError::Overflow);
  CHECK(foldIntBinary(BinaryOp::Pow, 2, 63).error == ConstError::Overflow);
  CHECK(foldIntBinary(BinaryOp::Pow, 2, 62).value == (1ll << 62));
  CHECK(foldIntBinary(BinaryOp::FloorDiv, min, -1).error == ConstError::Overflow);
  CHECK(foldIntBinary(BinaryOp::Mod, min, -1).value == 0);
  CHECK(foldIntBinary(BinaryOp::FloorDiv, 1, 0).error == ConstError::DivisionByZero);
  CHECK(foldIntBinary(BinaryOp::Mod, 1, 0).error == ConstError::DivisionByZero);
  CHECK(foldIntBinary(BinaryOp::Pow, 2, -1).error == ConstError::NegativeExponent);
  CHECK(foldIntNegate(min).error == ConstError::Overflow);
  CHECK(foldIntNegate(5).value == -5);
}

TEST_CASE("comparisons fold; other operators are not comparisons") {
  CHECK(*foldIntCompare(BinaryOp::Lt, 1, 2));
  CHECK_FALSE(*foldIntCompare(BinaryOp::Ge, 1, 2));
  CHECK(*foldIntCompare(BinaryOp::Ne, 1, 2));
  CHECK_FALSE(foldIntCompare(BinaryOp::Add, 1, 2).has_value());
}

TEST_CASE("suggestions: transpositions count once, distant words are not suggested") {
  CHECK(editDistance("veiw", "view") == 1);
  CHECK(editDistance("kitten", "sitting") == 3);
  CHECK(closestMatch("veiw", {"view", "smem"}) == "view");
  CHECK(closestMatch("bf61", {"bf16", "f16"}) == "bf16");
  CHECK(closestMatch("xyzzy", {"view", "smem"}).empty());
  CHECK(closestMatch("init", {"count", "prod", "cons", "init_count", "pipeline", "credits"}) == "init_count");
  CHECK(closestMatch("count", {"count_a", "count_b"}).empty());  // a part of two: no guess
  CHECK(closestMatch("in", {"init_count"}).empty());             // too short to guess from
  CHECK(didYouMean("rol", {"role", "regs"}) == "; did you mean 'role'?");
}
