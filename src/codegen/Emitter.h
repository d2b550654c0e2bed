// Emitter.h - the kernel emitter every target shares (internal to codegen).
//
// The shape of the output follows the schedule: one `if` branch per role
// (dispatched on the warp index, so each warpgroup's setmaxnreg sits in one
// branch), each role's statements in order, every operation lowered to calls
// of the PTX wrappers (PtxWrappers.cpp) by the entry of the target's
// lowering table (Lowering.h). What the schedule leaves implicit is derived
// from the same facts the gates checked:
//   - mbarrier addresses (from sema's placement), init counts, the fence
//     before first use;
//   - the ring slot and phase parity of each wait from its stage counter
//     (slot = s mod stages, parity = (s div stages) mod 2, inverted for
//     release barriers, whose first lap passes);
//   - expect-tx bytes: one arrive.expect_tx per barrier stage and statement
//     list, carrying the bytes of every TMA copy completing on it;
//   - MMA operand addressing from the views' shape and swizzle, the rows of
//     A each warp or warpgroup multiplies, the k-steps within a stage;
//   - the fragment layout of the target's MMA path (analysis/Tiling.h) for
//     fragment math, reductions and stores;
//   - tensor maps (box, swizzle, element type) from the views the copies use.
//
// Files: Kernel.cpp (skeleton, role dispatch, statements, the output file),
// CheckWaits.cpp (-fcheck-waits, and what a target cannot run),
// Expressions.cpp, Fragments.cpp (written once against the fragment
// layout), Launcher.cpp, Common.cpp; per instruction family under nvidia/:
// Sync.cpp (mbarriers, named barriers, fences: every target), CpAsync.cpp
// (cp.async in, chunked copies out: every target), sm80/MmaSync.cpp,
// sm90/Tma.cpp, sm90/Wgmma.cpp, sm100/Tcgen05.cpp. Lowering.cpp assembles each target's table
// from them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/KernelFacts.h"
#include "analysis/Tiling.h"
#include "codegen/Codegen.h"
#include "codegen/Lowering.h"
#include "codegen/PtxWrappers.h"
#include "sema/SemaIR.h"

