// Kernel.cpp - the kernel skeleton shared by every target: barrier setup,
// role dispatch, statements, and each operation handed to the target's
// lowering table (Lowering.h).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "codegen/Codegen.h"
#include "codegen/Emitter.h"
#include "codegen/Lowering.h"
#include "codegen/nvidia/sm100/Tcgen05Encoding.h"

namespace cake::codegen::detail {

// ---------------------------------------------------------------------------
// statements

void KernelEmitter::lineDirective(const SourceRange &r) {
  if (!opts_.lineDirectives || !r.begin.valid()) return;
  out_ += fmt::format("#line {} \"{}\"\n", r.begin.line, cStringText(sm_.name(r.begin.file)));
}

// Text inside a C string literal (or a comment): '\\' and '"' escaped, every
// control character as a three-digit octal escape, so no name ends a line,
// a comment or a literal; '?' escaped against trigraphs in C.
std::string cStringText(const std::string &t, bool printfFormat) {
  std::string o;
  for (char c : t) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '"' || c == '?') o += '\\';
    if (c == '%' && printfFormat) o += '%';
    if (u < 0x20 || u == 0x7f)
      o += fmt::format("\\{:03o}", u);
    else
      o += c;
  }
  return o;
}

std::string asOperand(const std::string &t) {
  bool atom = !t.empty() && std::all_of(t.begin(), t.end(),
                                        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!atom && t.size() >= 2 && t.front() == '(') {
    int depth = 0;
    size_t i = 0;
    for (; i < t.size(); ++i) {
      if (t[i] == '(') ++depth;
      if (t[i] == ')' && --depth == 0) break;
    }
    atom = i == t.size() - 1;
  }
  return atom ? t : "(" + t + ")";
}

// A stage counter's slot in a ring of n and its lap: floor modulo and floor
// division by n. (A mask and a shift where n is a power of two measured no
// faster in the GEMMs and 3-5% slower in the one-role attention on the H200,
// nvcc scheduling the loop differently: bench/results/examples_rerun_2026-12-01.)
std::string KernelEmitter::ringSlot(const std::string &stage, int64_t n) {
  return intOpCuda(IntOp::Mod, stage, std::to_string(n));
}

std::string KernelEmitter::ringLap(const std::string &stage, int64_t n) {
  return intOpCuda(IntOp::FloorDiv, stage, std::to_string(n));
}

std::string KernelEmitter::barrierAddr(ResourceId bar, const std::string &stage) {
  const Resource &b = k_.resource(bar);
  if (b.count == 1) return addrVar(b);
  return fmt::format("{} + 8u * {}", addrVar(b), ringSlot(stage, b.count));
}

std::string KernelEmitter::viewAddr(ResourceId view, const ast::Expr *stage) {
  const Resource &v = k_.resource(view);
  std::string base = addrVar(v);
  if (v.stages <= 1 || !stage) return base;
  return fmt::format("{} + {}u * {}", base, v.bytesPerStage, ringSlot(expr(stage, false), v.stages));
}

std::string KernelEmitter::viewStageAddr(const Value &vs) {
  if (vs.kind == ValueKind::ViewStage) return viewAddr(vs.resource, vs.stage);
  return viewAddr(vs.resource, nullptr);
}

std::set<ResourceId> KernelEmitter::mmaRoles() const {
  std::set<ResourceId> roles;
  std::function<bool(const std::vector<IrStmt> &)> hasMma = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body)
      if ((s.kind == IrStmt::Kind::Op && s.op.kind == OpKind::Mma) || hasMma(s.body) || hasMma(s.orelse)) return true;
    return false;
  };
  for (const RoleBlock &rb : k_.roles)
    if (hasMma(rb.body)) roles.insert(rb.role);
  return roles;
}

// A named run-time value (x = ...). A name that hides an outer one of its
// own value (x = x + 1 inside a role or loop) would read the new, unset
// variable in its own initializer in C++: the value goes through a
// temporary first.
void KernelEmitter::letLine(const IrStmt &let) {
  const char *type = let.start.kind == ValueKind::Bool ? "bool" : "int32_t";
  std::string name = ident(let.loopVar), init = value(let.start, false);
  bool mentions = false;
  for (size_t at = init.find(name); at != std::string::npos && !mentions; at = init.find(name, at + 1)) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    mentions = (at == 0 || !word(init[at - 1])) && (at + name.size() == init.size() || !word(init[at + name.size()]));
  }
  if (!mentions) {
    line(fmt::format("const {} {} = {};", type, name, init));
    return;
  }
  std::string tmp = fmt::format("cake_let{}", lets_++);
  line(fmt::format("const {} {} = {};  // the outer '{}'", type, tmp, init, name));
  line(fmt::format("const {} {} = {};", type, name, tmp));
}

