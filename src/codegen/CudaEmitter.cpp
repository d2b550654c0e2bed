// CudaEmitter.cpp - lowering a checked kernel to CUDA C++ for sm_90a.
//
// The shape of the output follows the schedule: one `if` branch per role
// (dispatched on the warp index, so each warpgroup's setmaxnreg sits in one
// branch), each role's statements in order, every operation lowered to calls
// of the PTX wrappers (PtxWrappers.cpp). What the schedule leaves implicit is
// derived here from the same facts the gates checked:
//   - mbarrier addresses (from sema's placement), init counts, the fence
//     before first use;
//   - the ring slot and phase parity of each wait from its stage counter
//     (slot = s mod stages, parity = (s div stages) mod 2, inverted for
//     release barriers, whose first lap passes);
//   - expect-tx bytes: one arrive.expect_tx per barrier stage and statement
//     list, carrying the bytes of every TMA copy completing on it;
//   - wgmma descriptors from the views' shape and swizzle, the warpgroup's
//     rows of A, the k-steps within a stage;
//   - the accumulator fragment layout of wgmma for stores of fragments;
//   - tensor maps (box, swizzle, element type) from the views the copies use.
#include "codegen/Codegen.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "analysis/KernelFacts.h"
#include "analysis/Tiling.h"
#include "codegen/PtxWrappers.h"

namespace cake::codegen {

using namespace cake::sema;
using cake::ast::BinaryOp;
using cake::ast::NodeKind;

namespace {

constexpr const char *kRestoreLine = "#line __CAKE_RESTORE_LINE__";

bool isCppReserved(const std::string &n) {
  static const std::set<std::string> words = {
      "alignas",  "alignof", "and",      "asm",       "auto",     "bool",      "break",     "case",     "catch",
      "char",     "class",   "const",    "constexpr", "continue", "decltype",  "default",   "delete",   "do",
      "double",   "else",    "enum",     "explicit",  "extern",   "false",     "float",     "for",      "friend",
      "goto",     "if",      "inline",   "int",       "long",     "mutable",   "namespace", "new",      "noexcept",
      "not",      "nullptr", "operator", "or",        "private",  "protected", "public",    "register", "return",
      "short",    "signed",  "sizeof",   "static",    "struct",   "switch",    "template",  "this",     "throw",
      "true",     "try",     "typedef",  "typename",  "union",    "unsigned",  "using",     "virtual",  "void",
      "volatile", "while",   "xor",      "threadIdx", "blockIdx", "blockDim",  "gridDim",   "warpSize", "main",
      "stream",   "msg",     "err",      "config",    "attrs",    "e"};
  return words.count(n) != 0;
}

// A user's name as a C++ identifier: our own names start with `cake_`.
std::string ident(const std::string &n) {
  if (!n.empty() && n[0] == '%') return "cake_t" + n.substr(1);  // an unnamed fragment: a part of an expression
  if (isCppReserved(n) || n.rfind("cake_", 0) == 0) return n + "_";
  return n;
}

unsigned swizzleLayout(Swizzle s) {
  switch (s) {
  case Swizzle::B128: return 1;
  case Swizzle::B64: return 2;
  case Swizzle::B32: return 3;
  case Swizzle::None: return 0;
  }
  return 0;
}

const char *tensorMapSwizzle(Swizzle s) {
  switch (s) {
  case Swizzle::B128: return "CU_TENSOR_MAP_SWIZZLE_128B";
  case Swizzle::B64: return "CU_TENSOR_MAP_SWIZZLE_64B";
  case Swizzle::B32: return "CU_TENSOR_MAP_SWIZZLE_32B";
  case Swizzle::None: return "CU_TENSOR_MAP_SWIZZLE_NONE";
  }
  return "CU_TENSOR_MAP_SWIZZLE_NONE";
}

int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

std::string shapeText(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

// A swizzled view whose rows are wider than the swizzle span is stored as
// panels: each holds every row's next span of bytes, swizzled on its own, the
// panels one after another. TMA moves one box per panel.
struct Panels {
  int64_t count = 1;     // panels per stage
  int64_t rowPitch = 0;  // bytes between rows within a panel
  int64_t bytes = 0;     // bytes per panel
  int64_t boxInner = 0;  // elements of the innermost box dimension
};

Panels panelsOf(const Resource &v) {
  Panels p;
  int64_t esize = dtypeInfo(v.dtype).bits / 8;
  int64_t rowBytes = v.shape.empty() ? 0 : v.shape.back() * esize;
  int64_t span = swizzleBytes(v.swizzle);
  p.rowPitch = rowBytes;
  p.bytes = v.bytesPerStage;
  p.boxInner = v.shape.empty() ? 0 : v.shape.back();
  if (esize != 0 && span != 0 && rowBytes > span && rowBytes % span == 0) {  // sub-byte types have no panels
    p.count = rowBytes / span;
    p.rowPitch = span;
    p.bytes = v.bytesPerStage / p.count;
    p.boxInner = span / esize;
  }
  return p;
}

using analysis::TensorMap;

struct RoleCtx {
  const Resource *role = nullptr;
  unsigned barrierId = 0;  // named barrier for role_sync
  bool contiguous = true;
  int64_t firstWarp = 0;
  int64_t threads = 0;
  bool singleThread = false;  // the whole body runs on the role's first thread
  // Register fragments the role's wgmmas read or write (accumulators, A
  // operands): other operations pin them where they use them.
  std::set<ResourceId> mmaFragments;
};

class KernelEmitter {
public:
  KernelEmitter(const Kernel &k, const analysis::KernelFacts &f, const TargetInfo &ti, const SourceManager &sm,
                DiagnosticEngine &diags, const CodegenOptions &opts, WrapperSet &w)
      : k_(k), f_(f), maps_(f.tensorMaps), ti_(ti), sm_(sm), diags_(diags), opts_(opts), w_(w) {}

  bool emit(std::string &kernelText, std::string &launcherText, std::string &summary);

private:
  // ---- expressions ----
  std::string expr(const ast::Expr *e, bool host);
  std::string value(const Value &v, bool host);

  // ---- statements ----
  void line(const std::string &s) { out_ += std::string(indent_ * 2, ' ') + s + "\n"; }
  void lineDirective(const SourceRange &r);
  void stmts(const std::vector<IrStmt> &body, RoleCtx &rc);
  void op(const Operation &o, RoleCtx &rc, const std::map<const Operation *, int64_t> &expectTx);
  void roleBranch(ResourceId role, bool first);

  // ---- pieces ----
  std::string barrierAddr(ResourceId bar, const std::string &stage);
  std::string viewAddr(ResourceId view, const ast::Expr *stage);
  std::string viewStageAddr(const Value &vs);
  std::string electedGuard(const RoleCtx &rc) const;
  std::string panelAddr(const Operation &o, const Panels &pn, int64_t p);
  std::string panelCoords(const Value &coords, const Panels &pn, int64_t p);
  bool fragmentLayout(const Resource &frag, const Resource &role, SourceRange at, int64_t &perThread);
  bool fragmentLayout(const Resource &frag, const Resource &role, SourceRange at, analysis::FragmentTiling &t);
  std::string fragmentElement(const Value &v, const Resource &role, const analysis::FragmentTiling &dst,
                              const std::string &i);
  void declareFragment(const Resource &frag, const analysis::FragmentTiling &t);
  void mma(const Operation &o, RoleCtx &rc);
  void storeFragment(const Operation &o, RoleCtx &rc);
  void storeRowVector(const Operation &o, RoleCtx &rc, const analysis::FragmentTiling &t);
  void elementwise(const Operation &o, RoleCtx &rc);
  void rowReduction(const Operation &o, RoleCtx &rc);
  void rowArgmin(const Operation &o, RoleCtx &rc);
  void openRowLoop(int64_t rows, int64_t half);
  void loadFragment(const Operation &o, RoleCtx &rc);
  void checkTensorMapTypes();
  void launcher(std::string &text);
  void unsupported(SourceRange r, const std::string &what, const std::string &why) {
    diags_.report(DiagId::CodegenUnsupported, r, what, ti_.name, why);
  }

  const Kernel &k_;
  const analysis::KernelFacts &f_;
  const std::map<ResourceId, TensorMap> &maps_;  // one tensor map per tensor (the gates rejected conflicts)
  const TargetInfo &ti_;
  const SourceManager &sm_;
  DiagnosticEngine &diags_;
  const CodegenOptions &opts_;
  WrapperSet &w_;
  std::string out_;
  int indent_ = 0;
  std::set<ResourceId> declaredFragments_;
  bool usesSmCount_ = false;
};

// ---------------------------------------------------------------------------
// expressions

std::string KernelEmitter::value(const Value &v, bool host) {
  if (v.isConstInt()) return std::to_string(*v.constInt);
  if (v.kind == ValueKind::Bool && v.boolIsConst) return v.constBool ? "true" : "false";
  if (v.kind == ValueKind::Float && !v.expr) return fmt::format("static_cast<float>({})", v.floatValue);
  return expr(v.expr, host);
}

std::string KernelEmitter::expr(const ast::Expr *e, bool host) {
  if (!e) return "0";
  auto it = k_.exprValues.find(e);
  if (it != k_.exprValues.end()) {
    const Value &v = it->second;
    if (v.isConstInt()) {
      int64_t c = *v.constInt;
      if (c < INT32_MIN || c > INT32_MAX) {
        diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                      fmt::format("the constant {} does not fit the 32-bit integers of lowered code", c));
        return "0";
      }
      return std::to_string(c);
    }
    if (v.kind == ValueKind::Bool && v.boolIsConst) return v.constBool ? "true" : "false";
  }
  switch (e->kind) {
  case NodeKind::NameExpr: {
    // A name bound by assignment stands for its expression; loop variables
    // and parameters are variables of the generated code.
    // In the kernel, a name bound by assignment is a variable (a Let); the
    // launcher, which has none, computes its expression.
    auto def = k_.nameDefs.find(e);
    if (host && def != k_.nameDefs.end() && def->second != e) return "(" + expr(def->second, host) + ")";
    return ident(static_cast<const ast::NameExpr *>(e)->name);
  }
  case NodeKind::IntLit: return std::to_string(static_cast<const ast::IntLit *>(e)->value);
  case NodeKind::FloatLit: return fmt::format("static_cast<float>({})", static_cast<const ast::FloatLit *>(e)->value);
  case NodeKind::BoolLit: return static_cast<const ast::BoolLit *>(e)->value ? "true" : "false";
  case NodeKind::UnaryExpr: {
    const auto *u = static_cast<const ast::UnaryExpr *>(e);
    std::string x = expr(u->operand, host);
    switch (u->op) {
    case ast::UnaryOp::Neg: return "(-" + x + ")";
    case ast::UnaryOp::Pos: return x;
    case ast::UnaryOp::Not: return "(!" + x + ")";
    }
    return x;
  }
  case NodeKind::BinaryExpr: {
    const auto *b = static_cast<const ast::BinaryExpr *>(e);
    std::string l = expr(b->lhs, host), r = expr(b->rhs, host);
    switch (b->op) {
    case BinaryOp::FloorDiv: return fmt::format("{}({}, {})", w_.use("cake_floordiv"), l, r);
    case BinaryOp::Mod: return fmt::format("{}({}, {})", w_.use("cake_floormod"), l, r);
    case BinaryOp::Pow:
    case BinaryOp::Div:
      diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                    "only '+', '-', '*', '//', '%' and comparisons are lowered for run-time integers");
      return "0";
    case BinaryOp::And: return "(" + l + " && " + r + ")";
    case BinaryOp::Or: return "(" + l + " || " + r + ")";
    default: return "(" + l + " " + ast::binaryOpSpelling(b->op) + " " + r + ")";
    }
  }
  case NodeKind::CallExpr: {
    // A value operation (lm.block_id(0), lm.min(a, b), ...): what it yields
    // is its expression node, made by sema from the table's value effect.
    const auto *c = static_cast<const ast::CallExpr *>(e);
    auto cv = k_.exprValues.find(e);
    if (cv == k_.exprValues.end() || cv->second.ix == kNoIntExpr) break;
    const IntNode &n = k_.ints.node(cv->second.ix);
    static const char *dims = "xyz";
    size_t d = n.value >= 0 && n.value <= 2 ? static_cast<size_t>(n.value) : 0;
    auto inKernel = [&]() {
      if (!host) return true;
      diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                    "the launcher computes the grid before any block exists");
      return false;
    };
    switch (n.op) {
    case IntOp::Min:
    case IntOp::Max: {
      std::vector<const ast::Expr *> args(c->args.begin(), c->args.end());
      for (const ast::Keyword &kw : c->keywords) args.push_back(kw.value);
      if (args.size() != 2) break;
      // Keyword order does not matter: min and max are symmetric.
      std::string a = expr(args[0], host), b = expr(args[1], host);
      return fmt::format("{}({}, {})", w_.use(n.op == IntOp::Min ? "cake_min" : "cake_max"), a, b);
    }
    case IntOp::SmCount:
      if (!host) {
        diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                      "the multiprocessor count is the launcher's; in the kernel, use lm.num_blocks(0)");
        return "0";
      }
      usesSmCount_ = true;
      return "cake_sm_count";
    case IntOp::BlockId: return inKernel() ? fmt::format("static_cast<int32_t>(blockIdx.{})", dims[d]) : "0";
    case IntOp::NumBlocks: return inKernel() ? fmt::format("static_cast<int32_t>(gridDim.{})", dims[d]) : "0";
    case IntOp::ClusterRank:
      return inKernel() ? fmt::format("static_cast<int32_t>({}())", w_.use("cake_cluster_rank")) : "0";
    case IntOp::Const:
    case IntOp::LoopVar:
    case IntOp::Param:
    case IntOp::Add:
    case IntOp::Sub:
    case IntOp::Mul:
    case IntOp::FloorDiv:
    case IntOp::Mod:
    case IntOp::Pow:
    case IntOp::Neg: break;  // not what a call yields
    }
    break;
  }
  default: break;
  }
  diags_.report(DiagId::CodegenRuntimeExpression, e->range, sourceText(sm_, e->range),
                "it is not an integer expression of loop variables, parameters and block indices");
  return "0";
}

