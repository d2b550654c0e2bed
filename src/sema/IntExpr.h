// IntExpr: the typed integer-expression IR of one kernel.
//
// Semantic analysis builds a node for every integer it evaluates inside a
// kernel: constants, loop variables, scalar parameters, block and cluster
// indices, and arithmetic on them. A name bound to a run-time value by a Let
// statement is a Let node over its value's node, with the value's normal
// form (an alias is the same expression); codegen prints it as the name.
//
// Each node also gets a normal form on creation: an affine combination
// c0 + c1*a1 + c2*a2 + ... of atoms, where an atom is a leaf (a loop
// variable, a parameter, an index) or a non-linear operation (a product of
// two run-time values, floor division, modulo, min, max, power) whose
// operands are themselves in normal form. Two expressions with the same
// normal form have the same value on every input: `k + 0`, `0 + k`,
// `(k + 1) - 1` and a named alias of `k` all normalise to `1*k`;
// `K // BK` with BK = 64 and `K // 64` are the same atom. The converse does
// not hold (normalisation knows no identities of `//` and `%`), so a
// difference in form is "not proven equal", never "proven different", unless
// the difference is a non-zero constant.
//
// The gates and codegen compare these forms, never source text.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace cake::sema {

using IntExprId = uint32_t;
inline constexpr IntExprId kNoIntExpr = UINT32_MAX;

// The operations, and what each phase decides by them: IntOps.def.
enum class IntOp : uint8_t {
#define INT_OP(Enum, ...) Enum,
#include "sema/IntOps.def"
#undef INT_OP
};

// Where an integer's value exists (IntOps.def's place column).
enum class IntPlace : uint8_t { Anywhere, Kernel, Host };
// The threads that see one value of a leaf (IntOps.def's same column).
enum class IntSame : uint8_t { Launch, Cluster, Block, Iteration, Read, Operands };
// How an operation's normal form is built (IntOps.def's traits column).
enum IntTraits : unsigned {
  kSum = 1u << 0,          // the operands' forms add
  kDifference = 1u << 1,   // the second operand's form is subtracted from the first's
  kScales = 1u << 2,       // linear where one operand is a constant
  kRightUnit = 1u << 3,    // x op 1 is x
  kIdempotent = 1u << 4,   // x op x is x
  kCommutative = 1u << 5,  // x op y and y op x are one atom
  kCall = 1u << 6,         // written as a call of its operands (lm.min(a, b)), not an operator
  kDivides = 1u << 7       // its second operand is a divisor
};

// One row of IntOps.def.
struct IntOpInfo {
  IntOp op;
  std::string_view name;  // the enumerator: "FloorDiv"
  unsigned arity;         // 0: a leaf
  unsigned traits;        // IntTraits
  const char *source;     // see IntOps.def for the formats
  const char *cuda;
  const char *wrapper;
  IntPlace place;
  std::optional<int64_t> least;
  const char *range;
  int prec;  // the author's operator precedence (5: a leaf or a call)
  IntSame same;
  bool has(IntTraits t) const { return (traits & t) != 0; }
};
const IntOpInfo &intOpInfo(IntOp op);
inline bool isLeaf(IntOp op) { return intOpInfo(op).arity == 0; }
// An operation on constants (`b` unused by a unary one); nullopt for a leaf,
// on overflow and on division by zero.
std::optional<int64_t> foldInt(IntOp op, int64_t a, int64_t b = 0);

struct IntNode {
  IntOp op = IntOp::Const;
  int64_t value = 0;  // a leaf's: the constant, the loop's id, ... (IntOps.def)
  IntExprId a = kNoIntExpr, b = kNoIntExpr;
};

// An atom of a normal form: a leaf, or a non-linear operation on normal
// forms. Atoms are numbered in order of first appearance.
using AtomId = uint32_t;

struct AffineForm {
  int64_t constant = 0;
  std::vector<std::pair<AtomId, int64_t>> terms;  // sorted by atom, no zero coefficients

  bool isConstant() const { return terms.empty(); }
  bool operator==(const AffineForm &o) const { return constant == o.constant && terms == o.terms; }
  bool operator!=(const AffineForm &o) const { return !(*this == o); }
  bool operator<(const AffineForm &o) const { return std::tie(constant, terms) < std::tie(o.constant, o.terms); }
};

// A stage index in the form the barrier analyses reason about: a sum of
// loop variables times constants plus an offset that does not depend on any
// loop variable (a constant, or parameters and block indices). `ok` is false
// for any other form (a loop variable inside a non-linear term).
struct StageForm {
  bool ok = false;
  std::vector<std::pair<uint32_t, int64_t>> loops;  // (loop id, coefficient), by atom
  AffineForm offset;
  // A loop variable times a loop-invariant factor that is not a constant
  // (`t * k_steps` for a run-time count of k-steps): the loop's id and the
  // factor's form. Only stageForm(x, /*allowScaled=*/true) sets it; without
  // it such a term makes the form not ok.
  std::optional<std::pair<uint32_t, AffineForm>> scaledLoop;
  bool hasLoop() const { return !loops.empty() || scaledLoop; }
};

// A polynomial over atoms: a sum of coefficients times products of atoms
// (sorted, with repeats), for counts that multiply run-time values (the
// trips of a loop over T tiles around one over k_steps k-steps). Like the
// affine forms, equal polynomials are equal values; unequal ones are not
// proven different.
struct PolyForm {
  std::map<std::vector<AtomId>, int64_t> terms;  // no zero coefficients; the empty product is the constant