bool KernelEmitter::anyOp(const std::function<bool(const OpEffects &)> &pred) const {
  std::function<bool(const std::vector<IrStmt> &)> any = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body)
      if ((s.kind == IrStmt::Kind::Op && pred(s.op.info().effects)) || any(s.body) || any(s.orelse)) return true;
    return false;
  };
  for (const RoleBlock &rb : k_.roles)
    if (any(rb.body)) return true;
  return false;
}

bool KernelEmitter::readsValues() const {
  return anyOp([](const OpEffects &fx) { return fx.valueRange != kNone; });
}

bool KernelEmitter::waitsOnFlags() const {
  return anyOp([](const OpEffects &fx) { return fx.awaitsValue != kNone; });
}

uint32_t KernelEmitter::tmemColumns() const {
  if (k_.tmemSlot < 0 || !ti_.tmem()) return 0;
  int64_t end = 0;
  for (const Resource &r : k_.resources)
    if (r.kind == ResourceKind::Tmem) end = std::max(end, r.firstColumn + r.width);
  return sm100::tmemAllocColumns(end).value_or(0);  // past 512 columns the hardware gate has reported it
}

std::string KernelEmitter::electedGuard(const RoleCtx &rc) const {
  return rc.singleThread ? "" : "if (cake_rtid == 0) ";
}

void KernelEmitter::stmts(const std::vector<IrStmt> &body, RoleCtx &rc) {
  for (const IrStmt &s : body) {
    switch (s.kind) {
    case IrStmt::Kind::Op:
      lineDirective(s.range);
      // No delay before the operation that closes a group of tensor-core
      // operations (wgmma's commit): a branch between the wgmmas and their
      // commit makes ptxas serialize them, hiding what is in flight.
      if (opts_.jitterSeed && !(s.op.info().effects.closesGroup && s.op.info().effects.group == AsyncGroup::Mma))
        line(jitterCall());
      meetBeforeElected(s.op, rc);  // RoleMeetings.cpp
      op(s.op, rc);
      noteWaitOrMeeting(s.op, rc);
      break;
    case IrStmt::Kind::For: {
      lineDirective(s.range);
      std::string var = ident(s.loopVar);
      bool constantTrip = s.start.isConstInt() && s.stop.isConstInt();
      if (!constantTrip) line("#pragma unroll 1");
      line(fmt::format("for (int32_t {0} = {1}; {0} < {2}; {0} += {3}) {{", var, value(s.start, false),
                       value(s.stop, false), value(s.stepValue, false)));
      ++indent_;
      rc.waited = rc.waited || waitedAfter(s.body, rc.waited);  // a wait at the end meets the head
      bool entry = rc.waited;
      stmts(s.body, rc);
      rc.waited = rc.waited || (entry && !analysis::loopRunsAtLeastOnce(k_, s));  // or no iteration at all
      --indent_;
      line("}");
      break;
    }
    case IrStmt::Kind::Let:
      lineDirective(s.range);
      letLine(s);
      break;
    case IrStmt::Kind::If: {
      lineDirective(s.range);
      line(fmt::format("if ({}) {{", value(s.cond, false)));
      ++indent_;
      bool before = rc.waited;
      stmts(s.body, rc);
      bool afterBody = rc.waited;
      rc.waited = before;
      --indent_;
      if (!s.orelse.empty()) {
        line("} else {");
        ++indent_;
        stmts(s.orelse, rc);
        --indent_;
      }
      rc.waited = rc.waited || afterBody;
      line("}");
      break;
    }
    }
  }
}

std::string KernelEmitter::stageText(const Operation &o) {
  const Operand &s = o.operandAt(o.info().effects.stage);
  return s.present ? value(s.value, false) : std::string("0");
}

