// Families: the family gate. It judges the facts analysis/Family.h computed:
// a fallback exists, every route's schedule has the family's launcher
// signature, every route takes some shape of the domain that no earlier
// route takes, and which shapes reach only the fallback.
#include <fmt/format.h>

#include "passes/Passes.h"

namespace cake::passes {

using namespace sema;

void checkFamily(const PassContext &ctx, const Family &fam, const analysis::FamilyFacts &f) {
  DiagnosticEngine &diags = ctx.diags;
  const Kernel &sig = *fam.signature;
  if (!fam.fallback) diags.report(DiagId::FamilyNoFallback, sig.nameRange, sig.name);
  for (const auto &m : f.mismatches) {
    auto b = diags.build(DiagId::FamilySignatureMismatch, m.route->scheduleRange, m.route->name, sig.name, m.what);
    if (m.whereName.empty())
      b.note(DiagId::NoteDeclaredHere, m.where, m.route->schedule->name);
    else
      b.note(DiagId::NoteScheduleParam, m.where, m.whereName, m.route->schedule->name);
    b.emit();
  }
  for (ResourceId p : f.undeclared) diags.report(DiagId::FamilyNoDomain, sig.nameRange, sig.name, sig.resource(p).name);
  if (f.hostless) {
    diags.report(DiagId::FamilyGuardNotHost, f.hostless->at, f.hostless->route->name, sig.name, f.hostless->what);
    return;
  }
  if (!f.decided) {
    diags.report(DiagId::FamilyUnprovenGuards, f.undecidedAt.valid() ? f.undecidedAt : sig.nameRange, sig.name,
                 f.undecidedWhy);
    return;
  }
  for (size_t i = 0; i < f.routes.size(); ++i) {
    const auto &r = f.routes[i];
    if (r.reachable) continue;
    const FamilyRoute &route = fam.routes[i];
    if (r.emptyInDomain) {
      diags.report(DiagId::FamilyUnreachableRoute, route.guardRange, route.name, sig.name,
                   "no shape of the domain satisfies its guard");
      continue;
    }
    auto b = diags.build(DiagId::FamilyUnreachableRoute, route.guardRange, route.name, sig.name,
                         "earlier routes take every shape of the domain its guard admits");
    for (size_t j : r.coveredBy) b.note(DiagId::NoteRouteCovers, fam.routes[j].range, fam.routes[j].name);
    b.emit();
  }
  if (f.fallbackOnly && fam.fallback)
    diags.report(DiagId::FamilyFallbackOnly, fam.fallback->range, sig.name, fam.fallback->name,
                 f.shapeText(*f.fallbackOnly));
}

}  // namespace cake::passes