// ---------------------------------------------------------------------------
// statements

void KernelEmitter::lineDirective(const SourceRange &r) {
  if (!opts_.lineDirectives || !r.begin.valid()) return;
  std::string name = sm_.name(r.begin.file);
  std::string escaped;
  for (char c : name) {
    if (c == '\\' || c == '"') escaped += '\\';
    escaped += c;
  }
  out_ += fmt::format("#line {} \"{}\"\n", r.begin.line, escaped);
}

std::string KernelEmitter::barrierAddr(ResourceId bar, const std::string &stage) {
  const Resource &b = k_.resource(bar);
  if (b.count == 1) return "cake_" + ident(b.name);
  return fmt::format("cake_{} + 8u * {}({}, {})", ident(b.name), w_.use("cake_floormod"), stage, b.count);
}

std::string KernelEmitter::viewAddr(ResourceId view, const ast::Expr *stage) {
  const Resource &v = k_.resource(view);
  std::string base = "cake_" + ident(v.name);
  if (v.stages <= 1 || !stage) return base;
  return fmt::format("{} + {}u * {}({}, {})", base, v.bytesPerStage, w_.use("cake_floormod"), expr(stage, false),
                     v.stages);
}

std::string KernelEmitter::viewStageAddr(const Value &vs) {
  if (vs.kind == ValueKind::ViewStage) return viewAddr(vs.resource, vs.stage);
  return viewAddr(vs.resource, nullptr);
}

// A TMA copy's shared-memory address and coordinates for panel p of its view.
std::string KernelEmitter::panelAddr(const Operation &o, const Panels &pn, int64_t p) {
  std::string addr = viewAddr(o.receiver, analysis::stageOperand(o).expr);
  return p > 0 ? fmt::format("{} + {}u", addr, p * pn.bytes) : addr;
}

std::string KernelEmitter::panelCoords(const Value &coords, const Panels &pn, int64_t p) {
  std::string args;
  for (size_t i = 0; i < coords.elts.size(); ++i) {
    std::string c = value(coords.elts[i], false);
    args += ", " + (i == 0 && p > 0 ? fmt::format("{} + {}", c, p * pn.boxInner) : c);
  }
  return args;
}

std::string KernelEmitter::electedGuard(const RoleCtx &rc) const {
  return rc.singleThread ? "" : "if (cake_rtid == 0) ";
}

void KernelEmitter::stmts(const std::vector<IrStmt> &body, RoleCtx &rc) {
  // One arrive.expect_tx per group of copies (the analysis layer's groups:
  // one barrier stage, one statement list), before the first of them.
  const std::map<const Operation *, int64_t> &expectTx = f_.expectTx;
  for (const IrStmt &s : body) {
    switch (s.kind) {
    case IrStmt::Kind::Op:
      lineDirective(s.range);
      op(s.op, rc, expectTx);
      break;
    case IrStmt::Kind::For: {
      lineDirective(s.range);
      std::string var = ident(s.loopVar);
      bool constantTrip = s.start.isConstInt() && s.stop.isConstInt();
      if (!constantTrip) line("#pragma unroll 1");
      line(fmt::format("for (int32_t {0} = {1}; {0} < {2}; {0} += {3}) {{", var, value(s.start, false),
                       value(s.stop, false), value(s.stepValue, false)));
      ++indent_;
      stmts(s.body, rc);
      --indent_;
      line("}");
      break;
    }
    case IrStmt::Kind::Let:
      lineDirective(s.range);
      line(fmt::format("const {} {} = {};", s.start.kind == ValueKind::Bool ? "bool" : "int32_t", ident(s.loopVar),
                       value(s.start, false)));
      break;
    case IrStmt::Kind::If: {
      lineDirective(s.range);
      line(fmt::format("if ({}) {{", value(s.cond, false)));
      ++indent_;
      stmts(s.body, rc);
      --indent_;
      if (!s.orelse.empty()) {
        line("} else {");
        ++indent_;
        stmts(s.orelse, rc);
        --indent_;
      }
      line("}");
      break;
    }
    }
  }
}

