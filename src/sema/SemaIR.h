// SemaIR: the resolved module semantic analysis produces.
//
// Every declared resource becomes a Resource record with its derived facts
// (sizes, offsets, warp ranges, mbarrier placement); each role's body becomes
// a tree of resolved operations whose operands name resources, constants or
// runtime expressions. The AST is kept and pointed into, never rewritten.
// The check passes (src/passes/) and codegen read this structure.
#pragma once

#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "diagnostics/Check.h"
#include "diagnostics/SourceManager.h"
#include "lexer_parser/Ast.h"
#include "sema/OpTable.h"
#include "sema/Types.h"
#include "target/TargetInfo.h"

namespace cake::sema {

enum class ResourceKind : uint8_t {
  TensorParam,
  ScalarParam,
  Pool,
  View,
  Tmem,
  Regs,
  Role,
  Pipeline,
  Barrier,
  NamedBarrier
};
std::string_view resourceKindName(ResourceKind k);

enum class Swizzle : uint8_t { None, B32, B64, B128 };
std::string_view swizzleName(Swizzle s);
unsigned swizzleBytes(Swizzle s);  // 0, 32, 64, 128

enum class ArrivalScope : uint8_t { Role, Warpgroup, Warp, Thread };
// How a register fragment's elements are spread over its role's threads
// (analysis::fragmentTiling): the accumulator layout of the target's tensor
// cores, or rows: whole rows per warp, 8 consecutive elements per lane.
enum class FragmentLayout : uint8_t { Accumulator, Rows };
std::string_view arrivalScopeName(ArrivalScope s);  // "role", "warpgroup", "warp", "thread"

struct Resource {
  ResourceId id = kNoResource;
  ResourceKind kind;
  std::string name;
  SourceRange range;     // the declaring expression (or parameter)
  bool derived = false;  // created by an operation's result, not declared

  // TensorParam: rank, and whether it is a TMA descriptor (LM.tmaNd) or a
  // pointer with strides (LM.tensorNd); ScalarParam: dtype.
  unsigned rank = 0;
  bool tma = true;
  // TensorParam with a declared shape (`A: LM.tma2d[M, K]`), outermost
  // first: each dimension is a scalar parameter (the launcher checks they
  // agree) or a constant; empty when the shape is not declared. A TMA
  // tensor's declared dimensions need not be multiples of the tile: loads
  // past the end read zeros and stores past it are dropped.
  struct Dim {
    ResourceId scalar = kNoResource;  // an integer scalar parameter, or
    int64_t constant = 0;             // a constant (scalar == kNoResource)
  };
  std::vector<Dim> dims;
  // A tensor in the launch's workspace (lm.workspace): not a parameter of
  // the launcher but a part of the caller's workspace buffer; its shape,
  // outermost first, integers of the scalar parameters and constants.
  bool workspace = false;
  std::vector<Value> workspaceShape;
  DType dtype = DType::F32;  // also View, Tmem, Regs

  // Pool
  int64_t bytes = 0;
  int64_t smemOffset = 0;  // Pool and Barrier: byte offset in dynamic shared memory

  // View
  ResourceId pool = kNoResource;
  int64_t offset = 0;  // within the pool
  int64_t stages = 1;
  Swizzle swizzle = Swizzle::None;
  int64_t bytesPerStage = 0;
  int64_t totalBytes = 0;
  int64_t alignment = 0;  // largest power of two dividing the absolute address (capped at 1024)
  bool alias = false;     // may overlap other views

  std::vector<int64_t> shape;  // View, Tmem, Regs

  // Tmem
  int64_t firstColumn = 0;
  int64_t width = 0;

  // Regs: the role holding it (kNoResource if unassigned), and its layout
  ResourceId role = kNoResource;
  FragmentLayout layout = FragmentLayout::Accumulator;
  int64_t warpsPerRow = 1;  // the rows layout: warps sharing each row, each a part of its columns

