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
};
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
                       {OpKind::RoleSync, &K::roleSync}}};
// The formulas of elementwise math and of row reductions' folds are the
// third column (FragmentMath).
const Family kFragments = {"fragments",
                           {{OpKind::Store, &K::storeFragment},
                            {OpKind::Load, &K::loadFragment},
                            {OpKind::Cast, &K::elementwise, {"{0}"}},
                            {OpKind::Copy, &K::elementwise, {"{0}", nullptr, true}},
                            {OpKind::Fill, &K::elementwise, {"{1}", nullptr, true}},
                            {OpKind::Scale, &K::elementwise, {"{0} * {1}"}},
                            {OpKind::Add, &K::elementwise, {"{0} + {1}", nullptr, true}},
                            {OpKind::Sub, &K::elementwise, {"{0} - {1}", nullptr, true}},
                            {OpKind::Mul, &K::elementwise, {"{0} * {1}", nullptr, true}},
                            {OpKind::Div, &K::elementwise, {"__fdividef({0}, {1})"}},
                            {OpKind::Maximum, &K::elementwise, {"fmaxf({0}, {1})"}},
                            {OpKind::Minimum, &K::elementwise, {"fminf({0}, {1})"}},
                            {OpKind::Exp2, &K::elementwise, {"cake_ex2({0})", "cake_ex2"}},
                            {OpKind::Log2, &K::elementwise, {"cake_lg2({0})", "cake_lg2"}},
                            {OpKind::Less, &K::elementwise, {"({0} < {1}) ? 1 : 0", nullptr, true}},
                            {OpKind::Where, &K::elementwise, {"{0} != 0 ? {1} : {2}", nullptr, true}},
                            {OpKind::Tril, &K::tril},
                            {OpKind::RowMax, &K::rowReduction, {"fmaxf({0}, {1})"}},
                            {OpKind::RowSum, &K::rowReduction, {"{0} + {1}"}},
                            {OpKind::RowArgmin, &K::rowArgmin}}};
// Copies by every thread of a role: cp.async in, ld.shared + st.global out
// (nvidia/CpAsync.cpp); every NVIDIA target has them.
const Family kCopies = {"cp.async", {{OpKind::CpAsync, &K::cpAsync}, {OpKind::CopyTo, &K::copyTo}}};
// Tensor-core paths (Targets.def `mma`).
const Family kMmaSync = {"mma.sync", {{OpKind::Mma, &K::mmaSync}}};
const Family kWgmma = {
    "wgmma", {{OpKind::Mma, &K::wgmma}, {OpKind::MmaCommit, &K::wgmmaCommit}, {OpKind::MmaWait, &K::wgmmaWait}}};
const Family kTcgen05 = {
    "tcgen05", {{OpKind::Mma, &K::tcgen05Mma}, {OpKind::Commit, &K::tcgen05Commit}, {OpKind::TmemLoad, &K::tmemLoad}}};
// Copy engines (Targets.def `copy`).
const Family kTma = {
    "tma",
    {{OpKind::TmaLoad, &K::tmaLoad}, {OpKind::TmaStore, &K::tmaStore}, {OpKind::TmaStoreWait, &K::tmaStoreWait}}};

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