void KernelEmitter::op(const Operation &o, RoleCtx &rc, const std::map<const Operation *, int64_t> &expectTx) {
  const OpInfo &info = o.info();
  // A use of a wgmma's fragment by another operation stays where the
  // schedule puts it, after the wait the gates proved it follows: the
  // compiler would otherwise be free to move it above the wait (wgmma's
  // registers are asm operands only at the issue), and ptxas serializes
  // every wgmma it sees overlapped by such an access.
  if (o.kind != OpKind::Mma) {
    std::set<ResourceId> pinned;
    auto pin = [&](const Value &v) {
      if (v.kind == ValueKind::Resource && rc.mmaFragments.count(v.resource) && pinned.insert(v.resource).second)
        line(fmt::format("{}({});", w_.use("cake_fence_fragment"), ident(k_.resource(v.resource).name)));
    };
    for (const Operand &x : o.operands)
      if (x.present) pin(x.value);
    pin(o.result);
  }
  std::string guard = electedGuard(rc);
  auto stageText = [&]() {
    const Operand &s = o.operandAt(info.effects.stage);
    return s.present ? value(s.value, false) : std::string("0");
  };
  switch (o.kind) {
  case OpKind::Wait: {
    ResourceId bar = o.operand(param::Wait::barrier).value.resource;
    const Resource &b = k_.resource(bar);
    std::string stage = stageText();
    bool release = f_.barrier(bar).release;
    line(fmt::format("{}({}, static_cast<uint32_t>({}({}, {}) & 1){});{}", w_.use("cake_mbar_wait"),
                     barrierAddr(bar, stage), w_.use("cake_floordiv"), stage, b.count, release ? " ^ 1u" : "",
                     release ? "  // release barrier: the first lap passes" : ""));
    return;
  }
  case OpKind::Arrive: {
    ResourceId bar = o.operand(param::Arrive::barrier).value.resource;
    std::string stage = stageText();
    std::string g;
    switch (o.scope) {
    case ArrivalScope::Role: g = guard; break;
    case ArrivalScope::Warpgroup: g = rc.singleThread ? "" : "if (cake_rtid % 128u == 0) "; break;
    case ArrivalScope::Warp: g = rc.singleThread ? "" : "if (cake_lane == 0) "; break;
    case ArrivalScope::Thread: break;
    }
    if (analysis::signalsCluster(o)) {
      line(fmt::format("{}{{  // on this stage in every block of the cluster", g));
      ++indent_;
      line(fmt::format("for (uint32_t cake_r = 0; cake_r < {}u; ++cake_r) {}({}, cake_r);", analysis::clusterSize(k_),
                       w_.use("cake_mbar_arrive_cluster"), barrierAddr(bar, stage)));
      --indent_;
      line("}");
      return;
    }
    line(fmt::format("{}{}({});", g, w_.use("cake_mbar_arrive"), barrierAddr(bar, stage)));
    return;
  }
  case OpKind::FenceProxy: line(w_.use("cake_fence_proxy_async") + "();"); return;
  case OpKind::RoleSync:
    if (rc.singleThread) return;  // one thread: nothing to meet
    line(fmt::format("{}({}, {});", w_.use("cake_named_barrier_sync"), rc.barrierId, rc.threads));
    return;
  case OpKind::TmaLoad: {
    int64_t multicast = analysis::multicastCount(o);
    ResourceId tensor = o.operand(param::TmaLoad::tensor).value.resource;
    ResourceId bar = o.operand(param::TmaLoad::barrier).value.resource;
    std::string stage = stageText();
    const Value &coords = o.operand(param::TmaLoad::coords).value;
    Panels pn = panelsOf(k_.resource(o.receiver));
    std::vector<std::string> calls;
    if (multicast > 1) {
      // This block copies its share of the rows (1/multicast of them, at its
      // rank in the cluster) into the same offsets of every block's view.
      const Resource &v = k_.resource(o.receiver);
      int64_t slice = v.shape.front() / multicast;
      std::string rank = fmt::format("{}()", w_.use("cake_cluster_rank"));
      for (int64_t p = 0; p < pn.count; ++p) {
        std::string args = panelCoords(coords, pn, p);
        size_t last = args.rfind(", ");
        args = args.substr(0, last + 2) +
               fmt::format("{} + static_cast<int32_t>({} * {}u)", args.substr(last + 2), rank, slice);
        calls.push_back(fmt::format("{}({} + {} * {}u, &{}, {}, 0x{:x}{});",
                                    w_.useTmaLoadMulticast(static_cast<unsigned>(coords.elts.size())),
                                    panelAddr(o, pn, p), rank, slice * pn.rowPitch, ident(k_.resource(tensor).name),
                                    barrierAddr(bar, stage), (1u << multicast) - 1, args));
      }
    } else {
      for (int64_t p = 0; p < pn.count; ++p)
        calls.push_back(fmt::format("{}({}, &{}, {}{});", w_.useTmaLoad(static_cast<unsigned>(coords.elts.size())),
                                    panelAddr(o, pn, p), ident(k_.resource(tensor).name), barrierAddr(bar, stage),
                                    panelCoords(coords, pn, p)));
    }
    auto tx = expectTx.find(&o);
    if (tx != expectTx.end() || calls.size() > 1) {
      line(fmt::format("{}{{", guard));
      ++indent_;
      if (tx != expectTx.end())
        line(fmt::format("{}({}, {});  // {} bytes land on this stage", w_.use("cake_mbar_arrive_expect_tx"),
                         barrierAddr(bar, stage), tx->second, tx->second));
      if (pn.count > 1) line(fmt::format("// {} panels of {} bytes, one box each", pn.count, pn.bytes));
      if (multicast > 1)
        line(fmt::format("// multicast: this block's {} of {} rows, to all {} blocks of the cluster",
                         k_.resource(o.receiver).shape.front() / multicast, k_.resource(o.receiver).shape.front(),
                         multicast));
      for (const std::string &c : calls) line(c);
      --indent_;
      line("}");
    } else {
      line(guard + calls[0]);
    }
    return;
  }
  case OpKind::TmaStore: {
    ResourceId tensor = o.operand(param::TmaStore::tensor).value.resource;
    const Value &coords = o.operand(param::TmaStore::coords).value;
    Panels pn = panelsOf(k_.resource(o.receiver));
    line(fmt::format("{}{{", guard));
    ++indent_;
    if (pn.count > 1) line(fmt::format("// {} panels of {} bytes, one box each", pn.count, pn.bytes));
    for (int64_t p = 0; p < pn.count; ++p)
      line(fmt::format("{}(&{}, {}{});", w_.useTmaStore(static_cast<unsigned>(coords.elts.size())),
                       ident(k_.resource(tensor).name), panelAddr(o, pn, p), panelCoords(coords, pn, p)));
    line(w_.use("cake_bulk_commit_group") + "();");
    --indent_;
    line("}");
    return;
  }
  case OpKind::TmaStoreWait: line(fmt::format("{}{}<0>();", guard, w_.use("cake_bulk_wait_group_read"))); return;
  case OpKind::Mma: mma(o, rc); return;
  case OpKind::MmaCommit: line(w_.use("cake_wgmma_commit_group") + "();"); return;
  case OpKind::MmaWait: {
    const Value &p = o.operand(param::MmaWait::pending).value;
    line(fmt::format("{}<{}>();", w_.use("cake_wgmma_wait_group"), p.isConstInt() ? *p.constInt : 0));
    return;
  }
  case OpKind::Store: storeFragment(o, rc); return;
  case OpKind::Cast:
  case OpKind::Scale:
  case OpKind::Exp2:
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Maximum:
  case OpKind::Minimum:
  case OpKind::Log2:
  case OpKind::Fill:
  case OpKind::Copy:
  case OpKind::Tril: elementwise(o, rc); return;
  case OpKind::Less:
  case OpKind::Where: elementwise(o, rc); return;
  case OpKind::RowMax:
  case OpKind::RowSum: rowReduction(o, rc); return;
  case OpKind::RowArgmin: rowArgmin(o, rc); return;
  case OpKind::Load: loadFragment(o, rc); return;
  // Not lowered for sm_90a (Blackwell operations).
  case OpKind::Commit:
  case OpKind::TmemLoad: break;
  // Declarations and values leave no operation in a role body.
  case OpKind::Smem:
  case OpKind::View:
  case OpKind::Tmem:
  case OpKind::Regs:
  case OpKind::Role:
  case OpKind::Pipeline:
  case OpKind::Barrier:
  case OpKind::Range:
  case OpKind::BlockId:
  case OpKind::NumBlocks:
  case OpKind::SmCount:
  case OpKind::Min:
  case OpKind::Max:
  case OpKind::ClusterRank: CAKE_CHECK(false, "a declaration or value recorded as a role operation"); break;
  }
  unsupported(o.range, fmt::format("'lm.{}'", info.name), "this operation is not lowered for this target yet");
}

// ---------------------------------------------------------------------------
// register fragments and the tensor cores

// The wgmma accumulator layout: a role of W warpgroups holds an M x N tile,
// each warpgroup M / W rows in blocks of 64; within a block, warp w of the
// warpgroup holds rows 16w..16w+15 and thread `lane` element i of each
// 64 x N block at row 16w + lane/4 + 8*((i/2)%2), column 8*(i/4) + 2*(lane%4) + i%2.
bool KernelEmitter::fragmentLayout(const Resource &frag, const Resource &role, SourceRange at, int64_t &perThread) {
  analysis::WgmmaTiling t = analysis::wgmmaTiling(frag.shape, role);
  if (!t.ok) {
    unsupported(at, fmt::format("the register fragment '{}' ({})", frag.name, shapeText(frag.shape)),
                "fragments lower to the wgmma accumulator layout: " + t.problem);
    return false;
  }
  perThread = t.perThread;
  return true;
}

// Any fragment: a tile in the accumulator layout, or a row or column vector
// of one (analysis::fragmentTiling).
bool KernelEmitter::fragmentLayout(const Resource &frag, const Resource &role, SourceRange at,
                                   analysis::FragmentTiling &t) {
  t = analysis::fragmentTiling(frag.shape, role);
  if (!t.ok)
    unsupported(at, fmt::format("the register fragment '{}' ({})", frag.name, shapeText(frag.shape)),
                "fragments lower to the wgmma accumulator layout (a tile, an M x 1 row vector or a 1 x N column "
                "vector of one): " +
                    t.problem);
  return t.ok;
}

// Element `i` of a fragment of layout `dst`, read from the operand `v`: the
// same element of a fragment of the same form, the element's row of a row
// vector, its column of a column vector, or a number.
std::string KernelEmitter::fragmentElement(const Value &v, const Resource &role, const analysis::FragmentTiling &dst,
                                           const std::string &i) {
  if (v.kind != ValueKind::Resource) return value(v, false);
  const Resource &r = k_.resource(v.resource);
  analysis::FragmentTiling t = analysis::fragmentTiling(r.shape, role);
  std::string n = ident(r.name);
  if (t.form == dst.form) return fmt::format("{}[{}]", n, i);
  CAKE_CHECK(dst.form == analysis::FragmentForm::Tile, "a vector operand broadcast into a vector");
  int64_t half = dst.cols / 2;  // elements of a thread per m64 block
  if (t.form == analysis::FragmentForm::RowVector)
    return fmt::format("{}[({} / {}) * 2 + ({} / 2) % 2]", n, i, half, i);
  return fmt::format("{}[(({} % {}) / 4) * 2 + {} % 2]", n, i, half, i);
}

// A fragment's array: a declared one at the start of its role, a derived
// one where it is first written. 16-bit elements are packed in pairs.
void KernelEmitter::declareFragment(const Resource &frag, const analysis::FragmentTiling &t) {
  if (!declaredFragments_.insert(frag.id).second) return;
  bool packed = frag.dtype == DType::BF16 || frag.dtype == DType::F16;
  std::string type = frag.dtype == DType::BF16  ? "__nv_bfloat162"
                     : frag.dtype == DType::F16 ? "__half2"
                                                : std::string(dtypeInfo(frag.dtype).cudaType);
  line(fmt::format("{} {}[{}];  // {}{} {}{}", type, ident(frag.name), packed ? t.perThread / 2 : t.perThread,
                   frag.derived ? "" : "'" + frag.name + "' ", shapeText(frag.shape), dtypeInfo(frag.dtype).name,
                   packed ? ", two per register" : ""));
}

