// Types: the types and values semantic analysis computes for expressions.
//
// A Value is what an expression means at compile time: a constant, a
// runtime integer (a kernel parameter, a loop index, a block index, or
// arithmetic on them), a dtype, or a handle to a declared resource.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lexer_parser/Ast.h"
#include "sema/IntExpr.h"

namespace cake::sema {

struct Module;
struct Kernel;

enum class DType : uint8_t {
#define DTYPE(Enum, Name, Bits, Cuda, Ptx, TensorMap, Scalar) Enum,
#include "sema/DTypes.def"
#undef DTYPE
};

// What a scalar kernel parameter of a dtype is (DTypes.def `scalar`).
enum class ScalarKind : uint8_t { Int, Float, None };

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  unsigned bits;
  std::string_view cudaType;
  std::string_view ptxType;
  std::string_view tensorMapType;  // CU_TENSOR_MAP_DATA_TYPE_<this>; "" if none
  ScalarKind scalar;
};
const std::vector<DTypeInfo> &allDTypes();
const DTypeInfo &dtypeInfo(DType d);
std::optional<DType> parseDType(std::string_view name);

using ResourceId = uint32_t;
inline constexpr ResourceId kNoResource = UINT32_MAX;

enum class ValueKind : uint8_t {
  Error,  // an error was reported; suppress follow-on errors
  None,
  Bool,
  Int,  // constant (constInt set) or runtime (expr set)
  Float,
  String,
  DType,       // lm.bf16
  Tuple,       // (a, b)
  List,        // [a, b]
  Builder,     // the schedule's builder handle (its first parameter)
  LMTypes,     // the `LM` namespace of parameter types
  CakeModule,  // the `cake` namespace (decorators)
  TensorType,  // LM.tma2d, used as an annotation
  ScalarType,  // LM.i32, used as an annotation
  Decorator,   // cake.schedule
  BoundOp,     // an operation with its receiver, not yet called
  Resource,    // a declared pool, view, TMEM region, fragment, role, ...
  ViewStage,   // v[s]: one stage of a (staged) view, possibly transposed
  Range,       // lm.range(...)
  Package,     // `stdlib` after `import stdlib.tiles`: a dotted prefix
  ModuleRef,   // an imported module; its constants are attributes
  Schedule,    // a schedule (of this file or imported): what a family's route launches
  Members,     // one value per member of a role family (elts; the family in `family`):
               // the family's roles, or a per-member fragment or view
};

// A boolean that compares two integers: `lhs <op> rhs`, kept as the
// comparison of their difference (Value::ix) with zero, so the analyses can
// tell which iterations of a loop an `if` lets through.
enum class CmpOp : uint8_t { None, Lt, Le, Gt, Ge, Eq, Ne };
// The comparison that holds exactly when `op` does not.
constexpr CmpOp negate(CmpOp op) {
  switch (op) {
  case CmpOp::None: return CmpOp::None;
  case CmpOp::Lt: return CmpOp::Ge;
  case CmpOp::Le: return CmpOp::Gt;
  case CmpOp::Gt: return CmpOp::Le;
  case CmpOp::Ge: return CmpOp::Lt;
  case CmpOp::Eq: return CmpOp::Ne;
  case CmpOp::Ne: return CmpOp::Eq;
  }
  return CmpOp::None;
}
// Whether `x <op> 0` holds.
constexpr bool holds(CmpOp op, int64_t x) {
  switch (op) {
  case CmpOp::None: return false;
  case CmpOp::Lt: return x < 0;
  case CmpOp::Le: return x <= 0;
  case CmpOp::Gt: return x > 0;
  case CmpOp::Ge: return x >= 0;
  case CmpOp::Eq: return x == 0;
  case CmpOp::Ne: return x != 0;
  }
  return false;
}
// The comparison of the negated difference (`a < b` is `b > a`).
constexpr CmpOp mirror(CmpOp op) {
  switch (op) {
  case CmpOp::None: return CmpOp::None;
  case CmpOp::Lt: return CmpOp::Gt;
  case CmpOp::Le: return CmpOp::Ge;
  case CmpOp::Gt: return CmpOp::Lt;
  case CmpOp::Ge: return CmpOp::Le;
  case CmpOp::Eq: return CmpOp::Eq;
  case CmpOp::Ne: return CmpOp::Ne;
  }
  return CmpOp::None;
}

struct Value {
  ValueKind kind = ValueKind::Error;
  std::optional<int64_t> constInt;  // Int: known at compile time
  bool constBool = false;
  bool boolIsConst = false;
  double floatValue = 0;
  bool floatIsConst = false;                 // Float: known at compile time (floatValue)
  std::string str;                           // String
  DType dtype = DType::F32;                  // DType, ScalarType
  unsigned rank = 0;                         // TensorType
  bool tma = true;                           // TensorType: LM.tmaNd (else LM.tensorNd)
  std::vector<Value> elts;                   // Tuple, List
  ResourceId resource = kNoResource;         // Resource, ViewStage, BoundOp receiver
  const ast::Expr *expr = nullptr;           // the expression this value came from
  const ast::Expr *stage = nullptr;          // ViewStage: the stage index expression
  IntExprId ix = kNoIntExpr;                 // Int (in a kernel): its node in Kernel::ints;
                                             // Bool with cmp: the node of lhs - rhs
  CmpOp cmp = CmpOp::None;                   // Bool: an integer comparison (see CmpOp)
  IntExprId stageIx = kNoIntExpr;            // ViewStage: the stage index's node
  bool transposed = false;                   // ViewStage or view: `.T`
  uint16_t op = 0;                           // BoundOp: the OpKind
  ValueKind receiverKind = ValueKind::None;  // BoundOp
  const Module *module = nullptr;            // ModuleRef
  const Kernel *schedule = nullptr;          // Schedule
  int32_t family = -1;                       // Members: the role family (Kernel::roleFamilies)

  static Value error() { return Value{}; }
  static Value none() {
    Value v;
    v.kind = ValueKind::None;
    return v;
  }
  static Value constant(int64_t i) {
    Value v;
    v.kind = ValueKind::Int;
    v.constInt = i;
    return v;
  }
  static Value runtimeInt(const ast::Expr *e) {
    Value v;
    v.kind = ValueKind::Int;
    v.expr = e;
    return v;
  }
  bool isError() const { return kind == ValueKind::Error; }
  bool isConstInt() const { return kind == ValueKind::Int && constInt.has_value(); }
};

}  // namespace cake::sema
