// Which integers are the same in every role of a block (Analyzer's
// blockUniform, blockUniformForms): what decides whether two roles' reads of
// a table share one value (the shared reads of lm.load_scalar). Each leaf's
// reach is IntOps.def's `same` column.
#include "sema/Analyzer.h"

namespace cake::sema::detail {

// The affine forms of `values` (integers), when each is the same in every
// role of a block: constants, parameters, block and cluster indices, the
// grid's extents, values read at such coordinates (shared reads) and what is
// computed from them (not a loop's variable, not an atomic's old value).
std::optional<std::vector<AffineForm>> Analyzer::blockUniformForms(const std::vector<const Value *> &values) const {
  std::vector<AffineForm> forms;
  for (const Value *v : values) {
    if (v->constInt) {
      forms.push_back(AffineForm{*v->constInt, {}});
      continue;
    }
    if (v->ix == kNoIntExpr) return std::nullopt;
    const AffineForm &f = kernel_->ints.form(v->ix);
    if (!blockUniform(f)) return std::nullopt;
    forms.push_back(f);
  }
  return forms;
}

bool Analyzer::blockUniform(const AffineForm &f, int depth) const {
  if (depth > 32) return false;
  for (const auto &[atom, coef] : f.terms) {
    IntExprTable::AtomView a = kernel_->ints.atomInfo(atom);
    switch (intOpInfo(a.op).same) {
    case IntSame::Launch:
    case IntSame::Cluster: continue;
    case IntSame::Block:
      // The same in a block's roles, but not in a cluster's blocks: where
      // blocks of a cluster meet at each other's barriers (multicast,
      // cluster arrivals), a count one block reads here and another there
      // would differ between them, which the gates do not check.
      if (kernel_->cluster[0] * kernel_->cluster[1] * kernel_->cluster[2] > 1) return false;
      continue;
    case IntSame::Read:
      if (kernel_->sharedValues.count(a.value)) continue;  // a shared read's value
      return false;
    case IntSame::Iteration: return false;
    case IntSame::Operands:
      if ((a.lhs && !blockUniform(*a.lhs, depth + 1)) ||
          (intOpInfo(a.op).arity > 1 && a.rhs && !blockUniform(*a.rhs, depth + 1)))
        return false;
    }
  }
  return true;
}

}  // namespace cake::sema::detail