// wgmma, one instruction per warpgroup, m64 block and k16 step. A is a
// K-major view (through a descriptor) or a 16-bit register fragment in the
// accumulator layout, whose packed pairs 4s..4s+3 of an m64 block are the
// A registers of k-step s; B is a K-major view used transposed (b[s].T, an
// (N, K) tile) or an MN-major one (b[s], a (K, N) tile stored as panels of
// 64 N-columns by K rows).
void KernelEmitter::mma(const Operation &o, RoleCtx &rc) {
  const Value &accV = o.operand(param::Mma::acc).value, &aV = o.operand(param::Mma::a).value,
              &bV = o.operand(param::Mma::b).value;
  const Resource &acc = k_.resource(accV.resource);
  const Resource &a = k_.resource(aV.resource), &b = k_.resource(bV.resource);
  bool aInRegs = a.kind == ResourceKind::Regs, bMnMajor = !bV.transposed;
  if (acc.kind != ResourceKind::Regs || b.kind != ResourceKind::View) {
    unsupported(o.range, "'lm.mma'", "sm_90a lowers wgmma with the accumulator in registers and B in shared memory");
    return;
  }
  int64_t perThread = 0;
  if (!fragmentLayout(acc, *rc.role, o.range, perThread)) return;
  if (aV.transposed) {
    unsupported(o.range, "'lm.mma'", "A is lowered K-major only: an (M, K) view or register fragment");
    return;
  }
  if (a.dtype != b.dtype || (a.dtype != DType::BF16 && a.dtype != DType::F16) || acc.dtype != DType::F32) {
    unsupported(o.range, "'lm.mma'", "only bf16 or f16 operands with f32 accumulators are lowered");
    return;
  }
  int64_t esize = dtypeInfo(a.dtype).bits / 8;
  std::vector<const Resource *> views = {&b};
  if (!aInRegs) views.push_back(&a);
  for (const Resource *v : views) {
    bool ok =
        v->swizzle != Swizzle::None && v->shape.size() == 2 && (v->shape[1] * esize) % swizzleBytes(v->swizzle) == 0;
    if (ok && v == &b && bMnMajor) ok = v->swizzle == Swizzle::B128;
    if (!ok) {
      unsupported(o.range, fmt::format("the operand view '{}'", v->name),
                  "wgmma operands lower as swizzled tiles whose rows are one swizzle span or whole panels of it (for "
                  "example 64 bf16 with swizzle=\"128B\"); an MN-major B (used without '.T') needs swizzle=\"128B\"");
      return;
    }
  }
  analysis::FragmentTiling at;
  if (aInRegs && !fragmentLayout(a, *rc.role, o.range, at)) return;
  if (aInRegs && at.form != analysis::FragmentForm::Tile) {
    unsupported(o.range, fmt::format("the register fragment '{}' as A", a.name),
                "A from registers is a tile in the accumulator layout, not a row or column vector");
    return;
  }
  int64_t M = acc.shape[0], N = acc.shape[1], K = a.shape[1];
  int64_t wgs = static_cast<int64_t>(rc.role->warps.size()) / 4;
  int64_t rowsPerWg = M / wgs, mBlocks = rowsPerWg / 64, kSteps = K / 16;
  Panels bp = panelsOf(b);
  int64_t bRowBytes = bp.rowPitch;
  // The k16 step s of a K-major tile starts 16 * esize * s bytes into the
  // rows: in panel (that / pitch), at (that % pitch) within it. Of an
  // MN-major tile, 16 rows further down each panel.
  auto kOffset = [&](const Panels &p, int64_t s) {
    int64_t kb = s * 16 * esize;
    return (kb / p.rowPitch) * p.bytes + kb % p.rowPitch;
  };
  auto bOffset = [&](int64_t s) { return bMnMajor ? s * 16 * bRowBytes : kOffset(bp, s); };
  const std::string &fn = w_.useWgmma(codegen::WgmmaForm{N, a.dtype, aInRegs, bMnMajor});
  std::string bDesc = bMnMajor ? fmt::format("{}(cake_b + {{}}u, {}u, {}u, {}u)", w_.use("cake_wgmma_desc_mn"),
                                             bp.bytes, 8 * bRowBytes, swizzleLayout(b.swizzle))
                               : fmt::format("{}(cake_b + {{}}u, {}u, {}u)", w_.use("cake_wgmma_desc"), 8 * bRowBytes,
                                             swizzleLayout(b.swizzle));
  const Value &init = o.operand(param::Mma::init).value;
  line(fmt::format("// {}x{}x{} per block: {} warpgroup(s) x {} m64 block(s) x {} k16 step(s) of m64n{}k16{}{}", M, N,
                   K, wgs, mBlocks, kSteps, N, aInRegs ? ", A from registers" : "", bMnMajor ? ", B MN-major" : ""));
  line(w_.use("cake_wgmma_fence") + "();");
  line("{");
  ++indent_;
  Panels ap = aInRegs ? Panels{} : panelsOf(a);
  if (aInRegs)
    line(fmt::format("const uint32_t *cake_a = reinterpret_cast<const uint32_t *>({});  // two 16-bit values each",
                     ident(a.name)));
  else
    line(fmt::format("const uint32_t cake_a = {} + cake_wg * {}u;", viewStageAddr(aV), rowsPerWg * ap.rowPitch));
  line(fmt::format("const uint32_t cake_b = {};", viewStageAddr(bV)));
  std::string accumulate =
      init.boolIsConst ? (init.constBool ? "0" : "1") : fmt::format("({}) ? 0 : 1", value(init, false));
  line(fmt::format("const int32_t cake_accumulate = {};", accumulate));
  // k-steps outer, m64 blocks inner: consecutive wgmmas of a warpgroup write
  // different accumulators, so they need not wait for each other.
  for (int64_t st = 0; st < kSteps; ++st)
    for (int64_t mb = 0; mb < mBlocks; ++mb) {
      std::string aArg;
      if (aInRegs) {
        int64_t r = mb * (K / 4) + 4 * st;
        aArg = fmt::format("cake_a[{}], cake_a[{}], cake_a[{}], cake_a[{}]", r, r + 1, r + 2, r + 3);
      } else {
        aArg = fmt::format("{}(cake_a + {}u, {}u, {}u)", w_.use("cake_wgmma_desc"),
                           mb * 64 * ap.rowPitch + kOffset(ap, st), 8 * ap.rowPitch, swizzleLayout(a.swizzle));
      }
      line(fmt::format("{}({} + {}, {}, {}, {});", fn, ident(acc.name), mb * (N / 2), aArg,
                       fmt::format(fmt::runtime(bDesc), bOffset(st)), st == 0 ? "cake_accumulate" : "1"));
    }
  --indent_;
  line("}");
}

void KernelEmitter::storeFragment(const Operation &o, RoleCtx &rc) {
  const Resource &src = k_.resource(o.operand(param::Store::src).value.resource);
  const Resource &view = k_.resource(o.receiver);
  analysis::FragmentTiling ft;
  if (!fragmentLayout(src, *rc.role, o.range, ft)) return;
  if (ft.form == analysis::FragmentForm::RowVector) {
    storeRowVector(o, rc, ft);
    return;
  }
  int64_t perThread = 0;
  if (!fragmentLayout(src, *rc.role, o.range, perThread)) return;
  int64_t esize = dtypeInfo(view.dtype).bits / 8;
  int64_t rowBytes = view.shape.back() * esize;
  Panels pn = panelsOf(view);
  if (view.swizzle != Swizzle::None && rowBytes % swizzleBytes(view.swizzle) != 0 &&
      rowBytes != swizzleBytes(view.swizzle)) {
    unsupported(o.range, fmt::format("a store into the swizzled view '{}'", view.name),
                "a swizzled destination's rows must be one swizzle span or whole panels of it");
    return;
  }
  if (src.dtype != view.dtype || (esize != 2 && esize != 4)) {
    unsupported(o.range, fmt::format("a store of '{}' into '{}'", src.name, view.name),
                "fragments are stored as 16- or 32-bit elements of the view's dtype");
    return;
  }
  int64_t N = src.shape[1], wgs = static_cast<int64_t>(rc.role->warps.size()) / 4;
  int64_t rowsPerWg = src.shape[0] / wgs;
  bool pairs = esize == 2;
  line(fmt::format("// the wgmma accumulator layout: {} elements per thread, two per store", perThread));
  line("{");
  ++indent_;
  line(fmt::format("const uint32_t cake_base = {};", viewAddr(o.receiver, analysis::stageOperand(o).expr)));
  line(fmt::format("const uint32_t cake_row0 = cake_wg * {}u + cake_wg_warp * 16u + cake_lane / 4u;", rowsPerWg));
  line("const uint32_t cake_col0 = 2u * (cake_lane % 4u);");
  line("#pragma unroll");
  line(fmt::format("for (int cake_i = 0; cake_i < {}; cake_i += 2) {{", perThread));
  ++indent_;
  line(fmt::format("const uint32_t cake_row = cake_row0 + (cake_i / {}) * 64u + 8u * ((cake_i / 2) % 2);", N / 2));
  line(fmt::format("const uint32_t cake_col = cake_col0 + 8u * ((cake_i % {}) / 4);", N / 2));
  if (pn.count > 1)
    line(fmt::format("uint32_t cake_off = (cake_col * {0}u / {1}u) * {2}u + cake_row * {1}u + (cake_col * {0}u) % {1}u;"
                     "  // panel, row, byte",
                     esize, pn.rowPitch, pn.bytes));
  else
    line(fmt::format("uint32_t cake_off = (cake_row * {}u + cake_col) * {}u;", view.shape.back(), esize));
  if (view.swizzle != Swizzle::None)
    line(fmt::format("cake_off ^= ((cake_off >> 7) & {}u) << 4;  // the view's {} swizzle",
                     swizzleBytes(view.swizzle) / 16 - 1, swizzleName(view.swizzle)));
  std::string s = ident(src.name);
  if (pairs)
    line(fmt::format("*reinterpret_cast<{}2 *>(cake_smem_raw + (cake_base - cake_smem) + cake_off) = {}[cake_i / 2];",
                     dtypeInfo(view.dtype).cudaType == "__half" ? "__half" : "__nv_bfloat16", s));
  else
    line(fmt::format(
        "*reinterpret_cast<{}2 *>(cake_smem_raw + (cake_base - cake_smem) + cake_off) = make_{}2({}[cake_i], "
        "{}[cake_i + 1]);",
        dtypeInfo(view.dtype).cudaType, dtypeInfo(view.dtype).cudaType, s, s));
  --indent_;
  line("}");
  --indent_;
  line("}");
}

