// IntExprTable: normal forms of run-time integer expressions.
#include <doctest/doctest.h>

#include "sema/IntExpr.h"

using namespace cake::sema;

TEST_CASE("equal expressions written differently share a normal form") {
  IntExprTable t;
  IntExprId k = t.leaf(IntOp::LoopVar, 3);
  IntExprId zero = t.constant(0), one = t.constant(1);
  CHECK(t.equal(t.binary(IntOp::Add, k, zero), k));
  CHECK(t.equal(t.binary(IntOp::Add, zero, k), k));
  CHECK(t.equal(t.binary(IntOp::Sub, t.binary(IntOp::Add, k, one), one), k));
  CHECK(t.equal(t.binary(IntOp::Sub, t.binary(IntOp::Mul, t.constant(2), k), k), k));
  CHECK(t.equal(t.unary(IntOp::Neg, t.unary(IntOp::Neg, k)), k));
  CHECK_FALSE(t.equal(t.binary(IntOp::Add, k, one), k));
  CHECK(IntExprTable::constantDifference(t.form(t.binary(IntOp::Add, k, one)), t.form(k)) == 1);
  CHECK_FALSE(IntExprTable::constantDifference(t.form(t.leaf(IntOp::LoopVar, 4)), t.form(k)).has_value());
}

TEST_CASE("non-linear terms are atoms over normal forms") {
  IntExprTable t;
  IntExprId K = t.leaf(IntOp::Param, 7);
  IntExprId a = t.binary(IntOp::FloorDiv, K, t.constant(64));
  IntExprId b = t.binary(IntOp::FloorDiv, t.binary(IntOp::Add, K, t.constant(0)),
                         t.binary(IntOp::Mul, t.constant(8), t.constant(8)));
  CHECK(t.equal(a, b));
  CHECK(IntExprTable::constantDifference(t.form(a), t.form(t.binary(IntOp::Sub, a, t.constant(1)))) == 1);
  CHECK_FALSE(t.equal(a, t.binary(IntOp::FloorDiv, K, t.constant(32))));
  CHECK(t.equal(t.binary(IntOp::FloorDiv, K, t.constant(1)), K));
  // min and max are commutative; products of two run-time values too
  IntExprId M = t.leaf(IntOp::Param, 8);
  CHECK(t.equal(t.binary(IntOp::Min, K, M), t.binary(IntOp::Min, M, K)));
  CHECK(t.equal(t.binary(IntOp::Mul, K, M), t.binary(IntOp::Mul, M, K)));
  CHECK_FALSE(t.equal(t.binary(IntOp::Min, K, M), t.binary(IntOp::Max, K, M)));
  CHECK_FALSE(t.equal(t.binary(IntOp::FloorDiv, K, M), t.binary(IntOp::FloorDiv, M, K)));
}

TEST_CASE("constants fold with Python semantics") {
  IntExprTable t;
  CHECK(t.constantValue(t.binary(IntOp::FloorDiv, t.constant(-7), t.constant(2))) == -4);
  CHECK(t.constantValue(t.binary(IntOp::Mod, t.constant(-7), t.constant(2))) == 1);
  CHECK(t.constantValue(t.binary(IntOp::Min, t.constant(3), t.constant(-2))) == -2);
  // division by zero is not folded: it stays an opaque term
  CHECK_FALSE(t.constantValue(t.binary(IntOp::FloorDiv, t.constant(1), t.constant(0))).has_value());
  // overflow is not wrapped
  IntExprId big = t.constant(INT64_MAX);
  CHECK_FALSE(t.constantValue(t.binary(IntOp::Add, big, t.constant(1))).has_value());
}

TEST_CASE("stage forms") {
  IntExprTable t;
  IntExprId k = t.leaf(IntOp::LoopVar, 2);
  StageForm s = t.stageForm(t.binary(IntOp::Add, t.binary(IntOp::Mul, k, t.constant(2)), t.constant(3)));
  CHECK(s.ok);
  REQUIRE(s.loops.size() == 1);
  CHECK(s.loops[0].first == 2);
  CHECK(s.loops[0].second == 2);
  CHECK(s.offset.isConstant());
  CHECK(s.offset.constant == 3);
  StageForm c = t.stageForm(t.constant(5));
  CHECK(c.ok);
  CHECK_FALSE(c.hasLoop());
  CHECK(c.offset.constant == 5);
  // A loop-invariant symbolic stage (after a loop over K // 64 steps) is a
  // form too; its offset keeps the parameter term.
  IntExprId n = t.binary(IntOp::FloorDiv, t.leaf(IntOp::Param, 1), t.constant(64));
  StageForm p = t.stageForm(t.binary(IntOp::Sub, n, t.constant(1)));
  CHECK(p.ok);
  CHECK_FALSE(p.hasLoop());
  CHECK(p.offset.constant == -1);
  CHECK(p.offset.terms.size() == 1);
  StageForm q = t.stageForm(t.binary(IntOp::Add, k, n));
  CHECK(q.ok);
  REQUIRE(q.loops.size() == 1);
  CHECK(q.loops[0].second == 1);
  CHECK(q.offset == t.form(n));
  // A loop variable inside a non-linear term is no stage form.
  CHECK_FALSE(t.stageForm(t.binary(IntOp::FloorDiv, k, t.constant(2))).ok);
  CHECK_FALSE(t.stageForm(t.binary(IntOp::Mul, k, t.leaf(IntOp::Param, 1))).ok);
  // A running count over two loops (t * 4 + k) keeps both terms.
  StageForm two = t.stageForm(t.binary(IntOp::Add, k, t.binary(IntOp::Mul, t.leaf(IntOp::LoopVar, 1), t.constant(4))));
  CHECK(two.ok);
  CHECK(two.loops.size() == 2);
  CHECK_FALSE(t.stageForm(t.binary(IntOp::Mod, k, t.constant(2))).ok);
}