namespace cake::codegen::detail {

using namespace cake::sema;
using analysis::TensorMap;

// Marks where a `#line` naming the output itself goes (restoreLines).
inline constexpr const char *kRestoreLine = "#line __CAKE_RESTORE_LINE__";

// A user's name as a C++ identifier: our own names start with `cake_`.
std::string ident(const std::string &n);
unsigned swizzleLayout(Swizzle s);  // the layout-type field of an sm_90 descriptor
const char *tensorMapSwizzle(Swizzle s);
// The variable holding a view's or barrier's shared-memory address in the
// kernel: `cake_<name>_view`, `cake_<name>_bar`. Apart from the user's names
// (loop variables and fragments keep theirs) and from the lowering's own
// temporaries (`cake_<word>`, none ending in _view or _bar).
std::string addrVar(const Resource &r);
int64_t product(const std::vector<int64_t> &v);
std::string shapeText(const std::vector<int64_t> &v);
// Replaces each restore marker with a #line naming the output itself.
std::string restoreLines(const std::string &text, const std::string &outputName);
extern const std::string kLauncherSupport;
extern const char *const kRangeSupport;  // LauncherRanges.cpp: cake_iv, in kLauncherSupport
extern const char *const kTensorMapSupport;
extern const char *const kWaitSupport;       // -fcheck-waits (CheckWaits.cpp)
extern const char *const kJitterSupport;     // -fjitter (CheckWaits.cpp)
extern const char *const kValueReadSupport;  // lm.load_scalar's range check (ValueReads.cpp)
extern const char *const kValueRangeCode;    // its error code, in the file and the header
extern const std::string kTensorTypes;
// A dtype's code in cake_tensor.dtype (CAKE_DTYPE_BF16), its name there (BF16).
std::string dtypeCode(DType d);
inline std::string upperName(DType d) { return dtypeCode(d).substr(11); }

// A swizzled view whose rows are wider than the swizzle span is stored as
// panels: each holds every row's next span of bytes, swizzled on its own, the
// panels one after another. TMA moves one box per panel. A core-matrix view
// (analysis::KernelFacts::coreMatrixViews) has panels 16 bytes wide.
struct Panels {
  int64_t count = 1;     // panels per stage
  int64_t rowPitch = 0;  // bytes between rows within a panel
  int64_t bytes = 0;     // bytes per panel
  int64_t boxInner = 0;  // elements of the innermost box dimension
};
Panels panelsOf(const Resource &v, bool coreMatrices = false);
// The byte offset of a K-major operand tile's k-step that starts `kBytes`
// into the rows: in panel (kBytes / pitch), at (kBytes % pitch) within it.
inline int64_t kStepOffset(const Panels &p, int64_t kBytes) {
  return (kBytes / p.rowPitch) * p.bytes + kBytes % p.rowPitch;
}
// The leading and stride byte offsets of a shared-memory descriptor for an
// unswizzled tile stored as 16-byte panels of core matrices (8 rows of 16
// bytes, 128 contiguous bytes each). K-major: the leading offset steps along
// K to the next panel, the stride offset along M/N to the next 8 rows (128
// bytes). MN-major: the leading offset steps along K to the next 8 K rows
// (128 bytes), the stride offset along M/N to the next panel: the two swap
// roles against the swizzled MN-major layout. PTX ISA, the canonical layouts
// without swizzle (wgmma: "Shared Memory Matrix Layout", K-major
// ((8,m),(T,2k)):((1T,SBO),(1,LBO)), MN-major ((T,1,m),(8,k)):((1,T,SBO),
// (1T,LBO)); tcgen05: "Canonical Layouts", the same).
inline std::pair<int64_t, int64_t> coreOffsets(const Panels &p, bool mnMajor) {
  return mnMajor ? std::pair<int64_t, int64_t>{128, p.bytes} : std::pair<int64_t, int64_t>{p.bytes, 128};
}
// Whether a view is a tensor-core operand tile as TMA writes it: swizzled,
// two-dimensional, its rows one swizzle span or whole panels of it; or, as a
// core-matrix view, rows of whole 16-byte panels.
bool operandTile(const Resource &v, bool coreMatrices);

// The operands of an lm.mma and the resources they name.
struct MmaOperands {
  const Value &accV, &aV, &bV;
  const Resource &acc, &a, &b;
};

struct RoleCtx {
  const Resource *role = nullptr;
  unsigned barrierId = 0;  // named barrier for role_sync
  bool contiguous = true;
  int64_t firstWarp = 0;
  int64_t threads = 0;
  bool singleThread = false;  // the whole body runs on the role's first thread
  bool waited = false;        // a wait since the role's warps last met (RoleMeetings.cpp)
  // Register fragments the role's wgmmas read or write (accumulators, A
  // operands): other operations pin them where they use them.
  std::set<ResourceId> mmaFragments;
};

// A launcher's (or a family dispatcher's) message buffer, last_error and the
// opening of its launch function (Launcher.cpp).
std::string launcherHead(const std::string &name, const std::string &sig);

// C++ text as one operand: as it is where it is a name, a number or wholly
// parenthesised, else in parentheses.
std::string asOperand(const std::string &text);
// Text inside a C string literal: quotes and backslashes escaped, line
// breaks as spaces, and '%' doubled where the literal is a printf format.
std::string cStringText(const std::string &text, bool printfFormat = false);

class KernelEmitter {
public:
  KernelEmitter(const Kernel &k, const analysis::KernelFacts &f, const TargetInfo &ti, const LoweringTable &table,
                const SourceManager &sm, DiagnosticEngine &diags, const CodegenOptions &opts, WrapperSet &w)
      : k_(k), f_(f), maps_(f.tensorMaps), ti_(ti), table_(table), sm_(sm), diags_(diags), opts_(opts), w_(w) {}