// A row vector stored as M consecutive elements (an M-element view, such
// as 1 x M for a TMA store of one value per row): the first of the four
// threads sharing a row writes it.
void KernelEmitter::storeRowVector(const Operation &o, RoleCtx &rc, const analysis::FragmentTiling &t) {
  const Resource &src = k_.resource(o.operand(param::Store::src).value.resource);
  const Resource &view = k_.resource(o.receiver);
  if (view.swizzle != Swizzle::None || product(view.shape) != src.shape[0] || view.dtype != src.dtype ||
      (src.dtype != DType::F32 && src.dtype != DType::I32)) {
    unsupported(
        o.range, fmt::format("a store of the row vector '{}' into '{}'", src.name, view.name),
        fmt::format("a row vector is stored into an unswizzled f32 view of {} elements, one per row", src.shape[0]));
    return;
  }
  line(fmt::format("// one value per row, {} rows per thread, from the first lane of each row", t.perThread));
  line("if (cake_lane % 4u == 0) {");
  ++indent_;
  line(fmt::format("{0} *cake_dst = reinterpret_cast<{0} *>(cake_smem_raw + ({1} - cake_smem));",
                   dtypeInfo(src.dtype).cudaType, viewAddr(o.receiver, analysis::stageOperand(o).expr)));
  line("#pragma unroll");
  line(fmt::format("for (int cake_r = 0; cake_r < {}; ++cake_r)", t.perThread));
  line(fmt::format(
      "  cake_dst[cake_wg * {}u + (cake_r / 2) * 64u + cake_wg_warp * 16u + cake_lane / 4u + 8u * (cake_r % "
      "2)] = {}[cake_r];",
      t.rowsPerWarpgroup, ident(src.name)));
  --indent_;
  line("}");
}

// Elementwise fragment math: one unrolled loop over the elements each
// thread holds, operands broadcast by fragmentElement. nvcc keeps the
// arrays in registers and contracts multiplies and adds into FMAs.
void KernelEmitter::elementwise(const Operation &o, RoleCtx &rc) {
  const Resource &dst = k_.resource(o.result.resource);
  analysis::FragmentTiling dt;
  if (!fragmentLayout(dst, *rc.role, o.range, dt)) return;
  const OpInfo &info = o.info();
  // Every fragment operand: f32, in a layout this role can hold.
  for (size_t p = 0; p < info.params.size(); ++p) {
    const Operand &x = o.operands[p];
    if (!x.present || x.value.kind != ValueKind::Resource || k_.resource(x.value.resource).kind != ResourceKind::Regs)
      continue;
    const Resource &src = k_.resource(x.value.resource);
    analysis::FragmentTiling st;
    if (!fragmentLayout(src, *rc.role, o.range, st)) return;
    if (src.dtype != DType::F32 && src.dtype != DType::I32) {
      unsupported(o.range,
                  fmt::format("'lm.{}' on the {} fragment '{}'", info.name, dtypeInfo(src.dtype).name, src.name),
                  "fragment math is lowered on f32 fragments; 16-bit fragments are MMA operands and stores");
      return;
    }
  }
  // i32 fragments: masks and indices, which comparisons, selects, copies,
  // fills and integer sums make.
  bool intOk = o.kind == OpKind::Less || o.kind == OpKind::Where || o.kind == OpKind::Copy || o.kind == OpKind::Fill ||
               o.kind == OpKind::Add || o.kind == OpKind::Sub || o.kind == OpKind::Mul;
  if (dst.dtype == DType::I32 && !intOk) {
    unsupported(o.range, fmt::format("'lm.{}' to an i32 fragment", info.name),
                "i32 fragments (masks, indices) are made by comparisons, lm.where, copies, fills, + - *");
    return;
  }
  bool packed = dst.dtype == DType::BF16 || dst.dtype == DType::F16;
  bool word = dst.dtype == DType::F32 || dst.dtype == DType::I32;
  if ((o.kind != OpKind::Cast && !word) || (packed && dt.form != analysis::FragmentForm::Tile) || (!packed && !word)) {
    unsupported(o.range,
                fmt::format("'lm.{}' to a {} {} fragment", info.name, shapeText(dst.shape), dtypeInfo(dst.dtype).name),
                "fragment math yields f32; lm.cast converts tiles to bf16 or f16");
    return;
  }
  declareFragment(dst, dt);
  std::string d = ident(dst.name);
  line("#pragma unroll");
  if (packed) {
    std::string s = ident(k_.resource(o.operand(param::Cast::src).value.resource).name);
    line(fmt::format("for (int cake_i = 0; cake_i < {}; cake_i += 2) {}[cake_i / 2] = {}({}[cake_i], {}[cake_i + 1]);",
                     dt.perThread, d, dst.dtype == DType::BF16 ? "__floats2bfloat162_rn" : "__floats2half2_rn", s, s));
    return;
  }
  auto at = [&](int8_t p) { return fragmentElement(o.operands[static_cast<size_t>(p)].value, *rc.role, dt, "cake_i"); };
  std::string rhs;
  switch (o.kind) {
  case OpKind::Add: rhs = fmt::format("{} + {}", at(0), at(1)); break;
  case OpKind::Sub: rhs = fmt::format("{} - {}", at(0), at(1)); break;
  case OpKind::Mul: rhs = fmt::format("{} * {}", at(0), at(1)); break;
  case OpKind::Div: rhs = fmt::format("__fdividef({}, {})", at(0), at(1)); break;
  case OpKind::Maximum: rhs = fmt::format("fmaxf({}, {})", at(0), at(1)); break;
  case OpKind::Minimum: rhs = fmt::format("fminf({}, {})", at(0), at(1)); break;
  case OpKind::Exp2: rhs = fmt::format("{}({})", w_.use("cake_ex2"), at(0)); break;
  case OpKind::Log2: rhs = fmt::format("{}({})", w_.use("cake_lg2"), at(0)); break;
  case OpKind::Scale: rhs = fmt::format("{} * {}", at(0), at(1)); break;
  case OpKind::Less: rhs = fmt::format("({} < {}) ? 1 : 0", at(0), at(1)); break;
  case OpKind::Where: rhs = fmt::format("{} != 0 ? {} : {}", at(0), at(1), at(2)); break;
  case OpKind::Cast:
  case OpKind::Copy: rhs = at(0); break;
  case OpKind::Fill: rhs = value(o.operand(param::Fill::value).value, false); break;
  case OpKind::Tril: {
    if (dt.form != analysis::FragmentForm::Tile) {
      unsupported(o.range, "'lm.tril' on a vector", "the causal mask applies to tiles");
      return;
    }
    const Operand &fill = o.operand(param::Tril::value);
    int64_t half = dt.cols / 2;
    // The element's row and column in the tile (the accumulator layout).
    std::string row = fmt::format("static_cast<int32_t>(cake_wg * {}u + cake_wg_warp * 16u + cake_lane / 4u) + "
                                  "(cake_i / {}) * 64 + 8 * ((cake_i / 2) % 2)",
                                  dt.rowsPerWarpgroup, half);
    std::string col =
        fmt::format("static_cast<int32_t>(2u * (cake_lane % 4u)) + 8 * ((cake_i % {}) / 4) + cake_i % 2", half);
    rhs = fmt::format("({}) + {} <= ({}) + {} ? {} : {}", value(o.operand(param::Tril::col).value, false), col,
                      value(o.operand(param::Tril::row).value, false), row, at(0),
                      fill.present ? value(fill.value, false) : std::string("-INFINITY"));
    break;
  }
  default: CAKE_CHECK(false, "not elementwise fragment math: lm." + std::string(info.name)); return;
  }
  line(fmt::format("for (int cake_i = 0; cake_i < {}; ++cake_i) {}[cake_i] = {};", dt.perThread, d, rhs));
}

// Opens the loop of a row reduction over a thread's rows (two per m64
// block): cake_b is the row's first element in the tile fragment.
void KernelEmitter::openRowLoop(int64_t rows, int64_t half) {
  line("#pragma unroll");
  line(fmt::format("for (int cake_r = 0; cake_r < {}; ++cake_r) {{", rows));
  ++indent_;
  line(fmt::format("const int cake_b = (cake_r / 2) * {} + (cake_r % 2) * 2;  // the row's first element", half));
}

// A row reduction: each thread folds the elements it holds of each of its
// rows, then the four threads sharing a row (lanes 4r..4r+3) exchange theirs.
void KernelEmitter::rowReduction(const Operation &o, RoleCtx &rc) {
  const Resource &src = k_.resource(o.operandAt(o.info().effects.reads[0]).value.resource);
  const Resource &dst = k_.resource(o.result.resource);
  analysis::FragmentTiling st, dt;
  if (!fragmentLayout(src, *rc.role, o.range, st) || !fragmentLayout(dst, *rc.role, o.range, dt)) return;
  if (st.form != analysis::FragmentForm::Tile || src.dtype != DType::F32) {
    unsupported(o.range, fmt::format("'lm.{}' of '{}'", o.info().name, src.name), "row reductions take f32 tiles");
    return;
  }
  bool max = o.kind == OpKind::RowMax;
  auto fold = [&](const std::string &a, const std::string &b) {
    return max ? fmt::format("fmaxf({}, {})", a, b) : fmt::format("{} + {}", a, b);
  };
  int64_t half = st.cols / 2;
  std::string s = ident(src.name), d = ident(dst.name);
  declareFragment(dst, dt);
  // Four partial folds per row (short dependency chains), then combined.
  int64_t partials = half >= 16 ? 4 : 1;
  line(fmt::format("// {}: {} values per thread and row in {} partial(s), then across the 4 lanes of the row",
                   o.info().name, st.cols / 4, partials));
  openRowLoop(dt.perThread, half);
  line(fmt::format("float cake_p[{}];", partials));
  line("#pragma unroll");
  line(fmt::format("for (int cake_q = 0; cake_q < {}; ++cake_q) cake_p[cake_q] = {};", partials,
                   fold(s + "[cake_b + 4 * cake_q]", s + "[cake_b + 4 * cake_q + 1]")));
  line("#pragma unroll");
  line(fmt::format("for (int cake_j = {}; cake_j < {}; cake_j += 4)", 4 * partials, half));
  line(fmt::format("  cake_p[(cake_j / 4) % {0}] = {1};", partials,
                   fold(fold(fmt::format("cake_p[(cake_j / 4) % {}]", partials), s + "[cake_b + cake_j]"),
                        s + "[cake_b + cake_j + 1]")));
  line(partials == 4
           ? fmt::format("float cake_v = {};", fold(fold("cake_p[0]", "cake_p[1]"), fold("cake_p[2]", "cake_p[3]")))
           : std::string("float cake_v = cake_p[0];"));
  line(fmt::format("cake_v = {};", fold("cake_v", "__shfl_xor_sync(0xffffffffu, cake_v, 1)")));
  line(fmt::format("cake_v = {};", fold("cake_v", "__shfl_xor_sync(0xffffffffu, cake_v, 2)")));
  line(fmt::format("{}[cake_r] = cake_v;", d));
  --indent_;
  line("}");
}