TEST_CASE("a loop variable's term split off and substituted") {
  IntExprTable t;
  IntExprId k = t.leaf(IntOp::LoopVar, 2), n = t.leaf(IntOp::Param, 7);
  // 3k + n - 1
  IntExprId x = t.binary(IntOp::Sub, t.binary(IntOp::Add, t.binary(IntOp::Mul, t.constant(3), k), n), t.constant(1));
  auto [coeff, rest] = t.splitLoopVar(t.form(x), 2);
  CHECK(coeff == 3);
  CHECK(rest == t.form(t.binary(IntOp::Sub, n, t.constant(1))));
  CHECK(t.splitLoopVar(t.form(x), 5).first == 0);
  // k := n - 1 gives 3(n - 1) + n - 1 = 4n - 4.
  auto sub = t.substituteLoopVar(t.form(x), 2, t.form(t.binary(IntOp::Sub, n, t.constant(1))));
  REQUIRE(sub);
  CHECK(*sub == t.form(t.binary(IntOp::Sub, t.binary(IntOp::Mul, t.constant(4), n), t.constant(4))));
}

TEST_CASE("the first leaf of a kind, left operand first") {
  IntExprTable t;
  IntExprId rank = t.leaf(IntOp::ClusterRank, 0);
  IntExprId block = t.leaf(IntOp::BlockId, 1);
  IntExprId e = t.binary(IntOp::Mul, t.binary(IntOp::Add, rank, block), t.constant(64));
  auto is = [](IntOp op) { return [op](const IntNode &n) { return n.op == op; }; };
  CHECK(t.findLeaf(e, is(IntOp::ClusterRank)) == rank);
  CHECK(t.findLeaf(e, is(IntOp::BlockId)) == block);
  CHECK(t.findLeaf(e, [](const IntNode &n) { return n.op != IntOp::Const; }) == rank);
  CHECK(t.findLeaf(e, is(IntOp::NumBlocks)) == kNoIntExpr);
}

TEST_CASE("scaled stage forms: a loop variable times a run-time count") {
  IntExprTable t;
  IntExprId j = t.leaf(IntOp::LoopVar, 1), k = t.leaf(IntOp::LoopVar, 2);
  IntExprId x = t.binary(IntOp::FloorDiv, t.leaf(IntOp::Param, 1), t.constant(64));
  IntExprId jx = t.binary(IntOp::Mul, j, x);
  IntExprId stage = t.binary(IntOp::Sub, t.binary(IntOp::Add, jx, k), t.constant(1));  // j * X + k - 1
  CHECK_FALSE(t.stageForm(stage).ok);  // only where the caller reads scaled terms
  StageForm s = t.stageForm(stage, /*allowScaled=*/true);
  REQUIRE(s.ok);
  REQUIRE(s.scaledLoop);
  CHECK(s.scaledLoop->first == 1);
  CHECK(s.scaledLoop->second == t.form(x));
  REQUIRE(s.loops.size() == 1);
  CHECK(s.loops[0] == std::make_pair(2u, int64_t{1}));
  CHECK(s.offset.isConstant());
  CHECK(s.offset.constant == -1);
  // (j + 1) * X + k: the constant part of the factor moves into the offset.
  StageForm shifted =
      t.stageForm(t.binary(IntOp::Add, t.binary(IntOp::Mul, t.binary(IntOp::Add, j, t.constant(1)), x), k), true);
  REQUIRE(shifted.ok);
  CHECK(shifted.offset == t.form(x));
  CHECK(shifted.scaledLoop->second == t.form(x));
  // A loop counted both ways, or two scaled terms, is no stage form.
  CHECK_FALSE(t.stageForm(t.binary(IntOp::Add, jx, t.binary(IntOp::Mul, j, t.constant(2))), true).ok);
  CHECK_FALSE(t.stageForm(t.binary(IntOp::Add, jx, t.binary(IntOp::Mul, k, x)), true).ok);
  // A loop variable times a value that itself depends on a loop: not scaled.
  CHECK_FALSE(t.stageForm(t.binary(IntOp::Mul, j, t.binary(IntOp::Add, k, x)), true).ok);
}

