// Unit tests for the targets' lowering tables: a target with a lowering
// lowers every operation Ops.def makes legal on it, so adding an operation
// (or a target to an operation) without its lowering fails here, not at a
// user's `-o`.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

#include "codegen/Emitter.h"
#include "codegen/Lowering.h"
#include "sema/OpTable.h"

using namespace cake;
using namespace cake::sema;

namespace {
struct OpRow {
  OpKind kind;
  const char *name;
  OpScope scope;
  uint32_t targets;
};
// Straight from the table's X-macro, independent of the OpInfo vector.
const OpRow kRows[] = {
#define OP(Enum, Name, Recv, Res, Scope, Targets, ...) {OpKind::Enum, Name, OpScope::Scope, Targets},
#include "sema/Ops.def"
#undef OP
};
}  // namespace

TEST_CASE("a target with a lowering lowers every operation legal on it") {
  int lowered = 0;
  for (const TargetInfo &ti : allTargets()) {
    const codegen::LoweringTable *table = codegen::loweringTable(ti.target);
    CHECK(codegen::hasLowering(ti.target) == (table != nullptr));
    if (!table) continue;
    ++lowered;
    CHECK(table->target == ti.target);
    for (const OpRow &row : kRows) {
      CAPTURE(std::string(ti.name));
      CAPTURE(std::string(row.name));
      bool legal = (row.targets & targetBit(ti.target)) != 0;
      CHECK(table->lowers(row.kind) == legal);
      if (row.scope == OpScope::Role) CHECK((table->ops[static_cast<size_t>(row.kind)] != nullptr) == legal);
    }
  }
  CHECK(lowered >= 1);
}