// The minimum of each row and its column: each thread scans its values in
// increasing column order keeping the first minimum, then the four lanes of
// the row exchange (value, column) pairs, the lower column winning a tie.
void KernelEmitter::rowArgmin(const Operation &o, RoleCtx &rc) {
  const Resource &src = k_.resource(o.operand(param::RowArgmin::src).value.resource);
  const Resource &val = k_.resource(o.result.elts[0].resource), &idx = k_.resource(o.result.elts[1].resource);
  analysis::FragmentTiling st, dt;
  if (!fragmentLayout(src, *rc.role, o.range, st) || !fragmentLayout(val, *rc.role, o.range, dt)) return;
  if (st.form != analysis::FragmentForm::Tile || src.dtype != DType::F32) {
    unsupported(o.range, fmt::format("'lm.rowargmin' of '{}'", src.name), "row reductions take f32 tiles");
    return;
  }
  int64_t half = st.cols / 2;
  std::string s = ident(src.name), v = ident(val.name), x = ident(idx.name);
  declareFragment(val, dt);
  declareFragment(idx, dt);
  line(fmt::format("// rowargmin: {} values per thread and row, then across the 4 lanes of the row", st.cols / 4));
  openRowLoop(dt.perThread, half);
  line(fmt::format("float cake_v = {}[cake_b];", s));
  line("int cake_c = static_cast<int>(2u * (cake_lane % 4u));  // its column");
  line("#pragma unroll");
  line(fmt::format("for (int cake_j = 0; cake_j < {}; cake_j += 4) {{", half));
  line("#pragma unroll");
  line("  for (int cake_e = 0; cake_e < 2; ++cake_e) {");
  line(fmt::format("    const float cake_x = {}[cake_b + cake_j + cake_e];", s));
  line("    const int cake_col = 2 * cake_j + static_cast<int>(2u * (cake_lane % 4u)) + cake_e;  // the element's "
       "column");
  line("    if (cake_x < cake_v) { cake_v = cake_x; cake_c = cake_col; }");
  line("  }");
  line("}");
  line("#pragma unroll");
  line("for (int cake_m = 1; cake_m <= 2; cake_m *= 2) {");
  line("  const float cake_ov = __shfl_xor_sync(0xffffffffu, cake_v, cake_m);");
  line("  const int cake_oc = __shfl_xor_sync(0xffffffffu, cake_c, cake_m);");
  line("  if (cake_ov < cake_v || (cake_ov == cake_v && cake_oc < cake_c)) { cake_v = cake_ov; cake_c = cake_oc; }");
  line("}");
  line(fmt::format("{}[cake_r] = cake_v;", v));
  line(fmt::format("{}[cake_r] = cake_c + ({});", x, value(o.operand(param::RowArgmin::offset).value, false)));
  --indent_;
  line("}");
}

// A view loaded into registers: a 1 x N f32 view as a column vector, each
// thread reading the columns its accumulator elements sit in.
void KernelEmitter::loadFragment(const Operation &o, RoleCtx &rc) {
  const Resource &view = k_.resource(o.receiver), &dst = k_.resource(o.result.resource);
  analysis::FragmentTiling dt;
  if (!fragmentLayout(dst, *rc.role, o.range, dt)) return;
  if (dt.form != analysis::FragmentForm::ColumnVector || view.swizzle != Swizzle::None ||
      (view.dtype != DType::F32 && view.dtype != DType::I32)) {
    unsupported(o.range, fmt::format("a load of '{}'", view.name),
                "views are loaded as column vectors: an unswizzled 1 x N view of 32-bit elements");
    return;
  }
  declareFragment(dst, dt);
  line(fmt::format("// column vector: this thread's {} columns", dt.perThread));
  line("{");
  ++indent_;
  line(fmt::format("const {} *cake_src = reinterpret_cast<const {} *>(cake_smem_raw + ({} - cake_smem));",
                   dtypeInfo(view.dtype).cudaType, dtypeInfo(view.dtype).cudaType,
                   viewAddr(o.receiver, analysis::stageOperand(o).expr)));
  line("#pragma unroll");
  line(fmt::format("for (int cake_c = 0; cake_c < {}; ++cake_c)", dt.perThread));
  line(fmt::format("  {}[cake_c] = cake_src[8 * (cake_c / 2) + 2 * static_cast<int>(cake_lane % 4u) + cake_c % 2];",
                   ident(dst.name)));
  --indent_;
  line("}");
}

// ---------------------------------------------------------------------------
// roles and the kernel

void KernelEmitter::roleBranch(ResourceId roleId, bool first) {
  const Resource &role = k_.resource(roleId);
  RoleCtx rc;
  rc.role = &role;
  rc.threads = 32 * static_cast<int64_t>(role.warps.size());
  rc.firstWarp = role.warps.empty() ? 0 : *std::min_element(role.warps.begin(), role.warps.end());
  std::vector<int64_t> sorted = role.warps;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) rc.contiguous &= sorted[i] == rc.firstWarp + static_cast<int64_t>(i);
  unsigned index = 0;
  for (const Resource &r : k_.resources) {
    if (r.kind != ResourceKind::Role) continue;
    ++index;
    if (r.id == roleId) break;
  }
  rc.barrierId = index;  // 1.. (0 is __syncthreads)

  // A role whose operations are all single-thread ones or waits runs on one
  // thread; the rest of its warps only adjust their registers.
  bool single = true;
  std::function<void(const std::vector<IrStmt> &)> scan = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      if (s.kind == IrStmt::Kind::Op) single &= s.op.info().effects.single || s.op.kind == OpKind::Wait;
      scan(s.body);
      scan(s.orelse);
    }
  };
  for (const RoleBlock &rb : k_.roles)
    if (rb.role == roleId) scan(rb.body);
  rc.singleThread = single;
  std::function<void(const std::vector<IrStmt> &)> mmaUses = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      if (s.kind == IrStmt::Kind::Op && s.op.kind == OpKind::Mma)
        for (const Value *v : {&s.op.operand(param::Mma::acc).value, &s.op.operand(param::Mma::a).value})
          if (v->kind == ValueKind::Resource && k_.resource(v->resource).kind == ResourceKind::Regs)
            rc.mmaFragments.insert(v->resource);
      mmaUses(s.body);
      mmaUses(s.orelse);
    }
  };
  for (const RoleBlock &rb : k_.roles)
    if (rb.role == roleId) mmaUses(rb.body);

  std::string cond;
  if (rc.contiguous)
    cond = rc.firstWarp == 0
               ? fmt::format("cake_warp < {}u", sorted.size())
               : fmt::format("cake_warp >= {}u && cake_warp < {}u", rc.firstWarp, rc.firstWarp + sorted.size());
  else {
    uint32_t mask = 0;
    for (int64_t w : sorted) mask |= 1u << w;
    cond = fmt::format("(0x{:x}u >> cake_warp) & 1u", mask);
  }
  std::string warpsText;
  for (size_t i = 0; i < role.warps.size(); ++i) warpsText += (i ? ", " : "") + std::to_string(role.warps[i]);
  line(fmt::format("{}if ({}) {{", first ? "" : "} else ", cond));
  ++indent_;
  line(fmt::format("// role '{}': warps [{}], {} threads{}", role.name, warpsText, rc.threads,
                   rc.singleThread ? "; its operations run on its first thread" : ""));
  if (role.regBudget > 0) {
    w_.use("cake_setmaxnreg");
    int64_t base = ti_.regsPerSm / k_.threads;
    line(fmt::format("cake_setmaxnreg_{}<{}>();", role.regBudget >= base ? "inc" : "dec", role.regBudget));
  }
  if (rc.contiguous)
    line(fmt::format("const uint32_t cake_rtid = threadIdx.x - {}u;  // thread index within the role",
                     32 * rc.firstWarp));
  else {
    uint32_t mask = 0;
    for (int64_t w : sorted) mask |= 1u << w;
    line(fmt::format("const uint32_t cake_rtid = __popc(0x{:x}u & ((1u << cake_warp) - 1u)) * 32u + cake_lane;", mask));
  }
  line("const uint32_t cake_wg = cake_rtid / 128u;       // warpgroup within the role");
  line("const uint32_t cake_wg_warp = (cake_rtid / 32u) % 4u;");
  line("(void)cake_wg;");
  line("(void)cake_wg_warp;");
  // Register fragments the role holds.
  for (const Resource &r : k_.resources) {
    if (r.kind != ResourceKind::Regs || r.derived || r.role != roleId) continue;
    analysis::FragmentTiling t;
    if (fragmentLayout(r, role, r.range, t)) declareFragment(r, t);
  }
  if (rc.singleThread) {
    line("if (cake_rtid == 0) {");
    ++indent_;
  }
  for (const RoleBlock &rb : k_.roles) {
    if (rb.role != roleId) continue;
    stmts(rb.body, rc);
    // Async work the role's code leaves in flight (KernelFacts::drains).
    if (auto it = f_.drains.find(&rb); it != f_.drains.end())
      for (AsyncGroup g : it->second)
        line(g == AsyncGroup::Bulk
                 ? fmt::format("{}{}<0>();  // derived: the TMA stores still in flight finish reading shared memory "
                               "before the role ends",
                               electedGuard(rc), w_.use("cake_bulk_wait_group_read"))
                 : fmt::format("{}(); {}<0>();  // derived: the wgmma operations still in flight (committed into a "
                               "group first) finish before the role ends",
                               w_.use("cake_wgmma_commit_group"), w_.use("cake_wgmma_wait_group")));
  }
  if (rc.singleThread) {
    --indent_;
    line("}");
  }
  if (opts_.lineDirectives) out_ += std::string(kRestoreLine) + "\n";
  --indent_;
}

void KernelEmitter::checkTensorMapTypes() {
  for (const auto &[t, info] : maps_)
    if (dtypeInfo(info.dtype).tensorMapType.empty())
      unsupported(info.firstUse->range, fmt::format("a TMA copy of {} elements", dtypeInfo(info.dtype).name),
                  "TMA has no element type for it");
}

