// Unit tests for the vocabulary table's consistency: what sema, the checks
// and codegen rely on holds for every entry.
#include <doctest/doctest.h>

#include <set>

#include "sema/OpTable.h"
#include "sema/SemaIR.h"

using namespace cake;
using namespace cake::sema;

TEST_CASE("every operation has a unique name per receiver, a description and parameters that make sense") {
  std::set<std::pair<int, std::string>> seen;
  for (size_t i = 0; i < allOps().size(); ++i) {
    const OpInfo &op = allOps()[i];
    CAPTURE(op.name);
    CHECK(static_cast<size_t>(op.kind) == i);
    CHECK(seen.insert({static_cast<int>(op.receiver), std::string(op.name)}).second);
    CHECK_FALSE(op.description.empty());
    CHECK(op.targets != 0);
    std::set<std::string_view> params;
    for (const ParamInfo &p : op.params) {
      CHECK(params.insert(p.name).second);
      if (p.required) CHECK(p.defaultKind == ParamInfo::Default::Absent);
    }
  }
}

TEST_CASE("every operation has a PTX form for each target it claims, and none for others") {
  for (const OpInfo &op : allOps()) {
    CAPTURE(op.name);
    uint32_t covered = 0;
    for (const PtxForm &f : op.ptx) {
      CHECK_FALSE(f.ptx.empty());
      CHECK((f.targets & ~op.targets) == 0);
      CHECK((covered & f.targets) == 0);  // one form per target
      covered |= f.targets;
    }
    for (const TargetInfo &t : allTargets())
      if (op.legalOn(t.target)) CHECK_FALSE(op.ptxFor(t.target).empty());
  }
}

TEST_CASE("every operation that runs inside a role declares its effects") {
  for (const OpInfo &op : allOps()) {
    if (op.scope != OpScope::Role) continue;
    CAPTURE(op.name);
    const OpEffects &e = op.effects;
    bool any = e.writes != kNone || e.reads[0] != kNone || e.signals != kNone || e.waits != kNone || e.fence ||
               e.closesGroup || e.waitsGroup || e.syncsRole ||
               op.result == OpResult::Fragment;  // it defines its result
    CHECK(any);
    // A value read from memory names its range's two parameters, integers.
    if (e.valueRange != kNone) {
      REQUIRE(static_cast<size_t>(e.valueRange) + 1 < op.params.size());
      CHECK(op.params[static_cast<size_t>(e.valueRange)].kind == ParamKind::IntExpr);
      CHECK(op.params[static_cast<size_t>(e.valueRange) + 1].kind == ParamKind::IntExpr);
      CHECK(op.result == OpResult::RoleInt);
    }
    // Effects name real parameters.
    auto valid = [&](int8_t i) {
      return i == kNone || i == kReceiver || (i >= 0 && static_cast<size_t>(i) < op.params.size());
    };
    CHECK(valid(e.writes));
    std::set<int8_t> reads;
    for (int8_t r : e.reads) {
      CHECK(valid(r));
      if (r != kNone) CHECK(reads.insert(r).second);  // each parameter named once
    }
    CHECK(valid(e.signals));
    CHECK(valid(e.waits));
    if (e.signals != kNone) {
      CHECK(e.signal != Signal::None);
      CHECK(op.params[static_cast<size_t>(e.signals)].kind == ParamKind::BarrierP);
    }
    if (e.waits != kNone) CHECK(op.params[static_cast<size_t>(e.waits)].kind == ParamKind::BarrierP);
    if (e.writes == kReceiver || e.reads[0] == kReceiver) CHECK(op.receiver == Receiver::View);
    // A multicast count belongs to a copy that signals; a cluster-wide
    // signal switch to an operation that signals.
    if (e.multicast != kNone) {
      CHECK(e.multicast >= 0);
      CHECK(static_cast<size_t>(e.multicast) < op.params.size());
      CHECK(op.params[static_cast<size_t>(e.multicast)].kind == ParamKind::ConstInt);
      CHECK(e.signal == Signal::CompleteTx);
    }
    // A pending count belongs to a wait for groups; a first column to a copy
    // into a view.
    if (e.pendingGroups != kNone) {
      CHECK(op.params[static_cast<size_t>(e.pendingGroups)].kind == ParamKind::ConstInt);
      CHECK(e.waitsGroup);
    }
    if (e.firstColumn != kNone) {
      CHECK(op.params[static_cast<size_t>(e.firstColumn)].kind == ParamKind::ConstInt);
      CHECK(e.writes == kReceiver);
    }
    if (e.clusterSignal != kNone) {
      CHECK(e.clusterSignal >= 0);
      CHECK(static_cast<size_t>(e.clusterSignal) < op.params.size());
      CHECK(op.params[static_cast<size_t>(e.clusterSignal)].kind == ParamKind::ConstBool);
      CHECK(e.signals != kNone);
    }
  }
}

TEST_CASE("declarations and values have no memory effects") {
  for (const OpInfo &op : allOps()) {
    if (op.scope == OpScope::Role) continue;
    CAPTURE(op.name);
    CHECK(op.effects.writes == kNone);
    CHECK(op.effects.signals == kNone);
    CHECK(op.effects.waits == kNone);
  }
}