TEST_CASE("every op of a formula-driven fragment handler has its formula on every target") {
  // elementwise and rowReduction lower many ops alike; what differs (the
  // element's expression, a reduction's fold) is LoweringTable::math. An op
  // added to one of them without its formula fails here, by name.
  int checked = 0;
  for (const TargetInfo &ti : allTargets()) {
    const codegen::LoweringTable *table = codegen::loweringTable(ti.target);
    if (!table) continue;
    for (const OpRow &row : kRows) {
      codegen::LowerFn fn = table->ops[static_cast<size_t>(row.kind)];
      if (fn != &codegen::detail::KernelEmitter::elementwise && fn != &codegen::detail::KernelEmitter::rowReduction)
        continue;
      ++checked;
      const codegen::FragmentMath &math = table->math[static_cast<size_t>(row.kind)];
      INFO("lm.", std::string(row.name), " on ", std::string(ti.name), " has no formula (Lowering.cpp, kFragments)");
      REQUIRE(math.formula != nullptr);
      std::string f = math.formula;
      bool namesAnOperand = f.find("{0}") != std::string::npos || f.find("{1}") != std::string::npos;
      CHECK(namesAnOperand);
      if (fn == &codegen::detail::KernelEmitter::rowReduction) CHECK(f.find("{1}") != std::string::npos);
      if (math.wrapper) CHECK(f.find(math.wrapper) != std::string::npos);
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("every op of a register-fragment or MMA handler names the element types it lowers for") {
  // A handler refuses operands by LoweringTable::dtypes (0 means any type);
  // an op added to a fragment handler, or an MMA path, without that column
  // would take any type the gates accept (a bf16 tile into an f32 fold) and
  // fails here, by name.
  namespace d = codegen::detail;
  const codegen::LowerFn typed[] = {&d::KernelEmitter::elementwise,  &d::KernelEmitter::rowReduction,
                                    &d::KernelEmitter::rowArgmin,    &d::KernelEmitter::tril,
                                    &d::KernelEmitter::loadFragment, &d::KernelEmitter::storeFragment,
                                    &d::KernelEmitter::wgmma,        &d::KernelEmitter::mmaSync,
                                    &d::KernelEmitter::tcgen05Mma,   &d::KernelEmitter::tmemLoad};
  int checked = 0;
  for (const TargetInfo &ti : allTargets()) {
    const codegen::LoweringTable *table = codegen::loweringTable(ti.target);
    if (!table) continue;
    for (const OpRow &row : kRows) {
      codegen::LowerFn fn = table->ops[static_cast<size_t>(row.kind)];
      if (!fn || std::find(std::begin(typed), std::end(typed), fn) == std::end(typed)) continue;
      ++checked;
      INFO("lm.", std::string(row.name), " on ", std::string(ti.name),
           " has no element-type column (Lowering.cpp, the entry's fourth field)");
      CHECK(table->dtypes[static_cast<size_t>(row.kind)] != 0);
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("every target lowers: its tensor-core path and copy engine both have a family") {
  for (const TargetInfo &ti : allTargets()) {
    CAPTURE(ti.name);
    CHECK(codegen::hasLowering(ti.target));
  }
  CHECK(codegen::loweredTargets() == sema::TGT_ALL);
  CHECK(codegen::lowers(Target::Sm100a, OpKind::Mma));
  CHECK(codegen::lowers(Target::Sm103a, OpKind::TmemLoad));
  CHECK(codegen::loweringTable(Target::Sm100a)->families.find("tcgen05") != std::string::npos);
  CHECK_FALSE(codegen::lowers(Target::Sm100a, OpKind::MmaCommit));  // wgmma's: not legal there
  CHECK(codegen::lowers(Target::Sm90a, OpKind::Mma));
  CHECK(codegen::lowers(Target::Sm80, OpKind::CpAsync));
  CHECK_FALSE(codegen::lowers(Target::Sm80, OpKind::TmaLoad));  // not legal there
  CHECK(codegen::lowers(Target::Sm120a, OpKind::TmaLoad));      // sm_120a: mma.sync with TMA
  CHECK(codegen::loweringTable(Target::Sm120a)->families.find("mma.sync") != std::string::npos);
  CHECK_FALSE(codegen::lowers(Target::Sm90a, OpKind::TmemLoad));  // not legal there
  CHECK(codegen::lowers(Target::Sm90a, OpKind::Barrier));         // a declaration: the skeleton's
}

#include "codegen/Codegen.h"

TEST_CASE("a user's name reaches generated C unchanged only where it means nothing else there") {
  // Plain names, and names near reserved ones, stay as they are.
  for (const char *n : {"A", "M", "acc", "k", "tm", "cur", "nvals", "Cut", "gemm_bf16", "memcpy2d", "a_tile"})
    CHECK_MESSAGE(codegen::isPlainCName(n), std::string(n));
  // Keywords, names of the headers (macros, functions, typedefs), of the
  // implementation and ours are mangled.
  for (const char *n : {"int",
                        "static_assert",
                        "NULL",
                        "EOF",
                        "memcpy",
                        "system",
                        "printf",
                        "dim3",
                        "max",
                        "CAKE_SUCCESS",
                        "cake_x",
                        "cudaSuccess",
                        "cudaMalloc",
                        "cuTensorMapEncodeTiled",
                        "CU_TENSOR_MAP_SWIZZLE_NONE",
                        "CUresult",
                        "int64_t",
                        "_x",
                        "__nv_bfloat16",
                        "x_",
                        "stream",
                        "threadIdx",
                        "msg"})
    CHECK_MESSAGE(!codegen::isPlainCName(n), std::string(n));
}

TEST_CASE("the reserved-name table is sorted (ident() bisects it) and every name in it is mangled") {
  static const char *const names[] = {
#define R(name) #name,
#include "codegen/ReservedNames.def"
#undef R
  };
  auto less = [](const char *a, const char *b) { return std::strcmp(a, b) < 0; };
  CHECK(std::is_sorted(std::begin(names), std::end(names), less));
  CHECK(std::size(names) > 1000);
  for (const char *n : names) CHECK_MESSAGE(!codegen::isPlainCName(n), std::string(n));
}