// An operation: pinned fragments first, then the target's lowering.
void KernelEmitter::op(const Operation &o, RoleCtx &rc) {
  const OpInfo &info = o.info();
  CAKE_CHECK(info.scope == OpScope::Role, "a declaration or value recorded as a role operation");
  // A use of a wgmma's fragment by another operation stays where the
  // schedule puts it, after the wait the gates proved it follows: the
  // compiler would otherwise be free to move it above the wait (wgmma's
  // registers are asm operands only at the issue), and ptxas serializes
  // every wgmma it sees overlapped by such an access.
  // A result the operation declares (a derived fragment's first write, the
  // array declared by the lowering) holds nothing a wgmma could still read
  // or write: it is pinned after the operation instead.
  std::set<ResourceId> pinned;
  auto pin = [&](const Value &v) {
    if (o.kind != OpKind::Mma && v.kind == ValueKind::Resource && rc.mmaFragments.count(v.resource) &&
        declaredFragments_.count(v.resource) && pinned.insert(v.resource).second)
      line(fmt::format("{}({});", w_.use("cake_fence_fragment"), ident(k_.resource(v.resource).name)));
  };
  for (const Operand &x : o.operands)
    if (x.present) pin(x.value);
  pin(o.result);
  LowerFn fn = table_.ops[static_cast<size_t>(o.kind)];
  // The hardware gate refuses every op not legal here, and LoweringTest
  // proves the table has an entry for every op legal on a target with a
  // lowering: only -fno-gates=hardware gets here without one.
  if (!fn) {
    refuse(DiagId::LowerOpTarget, o.range, fmt::format("'{}.{}'", receiverName(info.receiver), info.name),
           "the target does not have it (the hardware gate, turned off by -fno-gates, rejects it)");
    return;
  }
  (this->*fn)(o, rc);
  pin(o.result);
}

// ---------------------------------------------------------------------------
// roles and the kernel

// The 1-based place of resource `id` among the kernel's resources of its kind.
static unsigned ordinalOf(const Kernel &k, ResourceId id) {
  unsigned index = 0;
  for (const Resource &r : k.resources) {
    if (r.kind != k.resources[id].kind) continue;
    ++index;
    if (r.id == id) break;
  }
  return index;
}

// A role's named barrier: 1.. in declaration order (0 is __syncthreads).
unsigned KernelEmitter::roleBarrierId(ResourceId roleId) const { return ordinalOf(k_, roleId); }

// A named barrier's id: after the roles', in declaration order.
unsigned KernelEmitter::namedBarrierId(ResourceId nb) const {
  auto roles = std::count_if(k_.resources.begin(), k_.resources.end(),
                             [](const Resource &r) { return r.kind == ResourceKind::Role; });
  return static_cast<unsigned>(roles) + ordinalOf(k_, nb);
}

// Every warp of its roles meets there.
int64_t KernelEmitter::namedBarrierThreads(ResourceId nb) const {
  int64_t warps = 0;
  for (ResourceId role : k_.resource(nb).consumers) warps += static_cast<int64_t>(k_.resource(role).warps.size());
  return 32 * warps;
}

// A role whose operations are all single-thread ones or waits runs on one
// thread; the rest of its warps only adjust their registers.
bool KernelEmitter::singleThreadRole(ResourceId roleId) const {
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
  return single;
}