bool KernelEmitter::emit(std::string &kernelText, std::string &launcherText, std::string &summary) {
  unsigned errorsBefore = diags_.errorCount();
  checkTensorMapTypes();

  // Kernel signature.
  std::string params;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (!params.empty()) params += ",\n    ";
    if (r.kind == ResourceKind::TensorParam)
      params += fmt::format("const __grid_constant__ CUtensorMap {}", ident(p.name));
    else
      params += fmt::format("{} {}", dtypeInfo(r.dtype).cudaType, ident(p.name));
  }
  out_ += fmt::format("extern \"C\" __global__ void __launch_bounds__({}, 1) {}(\n    {}) {{\n", k_.threads,
                      ident(k_.name), params);
  indent_ = 1;
  line("extern __shared__ __align__(1024) uint8_t cake_smem_raw[];");
  line(fmt::format("const uint32_t cake_smem = {}(cake_smem_raw);", w_.use("cake_smem_u32")));
  line("const uint32_t cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32u, 0);  // warp-uniform");
  line("const uint32_t cake_lane = threadIdx.x % 32u;");
  line("(void)cake_lane;");
  // Shared-memory addresses of views and barriers.
  for (const Resource &r : k_.resources) {
    if (r.kind == ResourceKind::View) {
      const Resource &pool = k_.resource(r.pool);
      line(fmt::format("const uint32_t cake_{} = cake_smem + {}u;  // '{}': {} {}, {} stage(s) of {} B{}",
                       ident(r.name), pool.smemOffset + r.offset, r.name, shapeText(r.shape), dtypeInfo(r.dtype).name,
                       r.stages, r.bytesPerStage,
                       r.swizzle == Swizzle::None ? "" : fmt::format(", swizzle {}", swizzleName(r.swizzle))));
      line(fmt::format("(void)cake_{};", ident(r.name)));
    } else if (r.kind == ResourceKind::Barrier) {
      line(fmt::format("const uint32_t cake_{} = cake_smem + {}u;  // '{}': {} mbarrier(s), {} arrival(s) per phase",
                       ident(r.name), r.smemOffset, r.name, r.count, r.initCount));
    }
  }
  // One thread initialises the barriers; everyone waits for it.
  line("if (threadIdx.x == 0) {");
  ++indent_;
  line("if (cake_smem % 1024u != 0) __trap();  // the swizzle patterns and descriptors assume 1024-byte alignment");
  for (const Resource &r : k_.resources)
    if (r.kind == ResourceKind::Barrier)
      line(fmt::format("for (uint32_t s = 0; s < {}u; ++s) {}(cake_{} + 8u * s, {}u);", r.count,
                       w_.use("cake_mbar_init"), ident(r.name), r.initCount));
  for (const auto &[t, info] : maps_)
    line(fmt::format("{}(&{});", w_.use("cake_prefetch_tensormap"), ident(k_.resource(t).name)));
  line(w_.use("cake_fence_mbarrier_init") + "();");
  --indent_;
  line("}");
  bool cluster = analysis::clusterSize(k_) > 1;
  if (cluster)
    line(w_.use("cake_cluster_sync") + "();  // every block's barriers are initialised before any block uses them");
  else
    line("__syncthreads();");

  // Run-time values the schedule names at kernel scope.
  for (const IrStmt &let : k_.lets) {
    lineDirective(let.range);
    line(fmt::format("const {} {} = {};", let.start.kind == ValueKind::Bool ? "bool" : "int32_t", ident(let.loopVar),
                     value(let.start, false)));
  }
  if (opts_.lineDirectives && !k_.lets.empty()) out_ += std::string(kRestoreLine) + "\n";

  // Role dispatch, in declaration order of the roles.
  bool first = true;
  for (const Resource &r : k_.resources) {
    if (r.kind != ResourceKind::Role) continue;
    bool hasBlock = false;
    for (const RoleBlock &rb : k_.roles) hasBlock |= rb.role == r.id;
    if (!hasBlock && r.regBudget == 0) continue;
    indent_ = 1;
    roleBranch(r.id, first);
    first = false;
  }
  indent_ = 1;
  if (!first) line("}");
  if (cluster)
    line(w_.use("cake_cluster_sync") + "();  // no block leaves while others may still write to it or arrive on it");
  out_ += "}\n";
  kernelText = out_;
  out_.clear();

  // Header summary.
  std::string roles;
  for (const Resource &r : k_.resources) {
    if (r.kind != ResourceKind::Role) continue;
    roles += fmt::format("//   role {:<10} warps {}-{}{}\n", r.name, r.warps.empty() ? 0 : r.warps.front(),
                         r.warps.empty() ? 0 : r.warps.back(),
                         r.regBudget ? fmt::format(", setmaxnreg {}", r.regBudget) : "");
  }
  summary = fmt::format("// kernel {}: {} threads, {} B dynamic shared memory, cluster {}x{}x{}\n{}", k_.name,
                        k_.threads, k_.smemBytes, k_.cluster[0], k_.cluster[1], k_.cluster[2], roles);
  launcher(launcherText);
  return diags_.errorCount() == errorsBefore;
}

// ---------------------------------------------------------------------------
// the host launcher

std::string boxList(const std::vector<int64_t> &box) {
  std::string s;
  for (size_t i = 0; i < box.size(); ++i) s += (i ? ", " : "") + std::to_string(box[i]);
  return s;
}

// The TMA box of a tensor map: the view's shape, or one panel of it.
std::string boxText(const TensorMap &info) {
  Resource v;
  v.shape = info.box;
  v.dtype = info.dtype;
  v.swizzle = info.swizzle;
  v.bytesPerStage = product(info.box) * dtypeInfo(info.dtype).bits / 8;
  Panels p = panelsOf(v);
  std::string s;
  for (size_t i = 0; i < info.box.size(); ++i) {
    int64_t d = i + 1 == info.box.size() ? p.boxInner : info.box[i];
    if (i == 0 && info.multicast > 1) d /= info.multicast;  // this block's share of the rows
    s += (i ? ", " : "") + std::to_string(d);
  }
  return s;
}

void KernelEmitter::launcher(std::string &text) {
  std::string name = ident(k_.name);
  std::string sig, tensorDocs, callArgs;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (!sig.empty()) sig += ", ";
    if (r.kind == ResourceKind::TensorParam) {
      sig += fmt::format("const cake_tensor *{}", ident(p.name));
      auto it = maps_.find(r.id);
      if (it != maps_.end())
        tensorDocs +=
            fmt::format("//   {}: rank {}, {}, tile {} (each dimension a multiple of it), swizzle {}\n", p.name, r.rank,
                        dtypeInfo(it->second.dtype).name, shapeText(it->second.box), swizzleName(it->second.swizzle));
      else
        tensorDocs += fmt::format("//   {}: rank {}, not copied by the kernel\n", p.name, r.rank);
    } else {
      sig += fmt::format("{} {}", dtypeInfo(r.dtype).cudaType, ident(p.name));
    }
  }
  if (!sig.empty()) sig += ", ";
  sig += "cudaStream_t stream";

  std::string o;
  o += fmt::format("// ---- host launcher for '{}' ----\n", k_.name);
  o += fmt::format("//\n// int {}_launch({});\n", name, sig);
  o += "//   Checks its arguments, builds the tensor maps and launches the kernel on `stream`.\n";
  o += "//   Returns CAKE_SUCCESS, or an error code with a message from " + name + "_last_error().\n";
  o += "//   Tensors (shape outermost first, strides in elements, innermost stride 1, data\n"
       "//   16-byte aligned, other strides multiples of 16 bytes):\n" +
       tensorDocs;
  o += fmt::format("static thread_local char cake_{}_message[512];\n\n", name);
  o += fmt::format("extern \"C\" const char *{}_last_error(void) {{ return cake_{}_message; }}\n\n", name, name);
  o += fmt::format("extern \"C\" int {}_launch({}) {{\n", name, sig);
  o += fmt::format("  char *msg = cake_{}_message;\n", name);
  o += "  msg[0] = '\\0';\n";
  // Tensor checks and maps.
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::TensorParam) continue;
    auto it = maps_.find(r.id);
    if (it == maps_.end()) continue;
    const TensorMap &info = it->second;
    // A view of lower rank than its tensor copies a box of extent 1 in the
    // tensor's outer dimensions (a 2-d tile of one head of a 3-d tensor).
    std::string outer;
    for (size_t i = info.box.size(); i < r.rank; ++i) outer += "1, ";
    std::string box = boxList(info.box);
    o += fmt::format("  const int64_t cake_{}_tile[{}] = {{{}{}}};\n", ident(p.name), r.rank, outer, box);
    if (boxText(info) != box)
      o += fmt::format(
          "  const int64_t cake_{}_box[{}] = {{{}{}}};  // {}\n", ident(p.name), r.rank, outer, boxText(info),
          info.multicast > 1 ? "this block's share of the tile's rows (multicast)" : "one panel of the tile");
    o += fmt::format("  if (int e = cake_check_tensor({0}, \"{1}\", {2}, {3}, cake_{0}_tile, msg)) return e;\n",
                     ident(p.name), p.name, r.rank, dtypeInfo(info.dtype).bits / 8);
  }
  // Grid.
  std::vector<std::string> grid = {"1", "1", "1"};
  for (size_t i = 0; i < k_.grid.size() && i < 3; ++i) grid[i] = value(k_.grid[i], true);
  if (usesSmCount_) {
    o += "  int cake_device = 0, cake_sm_count = 0;\n";
    o += "  if (cudaGetDevice(&cake_device) != cudaSuccess ||\n"
         "      cudaDeviceGetAttribute(&cake_sm_count, cudaDevAttrMultiProcessorCount, cake_device) != cudaSuccess)\n"
         "    return cake_fail(msg, CAKE_ERROR_LAUNCH, \"cannot read the device's multiprocessor count\");\n";
  }
  o += fmt::format("  const int64_t cake_grid[3] = {{{}, {}, {}}};\n", grid[0], grid[1], grid[2]);
  o += "  if (cake_grid[0] <= 0 || cake_grid[1] <= 0 || cake_grid[2] <= 0 || cake_grid[0] > 2147483647 ||\n"
       "      cake_grid[1] > 65535 || cake_grid[2] > 65535)\n";
  o += fmt::format(
      "    return cake_fail(msg, CAKE_ERROR_SHAPE, \"the grid ({}, {}, {}) = (%lld, %lld, %lld) is empty or "
      "too large\", (long long)cake_grid[0], (long long)cake_grid[1], (long long)cake_grid[2]);\n",
      grid[0], grid[1], grid[2]);
  for (int i = 0; i < 3; ++i)
    if (k_.cluster[i] > 1)
      o += fmt::format("  if (cake_grid[{0}] % {1} != 0)\n    return cake_fail(msg, CAKE_ERROR_SHAPE, \"grid dimension "
                       "{0} (%lld) is not a multiple of the cluster's {1}\", (long long)cake_grid[{0}]);\n",
                       i, k_.cluster[i]);
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    auto it = maps_.find(r.id);
    if (r.kind != ResourceKind::TensorParam) continue;
    o += fmt::format("  CUtensorMap cake_map_{};\n", ident(p.name));
    if (it == maps_.end()) {
      o += fmt::format("  memset(&cake_map_{}, 0, sizeof cake_map_{});\n", ident(p.name), ident(p.name));
      continue;
    }
    const TensorMap &info = it->second;
    o += fmt::format("  if (int e = cake_encode_tensor_map(&cake_map_{0}, {0}, \"{1}\", {2}, "
                     "CU_TENSOR_MAP_DATA_TYPE_{3}, {4}, cake_{0}_{6}, {5}, msg)) return e;\n",
                     ident(p.name), p.name, r.rank, dtypeInfo(info.dtype).tensorMapType, dtypeInfo(info.dtype).bits / 8,
                     tensorMapSwizzle(info.swizzle), boxText(info) != boxList(info.box) ? "box" : "tile");
  }
  o += fmt::format("  cudaError_t err = cudaFuncSetAttribute({}, cudaFuncAttributeMaxDynamicSharedMemorySize, {});\n",
                   name, k_.smemBytes);
  o += "  if (err != cudaSuccess)\n"
       "    return cake_fail(msg, CAKE_ERROR_LAUNCH, \"cannot raise the dynamic shared memory limit to " +
       std::to_string(k_.smemBytes) + " bytes: %s\", cudaGetErrorString(err));\n";
  o += "  cudaLaunchConfig_t config = {};\n";
  o += "  config.gridDim = dim3((unsigned)cake_grid[0], (unsigned)cake_grid[1], (unsigned)cake_grid[2]);\n";
  o += fmt::format("  config.blockDim = dim3({}, 1, 1);\n", k_.threads);
  o += fmt::format("  config.dynamicSmemBytes = {};\n", k_.smemBytes);
  o += "  config.stream = stream;\n";
  o += "  cudaLaunchAttribute attrs[1];\n";
  o += fmt::format("  attrs[0].id = cudaLaunchAttributeClusterDimension;\n"
                   "  attrs[0].val.clusterDim.x = {};\n  attrs[0].val.clusterDim.y = {};\n"
                   "  attrs[0].val.clusterDim.z = {};\n",
                   k_.cluster[0], k_.cluster[1], k_.cluster[2]);
  o += "  config.attrs = attrs;\n";
  o += "  config.numAttrs = 1;\n";
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    callArgs += ", " + (r.kind == ResourceKind::TensorParam ? "cake_map_" + ident(p.name) : ident(p.name));
  }
  o += fmt::format("  err = cudaLaunchKernelEx(&config, {}{});\n", name, callArgs);
  o += "  if (err != cudaSuccess)\n"
       "    return cake_fail(msg, CAKE_ERROR_LAUNCH, \"launch failed: %s\", cudaGetErrorString(err));\n";
  o += "  return CAKE_SUCCESS;\n}\n";
  text = o;
}

