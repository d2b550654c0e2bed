// Lowering.cpp - each target's lowering table, from its instruction families.
#include "codegen/Lowering.h"

#include <memory>
#include <vector>

#include "codegen/Emitter.h"

namespace cake::codegen {

using sema::OpKind;
using K = detail::KernelEmitter;

namespace {

struct Entry {
  OpKind op;
  LowerFn fn;
  FragmentMath math = {};
  DTypeSet dtypes = 0;  // LoweringTable::dtypes
};

using sema::DType;
constexpr DTypeSet kF32 = dtypeBit(DType::F32), kI32 = dtypeBit(DType::I32);
constexpr DTypeSet k16Bit = dtypeBit(DType::BF16) | dtypeBit(DType::F16);
constexpr DTypeSet kFp8 = dtypeBit(DType::E4M3) | dtypeBit(DType::E5M2);
// Fragment math reads f32 fragments, i32 ones (masks, indices), 16-bit and
// fp8 ones (read as f32); views of 32-, 16- and 8-bit types load into registers
// (fp8 ones as tiles in the accumulator layout, loadFragment).
constexpr DTypeSet kWords = kF32 | kI32, kMath = kWords | k16Bit | kFp8;
struct Family {
  const char *name;
  std::vector<Entry> entries;
};

// Every NVIDIA target: mbarriers, named barriers and fences (nvidia/Sync.cpp),
// and register fragments written against the fragment layout (Fragments.cpp).
const Family kSync = {"sync",
                      {{OpKind::Wait, &K::mbarWait},
                       {OpKind::Arrive, &K::mbarArrive},
                       {OpKind::FenceProxy, &K::fenceProxy},
                       {OpKind::RoleSync, &K::roleSync},
                       {OpKind::Sync, &K::namedSync},
                       {OpKind::Atomic, &K::atomic},
                       {OpKind::LoadScalar, &K::loadScalar},
                       {OpKind::WaitFlag, &K::waitFlag}}};
// The formulas of elementwise math and of row reductions' folds are the
// third column (FragmentMath).
const Family kFragments = {"fragments",
                           {{OpKind::Store, &K::storeFragment, {}, k16Bit | kWords | kFp8},
                            {OpKind::Load, &K::loadFragment, {}, kWords | k16Bit | kFp8},
                            {OpKind::LoadTile, &K::loadTile, {}, kMath},
                            {OpKind::StoreTile, &K::storeTile, {}, kMath},
                            {OpKind::Cast, &K::elementwise, {"{0}"}, kMath},
                            {OpKind::Copy, &K::elementwise, {"{0}", nullptr, true}, kMath},
                            {OpKind::Fill, &K::elementwise, {"{1}", nullptr, true}, kMath},
                            {OpKind::Scale, &K::elementwise, {"{0} * {1}"}, kMath},
                            {OpKind::Add, &K::elementwise, {"{0} + {1}", nullptr, true}, kMath},
                            {OpKind::Sub, &K::elementwise, {"{0} - {1}", nullptr, true}, kMath},
                            {OpKind::Mul, &K::elementwise, {"{0} * {1}", nullptr, true}, kMath},
                            {OpKind::Div, &K::elementwise, {"__fdividef({0}, {1})"}, kMath},
                            {OpKind::Maximum, &K::elementwise, {"fmaxf({0}, {1})"}, kMath},
                            {OpKind::Minimum, &K::elementwise, {"fminf({0}, {1})"}, kMath},
                            {OpKind::Exp2, &K::elementwise, {"cake_ex2({0})", "cake_ex2"}, kMath},
                            {OpKind::Log2, &K::elementwise, {"cake_lg2({0})", "cake_lg2"}, kMath},
                            {OpKind::Tanh, &K::elementwise, {"cake_tanh({0})", "cake_tanh"}, kMath},
                            {OpKind::Less, &K::elementwise, {"({0} < {1}) ? 1 : 0", nullptr, true}, kMath},
                            {OpKind::Where, &K::elementwise, {"{0} != 0 ? {1} : {2}", nullptr, true}, kMath},
                            {OpKind::Tril, &K::tril, {}, kWords},
                            {OpKind::RowMax, &K::rowReduction, {"fmaxf({0}, {1})"}, kF32},
                            {OpKind::RowSum, &K::rowReduction, {"{0} + {1}"}, kF32},
                            {OpKind::RowArgmin, &K::rowArgmin, {}, kF32}}};
// Copies by every thread of a role: cp.async in, ld.shared + st.global out
// (nvidia/CpAsync.cpp); every NVIDIA target has them.
const Family kCopies = {"cp.async", {{OpKind::CpAsync, &K::cpAsync}, {OpKind::CopyTo, &K::copyTo}}};
// Tensor-core paths (Targets.def `mma`).
const Family kMmaSync = {"mma.sync", {{OpKind::Mma, &K::mmaSync, {}, k16Bit | kFp8 | dtypeBit(DType::I8)}}};
const Family kWgmma = {"wgmma",
                       {{OpKind::Mma, &K::wgmma, {}, k16Bit | kFp8},
                        {OpKind::MmaCommit, &K::wgmmaCommit},
                        {OpKind::MmaWait, &K::wgmmaWait}}};
const Family kTcgen05 = {"tcgen05",
                         {{OpKind::Mma, &K::tcgen05Mma, {}, k16Bit | kFp8},
                          {OpKind::Commit, &K::tcgen05Commit},
                          {OpKind::TmemLoad, &K::tmemLoad, {}, kF32}}};
// Copy engines (Targets.def `copy`).
const Family kTma = {"tma",
                     {{OpKind::TmaLoad, &K::tmaLoad},
                      {OpKind::TmaStore, &K::tmaStore},
                      {OpKind::TmaReduceAdd, &K::tmaStore, {}, kF32 | k16Bit},
                      {OpKind::TmaStoreWait, &K::tmaStoreWait}}};

const Family kNoEngine = {"no bulk engine", {}};

const Family *mmaFamily(MmaPath p) {
  switch (p) {
  case MmaPath::Wgmma: return &kWgmma;
  case MmaPath::MmaSync: return &kMmaSync;
  case MmaPath::Tcgen05: return &kTcgen05;
  }
  return nullptr;
}

const Family *copyFamily(CopyEngine c) {
  switch (c) {
  case CopyEngine::Tma: return &kTma;
  case CopyEngine::CpAsync: return &kNoEngine;  // cp.async is every target's (kCopies)
  }
  return nullptr;
}

std::unique_ptr<LoweringTable> build(const TargetInfo &ti) {
  const Family *mma = mmaFamily(ti.mma), *copy = copyFamily(ti.copy);
  if (!mma || !copy) return nullptr;
  auto t = std::make_unique<LoweringTable>();
  t->target = ti.target;
  for (const Family *f : {&kSync, &kFragments, &kCopies, mma, copy}) {
    t->families += (t->families.empty() ? "" : ", ") + std::string(f->name);
    for (const Entry &e : f->entries)
      if (sema::opInfo(e.op).legalOn(ti.target)) {
        t->ops[static_cast<size_t>(e.op)] = e.fn;
        t->math[static_cast<size_t>(e.op)] = e.math;
        t->dtypes[static_cast<size_t>(e.op)] = e.dtypes;
      }
  }
  return t;
}

const std::vector<std::unique_ptr<LoweringTable>> &tables() {
  static const std::vector<std::unique_ptr<LoweringTable>> all = [] {
    std::vector<std::unique_ptr<LoweringTable>> v(allTargets().size());
    for (const TargetInfo &ti : allTargets()) v[static_cast<size_t>(ti.target)] = build(ti);
    return v;
  }();
  return all;
}

}  // namespace

bool LoweringTable::lowers(OpKind k) const {
  const sema::OpInfo &info = sema::opInfo(k);
  if (!info.legalOn(target)) return false;
  if (info.scope != sema::OpScope::Role) return true;
  return ops[static_cast<size_t>(k)] != nullptr;
}

bool LoweringTable::lowersDtype(OpKind k, sema::DType d) const {
  DTypeSet s = dtypes[static_cast<size_t>(k)];
  return s == 0 || (s & dtypeBit(d)) != 0;
}

std::string dtypeSetNames(DTypeSet s) {
  std::string out;
  for (const sema::DTypeInfo &d : sema::allDTypes())
    if (s & dtypeBit(d.dtype)) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

const LoweringTable *loweringTable(Target t) { return tables()[static_cast<size_t>(t)].get(); }

bool hasLowering(Target t) { return loweringTable(t) != nullptr; }

bool lowers(Target t, OpKind k) {
  const LoweringTable *table = loweringTable(t);
  return table && table->lowers(k);
}

uint32_t loweredTargets() {
  uint32_t bits = 0;
  for (const TargetInfo &ti : allTargets())
    if (hasLowering(ti.target)) bits |= targetBit(ti.target);
  return bits;
}

}  // namespace cake::codegen
