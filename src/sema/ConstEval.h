// ConstEval: checked 64-bit integer arithmetic for compile-time expressions
// (shapes, offsets, stage counts, warp lists). Python semantics for `//` and
// `%` (rounding toward negative infinity); overflow and division by zero are
// reported by the caller, never wrapped silently.
#pragma once

#include <cstdint>
#include <optional>

#include "lexer_parser/Ast.h"

namespace cake::sema {

enum class ConstError : uint8_t { None, Overflow, DivisionByZero, NegativeExponent };

struct ConstResult {
  int64_t value = 0;
  ConstError error = ConstError::None;
  bool ok() const { return error == ConstError::None; }
};

// `op` is an arithmetic BinaryOp (Add, Sub, Mul, FloorDiv, Mod, Pow).
ConstResult foldIntBinary(ast::BinaryOp op, int64_t a, int64_t b);
ConstResult foldIntNegate(int64_t a);
// Comparisons on integers; returns nullopt for non-comparison ops.
std::optional<bool> foldIntCompare(ast::BinaryOp op, int64_t a, int64_t b);

// Saturating arithmetic for derived facts (offsets, byte counts, thread
// counts) built from user constants: a result beyond int64 becomes the
// limit, which every check then reports as too large, instead of wrapping.
inline int64_t satAdd(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? INT64_MAX : INT64_MIN;
}
inline int64_t satMul(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_mul_overflow(a, b, &r)) return r;
  return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}

}  // namespace cake::sema
