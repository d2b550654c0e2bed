// Unit tests for the vocabulary table's consistency: what sema, the checks
// and codegen rely on holds for every entry.
#include <doctest/doctest.h>

#include <set>

#include "sema/OpTable.h"

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
               e.closesGroup || e.waitsGroup || e.syncsRole;
    CHECK(any);
    // Effects name real parameters.
    auto valid = [&](int8_t i) { return i == kNone || i == kReceiver || (i >= 0 && static_cast<size_t>(i) < op.params.size()); };
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