  bool emit(std::string &kernelText, std::string &launcherText, std::string &summary);
  std::string headerDeclarations();
  // A family's dispatcher (this emitter's kernel is the family's signature)
  // and its header declarations; `symbols` are the routes' launcher names,
  // in route order, then the fallback's.
  std::string dispatcher(const Family &fam, const analysis::FamilyFacts &f, const std::vector<std::string> &symbols);
  std::string dispatcherDeclarations(const Family &fam, const analysis::FamilyFacts &f);
  // The launcher's parameters as data (--emit=interface, Launcher.cpp): a
  // JSON array, one object per parameter of NAME_launch the caller passes.
  // `fam`: a family's dispatcher, whose tensors' element types and accesses
  // are its routes' (`routes`, their emitters).
  std::string interfaceParams(const std::vector<KernelEmitter *> &routes = {});
  // The kernel's and launcher's C name: --kernel-name, else the schedule's.
  // The name of a tensor parameter's pointer and strides in the kernel (a
  // TMA workspace has a tensor map of its own name beside them).
  std::string globalRef(const Resource &t) const { return (t.tma ? "cake_g_" : "") + ident(t.name); }
  std::string symbol() const { return opts_.kernelName.empty() ? ident(k_.name) : opts_.kernelName; }
  // Whether a role reads values from memory (lm.load_scalar): the kernel
  // then takes the record a value outside its range is written to
  // (cake_vfault), and the launcher the table of reads (valueSites_).
  bool readsValues() const;
  // Whether a role waits on a flag (lm.wait_flag): the launcher then makes
  // every block of the grid resident at once (a cooperative launch).
  bool waitsOnFlags() const;
  // Whether some operation of a role has effects `pred` accepts.
  bool anyOp(const std::function<bool(const sema::OpEffects &)> &pred) const;

private:
  // ---- expressions ----
  std::string expr(const ast::Expr *e, bool host);
  std::string value(const Value &v, bool host);
  // An integer from sema's node (nullopt: lowered from the AST, which says why not).
  std::optional<std::string> intExpr(IntExprId x, bool host);
  // An integer's node as the author wrote it, for messages: the source of
  // the first expression (in source order) that evaluated to it.
  std::string intSource(IntExprId x);
  // An integer operation on lowered operands, as IntOps.def spells it in C++.
  std::string intOpCuda(IntOp op, const std::string &a, const std::string &b = "");

  // ---- statements ----
  void line(const std::string &s) { out_ += std::string(indent_ * 2, ' ') + s + "\n"; }
  void lineDirective(const SourceRange &r);
  void stmts(const std::vector<IrStmt> &body, RoleCtx &rc);
  void op(const Operation &o, RoleCtx &rc);
  void roleBranch(ResourceId role, bool first);
  unsigned roleBarrierId(ResourceId role) const;
  // A named barrier's id (after the roles') and the threads that meet there.
  unsigned namedBarrierId(ResourceId nb) const;
  int64_t namedBarrierThreads(ResourceId nb) const;
  bool singleThreadRole(ResourceId role) const;
  // Boxes cut to a shorter tensor (TensorMap::clipExtent, Kernel.cpp): the
  // rows a box copies, the zeroing of the views' rows past the cut (by the
  // role that reads them, or the prologue), and a copy group's bytes.
  std::string cutRows(ResourceId tensor) const;
  std::vector<std::pair<ResourceId, const TensorMap *>> cutMaps() const;
  ResourceId cutZeroingRole(const TensorMap &info) const;
  void zeroPastCuts(ResourceId role, const std::string &tid, int64_t threads);
  void boxCuts();
  std::string expectTxText(const Operation &group, int64_t bytes) const;