  // Role
  std::vector<int64_t> warps;
  int64_t regBudget = 0;  // setmaxnreg value; 0 = none

  // Role, View, Regs: the role family (Kernel::roleFamilies) this is one
  // member (or one member's copy) of, and the member's index; -1 if none.
  int32_t family = -1;
  int32_t member = -1;

  // Pipeline: stages above. Barrier:
  int64_t count = 0;
  std::vector<ResourceId> producers;
  std::vector<ResourceId> consumers;
  int64_t initCount = 1;
  // Where init_count is written (its value), or when it is not, the empty
  // range just after the last written argument: where a fix-it sets it.
  SourceRange initCountSite;
  bool initCountWritten = false;
  ResourceId pipeline = kNoResource;
  // Declared credits (0 or count: whether the first lap's waits pass); -1
  // when not declared (the analysis infers it from the pipeline).
  int64_t credits = -1;
};

// One argument of a resolved operation, in the table's parameter order.
struct Operand {
  bool present = false;  // given, or defaulted
  bool defaulted = false;
  Value value;
  SourceRange range;       // the argument, with its keyword
  SourceRange valueRange;  // the value alone (what a fix-it replaces)
};

struct Operation {
  OpKind kind;
  SourceRange range;
  ResourceId receiver = kNoResource;
  std::vector<Operand> operands;  // one per table parameter
  Value result;

  // Arrive-style operations: who arrives (the ArrivalScope parameter, parsed once).
  ArrivalScope scope = ArrivalScope::Role;

