// Paths.cpp - paths through a role's body between two of its operations
// (analysis/Paths.h): the walk the safety gate's path rules read.
#include "analysis/Paths.h"

#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace cake::analysis {

using namespace sema;

// Paths through a role's body from the operation `from` to `to` that pass
// none of `cut`: a forward walk whose state says whether such a path from
// `from` reaches the current point ("open"). A branch's two sides are
// walked from the same state and joined (one side's fence does not close
// the other's path; a constant condition takes its side only); a loop's
// body is walked until its entry state stops changing (a path around the
// back edge), and its exit is open where the body's end is, or its entry
// where the loop may run no iteration.
namespace {
struct PathWalk {
  const Kernel &k;
  const Operation *from, *to;
  std::set<const Operation *> cut;
  bool reached = false;

  // Loops walked again from their back edge: no path there is in their
  // first iteration.
  std::vector<const IrStmt *> later{};

  // The side of a branch every path takes where the branch's condition
  // holds (1) or fails (-1) in every iteration but the first of a loop
  // walked from its back edge; 0: either.
  int laterSide(const IrStmt &branch) const {
    for (const IrStmt *l : later) {
      if (holdsAfterFirstIteration(k, *l, branch.cond, false)) return 1;
      if (holdsAfterFirstIteration(k, *l, branch.cond, true)) return -1;
    }
    return 0;
  }

  // Memo of loops' exit states: the loop, its entry state, and the loops of
  // `later` whose iterations after the first its branches tell apart.
  struct Key {
    const IrStmt *loop;
    bool open;
    std::vector<const IrStmt *> later;
    bool operator<(const Key &o) const { return std::tie(loop, open, later) < std::tie(o.loop, o.open, o.later); }
  };
  std::map<Key, bool> memo{};
  std::map<std::pair<const IrStmt *, const IrStmt *>, bool> testsMemo{};

  // Whether a branch in `stmt` (at any depth) takes a side in every
  // iteration of `loop` but the first (so a walk under `later` with `loop`
  // may differ from one without it).
  bool tests(const IrStmt &stmt, const IrStmt &loop) {
    auto [it, fresh] = testsMemo.try_emplace({&stmt, &loop}, false);
    if (!fresh) return it->second;
    bool found = false;
    if (stmt.kind == IrStmt::Kind::If)
      found = holdsAfterFirstIteration(k, loop, stmt.cond, false) || holdsAfterFirstIteration(k, loop, stmt.cond, true);
    for (const std::vector<IrStmt> *list : {&stmt.body, &stmt.orelse})
      for (const IrStmt &c : *list)
        if (!found && (c.kind == IrStmt::Kind::If || c.kind == IrStmt::Kind::For)) found = tests(c, loop);
    testsMemo[{&stmt, &loop}] = found;
    return found;
  }

  // A loop of one iteration at most (`lm.range(0, 1)`): its back edge is
  // never taken.
  bool oneIteration(const IrStmt &loop) const {
    if (loop.step <= 0) return false;
    auto first = boundForm(k, loop.start), end = boundForm(k, loop.stop);
    if (!first || !end) return false;
    std::optional<AffineForm> trips = IntExprTable::combine(*end, *first, -1);
    return trips && trips->isConstant() && trips->constant <= loop.step;
  }

  bool walk(const std::vector<IrStmt> &list, bool open) {
    for (const IrStmt &s : list) {
      switch (s.kind) {
      case IrStmt::Kind::Op:
        if (&s.op == to && open) reached = true;
        if (cut.count(&s.op)) open = false;
        if (&s.op == from) open = true;
        break;
      case IrStmt::Kind::If:
        if (s.cond.kind == ValueKind::Bool && s.cond.boolIsConst) {
          open = walk(s.cond.constBool ? s.body : s.orelse, open);
        } else if (int side = laterSide(s); side != 0) {
          open = walk(side > 0 ? s.body : s.orelse, open);
        } else {
          bool a = walk(s.body, open), b = walk(s.orelse, open);
          open = a || b;
        }
        break;
      case IrStmt::Kind::For: {
        // A loop's exit state is a function of its entry state and of the
        // loops walked from their back edge that its branches test: walked
        // once per such key (what `reached` would learn from a second walk
        // it learnt in the first), so nested loops cost linear time, not
        // two walks of the body per level.
        Key key{&s, open, {}};
        for (const IrStmt *l : later)
          if (tests(s, *l)) key.later.push_back(l);
        if (auto it = memo.find(key); it != memo.end()) {
          open = it->second;
          break;
        }
        bool out = walk(s.body, open);
        if (out && !open && !oneIteration(s)) {  // the back edge opens the entry: once more from there
          later.push_back(&s);                   // every path in this pass has come round the back edge
          bool again = walk(s.body, true);
          later.pop_back();
          out = out || again;  // the loop may also end after the first pass's iteration
        }
        bool exit = out || (open && !loopRunsAtLeastOnce(k, s));
        memo.emplace(std::move(key), exit);
        open = exit;
        break;
      }
      case IrStmt::Kind::Let: break;
      }
    }
    return open;
  }
};
}  // namespace

bool pathAvoiding(const Kernel &k, const Event &from, const Event &to, const std::vector<const Event *> &cut) {
  if (from.lists.empty()) return true;
  PathWalk walk{k, from.op, to.op, {}};
  for (const Event *c : cut) walk.cut.insert(c->op);
  walk.walk(*from.lists.front(), false);
  return walk.reached;
}

bool everyPathFromStart(const Kernel &k, const IrStmt &loop, const Event &to, const std::vector<const Event *> &cut) {
  PathWalk in{k, nullptr, to.op, {}};
  for (const Event *c : cut) in.cut.insert(c->op);
  in.walk(loop.body, true);
  return !in.reached;
}

}  // namespace cake::analysis