// Runtime support of the launchers, once per file.
const char *kLauncherSupport = R"CAKE(// ---- launcher support (host) ----
#ifndef CAKE_TENSOR_DEFINED
#define CAKE_TENSOR_DEFINED
// A tensor argument: a device pointer with its shape (outermost first, as in
// PyTorch) and strides in elements; only the first `rank` entries are read.
typedef struct cake_tensor {
  void *data;
  int64_t shape[5];
  int64_t stride[5];
} cake_tensor;
enum {
  CAKE_SUCCESS = 0,
  CAKE_ERROR_INVALID_ARGUMENT = 1,  // a null tensor or pointer, a stride that is not 1 innermost
  CAKE_ERROR_MISALIGNED = 2,        // data or a stride not 16-byte aligned
  CAKE_ERROR_SHAPE = 3,             // a dimension not a multiple of the kernel's tile, an empty grid
  CAKE_ERROR_DRIVER = 4,            // the driver's tensor-map entry point failed
  CAKE_ERROR_LAUNCH = 5             // the launch or a launch attribute failed
};
#endif

static int cake_fail(char *msg, int code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(msg, 512, format, args);
  va_end(args);
  return code;
}

static int cake_check_tensor(const cake_tensor *t, const char *name, int rank, int64_t elem_bytes,
                             const int64_t *tile, char *msg) {
  if (!t || !t->data) return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, "tensor %s is null", name);
  if (reinterpret_cast<uintptr_t>(t->data) % 16 != 0)
    return cake_fail(msg, CAKE_ERROR_MISALIGNED, "tensor %s: data %p is not 16-byte aligned", name, t->data);
  if (t->stride[rank - 1] != 1)
    return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, "tensor %s: the innermost stride is %lld, not 1", name,
                     (long long)t->stride[rank - 1]);
  for (int d = 0; d < rank; ++d) {
    if (t->shape[d] <= 0 || t->shape[d] > (int64_t(1) << 32) || t->shape[d] % tile[d] != 0)
      return cake_fail(msg, CAKE_ERROR_SHAPE, "tensor %s: dimension %d is %lld; it must be a positive multiple of %lld",
                       name, d, (long long)t->shape[d], (long long)tile[d]);
    if (d < rank - 1 && (t->stride[d] <= 0 || (t->stride[d] * elem_bytes) % 16 != 0))
      return cake_fail(msg, CAKE_ERROR_MISALIGNED, "tensor %s: stride %d is %lld elements; it must be a positive multiple of 16 bytes",
                       name, d, (long long)t->stride[d]);
  }
  return CAKE_SUCCESS;
}

// cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda).
static int cake_encode_tensor_map(CUtensorMap *map, const cake_tensor *t, const char *name, int rank,
                                  CUtensorMapDataType type, int64_t elem_bytes, const int64_t *tile,
                                  CUtensorMapSwizzle swizzle, char *msg) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (!encode) {
    cudaDriverEntryPointQueryResult query;
    void *fn = nullptr;
    cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &query);
    if (err != cudaSuccess || query != cudaDriverEntryPointSuccess || !fn)
      return cake_fail(msg, CAKE_ERROR_DRIVER, "cannot find cuTensorMapEncodeTiled in the driver: %s",
                       cudaGetErrorString(err));
    encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }
  cuuint64_t dims[5], strides[5];
  cuuint32_t box[5], elem_strides[5];
  for (int i = 0; i < rank; ++i) {  // innermost first
    int d = rank - 1 - i;
    dims[i] = (cuuint64_t)t->shape[d];
    box[i] = (cuuint32_t)tile[d];
    elem_strides[i] = 1;
    if (i > 0) strides[i - 1] = (cuuint64_t)(t->stride[d] * elem_bytes);
  }
  CUresult r = encode(map, type, (cuuint32_t)rank, t->data, dims, strides, box, elem_strides,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return cake_fail(msg, CAKE_ERROR_DRIVER, "tensor %s: cuTensorMapEncodeTiled failed (CUresult %d)", name, (int)r);
  return CAKE_SUCCESS;
}

)CAKE";

// Replaces each restore marker with a #line naming the output itself.
std::string restoreLines(const std::string &text, const std::string &outputName) {
  std::string out;
  size_t lineNo = 1, pos = 0;
  std::string marker = std::string(kRestoreLine) + "\n";
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size() - 1;
    std::string ln = text.substr(pos, end - pos + 1);
    if (ln == marker) ln = fmt::format("#line {} \"{}\"\n", lineNo + 1, outputName);
    out += ln;
    ++lineNo;
    pos = end + 1;
  }
  return out;
}

}  // namespace

// The targets codegen lowers today.
constexpr uint32_t kLoweredTargets = targetBit(Target::Sm90a);

bool hasLowering(Target target) { return (kLoweredTargets & targetBit(target)) != 0; }

bool emitCuda(const Module &m, const analysis::ModuleFacts &facts, const SourceManager &sm, DiagnosticEngine &diags,
              const CodegenOptions &opts, std::string &out) {
  if (!hasLowering(m.target)) {
    diags.report(DiagId::CodegenNoLowering, SourceRange(), targetInfo(m.target).name, targetNames(kLoweredTargets));
    return false;
  }
  unsigned errorsBefore = diags.errorCount();
  WrapperSet wrappers;
  std::string kernels, launchers, summaries;
  for (const auto &k : m.kernels) {
    KernelEmitter e(*k, facts.of(*k), targetInfo(m.target), sm, diags, opts, wrappers);
    std::string kt, lt, st;
    e.emit(kt, lt, st);
    kernels += kt + "\n";
    launchers += lt + "\n";
    summaries += st;
  }
  if (diags.errorCount() != errorsBefore) return false;

  std::string text;
  const TargetInfo &ti = targetInfo(m.target);
  text += fmt::format("// Generated by cakec{} from {} for {}. Do not edit: edit the .cake file.\n//\n",
                      opts.compilerVersion.empty() ? "" : " " + opts.compilerVersion, sm.name(m.file), ti.name);
  text += summaries;
  text += fmt::format("//\n// Build: nvcc -gencode=arch=compute_{0},code=sm_{0} -c this.cu (CUDA 12.4 or later).\n\n",
                      ti.arch);
  text += "#include <cuda.h>\n#include <cudaTypedefs.h>\n#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n"
          "#include <cuda_runtime.h>\n#include <stdarg.h>\n#include <stdint.h>\n#include <stdio.h>\n"
          "#include <string.h>\n\n";
  text += "// ---- PTX wrappers (only those the kernels use) ----\n";
  text += wrappers.text();
  text += "// ---- kernels ----\n";
  text += kernels;
  text += kLauncherSupport;
  text += launchers;
  out += restoreLines(text, opts.outputName);
  return true;
}

}  // namespace cake::codegen
