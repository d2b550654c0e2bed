// Releases: see Releases.h.
#include "analysis/Releases.h"

#include <algorithm>
#include <set>

#include "analysis/KernelFacts.h"
#include "sema/ConstEval.h"

namespace cake::analysis {

using namespace sema;

Releases collectReleases(const Kernel &k, const std::vector<RoleEvents> &roles,
                         const std::map<ResourceId, BarrierFacts> &barriers) {
  Releases out;
  // The roles reading each resource: only their signals can release it.
  std::map<ResourceId, std::set<ResourceId>> readers;
  for (const RoleEvents &r : roles)
    for (const Event &e : r.events)
      for (int8_t slot : e.op->info().effects.reads)
        if (ResourceId v = effectResource(*e.op, slot); v != kNoResource) readers[v].insert(r.role);
  auto signalledByReader = [&](ResourceId b, ResourceId v) {
    auto it = barriers.find(b);
    if (it == barriers.end()) return false;
    for (const Event *s : it->second.signals)
      if (readers[v].count(s->role)) return true;
    return false;
  };
  auto nearer = [&](const Event &w, const Event &e, ResourceId v) {
    for (const RoleEvents &r : roles) {
      if (r.role != e.role) continue;  // covers() relates events of one role
      for (const Event &x : r.events) {
        ResourceId xb =
            x.op->info().effects.waits != kNone ? effectResource(*x.op, x.op->info().effects.waits) : kNoResource;
        if (xb != kNoResource && x.index > w.index && x.index < e.index &&
            xb != effectResource(*w.op, w.op->info().effects.waits) && signalledByReader(xb, v) && covers(k, x, e) &&
            covers(k, w, x))
          return true;
      }
    }
    return false;
  };
  for (const auto &[b, use] : barriers)
    for (const Event *w : use.waits)
      for (const RoleEvents &r : roles)
        for (const Event &e : r.events)
          if (ResourceId v = effectResource(*e.op, e.op->info().effects.writes);
              v != kNoResource && covers(k, *w, e) && !nearer(*w, e, v)) {
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
