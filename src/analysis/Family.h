// Family: what the analysis layer knows about a kernel family (routes behind
// ordered shape guards, a fallback, a declared shape domain), computed once
// for the family gate and the dispatcher.
//
// Reachability is decided exactly when every comparison in the guards
// constrains one integer parameter: `M <= 64`, `K % 64 == 0`,
// `(N + 255) // 256 >= 4`. Each such comparison is true on a union of
// intervals of its parameter (found by bisection, the expression being
// monotone) or on residue classes (a remainder). The domain of each
// parameter then splits into cells (an interval between two break points
// times a residue class modulo the lcm of the moduli) on which every guard
// is constant, and the cells are enumerated. A comparison over two
// parameters (`M <= N`), or more cells than the limit, leaves the question
// undecided: the gate says so (-Wunproven) instead of passing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sema/SemaIR.h"

namespace cake::analysis {

struct FamilyFacts {
  const sema::Family *family = nullptr;

  // A route whose schedule's launcher signature differs from the family's.
  struct Mismatch {
    const sema::FamilyRoute *route;
    std::string what;       // "parameter 2 is 'N', the family's is 'K'"
    SourceRange where;      // the schedule's parameter (or the schedule) it concerns
    std::string whereName;  // the parameter's name; empty for the schedule itself
  };
  std::vector<Mismatch> mismatches;

  // The integer parameters the guards range over, in signature order, and
  // those without a declared domain.
  std::vector<sema::ResourceId> dims;
  std::vector<sema::ResourceId> undeclared;

  bool decided = false;
  std::string undecidedWhy;  // when not decided
  SourceRange undecidedAt;
  // A guard the dispatcher cannot compute on the host from the family's
  // integer parameters (it reads lm.block_id, or compares numbers): what
  // it reads, where, in which route.
  struct Hostless {
    std::string what;
    SourceRange at;
    const sema::FamilyRoute *route = nullptr;
  };
  std::optional<Hostless> hostless;

  struct RouteReach {
    bool reachable = true;
    bool emptyInDomain = false;     // no shape of the domain satisfies the guard
    std::vector<size_t> coveredBy;  // earlier routes taking its shapes first
    std::vector<int64_t> witness;   // a shape it takes (dims order), when reachable
  };
  std::vector<RouteReach> routes;  // one per family route, when decided
  // A shape of the domain that no route takes (dims order), when decided.
  std::optional<std::vector<int64_t>> fallbackOnly;

  // "M = 65, N = 8, K = 8"
  std::string shapeText(const std::vector<int64_t> &shape) const;
};

FamilyFacts analyzeFamily(const sema::Family &family, const SourceManager &sm);

}  // namespace cake::analysis
