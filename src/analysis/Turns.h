// Turns: how roles that share one side of a barrier take turns, and which
// turn's signal a wait consumes.
//
//  - turnsOf: the turn structure of a barrier's waiters or signallers
//    (BarrierFacts::waitTurns, signalTurns), computed with the barrier facts;
//  - consumedBy, blocksAfterCredits: on an ordered sequence barrier (roles
//    taking turns on both sides, in the same order) a role's arrival is
//    consumed by the next role's wait only;
//  - ordersItself, ordersTurn: whether a turn's first wait on a barrier is
//    ordered after the previous turn's last wait (the safety gate's turn
//    order).
//
// Runs after: collectEvents; the relations read the barrier facts.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "analysis/ScheduleModel.h"
#include "sema/SemaIR.h"

namespace cake::analysis {

struct BarrierFacts;
struct KernelFacts;

// Roles that take turns on one side of a barrier (its waiters, or its
// signallers): each uses it only inside one outermost loop of constant step
// s, all s loops ending alike and starting at the first one's start plus
// 0, 1, ..., s - 1, with the same uses in the same nest. Together they run
// through every iteration of that loop at step 1 once, so their stages are
// one running count shared between them, and a phase gets the signals of
// one of them (CUTLASS's ping-pong consumers alternating tiles of one ring).
struct Turns {
  std::vector<sema::ResourceId> roles;                    // by their loop's start
  std::map<sema::ResourceId, const sema::IrStmt *> loop;  // each role's loop
  int64_t step = 0;
  sema::AffineForm start;  // the first role's loop start
  bool has(sema::ResourceId role) const { return loop.count(role) != 0; }
};

// The roles of one side of a barrier (`uses`: its waits or its signals, by
// `roles`) taking turns, if they do.
std::optional<Turns> turnsOf(const sema::Kernel &k, const std::vector<const Event *> &uses,
                             const std::set<sema::ResourceId> &roles);

// Whether `role` takes turns over loop O on one side of a barrier (its
// waits, or its signals).
bool turnsOver(const BarrierFacts &bf, sema::ResourceId role, const sema::IrStmt *O, bool waits);

// Whether role `signaller`'s arrival on `b` can be what a wait of role
// `waiter` consumes. Roles taking turns on both sides of one barrier in
// the same order (an ordered sequence barrier: each turn waits for the
// previous turn's signal) hand it on to the next role only.
bool consumedBy(const sema::Kernel &k, const BarrierFacts &bf, sema::ResourceId b, sema::ResourceId signaller,
                sema::ResourceId waiter);
// An ordered sequence barrier (consumedBy) with credits for the first
// turns only: the turns after them each wait for the previous turn's
// signal, so `waiter`'s waits block on `signaller`'s signals when it
// takes the next turn and its first turn is past the credits.
bool blocksAfterCredits(const sema::Kernel &k, const BarrierFacts &bf, sema::ResourceId b, sema::ResourceId signaller,
                        sema::ResourceId waiter);

// An ordered sequence barrier orders itself: R's wait at stage s waits
// for the signal of stage s - credits and is sound once the one a lap
// earlier (s - credits - count) is complete, which R gives itself in its
// previous turn, n iterations back, when each phase takes one role's
// signals (signals taking turns).
bool ordersItself(const sema::Kernel &k, sema::ResourceId b, const BarrierFacts &use, sema::ResourceId R,
                  const sema::IrStmt *LR, const Event &firstWait, size_t n);
// Whether role R, in its turn loop LR, waits before `firstWait` on a
// barrier that role P signals in its turn loop LP after `lastWaitP`, the
// wait of each turn needing the signal of the turn before.
bool ordersTurn(const sema::Kernel &k, const KernelFacts &f, sema::ResourceId R, const sema::IrStmt *LR,
                const Event &firstWait, sema::ResourceId P, const sema::IrStmt *LP, const Event &lastWaitP,
                sema::ResourceId b);

}  // namespace cake::analysis