void KernelEmitter::roleBranch(ResourceId roleId, bool first) {
  const Resource &role = k_.resource(roleId);
  RoleCtx rc;
  rc.role = &role;
  rc.threads = 32 * static_cast<int64_t>(role.warps.size());
  rc.firstWarp = role.warps.empty() ? 0 : *std::min_element(role.warps.begin(), role.warps.end());
  std::vector<int64_t> sorted = role.warps;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) rc.contiguous &= sorted[i] == rc.firstWarp + static_cast<int64_t>(i);
  rc.barrierId = roleBarrierId(roleId);
  rc.singleThread = singleThreadRole(roleId);
  // (wgmma only: mma.sync's registers are asm operands of the instruction.)
  std::function<void(const std::vector<IrStmt> &)> mmaUses = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      if (s.kind == IrStmt::Kind::Op && s.op.kind == OpKind::Mma && ti_.mma == MmaPath::Wgmma)
        for (const Value *v : {&s.op.operand(param::Mma::acc).value, &s.op.operand(param::Mma::a).value})
          if (v->kind == ValueKind::Resource && k_.resource(v->resource).kind == ResourceKind::Regs)
            rc.mmaFragments.insert(v->resource);
      mmaUses(s.body);
      mmaUses(s.orelse);
    }
  };
  for (const RoleBlock &rb : k_.roles)
    if (rb.role == roleId) mmaUses(rb.body);
  // fp8 A fragments of wgmma whose every write is elementwise (a cast):
  // those writes fill the fragment's A registers too (a8Fragments_).
  std::set<ResourceId> a8, writtenOtherwise;
  std::function<void(const std::vector<IrStmt> &)> a8Uses = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      if (s.kind == IrStmt::Kind::Op) {
        const Value &a = s.op.kind == OpKind::Mma ? s.op.operand(param::Mma::a).value : Value{};
        if (ti_.mma == MmaPath::Wgmma && a.kind == ValueKind::Resource &&
            k_.resource(a.resource).kind == ResourceKind::Regs && isFp8(k_.resource(a.resource).dtype))
          a8.insert(a.resource);
        if (s.op.result.kind == ValueKind::Resource && !table_.math[static_cast<size_t>(s.op.kind)].formula)
          writtenOtherwise.insert(s.op.result.resource);
      }
      a8Uses(s.body);
      a8Uses(s.orelse);
    }
  };
  for (const RoleBlock &rb : k_.roles)
    if (rb.role == roleId) a8Uses(rb.body);
  for (ResourceId id : a8)
    if (!writtenOtherwise.count(id)) a8Fragments_.insert(id);

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
    int64_t base = analysis::launchRegisters(k_, ti_.target);
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
  zeroPastCuts(roleId, "cake_rtid", rc.threads);
  if (rc.singleThread) {
    line("if (cake_rtid == 0) {");
    ++indent_;
  }
  for (const RoleBlock &rb : k_.roles) {
    if (rb.role != roleId) continue;
    stmts(rb.body, rc);
    // Async work the role's code leaves in flight (KernelFacts::drains).
    if (auto it = f_.drains.find(&rb); it != f_.drains.end())
      for (AsyncGroup g : it->second) {
        if (g == AsyncGroup::Mma && ti_.mma == MmaPath::Tcgen05) continue;  // drained below, always
        line(g == AsyncGroup::Bulk
                 ? fmt::format("{}{}<0>();  // derived: the TMA stores still in flight finish reading shared memory "
                               "before the role ends",
                               electedGuard(rc), w_.use("cake_bulk_wait_group_read"))
                 : fmt::format("{}(); {}<0>();  // derived: the wgmma operations still in flight (committed into a "
                               "group first) finish before the role ends",
                               w_.use("cake_wgmma_commit_group"), w_.use("cake_wgmma_wait_group")));
      }
    // tcgen05: the MMA issuer commits once more and waits, so nothing of its
    // runs on when the block releases TMEM (commits before may have no waiter).
    if (ti_.mma == MmaPath::Tcgen05 && mmaRoles().count(roleId))
      line(fmt::format("{0}{{ {1}(cake_tmem_drain); {2} }}  // derived: the tensor core's work "
                       "is done before TMEM is released",
                       electedGuard(rc), w_.use("cake_tcgen05_commit"),
                       waitCall("cake_tmem_drain", "0u", "0",
                                WaitSite{rc.role->range,
                                         rc.role->name,
                                         "the tensor core's drain (derived)",
                                         1,
                                         static_cast<int64_t>(std::max<size_t>(1, mmaRoles().size())),
                                         static_cast<int64_t>(std::max<size_t>(1, mmaRoles().size())),
                                         0,
                                         false,
                                         false,
                                         {}})));
  }
  if (rc.singleThread) {
    --indent_;
    line("}");
  }
  if (opts_.lineDirectives) out_ += std::string(kRestoreLine) + "\n";
  --indent_;
}

void KernelEmitter::checkTensorMapTypes() {
  for (const auto &[t, info] : maps_) {
    if (dtypeInfo(info.dtype).tensorMapType.empty())
      refuse(DiagId::LowerTmaDtype, info.firstUse->range,
             fmt::format("a TMA copy of {} elements", dtypeInfo(info.dtype).name), "TMA has no element type for it");
    // A workspace declares its element type; its copies' views take it.
    const Resource &r = k_.resource(t);
    if (r.workspace && info.dtype != r.dtype)
      refuse(DiagId::LowerTmaDtype, info.firstUse->range,
             fmt::format("a TMA copy of {} elements of the workspace '{}'", dtypeInfo(info.dtype).name, r.name),
             fmt::format("the workspace holds {}: its copies' views are of that type", dtypeInfo(r.dtype).name));
  }
}