  const OpInfo &info() const { return opInfo(kind); }
  // The operand of a parameter, named by the table's generated enum:
  // op.operand(param::Mma::acc). The operation must be of that kind.
  template <class P>
  const Operand &operand(P p) const {
    CAKE_CHECK(kind == ParamOf<P>::kind, "operand of '" + std::string(opInfo(ParamOf<P>::kind).name) +
                                             "' read from an operation '" + std::string(info().name) + "'");
    size_t i = static_cast<size_t>(p);
    CAKE_CHECK(i < operands.size(), "operand index out of range");
    return operands[i];
  }
  // The operand at a parameter index taken from the table's effects.
  const Operand &operandAt(int8_t index) const {
    CAKE_CHECK(index >= 0 && static_cast<size_t>(index) < operands.size(), "effect slot names no parameter");
    return operands[static_cast<size_t>(index)];
  }
  // A wait for an async family: the groups it leaves in flight (its pending
  // operand, a constant sema checked to be 0 to 7; 0 when the op table gives
  // it no such operand).
  int64_t pendingGroups() const {
    int8_t p = info().effects.pendingGroups;
    return p == kNone ? 0 : operandAt(p).value.constInt.value_or(0);
  }
  // A view.store with transpose=True: element (r, c) of the fragment goes to
  // (c, r) of the view, so a thread writes other elements of the view than
  // a plain access of the same fragment shape would.
  bool transposedStore() const { return kind == OpKind::Store && operand(param::Store::transpose).value.constBool; }
  // A copy of the first rows of a tile (its first_rows operand); nullopt for
  // a whole tile.
  std::optional<int64_t> rowBound() const {
    int8_t p = info().effects.rowBound;
    if (p == kNone || !operandAt(p).present) return std::nullopt;
    return operandAt(p).value.constInt;
  }
  // A copy of part of a tile: the first column it takes (its col operand);
  // nullopt for a whole tile.
  std::optional<int64_t> firstColumn() const {
    int8_t p = info().effects.firstColumn;
    if (p == kNone || !operandAt(p).present) return std::nullopt;
    return operandAt(p).value.constInt;
  }
};

// A statement of a role body.
struct IrStmt {
  enum class Kind : uint8_t { Op, For, If, Let } kind = Kind::Op;
  SourceRange range;
  // Op
  Operation op;
  // For: `for var in range(start, stop, step)`; Let: `var = value`, a
  // run-time integer or boolean given a name (value in `start`).
  std::string loopVar;
  uint32_t loopId = 0;
  Value start, stop;
  int64_t step = 1;  // the step if constant, else 0
  Value stepValue;   // the step, constant or run-time
  // If
  Value cond;
  std::vector<IrStmt> body;    // For body, If then-branch
  std::vector<IrStmt> orelse;  // If else-branch
};

struct RoleBlock {
  ResourceId role;
  SourceRange range;  // the `with` statement
  std::vector<IrStmt> body;
};

// A role family (lm.roles): several roles from one body. Its members are
// ordinary roles named `name[i]`; sema analyses the body once per member.
struct RoleFamily {
  std::string name;
  SourceRange range;  // the lm.roles call
  std::vector<ResourceId> members;
};

struct KernelParam {
  std::string name;
  SourceRange range;
  ResourceId resource = kNoResource;  // tensors and scalars
  bool isBuilder = false;
  bool workspace = false;  // a workspace tensor (lm.workspace): the kernel's, the launcher builds it
};

struct Kernel {
  std::string name;
  SourceRange range;
  SourceRange nameRange;
  std::vector<KernelParam> params;
  std::vector<Resource> resources;
  std::vector<RoleBlock> roles;
  std::vector<RoleFamily> roleFamilies;
  // The copies of role family bodies, one per member (exprValues and the
  // operations point into them).
  std::shared_ptr<ast::AstContext> memberBodies = std::make_shared<ast::AstContext>();
  // Value and loop operations (lm.block_id, lm.range, ...) used anywhere:
  // they leave no Operation behind but must still exist on the target.
  std::vector<std::pair<OpKind, SourceRange>> valueOps;
  // @cake.schedule options
  std::vector<Value> grid;   // empty: one block (the launcher uses (1, 1, 1))
  SourceRange gridRange;     // the grid= expression
  SourceRange clusterRange;  // the cluster= expression
  std::vector<int64_t> cluster{1, 1, 1};
  int64_t blocksPerSm = 1;       // blocks_per_sm=: the residency the kernel is built for
  SourceRange blocksPerSmRange;  // the blocks_per_sm= expression (empty: not given)
  // Derived
  int64_t threads = 0;    // 32 x (highest warp + 1)
  int64_t smemBytes = 0;  // pools + mbarriers, with alignment padding
  int64_t barrierBytes = 0;
  // Row reductions of fragments spread over several warps per row (the rows
  // layout with warps_per_row > 1) exchange the warps' partial values
  // through this many bytes of shared memory at reduceScratch (0: none),
  // each role its own part of them, at reduceScratchAt[role] (roles run
  // their reductions at the same time).
  int64_t reduceScratch = 0, reduceScratchBytes = 0;
  std::map<ResourceId, int64_t> reduceScratchAt;
  // Values an operation computes once for its role (lm.atomic, IntOp::
  // RoleValue): how many there are, and the 16 bytes of shared memory at
  // broadcastAt[role] through which one thread hands each to the others.
  int64_t roleValues = 0;
  std::map<ResourceId, int64_t> broadcastAt;
  // The values of reads sema shares between roles (docs/language.md 9.8):
  // the same in every role of a block that reads them, and, in a cluster,
  // in every block of the cluster (their coordinates are).
  std::set<int64_t> sharedValues;
  // With TMEM regions: 16 bytes after the mbarriers for the lowering's own
  // TMEM bookkeeping (an mbarrier that drains the tensor core before the
  // columns are released, and the address tcgen05.alloc writes); -1 without.
  int64_t tmemSlot = -1;
  // What each integer, boolean or number expression evaluated in the kernel
  // resolved to (constants folded, runtime values with their sources), and
  // the bound operation of each call's callee: codegen lowers the booleans
  // and numbers it holds from the AST, the integers from their nodes (ints).
  std::unordered_map<const ast::Expr *, Value> exprValues;
  // A use of a name bound by assignment to a run-time value -> the
  // expression it was bound to (loop variables and parameters have none).
  std::unordered_map<const ast::Expr *, const ast::Expr *> nameDefs;
  // Run-time values named at kernel scope (`tiles = (M // BM) * (N // BN)`),
  // in order: each is a Let statement.
  std::vector<IrStmt> lets;
  // Every integer evaluated in the kernel, as typed expression nodes with
  // their normal forms (Value::ix points here).
  IntExprTable ints;
  // Each loop's variable name, by loop id (IrStmt::loopId).
  std::map<uint32_t, std::string> loopVars;
  // Each named integer's name (a Let statement's), by IntOp::Let's value.
  std::vector<std::string> letVars;