  // ---- lowerings: the entries of the targets' tables (Lowering.cpp) ----
public:
  // nvidia/Sync.cpp: every target
  void mbarWait(const Operation &o, RoleCtx &rc);
  void mbarArrive(const Operation &o, RoleCtx &rc);
  void fenceProxy(const Operation &o, RoleCtx &rc);
  void roleSync(const Operation &o, RoleCtx &rc);
  void namedSync(const Operation &o, RoleCtx &rc);
  // nvidia/CpAsync.cpp: every target
  void cpAsync(const Operation &o, RoleCtx &rc);
  void copyTo(const Operation &o, RoleCtx &rc);
  // nvidia/sm80/MmaSync.cpp: the mma.sync tensor-core path
  void mmaSync(const Operation &o, RoleCtx &rc);
  // nvidia/sm90/Tma.cpp: targets with TMA
  void tmaLoad(const Operation &o, RoleCtx &rc);
  void tmaStore(const Operation &o, RoleCtx &rc);
  void tmaStoreWait(const Operation &o, RoleCtx &rc);
  // nvidia/sm90/Wgmma.cpp: the wgmma tensor-core path
  void wgmma(const Operation &o, RoleCtx &rc);
  void wgmmaCommit(const Operation &o, RoleCtx &rc);
  void wgmmaWait(const Operation &o, RoleCtx &rc);
  // nvidia/sm100/Tcgen05.cpp: the tcgen05 tensor-core path
  void tcgen05Mma(const Operation &o, RoleCtx &rc);
  void tcgen05Commit(const Operation &o, RoleCtx &rc);
  void tmemLoad(const Operation &o, RoleCtx &rc);
  // Fragments.cpp: every target, against its fragment layout
  void storeFragment(const Operation &o, RoleCtx &rc);
  void elementwise(const Operation &o, RoleCtx &rc);
  bool elementwiseOperands(const Operation &o, RoleCtx &rc, analysis::FragmentTiling &dt);
  void tril(const Operation &o, RoleCtx &rc);
  void rowReduction(const Operation &o, RoleCtx &rc);
  void rowArgmin(const Operation &o, RoleCtx &rc);
  void loadFragment(const Operation &o, RoleCtx &rc);
  void loadRowsFragment(const Operation &o, const Resource &view, const Resource &dst,
                        const analysis::FragmentTiling &dt);
  void loadTile(const Operation &o, RoleCtx &rc);
  void atomic(const Operation &o, RoleCtx &rc);
  void loadScalar(const Operation &o, RoleCtx &rc);
  void waitFlag(const Operation &o, RoleCtx &rc);
  std::string elementProblem(const Resource &t, const Value &coords, const std::string &notWorkspace);
  std::string elementOffset(const Resource &t, const Value &coords);
  std::string roleValue(const Operation &o, RoleCtx &rc, const std::string &expr, const std::string &what);
  void storeTile(const Operation &o, RoleCtx &rc);
  bool multipleOf(const Value &v, int64_t m) const;
  void rowsLaneAccesses(int64_t rows, int64_t perRow, int64_t per, int64_t perUnit, const std::string &rowPtr,
                        bool load);
  bool globalTileAccess(const Operation &o, RoleCtx &rc, ResourceId tensor, const Value &coords, const Resource &frag,
                        bool load);

private:
  // ---- pieces ----
  std::string stageText(const Operation &o);
  MmaOperands mmaOperands(const Operation &o) const {
    const Value &acc = o.operand(param::Mma::acc).value, &a = o.operand(param::Mma::a).value,
                &b = o.operand(param::Mma::b).value;
    return {acc, a, b, k_.resource(acc.resource), k_.resource(a.resource), k_.resource(b.resource)};
  }
  // Whether the tensor core reads the view as core matrices, and its panels.
  bool coreMatrices(const Resource &v) const { return f_.coreMatrixViews.count(v.id) != 0; }
  Panels panels(const Resource &v) const { return panelsOf(v, coreMatrices(v)); }
  std::string coreDesc(const std::string &base, int64_t off, const Panels &p, bool mnMajor);
  bool openChunkLoop(const Operation &o, RoleCtx &rc, ResourceId tensor, const Value &coords);
  void closeChunkLoop();
  // -fcheck-waits: every wait a site of its own, checked against a time
  // limit; the launcher's table of sites turns the kernel's records into
  // diagnostics (waitSitesTable, Launcher.cpp).
  struct WaitSite {
    SourceRange range;  // the wait (or, for a derived one, what it belongs to)
    std::string role, barrier;
    int64_t slots = 1;
    int64_t initCount = 1;  // the arrivals that complete a phase
    int64_t arrivals = 0;   // the arrivals a phase gets from the schedule's signals
    int64_t txBytes = 0;    // the transaction bytes a phase gets
    bool release = false;   // its first lap passes
    bool counted = false;   // the block counts the arrivals issued on it (arrivalCounter)
    std::vector<std::pair<SourceRange, std::string>> signals;  // where it is signalled, and how
    bool meeting = false;  // a named barrier's meeting (lm.sync): the stage counts the thread's meetings
    bool flag = false;     // a flag wait (lm.wait_flag): the stage is the value it waits for
  };
  bool checkWaits() const { return opts_.checkWaitsSeconds > 0; }
  // -fjitter: the statement that may delay the warp before a role's
  // operation (the next site), "" when the option is off.
  std::string jitterCall();
  uint32_t jitterSites_ = 0;
  // The statement that waits until phase `parity` of the mbarrier at `addr`
  // completes: plain, or (-fcheck-waits) checked, as the next site, with the
  // counter of arrivals issued on the slot (`counter`: "" for none).
  std::string waitCall(const std::string &addr, const std::string &parity, const std::string &stage, WaitSite site,
                       const std::string &counter = "");
  // -fcheck-waits: each block counts, in shared memory after the schedule's,
  // the arrivals its threads issue on each barrier slot (not those of other
  // blocks of a cluster, so not on barriers signalled across the cluster); a
  // wait that runs out records its slot's count. arrivalCounter: the
  // counter's shared-memory address for a barrier and stage, "" when the
  // barrier is not counted or the option is off; countArrival: the statement
  // that counts one arrival there ("" likewise).
  std::string arrivalCounter(ResourceId bar, const std::string &stage);
  std::string countArrival(ResourceId bar, const std::string &stage);
  // The statement `signal` (an arrive on `bar` at `stage`, under a guard the
  // caller puts before it), with the arrival counted: `{ signal count }`.
  std::string countedSignal(const std::string &signal, ResourceId bar, const std::string &stage);
  // The role's warps meet after a wait before an elected operation
  // (RoleMeetings.cpp, docs/language.md 8.4).
  bool electedOp(const Operation &o) const;
  bool meetsRole(const Operation &o) const;
  bool waitedAfter(const std::vector<IrStmt> &body, bool waited) const;
  // waitedAfter's answers by statement list and state: a loop asks of its
  // body twice, so nested loops would cost two walks per level.
  mutable std::map<std::pair<const std::vector<IrStmt> *, bool>, bool> waitedMemo_;
  void meetBeforeElected(const Operation &o, RoleCtx &rc);
  void noteWaitOrMeeting(const Operation &o, RoleCtx &rc) const;
  int64_t arrivalSlots() const;  // the counters, one per barrier slot and one per named barrier
  // -fcheck-waits: lm.sync on a named barrier meets at an mbarrier of its
  // own instead (one arrival per warp; after the counters), so that a
  // meeting can give up like a wait; each thread counts its meetings there
  // (cake_meetings). meetingsOffset: where those mbarriers are.
  int64_t namedBarrierCount() const;
  int64_t meetingsOffset() const;
  void checkWaitsPrologue();  // the kernel's first thread: buffer, budget, counters, the meetings' mbarriers
  void checkedMeeting(const Operation &o, RoleCtx &rc);
  int64_t launchSmemBytes() const;  // the schedule's shared memory, and the counters
  // Where the record buffer's pointer and the budget are (16 bytes, 16-byte aligned, after the
  // schedule's shared memory), the counters after them.
  int64_t waitInfoOffset() const;
  std::string waitSitesTable();
  std::vector<WaitSite> waitSites_;
  // sm_90 and later: mbarrier.try_wait, fence.mbarrier_init, the async proxy.
  bool sm90Plus() const { return (targets::kSm90Plus & targetBit(ti_.target)) != 0; }
  std::string ringSlot(const std::string &stage, int64_t n);
  std::string ringLap(const std::string &stage, int64_t n);
  std::string barrierAddr(ResourceId bar, const std::string &stage);
  std::string viewAddr(ResourceId view, const ast::Expr *stage);
  std::string viewStageAddr(const Value &vs);
  std::string electedGuard(const RoleCtx &rc) const;
  std::string panelAddr(const Operation &o, const Panels &pn, int64_t p);
  std::string panelCoords(const Value &coords, const Panels &pn, int64_t p);
  bool fragmentLayout(const Resource &frag, const Resource &role, SourceRange at, int64_t &perThread);
  // accumulator: the operation takes the accumulator layout (tensor-core
  // operands and results), which a rows-layout fragment is not.
  bool fragmentLayout(const Resource &frag, const Resource &role, SourceRange at, analysis::FragmentTiling &t,
                      bool accumulator = false);
  // A register fragment as an MMA's A operand: a tile in the accumulator
  // layout (whose packed pairs are A's registers); refused otherwise.
  bool registerTileA(const Resource &a, const Resource &role, SourceRange at);
  // An fp8 A fragment rearranged into wgmma's 8-bit register layout: the
  // lines that fill `dst` (four values a register) from the pairs `src`.
  void fp8ARegisters(const std::string &src, const std::string &dst, int64_t mBlocks, int64_t kSteps);
  std::string fragmentElement(const Value &v, const Resource &role, const analysis::FragmentTiling &dst,
                              const std::string &i);
  void declareFragment(const Resource &frag, const analysis::FragmentTiling &t);
  static bool swizzledRowsFit(const Resource &view);
  static bool isFp8(DType d);
  void storeRowVector(const Operation &o, RoleCtx &rc, const analysis::FragmentTiling &t);
  void storeTransposed(const Operation &o, int64_t perThread, int64_t rowsPerWg, int64_t N);
  void openAccumulatorStores(const Operation &o, int64_t perThread, int64_t rowsPerWg, int64_t N);
  void storeLanes(const Operation &o);
  void elementOffset(const Resource &view, const std::string &row, const std::string &col);
  // What the target cannot run at all, refused before anything is emitted:
  // what the hardware gate rejects (reached only when -fno-gates turned it
  // off) and the shared memory -fcheck-waits adds past the target's limit.
  // Returns false if it refused something.
  bool targetCanRun();
  // The TMEM columns the kernel allocates (0: none), from its regions.
  uint32_t tmemColumns() const;
  // The roles that issue tensor-core operations.
  std::set<ResourceId> mmaRoles() const;
  std::vector<std::pair<SourceRange, std::string>> valueSites_;  // each read, and what it reads
  void letLine(const IrStmt &let);  // `const int32_t NAME = ...;` (through a temporary where it hides itself)
  int lets_ = 0;
  std::string valueSitesTable() const;
  void openRowLoop(int64_t rows, int64_t half);
  void checkTensorMapTypes();
  void launcher(std::string &text);
  std::string launcherSignature(std::string &tensorDocs);
  // `who` declares the shape: "the schedule", or "the family" in a dispatcher.
  std::string shapeChecks(const Resource &tensor, const char *who = "the schedule") const;

