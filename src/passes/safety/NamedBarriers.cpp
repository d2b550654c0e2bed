// Named barriers some roles meet at (ProgramSafety's sub-check
// checkNamedBarrierMeetings): lm.sync on an lm.named_barrier waits until
// every warp of the barrier's roles has reached its matching lm.sync, so
//  - only its roles meet there (another role's warps would count toward
//    theirs: the barrier completes with some of them missing, or never);
//  - each of its roles meets there (the others wait for its warps forever);
//  - each meets there as often as the others (the meeting some roles skip
//    hangs the rest): counts compared as numbers or normal forms, the same
//    loop nest, or unproven.
// (A meeting that waits on a role blocked before its own meeting is
// checkCircularWait's, in Barriers.cpp.)
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "passes/safety/Safety.h"

namespace cake::passes::safety {

namespace {

class NamedBarrierChecks : public Checker {
public:
  using Checker::Checker;

  void check() {
    for (const Resource &nb : k_.resources) {
      if (nb.kind != ResourceKind::NamedBarrier) continue;
      // Each role's meetings, over all its blocks, in program order.
      std::map<ResourceId, std::vector<const Event *>> meetings;
      for (const RoleEvents &r : roles_)
        for (const Event &e : r.events)
          if (effectResource(*e.op, e.op->info().effects.meets) == nb.id) meetings[r.role].push_back(&e);
      const std::vector<ResourceId> &members = nb.consumers;
      auto isMember = [&](ResourceId role) { return std::find(members.begin(), members.end(), role) != members.end(); };
      std::string roleNames;
      for (ResourceId m : members) roleNames += (roleNames.empty() ? "'" : ", '") + name(m) + "'";
      for (const auto &[role, es] : meetings)
        if (!isMember(role))
          ctx_.diags.build(DiagId::SafetyNamedBarrierOutsider, es.front()->op->range, name(role), nb.name, roleNames)
              .note(DiagId::NoteDeclaredHere, nb.range, nb.name)
              .emit();
      const Event *some = nullptr;
      for (ResourceId m : members)
        if (meetings.count(m)) some = meetings[m].front();
      for (ResourceId m : members)
        if (!meetings.count(m)) {
          auto b = ctx_.diags.build(DiagId::SafetyNamedBarrierAbsent, nb.range, name(m), nb.name);
          if (some) b.note(DiagId::NoteSyncHere, some->op->range, name(some->role), nb.name);
          b.emit();
        }
      checkCounts(nb, meetings);
    }
  }

private:
  // How many times a role meets at the barrier: the sum of its sites' trips
  // (nullopt: not known, or under a condition).
  std::optional<PolyForm> count(const std::vector<const Event *> &es) const {
    PolyForm total;
    for (const Event *e : es) {
      if (e->conditional) return std::nullopt;
      std::optional<PolyForm> n = tripForm(k_, *e);
      if (!n) return std::nullopt;
      std::optional<PolyForm> sum = PolyForm::add(total, *n, 1);
      if (!sum) return std::nullopt;
      total = *sum;
    }
    return total;
  }

  void checkCounts(const Resource &nb, const std::map<ResourceId, std::vector<const Event *>> &meetings) {
    const std::vector<const Event *> *first = nullptr;
    for (ResourceId m : nb.consumers) {
      auto it = meetings.find(m);
      if (it == meetings.end()) continue;
      if (!first) {
        first = &it->second;
        continue;
      }
      const std::vector<const Event *> &es = it->second;
      // One site each in loop nests of the same bounds: equal counts.
      if (first->size() == 1 && es.size() == 1 && !first->front()->conditional && !es.front()->conditional &&
          sameLoopNest(k_, *first->front(), *es.front()))
        continue;
      std::optional<PolyForm> a = count(*first), b = count(es);
      std::optional<int64_t> d = a && b ? PolyForm::constantDifference(*a, *b) : std::nullopt;
      auto nest = [&](const std::vector<const Event *> &xs) {
        std::string out;
        for (const Event *x : xs) {
          std::string n = loopNestKey(ctx_.sm, *x);
          out += (out.empty() ? "" : " and ") + (n.empty() ? std::string("once") : "in " + n);
        }
        return out;
      };
      const Event &at = *es.front();
      const Event &other = *first->front();
      if (d && *d == 0) continue;
      if (d) {
        std::string what =
            a->isConstant() && b->isConstant()
                ? fmt::format("role '{}' meets at it {} time(s) and role '{}' {} time(s)", name(other.role),
                              a->constant(), name(at.role), b->constant())
                : fmt::format("role '{}' meets at it {} time(s) {} than role '{}', whenever the loops run",
                              name(other.role), *d > 0 ? *d : -*d, *d > 0 ? "more" : "fewer", name(at.role));
        ctx_.diags.build(DiagId::SafetyNamedBarrierCount, at.op->range, nb.name, what)
            .note(DiagId::NoteSyncHere, other.op->range, name(other.role), nb.name)
            .emit();
        continue;
      }
      ctx_.diags.report(DiagId::SafetyUnprovenNamedBarrierCount, at.op->range, nb.name,
                        fmt::format("role '{}' meets at it {} and role '{}' {}", name(other.role), nest(*first),
                                    name(at.role), nest(es)));
    }
  }
};

}  // namespace

void checkNamedBarrierMeetings(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  NamedBarrierChecks(ctx, k, f).check();
}

}  // namespace cake::passes::safety
