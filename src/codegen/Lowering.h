// Lowering.h - which operation lowers how on which target.
//
// Each target's table is assembled from instruction families (Lowering.cpp):
// the ones every NVIDIA target shares (mbarrier synchronisation, register
// fragments), the family of its tensor-core path (Targets.def `mma`) and the
// family of its copy engine (`copy`). A target has a lowering when both of
// its families exist, and then its table has an entry for every role
// operation legal on it (a unit test walks Ops.def to check); declarations
// and values are lowered by the kernel skeleton.
#pragma once

#include <array>
#include <string>

#include "sema/OpTable.h"
#include "sema/Types.h"
#include "target/TargetInfo.h"

namespace cake::sema {
struct Operation;
struct Module;
}  // namespace cake::sema

namespace cake::codegen {

namespace detail {
class KernelEmitter;
struct RoleCtx;
}  // namespace detail

// The lowering of one role operation: a member of the kernel emitter.
using LowerFn = void (detail::KernelEmitter::*)(const sema::Operation &, detail::RoleCtx &);

// What differs between the operations one fragment handler lowers: the C
// expression of one element (elementwise: {0}, {1}, {2} are the operands'
// elements at the same position, a number operand its value) or of the fold
// of two values (a row reduction: {0} and {1}). A handler never tests an
// op's kind; LoweringTest holds every op of such a handler to a formula.
struct FragmentMath {
  const char *formula = nullptr;
  const char *wrapper = nullptr;  // the PTX wrapper the formula calls, if any
  bool integer = false;           // also makes i32 fragments (masks, indices)
};

// A set of element types: one bit per DType (dtypeBit).
using DTypeSet = uint32_t;
constexpr DTypeSet dtypeBit(sema::DType d) { return DTypeSet(1) << static_cast<unsigned>(d); }
// "bf16, f16": the set's names in DTypes.def order.
std::string dtypeSetNames(DTypeSet s);

struct LoweringTable {
  Target target;
  std::string families;                                 // "sync, fragments, wgmma, tma"
  std::array<LowerFn, sema::kOpKindCount> ops{};        // role operations; null: none
  std::array<FragmentMath, sema::kOpKindCount> math{};  // the fragment handlers' formulas
  // The element types each role operation lowers for, of the operand its
  // lowering reads (an MMA's A and B, a fragment op's sources, a store's
  // fragment, a load's view); 0 where any type the gates accept lowers.
  // Handlers refuse by this column, and --list-ops prints it.
  std::array<DTypeSet, sema::kOpKindCount> dtypes{};
  // Whether `k` lowers here: a role operation with an entry, or a
  // declaration or value legal on the target (the skeleton lowers those).
  bool lowers(sema::OpKind k) const;
  // Whether role operation `k` lowers for operands of type `d` here.
  bool lowersDtype(sema::OpKind k, sema::DType d) const;
  // The names of the types `k` lowers for ("" where any type lowers).
  std::string dtypeNames(sema::OpKind k) const { return dtypeSetNames(dtypes[static_cast<size_t>(k)]); }
};

// The table of `t`, or null when the target's tensor-core path or copy
// engine has no lowering yet.
const LoweringTable *loweringTable(Target t);
bool hasLowering(Target t);
// Whether `k` lowers on `t` (false where `t` has no lowering at all).
bool lowers(Target t, sema::OpKind k);
// The bits (targetBit) of every target with a lowering.
uint32_t loweredTargets();

}  // namespace cake::codegen
