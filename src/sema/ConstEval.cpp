// ConstEval: see ConstEval.h.
#include "sema/ConstEval.h"

#include <limits>

namespace cake::sema {

using ast::BinaryOp;

ConstResult foldIntNegate(int64_t a) {
  if (a == std::numeric_limits<int64_t>::min()) return {0, ConstError::Overflow};
  return {-a, ConstError::None};
}

ConstResult foldIntBinary(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
  case BinaryOp::Add:
    if (__builtin_add_overflow(a, b, &r)) return {0, ConstError::Overflow};
    return {r, ConstError::None};
  case BinaryOp::Sub:
    if (__builtin_sub_overflow(a, b, &r)) return {0, ConstError::Overflow};
    return {r, ConstError::None};
  case BinaryOp::Mul:
    if (__builtin_mul_overflow(a, b, &r)) return {0, ConstError::Overflow};
    return {r, ConstError::None};
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    if (b == 0) return {0, ConstError::DivisionByZero};
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return op == BinaryOp::Mod ? ConstResult{0, ConstError::None} : ConstResult{0, ConstError::Overflow};
    int64_t q = a / b;
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) {  // round toward negative infinity
      q -= 1;
      m += b;
    }
    return {op == BinaryOp::FloorDiv ? q : m, ConstError::None};
  }
  case BinaryOp::Pow: {
    if (b < 0) return {0, ConstError::NegativeExponent};
    int64_t result = 1;
    int64_t base = a;
    int64_t e = b;
    while (e > 0) {
      if (e & 1)
        if (__builtin_mul_overflow(result, base, &result)) return {0, ConstError::Overflow};
      e >>= 1;
      if (e > 0 && __builtin_mul_overflow(base, base, &base)) return {0, ConstError::Overflow};
    }
    return {result, ConstError::None};
  }
  default: return {0, ConstError::None};
  }
}

std::optional<bool> foldIntCompare(BinaryOp op, int64_t a, int64_t b) {
  switch (op) {
  case BinaryOp::Lt: return a < b;
  case BinaryOp::Gt: return a > b;
  case BinaryOp::Le: return a <= b;
  case BinaryOp::Ge: return a >= b;
  case BinaryOp::Eq: return a == b;
  case BinaryOp::Ne: return a != b;
  default: return std::nullopt;
  }
}

}  // namespace cake::sema