  // The element type of the one-element global accesses (lm.atomic,
  // lm.load_scalar): 32-bit integers.
  static constexpr DType kElementDType = DType::I32;
  struct GlobalUse {
    DType dtype;
    std::vector<int64_t> box;
    const Operation *first;
    // The alignment in bytes of its data and outer strides: 16, or the
    // element's size where only accumulator-layout vectors (one element per
    // access) move it.
    int64_t align = 16;
    bool elementOnly = false;  // only one-element reads so far (box of ones): a copy's tile replaces it
  };
  std::map<ResourceId, GlobalUse> globalTensors();

  // ---- the launcher's range checks (Launcher.cpp, issue 33) ----
  // The launcher's text that bounds, at launch, every coordinate the kernel
  // copies at and every 32-bit integer it computes, and the trip count of
  // loops that initialise an accumulator; empty when there is none.
  std::string rangeChecks();
  // The launcher's computation of cake_grid[3] from the grid's expressions
  // (`grid`: their host text, for the comments and messages).
  std::string gridValues(const std::vector<std::string> &grid);
  // The workspace tensors (lm.workspace), in declaration order, and the
  // launcher's text that places them: a static function computing each one's
  // shape and byte offset in the caller's buffer (256-byte aligned) and the
  // total, and the C function NAME_workspace_size; empty without any.
  std::vector<const Resource *> workspaces() const;
  std::string workspaceLayout();
  std::string workspaceSizeSignature() const;
  // Whether a route of the family takes a workspace (its dispatcher then does).
  static bool familyWorkspace(const Family &fam);
  // Reports what this target's lowering cannot do with an accepted operation
  // (`id`: one of the lower.* diagnostics), and why, saying what it lowers.
  void refuse(DiagIdWithArgs<3> id, SourceRange r, const std::string &what, const std::string &why) {
    diags_.report(id, r, what, ti_.name, why);
  }

