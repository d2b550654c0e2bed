// Releases: see Releases.h.
#include "analysis/Releases.h"

#include <algorithm>

#include "analysis/KernelFacts.h"
#include "sema/ConstEval.h"

namespace cake::analysis {

using namespace sema;

Releases collectReleases(const Kernel &k, const std::vector<RoleEvents> &roles,
                         const std::map<ResourceId, BarrierFacts> &barriers) {
  Releases out;
  auto nearer = [&](const Event &w, const Event &e) {
    for (const RoleEvents &r : roles) {
      if (r.role != e.role) continue;  // covers() relates events of one role
      for (const Event &x : r.events)
        if (x.op->info().effects.waits != kNone && x.index > w.index && x.index < e.index &&
            effectResource(*x.op, x.op->info().effects.waits) != effectResource(*w.op, w.op->info().effects.waits) &&
            covers(k, x, e) && covers(k, w, x))
          return true;
    }
    return false;
  };
  for (const auto &[b, use] : barriers)
    for (const Event *w : use.waits)
      for (const RoleEvents &r : roles)
        for (const Event &e : r.events)
          if (ResourceId v = effectResource(*e.op, e.op->info().effects.writes);
              v != kNoResource && covers(k, *w, e) && !nearer(*w, e)) {
            bool kw, ke;
            AffineForm fw = formOf(k, stageOperand(*w->op), kw), fe = formOf(k, effectStage(*e.op, kReceiver), ke);
            out.views[b].try_emplace(v, kw && ke ? IntExprTable::constantDifference(fw, fe) : std::nullopt);
            out.writers[{b, v}].insert(e.role);
          }
  return out;
}

bool releasesTo(const Kernel &k, const KernelFacts &f, ResourceId b, ResourceId v, ResourceId role) {
  auto rel = f.releases.views.find(b);
  if (rel == f.releases.views.end() || !rel->second.count(v)) return false;
  auto w = f.releases.writers.find({b, v});
  if (w == f.releases.writers.end()) return false;
  return std::any_of(w->second.begin(), w->second.end(),
                     [&](ResourceId x) { return consumedBy(k, f.barrier(b), b, role, x); });
}

std::optional<int64_t> freedShift(const Kernel &k, const KernelFacts &f, ResourceId b, ResourceId v) {
  auto it = f.releases.views.find(b);
  if (it == f.releases.views.end()) return std::nullopt;
  auto lead = it->second.find(v);
  if (lead == it->second.end() || !lead->second) return std::nullopt;
  if (*lead->second == INT64_MIN) return std::nullopt;  // no negation (adversarial stage constants)
  return satAdd(f.barrier(b).release ? k.resources[b].count : 0, -*lead->second);
}

}  // namespace cake::analysis