// The rows a tensor map's box copies when the launcher cuts it to a shorter
// tensor (TensorMap::clipExtent): min(box, extent), a kernel-scope value.
// TMA never writes the rows past the cut, so they are zeroed once, to what
// a full box would have filled: by the one role that reads them, as it
// starts (while the first copies are in flight), or else by every thread
// before the barrier that starts the roles. The fence makes the zeros
// visible to TMA and the tensor core (the async proxy); the barrier after
// it, to every thread that reads them.
std::string KernelEmitter::cutRows(ResourceId tensor) const {
  return fmt::format("cake_rows_{}", ident(k_.resource(tensor).name));
}

// The maps whose box may be cut and whose views are zeroed past the cut.
std::vector<std::pair<ResourceId, const TensorMap *>> KernelEmitter::cutMaps() const {
  std::vector<std::pair<ResourceId, const TensorMap *>> out;
  if (!ti_.tma()) return out;
  for (const auto &[t, info] : maps_)
    if (info.clipExtent != kNoResource && !info.clipViews.empty()) out.emplace_back(t, &info);
  return out;
}

ResourceId KernelEmitter::cutZeroingRole(const TensorMap &info) const {
  if (info.clipReaders.size() != 1) return kNoResource;
  ResourceId role = *info.clipReaders.begin();
  return singleThreadRole(role) ? kNoResource : role;
}

// Zeroes the rows past the cut of the views `role` zeroes (kNoResource: the
// kernel's prologue), only when a box is cut at this launch: a launch that
// cuts nothing runs as if there were no cut.
void KernelEmitter::zeroPastCuts(ResourceId role, const std::string &tid, int64_t threads) {
  std::string cut;
  std::vector<std::string> loops;
  for (const auto &[t, info] : cutMaps()) {
    if (cutZeroingRole(*info) != role) continue;
    int64_t box = info->box.front();
    cut += fmt::format("{}{} < {}u", cut.empty() ? "" : " || ", cutRows(t), box);
    for (ResourceId v : info->clipViews) {
      const Resource &view = k_.resource(v);
      int64_t rowBytes = analysis::viewRowBytes(view);
      loops.push_back(fmt::format("for (uint32_t s = 0; s < {}u; ++s)  // '{}': its rows past the cut, zeroed "
                                  "once as TMA would fill them",
                                  view.stages, view.name));
      loops.push_back(fmt::format("  for (uint32_t i = {}; i < ({}u - {}) * {}u; i += {}u)", tid, box, cutRows(t),
                                  rowBytes / 16, threads));
      loops.push_back(fmt::format("    {}({} + s * {}u + {} * {}u + i * 16u, 0u, 0u, 0u, 0u);",
                                  w_.use("cake_st_shared_v4"), addrVar(view), view.bytesPerStage, cutRows(t),
                                  rowBytes));
    }
  }
  if (cut.empty()) return;
  line(fmt::format("if ({}) {{  // a box is cut at this launch", cut));
  ++indent_;
  for (const std::string &l : loops) line(l);
  line(w_.use("cake_fence_proxy_async") + "();  // the zeros, before TMA and the tensor core see the rows");
  if (role != kNoResource)
    line(fmt::format("{}({}u, {}u);  // every thread of the role sees the zeros before it reads the rows",
                     w_.use("cake_named_barrier_sync"), roleBarrierId(role), threads));
  --indent_;
  line("}");
}

void KernelEmitter::boxCuts() {
  for (const auto &[t, info] : cutMaps())
    line(fmt::format("const uint32_t {0} = {1} < {2} ? static_cast<uint32_t>({1}) : {2}u;  // rows of '{3}' a box "
                     "copies: the launcher cuts the box to the tensor",
                     cutRows(t), ident(k_.resource(info->clipExtent).name), info->box.front(), k_.resource(t).name));
  zeroPastCuts(kNoResource, "threadIdx.x", k_.threads);
}