  static PolyForm of(const AffineForm &f);
  bool isConstant() const { return terms.empty() || (terms.size() == 1 && terms.begin()->first.empty()); }
  int64_t constant() const {
    auto it = terms.find({});
    return it == terms.end() ? 0 : it->second;
  }
  bool operator==(const PolyForm &o) const { return terms == o.terms; }
  // a + scale * b, a * b; nullopt on overflow.
  static std::optional<PolyForm> add(const PolyForm &a, const PolyForm &b, int64_t scale);
  static std::optional<PolyForm> mul(const PolyForm &a, const PolyForm &b);
  // a - b when it is a constant.
  static std::optional<int64_t> constantDifference(const PolyForm &a, const PolyForm &b);
};

class IntExprTable {
public:
  IntExprId constant(int64_t v);
  IntExprId leaf(IntOp op, int64_t value);
  IntExprId unary(IntOp op, IntExprId a);
  IntExprId binary(IntOp op, IntExprId a, IntExprId b);
  // A named value (IntOp::Let): the name's index, and its value's node.
  IntExprId let(int64_t name, IntExprId value);

  const IntNode &node(IntExprId id) const { return nodes_.at(id); }
  const AffineForm &form(IntExprId id) const { return forms_.at(id); }
  size_t size() const { return nodes_.size(); }

  // The atom's own node (a leaf or the first non-linear node that made it).
  // Whether the atom is a leaf of the given kind (and, for keyed leaves, value).
  bool atomIsLeaf(AtomId a, IntOp op) const { return atoms_.at(a).op == op; }
  int64_t atomValue(AtomId a) const { return atoms_.at(a).value; }
  // An atom as the analyses read it: its operation, and for a leaf its
  // value, for a non-linear operation its operands' normal forms.
  struct AtomView {
    IntOp op;
    int64_t value;
    const AffineForm *lhs, *rhs;
  };
  AtomView atomInfo(AtomId a) const {
    const Atom &x = atoms_.at(a);
    return AtomView{x.op, x.value, &x.lhs, &x.rhs};
  }
  // Whether a form changes with some loop variable.
  bool dependsOnLoop(const AffineForm &f) const;
  // The loops whose variables a form reads, inside non-linear atoms too
  // (`k == 0` reads k).
  void loopsIn(const AffineForm &f, std::set<uint32_t> &out) const;
  // The coefficient of loop `loopId`'s variable in `f` (0 if absent), and
  // `f` without that term.
  std::pair<int64_t, AffineForm> splitLoopVar(const AffineForm &f, uint32_t loopId) const;
  // `f` with loop `loopId`'s variable replaced by `value`; nullopt on overflow.
  std::optional<AffineForm> substituteLoopVar(const AffineForm &f, uint32_t loopId, const AffineForm &value) const;

  // `f` as a polynomial over atoms other than products (a product of two
  // run-time values multiplied out, recursively): `j * k_steps` and
  // `(b2 * S + b1) * R` become sums of monomials. `leaf`, where given, may
  // give an atom a polynomial of its own (nullopt keeps the atom). nullopt
  // on overflow or a nesting deeper than 16.
  std::optional<PolyForm> expandProducts(const AffineForm &f,
                                         const std::function<std::optional<PolyForm>(AtomId)> &leaf = nullptr) const;
  // `p` with every occurrence of atom `a` replaced by `value`; nullopt on
  // overflow.
  static std::optional<PolyForm> substituteAtom(const PolyForm &p, AtomId a, const PolyForm &value);

  // Equal on every input, as far as normal forms show.
  bool equal(IntExprId x, IntExprId y) const { return form(x) == form(y); }
  // a + scale * b; nullopt on overflow.
  static std::optional<AffineForm> combine(const AffineForm &a, const AffineForm &b, int64_t scale);
  // a - b when it is a constant.
  static std::optional<int64_t> constantDifference(const AffineForm &a, const AffineForm &b);
  std::optional<int64_t> constantValue(IntExprId x) const;
  // The stage form of an expression (see StageForm); `allowScaled` accepts
  // one term of a loop variable times a loop-invariant factor.
  StageForm stageForm(IntExprId x, bool allowScaled = false) const;
  // The first leaf (in source order) for which `pred` holds, or kNoIntExpr;
  // the operands of an operation for which `skip` holds are not searched.
  IntExprId findLeaf(IntExprId x, const std::function<bool(const IntNode &)> &pred,
                     const std::function<bool(const IntNode &)> &skip = nullptr) const;

private:
  struct Atom {
    IntOp op;
    int64_t value = 0;    // leaves
    AffineForm lhs, rhs;  // non-linear operations
    IntExprId node = kNoIntExpr;
    bool loopDependent = false;  // a loop variable, or a term over one
  };
  AtomId atom(IntOp op, int64_t value, const AffineForm *lhs, const AffineForm *rhs, IntExprId node);
  IntExprId push(const IntNode &n, AffineForm f);

  std::vector<IntNode> nodes_;
  std::vector<AffineForm> forms_;
  std::map<std::tuple<IntOp, int64_t, IntExprId, IntExprId>, IntExprId> interned_;
  std::vector<Atom> atoms_;
  std::map<std::tuple<IntOp, int64_t, AffineForm, AffineForm>, AtomId> atomIndex_;
};

}  // namespace cake::sema