TEST_CASE("polynomial counts multiply run-time values") {
  IntExprTable t;
  const AffineForm T = t.form(t.leaf(IntOp::Param, 1));  // copies: the table grows
  const AffineForm X = t.form(t.leaf(IntOp::Param, 2));
  auto xm1 = IntExprTable::combine(X, AffineForm{}, 1);
  REQUIRE(xm1);
  xm1->constant = -1;
  // T * (X - 1) + T == T * X: a guarded loop over [1, X) and a tail per tile.
  auto lhs = PolyForm::mul(PolyForm::of(T), PolyForm::of(*xm1));
  REQUIRE(lhs);
  auto sum = PolyForm::add(*lhs, PolyForm::of(T), 1);
  auto rhs = PolyForm::mul(PolyForm::of(T), PolyForm::of(X));
  REQUIRE(sum);
  REQUIRE(rhs);
  CHECK(PolyForm::constantDifference(*sum, *rhs) == 0);
  CHECK(PolyForm::constantDifference(*lhs, *rhs) == std::nullopt);  // differs by T
  // Zero coefficients vanish; repeated factors are kept (T * T is not T).
  auto none = PolyForm::add(PolyForm::of(T), PolyForm::of(T), -1);
  REQUIRE(none);
  CHECK(none->isConstant());
  CHECK(none->constant() == 0);
  auto square = PolyForm::mul(PolyForm::of(T), PolyForm::of(T));
  REQUIRE(square);
  CHECK(PolyForm::constantDifference(*square, PolyForm::of(T)) == std::nullopt);
  // Overflow is no count.
  AffineForm big;
  big.constant = INT64_MAX;
  CHECK(PolyForm::mul(PolyForm::of(big), PolyForm::of(big)) == std::nullopt);
}

TEST_CASE("products of run-time values expand into polynomials, and atoms substitute into them") {
  IntExprTable t;
  IntExprId j = t.leaf(IntOp::LoopVar, 1), ks = t.leaf(IntOp::Param, 2), s = t.leaf(IntOp::Param, 3);
  IntExprId b1 = t.leaf(IntOp::BlockId, 1), b2 = t.leaf(IntOp::BlockId, 2);
  // (b2 * S + b1) * KS: two monomials, each over leaves.
  IntExprId nested = t.binary(IntOp::Mul, t.binary(IntOp::Add, t.binary(IntOp::Mul, b2, s), b1), ks);
  std::optional<PolyForm> p = t.expandProducts(t.form(nested));
  REQUIRE(p);
  CHECK(p->terms.size() == 2);
  std::optional<PolyForm> b1ks = PolyForm::mul(PolyForm::of(t.form(b1)), PolyForm::of(t.form(ks)));
  std::optional<PolyForm> b2sks =
      PolyForm::mul(*PolyForm::mul(PolyForm::of(t.form(b2)), PolyForm::of(t.form(s))), PolyForm::of(t.form(ks)));
  REQUIRE(b1ks);
  REQUIRE(b2sks);
  std::optional<PolyForm> both = PolyForm::add(*b1ks, *b2sks, 1);
  REQUIRE(both);
  CHECK(PolyForm::constantDifference(*p, *both) == 0);
  // j * KS + 3 at j = 0 is 3; at j = 2 it is 2 KS + 3.
  std::optional<PolyForm> stage =
      t.expandProducts(t.form(t.binary(IntOp::Add, t.binary(IntOp::Mul, j, ks), t.constant(3))));
  REQUIRE(stage);
  AtomId jAtom = t.form(j).terms.front().first;
  std::optional<PolyForm> at0 = IntExprTable::substituteAtom(*stage, jAtom, PolyForm::of(AffineForm{0, {}}));
  REQUIRE(at0);
  CHECK(at0->isConstant());
  CHECK(at0->constant() == 3);
  std::optional<PolyForm> at2 = IntExprTable::substituteAtom(*stage, jAtom, PolyForm::of(AffineForm{2, {}}));
  REQUIRE(at2);
  std::optional<PolyForm> want = PolyForm::add(PolyForm::of(AffineForm{3, {}}), PolyForm::of(t.form(ks)), 2);
  REQUIRE(want);
  CHECK(PolyForm::constantDifference(*at2, *want) == 0);
  // A hook gives an atom a polynomial of its own (lm.num_blocks read as the grid's extent).
  std::optional<PolyForm> hooked =
      t.expandProducts(t.form(t.binary(IntOp::Mul, b1, ks)), [&](AtomId a) -> std::optional<PolyForm> {
        if (t.atomIsLeaf(a, IntOp::Param)) return PolyForm::of(AffineForm{64, {}});
        return std::nullopt;
      });
  REQUIRE(hooked);
  std::optional<PolyForm> b64 = PolyForm::add(PolyForm{}, PolyForm::of(t.form(b1)), 64);
  REQUIRE(b64);
  CHECK(PolyForm::constantDifference(*hooked, *b64) == 0);
}