  const Kernel &k_;
  const analysis::KernelFacts &f_;
  const std::map<ResourceId, TensorMap> &maps_;  // one tensor map per tensor (the gates rejected conflicts)
  const TargetInfo &ti_;
  const LoweringTable &table_;
  const SourceManager &sm_;
  DiagnosticEngine &diags_;
  const CodegenOptions &opts_;
  WrapperSet &w_;
  std::string out_;
  int indent_ = 0;
  std::set<ResourceId> declaredFragments_;
  // fp8 fragments that are wgmma's A and written only by elementwise ops:
  // each such write also fills NAME_a8, wgmma's 8-bit A fragment of them
  // (the rearrangement off the path between wgmmas), which the wgmma reads.
  std::set<ResourceId> a8Fragments_;
  // The array of NAME_a8 (no user name starts with `cake`).
  static std::string a8Var(const Resource &frag) {
    std::string n = ident(frag.name);
    return n.rfind("cake_", 0) == 0 ? n + "_a8" : "cake_" + n + "_a8";
  }
  // Fragments whose layout was refused (reported once, at their first use).
  std::set<const Resource *> badLayouts_;
  bool tensorTypesChecked_ = false;  // globalTensors reported its conflicts
  bool usesSmCount_ = false;
  // While set, host expressions record here each divisor that is not a
  // constant (its text, then its source), for checks ahead of the division.
  std::vector<std::pair<std::string, std::string>> *hostDivisors_ = nullptr;
  // intSource's index: each integer node's first expression (built on first use).
  std::map<IntExprId, const ast::Expr *> intSources_;
  // Runs `render` (which lowers host expressions) and returns a check of
  // each divisor it met that is not a constant, inner divisors first: a line
  // `  if (divisor == 0) <onZero(the divisor's source text)>` (indented for
  // a function's body).
  std::string divisorChecks(const std::function<void()> &render,
                            const std::function<std::string(const std::string &)> &onZero);
};

}  // namespace cake::codegen::detail