  // A leaf of `ints` as the author writes it: "k", "K", "lm.block_id(0)".
  std::string leafText(const IntNode &n) const;
  // A node of `ints` as the author would write it: "(M + 1) // k_steps",
  // spaced and parenthesised as its operators need (not as typed).
  std::string intText(IntExprId x) const;

  Resource &resource(ResourceId id) { return resources[id]; }
  const Resource &resource(ResourceId id) const { return resources[id]; }
};

// "(M, K)": a tensor parameter's declared shape, outermost first ("()" when
// none is declared).
std::string declaredShape(const Kernel &k, const Resource &tensor);

// A family (`@cake.family`): routes (schedules behind ordered shape guards)
// and a fallback, over a declared shape domain. Its signature is a Kernel
// with parameters only (the dispatcher's C signature); guards are evaluated
// in it, so their integers are nodes of `signature->ints`.
struct FamilyRoute {
  const Kernel *schedule = nullptr;
  std::string name;                  // the name the schedule is bound to here (its symbol in the output)
  SourceRange range;                 // the lm.route / lm.fallback call
  SourceRange scheduleRange;         // its schedule argument
  const ast::Expr *guard = nullptr;  // `when`; null for the fallback
  SourceRange guardRange;
};
struct FamilyDomain {
  ResourceId param = kNoResource;  // an integer scalar parameter of the signature
  int64_t lo = 1, hi = INT32_MAX, multiple = 1;
  SourceRange range;
};
struct Family {
  std::unique_ptr<Kernel> signature;
  std::vector<FamilyDomain> domain;  // declared dimensions, in order
  std::vector<FamilyRoute> routes;
  std::optional<FamilyRoute> fallback;
  // The declared domain of an integer parameter (a default one when absent).
  FamilyDomain domainOf(ResourceId param) const;
  // The signature's integer scalar parameters, in order: the shape
  // dimensions the guards and the domain range over.
  std::vector<ResourceId> integerParams() const;
};

struct Module {
  FileId file = kNoFile;
  std::string name;  // dotted module name when imported ("stdlib.hopper"), else ""
  Target target = kDefaultTarget;
  std::vector<std::unique_ptr<Kernel>> kernels;
  // Module-level constants, which importers see.
  std::map<std::string, Value> exports;
  // Modules this one imported, by dotted name (for `a.b.c` attribute chains).
  std::map<std::string, const Module *> imports;
  // Kernel families, and the imported schedules their routes launch (with
  // the name each is bound to here, its symbol in the output).
  std::vector<std::unique_ptr<Family>> families;
  std::vector<std::pair<const Kernel *, std::string>> importedRoutes;
  // The -D / cake.instantiate constants this module's analysis replaced
  // (single-name module assignments only): what an instance can set.
  std::set<std::string> definesUsed;

  // Every schedule this module compiles: its own, then the imported ones
  // its families route to.
  std::vector<const Kernel *> compiledKernels() const;
  // The symbol a compiled kernel has in the output: an imported one's is
  // the name it is bound to here.
  std::string symbolOf(const Kernel &k) const;
};

// `--emit=ir`: the resolved module as readable, deterministic text.
std::string printIR(const Module &m, const SourceManager &sm);
// The source text of a range (single-line ranges; others are abbreviated).
std::string sourceText(const SourceManager &sm, const SourceRange &r);

}  // namespace cake::sema