// The bytes a group of copies delivers on its barrier stage: the analysis's
// total, less the rows a cut box leaves out.
std::string KernelEmitter::expectTxText(const Operation &group, int64_t bytes) const {
  std::string text = std::to_string(bytes);
  auto copies = f_.expectTxCopies.find(&group);
  if (copies == f_.expectTxCopies.end()) return text;
  for (const Operation *c : copies->second) {
    ResourceId t = analysis::copiedTensor(*c);
    auto m = maps_.find(t);
    if (m == maps_.end() || m->second.clipExtent == kNoResource) continue;  // (every copy of a group is a load)
    const Resource &view = k_.resource(c->receiver);
    text += fmt::format(" - ({}u - {}) * {}u", view.shape.front(), cutRows(t), analysis::viewRowBytes(view));
  }
  return text;
}

bool KernelEmitter::emit(std::string &kernelText, std::string &launcherText, std::string &summary) {
  unsigned errorsBefore = diags_.errorCount();
  if (!targetCanRun()) return false;
  checkTensorMapTypes();

  // Kernel signature.
  std::string params;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (!params.empty()) params += ",\n    ";
    if (r.kind == ResourceKind::TensorParam && r.tma && r.workspace)  // copied by TMA, addressed by threads too
      params += fmt::format("const __grid_constant__ CUtensorMap {},\n    const {} {}", ident(p.name),
                            w_.use("cake_gtensor"), globalRef(r));
    else if (r.kind == ResourceKind::TensorParam && r.tma)
      params += fmt::format("const __grid_constant__ CUtensorMap {}", ident(p.name));
    else if (r.kind == ResourceKind::TensorParam)
      params += fmt::format("const {} {}", w_.use("cake_gtensor"), ident(p.name));
    else
      params += fmt::format("{} {}", dtypeInfo(r.dtype).cudaType, ident(p.name));
  }
  if (readsValues())
    params += fmt::format("{}{} *cake_vfault", params.empty() ? "" : ",\n    ", w_.use("cake_value_fault"));
  if (opts_.jitterSeed) params += std::string(params.empty() ? "" : ",\n    ") + "uint32_t cake_jitter_seed";
  if (checkWaits())
    params += fmt::format("{}{} *cake_wlog, uint64_t cake_wait_budget", params.empty() ? "" : ",\n    ",
                          w_.use("cake_wait_log"));
  out_ += fmt::format("extern \"C\" __global__ void __launch_bounds__({}, {}) {}(\n    {}) {{\n", k_.threads,
                      k_.blocksPerSm, symbol(), params);
  indent_ = 1;
  line("extern __shared__ __align__(1024) uint8_t cake_smem_raw[];");
  line(fmt::format("const uint32_t cake_smem = {}(cake_smem_raw);", w_.use("cake_smem_u32")));
  line("const uint32_t cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32u, 0);  // warp-uniform");
  line("const uint32_t cake_lane = threadIdx.x % 32u;");
  line("(void)cake_lane;");
  if (opts_.jitterSeed) line("uint32_t cake_jitter_n = 0;  // -fjitter: the delays this thread has drawn");
  if (checkWaits() && namedBarrierCount() > 0)
    line(fmt::format("uint32_t cake_meetings[{}] = {{}};  // -fcheck-waits: this thread's meetings at each named "
                     "barrier",
                     namedBarrierCount()));
  // Shared-memory addresses of views and barriers.
  for (const Resource &r : k_.resources) {
    if (r.kind == ResourceKind::View) {
      const Resource &pool = k_.resource(r.pool);
      line(fmt::format("const uint32_t {} = cake_smem + {}u;  // '{}': {} {}, {} stage(s) of {} B{}", addrVar(r),
                       pool.smemOffset + r.offset, r.name, shapeText(r.shape), dtypeInfo(r.dtype).name, r.stages,
                       r.bytesPerStage,
                       r.swizzle == Swizzle::None ? "" : fmt::format(", swizzle {}", swizzleName(r.swizzle))));
      line(fmt::format("(void){};", addrVar(r)));
    } else if (r.kind == ResourceKind::Barrier) {
      line(fmt::format("const uint32_t {} = cake_smem + {}u;  // '{}': {} mbarrier(s), {} arrival(s) per phase",
                       addrVar(r), r.smemOffset, r.name, r.count, r.initCount));
    }
  }
  if (k_.tmemSlot >= 0 && ti_.tmem()) {
    line(fmt::format("const uint32_t cake_tmem_drain = cake_smem + {}u;  // derived: an mbarrier, the tensor core idle",
                     k_.tmemSlot));
    line(fmt::format("const uint32_t cake_tmem_slot = cake_smem + {}u;  // derived: where tcgen05.alloc writes",
                     k_.tmemSlot + 8));
  }
  // One thread initialises the barriers; everyone waits for it.
  line("if (threadIdx.x == 0) {");
  ++indent_;
  line("if (cake_smem % 1024u != 0) __trap();  // the swizzle patterns and descriptors assume 1024-byte alignment");
  for (const Resource &r : k_.resources)
    if (r.kind == ResourceKind::Barrier)
      line(fmt::format("for (uint32_t s = 0; s < {}u; ++s) {}({} + 8u * s, {}u);", r.count, w_.use("cake_mbar_init"),
                       addrVar(r), r.initCount));
  uint32_t tmemCols = tmemColumns();
  if (tmemCols)
    line(fmt::format("{}(cake_tmem_drain, {}u);  // derived: each MMA role's last commit lands here",
                     w_.use("cake_mbar_init"), std::max<size_t>(1, mmaRoles().size())));
  for (const auto &[t, info] : maps_)
    line(fmt::format("{}(&{});", w_.use("cake_prefetch_tensormap"), ident(k_.resource(t).name)));
  if (checkWaits()) checkWaitsPrologue();
  if (sm90Plus()) line(w_.use("cake_fence_mbarrier_init") + "();");
  --indent_;
  line("}");
  // TMEM: warp 0 allocates the columns every region needs, rounded up to a
  // power of two; everyone reads their address after the barrier below.
  if (tmemCols) {
    line(fmt::format("if (cake_warp == 0) {{ __syncwarp(); {}(cake_tmem_slot, {}u); }}  // derived: {} TMEM columns, "
                     "by a converged warp",
                     w_.use("cake_tmem_alloc"), tmemCols, tmemCols));
    line(w_.use("cake_tcgen05_fence_before") + "();");
  }
  boxCuts();
  bool cluster = analysis::clusterSize(k_) > 1;
  if (cluster)
    line(w_.use("cake_cluster_sync") + "();  // every block's barriers are initialised before any block uses them");
  else
    line("__syncthreads();");
  if (tmemCols) {
    line(w_.use("cake_tcgen05_fence_after") + "();");
    line(fmt::format("const uint32_t cake_tmem = *reinterpret_cast<volatile const uint32_t *>(cake_smem_raw + {}u);  "
                     "// the columns' address (lane 0)",
                     k_.tmemSlot + 8));
  }

  // Run-time values the schedule names at kernel scope.
  for (const IrStmt &let : k_.lets) {
    lineDirective(let.range);
    letLine(let);
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
  // TMEM: every role is done with it (the MMA issuer drained its work), so
  // warp 0 releases the columns.
  if (tmemCols) {
    line(w_.use("cake_tcgen05_fence_before") + "();");
    line("__syncthreads();");
    line("if (cake_warp == 0) {");
    line(fmt::format("  {}();", w_.use("cake_tcgen05_fence_after")));
    line(fmt::format("  {}(cake_tmem, {}u);", w_.use("cake_tmem_dealloc"), tmemCols));
    line("}");
  }
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
  summary = fmt::format("// kernel {}: {} threads, {} B dynamic shared memory, cluster {}x{}x{}{}\n{}", k_.name,
                        k_.threads, launchSmemBytes(), k_.cluster[0], k_.cluster[1], k_.cluster[2],
                        k_.blocksPerSm > 1 ? fmt::format(", built for {} blocks per SM", k_.blocksPerSm) : "", roles);
  launcher(launcherText);
  return diags_.errorCount() == errorsBefore;
}

// Replaces each restore marker with a #line naming the output itself.
std::string restoreLines(const std::string &text, const std::string &outputName) {
  std::string out;
  size_t lineNo = 1, pos = 0;
  std::string marker = std::string(kRestoreLine) + "\n";
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size() - 1;
    std::string ln = text.substr(pos, end - pos + 1);
    if (ln == marker) ln = fmt::format("#line {} \"{}\"\n", lineNo + 1, cStringText(outputName));
    out += ln;
    ++lineNo;
    pos = end + 1;
  }
  return out;
}

}  // namespace cake::codegen::detail
