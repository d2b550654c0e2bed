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

}  // namespace cake::sema