TEST_CASE("the one mma lowers to the tensor-core path of each target") {
  const OpInfo &mma = opInfo(OpKind::Mma);
  CHECK(mma.ptxFor(Target::Sm80).find("mma.sync") == 0);
  CHECK(mma.ptxFor(Target::Sm90a).find("wgmma") == 0);
  CHECK(mma.ptxFor(Target::Sm100a).find("tcgen05.mma") == 0);
  CHECK(mma.ptxFor(Target::Sm120a).find("mma.sync") == 0);
  CHECK_FALSE(opInfo(OpKind::Tmem).legalOn(Target::Sm90a));
  CHECK(opInfo(OpKind::Tmem).legalOn(Target::Sm103a));
  CHECK_FALSE(opInfo(OpKind::TmaLoad).legalOn(Target::Sm80));
}

TEST_CASE("the PTX column claims each instruction only where the PTX ISA has it") {
  // Minimum targets from the PTX ISA's target notes: these need sm_90 (or an
  // sm_90a/sm_100a-family target) and must not appear on sm_80 or sm_89.
  const char *sm90Only[] = {"try_wait",  "fence.proxy.async", "setmaxnreg", "stmatrix", "cp.async.bulk",
                            "expect_tx", "shared::cluster",   "%cluster",   "wgmma",    "tcgen05"};
  for (const OpInfo &op : allOps())
    for (Target t : {Target::Sm80, Target::Sm89}) {
      CAPTURE(op.name);
      std::string_view ptx = op.ptxFor(t);
      for (const char *insn : sm90Only) CHECK(ptx.find(insn) == std::string_view::npos);
    }
  for (const OpInfo &op : allOps())
    for (const TargetInfo &t : allTargets()) {
      CAPTURE(op.name);
      CAPTURE(t.name);
      std::string_view ptx = op.ptxFor(t.target);
      if (ptx.find("wgmma") != std::string_view::npos) CHECK(t.mma == MmaPath::Wgmma);
      if (ptx.find("tcgen05") != std::string_view::npos) CHECK(t.mma == MmaPath::Tcgen05);
      if (ptx.find("setmaxnreg") != std::string_view::npos) CHECK(t.setmaxnreg);
      if (ptx.find("cp.async.bulk") != std::string_view::npos) CHECK(t.tma());
    }
}

TEST_CASE("target masks follow the target table") {
  for (const TargetInfo &t : allTargets()) {
    CAPTURE(t.name);
    uint32_t bit = targetBit(t.target);
    CHECK(((TGT_TMA & bit) != 0) == t.tma());
    CHECK(((TGT_CLUSTERS & bit) != 0) == t.clusters);
    CHECK(((TGT_BLACKWELL & bit) != 0) == t.tmem());
    CHECK(((TGT_SETMAXNREG & bit) != 0) == t.setmaxnreg);
    CHECK(((TGT_SM90 & bit) != 0) == (t.sm >= 90));
    CHECK(t.regMin <= t.regMax);
    CHECK(t.namedBarriers == 16);
  }
  CHECK(targetNames(TGT_HOPPER) == "sm_90a");
  CHECK(targetNames(TGT_BLACKWELL) == "sm_100a, sm_103a");
}

TEST_CASE("generated parameter enums and the effects' parameter slots agree with the table") {
  static_assert(static_cast<int>(param::Wait::stage) == 1);
  static_assert(static_cast<int>(param::TmaLoad::barrier) == 3);
  static_assert(ParamOf<param::Mma>::kind == OpKind::Mma);
  for (const OpInfo &op : allOps()) {
    CAPTURE(op.name);
    for (size_t i = 0; i < op.params.size(); ++i)
      if (op.params[i].name == "stage" && op.params[i].kind == ParamKind::IntExpr)
        CHECK(op.effects.stage == static_cast<int8_t>(i));  // the stage slot names the stage parameter
    if (op.effects.overwrites != kNone) {
      // The overwrite flag is a boolean and the operation writes something.
      CHECK(op.params[static_cast<size_t>(op.effects.overwrites)].kind == ParamKind::BoolExpr);
      CHECK(op.effects.writes != kNone);
    }
    for (int8_t slot :
         {op.effects.writes, op.effects.signals, op.effects.waits, op.effects.multicast, op.effects.clusterSignal,
          op.effects.stage, op.effects.pendingGroups, op.effects.overwrites, op.effects.firstColumn})
      CHECK((slot == kNone || slot == kReceiver || (slot >= 0 && static_cast<size_t>(slot) < op.params.size())));
  }
}

TEST_CASE("reading an operand of another operation is an internal error, not an out-of-bounds read") {
  Operation mma;
  mma.kind = OpKind::Mma;
  mma.operands.resize(opInfo(OpKind::Mma).params.size());
  CHECK_NOTHROW(mma.operand(param::Mma::init));
  CHECK_THROWS_AS(mma.operand(param::TmaLoad::barrier), cake::InternalError);
  CHECK_THROWS_AS(mma.operandAt(kNone), cake::InternalError);
  CHECK_THROWS_AS(mma.operandAt(static_cast<int8_t>(mma.operands.size())), cake::InternalError);
}
