// HardwareCompliance: the schedule fits the exact target.
//
// The gate is a list of named sub-checks, run in this order:
//  - checkOperationTargets: every operation exists on the target;
//  - checkResourceTargets: TMEM regions need lm.tmem, and a role's register
//    budget needs setmaxnreg and a value it accepts;
//  - checkSharedMemory: shared memory is within the target's limit;
//  - checkResourceLimits: threads per block and TMEM columns are within the
//    target's limits;
//  - checkNamedBarriers: each role gets a named barrier besides barrier 0;
//  - checkRegisterFile: the roles' register budgets fit the register file;
//  - checkMmaInstructions: tensor-core shapes, dtypes and accumulator
//    placement are legal for the target's MMA path, and wgmma is issued by
//    whole warpgroups;
//  - checkTmaBoxes: TMA boxes are within the target's box limit, and inner boxes
//    fit the swizzle (or are whole panels of it);
//  - checkClusters: multicast copies and cluster-wide arrivals fit the
//    kernel's cluster;
//  - checkAlignment: views used by TMA and MMA are aligned as the swizzle
//    demands.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/ScheduleModel.h"
#include "analysis/Tiling.h"
#include "passes/Passes.h"
#include "sema/ConstEval.h"

namespace cake::passes {

using namespace sema;
using namespace analysis;

namespace {

// The alignment a view needs when TMA or the tensor core addresses it.
int64_t requiredAlignment(Swizzle s) {
  switch (s) {
  case Swizzle::B128: return 1024;
  case Swizzle::B64: return 512;
  case Swizzle::B32: return 256;
  case Swizzle::None: return 128;
  }
  return 128;
}

struct MmaOperand {
  ResourceId id = kNoResource;
  std::vector<int64_t> shape;  // after a transpose
  DType dtype = DType::F32;
  bool inSmem = false;
};

MmaOperand mmaOperand(const Kernel &k, const Operand &o) {
  MmaOperand m;
  if (!o.present) return m;
  m.id = o.value.resource;
  if (m.id == kNoResource) return m;
  const Resource &r = k.resources[m.id];
  m.shape = r.shape;
  m.dtype = r.dtype;
  m.inSmem = r.kind == ResourceKind::View;
  if (o.value.transposed && m.shape.size() == 2) std::swap(m.shape[0], m.shape[1]);
  return m;
}

bool isHalf(DType d) { return d == DType::BF16 || d == DType::F16; }
bool isFp8(DType d) { return d == DType::E4M3 || d == DType::E5M2; }

// A role's warps form whole warpgroups: groups of four consecutive warps,
// each starting at a multiple of 4.
bool wholeWarpgroups(const Resource &role) {
  bool aligned = role.warps.size() % 4 == 0;
  std::vector<int64_t> w = role.warps;
  std::sort(w.begin(), w.end());
  for (size_t i = 0; i < w.size() && aligned; ++i)
    if ((i % 4 == 0 && w[i] % 4 != 0) || (i % 4 != 0 && w[i] - w[i - 1] != 1)) aligned = false;
  return aligned;
}

class HardwareChecker {
public:
  HardwareChecker(const PassContext &ctx, const Kernel &k, const KernelFacts &f)
      : ctx_(ctx), k_(k), roles_(f.roles), target_(ctx.module.target), ti_(targetInfo(target_)) {
    // The views TMA copies through a tensor's map, and the views the tensor
    // core reads as operands.
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        if (copiedTensor(*e.op) != kNoResource && e.op->receiver != kNoResource) tmaViews_.insert(e.op->receiver);
        if (e.op->kind == OpKind::Mma) {
          for (const Operand *o : {&e.op->operand(param::Mma::a), &e.op->operand(param::Mma::b)})
            if (o->present && k_.resources[o->value.resource].kind == ResourceKind::View)
              mmaViews_.insert(o->value.resource);
        }
      }
  }

  void run() {
    checkOperationTargets();
    checkResourceTargets();
    reportUnsupported();
    checkSharedMemory();
    checkBlocksPerSm();
    checkResourceLimits();
    checkNamedBarriers();
    checkRegisterFile();
    checkAccumulatorRegisters();
    checkMmaInstructions();
    checkTmaBoxes();
    checkClusters();
    checkAlignment();
  }

private:
  // Operations legal on the exact target: those the roles issue, then the
  // value operations (lm.block_id and the like).
  void checkOperationTargets() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpInfo &info = e.op->info();
        if (!info.legalOn(target_))
          unsupported_.push_back(
              {e.op->range, fmt::format("{}.{}", receiverName(info.receiver), info.name), info.targets, ""});
      }
    for (const auto &[kind, range] : k_.valueOps)
      if (!opInfo(kind).legalOn(target_))
        unsupported_.push_back({range, fmt::format("{}.{}", receiverName(opInfo(kind).receiver), opInfo(kind).name),
                                opInfo(kind).targets, ""});
  }

  // What the target lacks: each use on its own, or, for a schedule written
  // for another target (more than three uses), one error listing every
  // operation with its feature and lines, in source order, and the targets
  // that have them all.
  void reportUnsupported() {
    if (unsupported_.size() <= 3) {
      for (const Unsupported &u : unsupported_)
        ctx_.diags.report(DiagId::HwUnsupportedOperation, u.range, u.name, ti_.name, targetNames(u.targets));
      return;
    }
    auto before = [](const Unsupported &a, const Unsupported &b) {
      return std::tie(a.range.begin.line, a.range.begin.col) < std::tie(b.range.begin.line, b.range.begin.col);
    };
    std::stable_sort(unsupported_.begin(), unsupported_.end(), before);
    std::vector<std::string> order;
    std::map<std::string, std::pair<std::string, std::vector<uint32_t>>> uses;  // name -> (feature, lines)
    uint32_t all = targets::kAll;
    for (const Unsupported &u : unsupported_) {
      if (!uses.count(u.name)) order.push_back(u.name);
      auto &[feature, lines] = uses[u.name];
      feature = u.feature.empty() ? std::string(featureName(u.targets)) : u.feature;
      if (lines.empty() || lines.back() != u.range.begin.line) lines.push_back(u.range.begin.line);
      all &= u.targets;
    }
    std::string list;
    for (const std::string &n : order) {
      const auto &[feature, lines] = uses[n];
      std::string ls;
      for (uint32_t l : lines) ls += (ls.empty() ? "" : ", ") + std::to_string(l);
      list += fmt::format("{}'{}' ({}{} {})", list.empty() ? "" : ", ", n, feature.empty() ? "" : feature + "; ",
                          lines.size() > 1 ? "lines" : "line", ls);
    }
    ctx_.diags.report(DiagId::HwUnsupportedOperations, unsupported_.front().range, unsupported_.size(), ti_.name, list,
                      all ? "all of them exist on " + targetNames(all) : std::string("no one target has them all"));
  }

  // Declarations that need a target feature, in declaration order.
  void checkResourceTargets() {
    for (const Resource &r : k_.resources) {
      checkTmemTarget(r);
      checkRegisterBudget(r);
    }
    checkClusterTarget();
  }

  // A cluster of more than one block needs a target with clusters.
  void checkClusterTarget() {
    int64_t blocks = clusterSize(k_);
    if (blocks > 1 && !ti_.clusters)
      unsupported_.push_back(
          {k_.clusterRange, fmt::format("a cluster of {} blocks (cluster=)", blocks), targets::kClusters, "clusters"});
  }

  // A TMEM region needs lm.tmem.
  void checkTmemTarget(const Resource &r) {
    if (r.kind == ResourceKind::Tmem && !opInfo(OpKind::Tmem).legalOn(target_))
      unsupported_.push_back({r.range, "lm.tmem", opInfo(OpKind::Tmem).targets, ""});
  }

  // A role's regs= needs setmaxnreg, with a multiple of 8 in its range.
  void checkRegisterBudget(const Resource &r) {
    if (r.kind != ResourceKind::Role || r.regBudget == 0) return;
    if (!ti_.setmaxnreg)
      unsupported_.push_back({r.range, "setmaxnreg (a role's regs=)", targets::kSetmaxnreg, "setmaxnreg"});
    else if (r.regBudget < ti_.regMin || r.regBudget > ti_.regMax || r.regBudget % 8 != 0)
      ctx_.diags.report(DiagId::HwSetmaxnreg, r.range, r.regBudget, r.name, ti_.regMin, ti_.regMax);
    else if (!wholeWarpgroups(r)) {
      std::string ws;
      for (int64_t w : r.warps) ws += (ws.empty() ? "" : ", ") + std::to_string(w);
      ctx_.diags.report(DiagId::HwSetmaxnregWarpgroups, r.range, r.name, ws);
    }
  }

  // Shared memory per block, barriers included.
  // Each pool is noted with the bytes its views reach, so an oversized pool
  // stands apart from views that need the room.
  void checkSharedMemory() {
    if (k_.smemBytes <= static_cast<int64_t>(ti_.smemPerBlock)) return;
    ctx_.diags.report(DiagId::HwSmemLimit, k_.nameRange, k_.name, k_.smemBytes, k_.smemBytes - k_.barrierBytes,
                      k_.barrierBytes, ti_.name, ti_.smemPerBlock);
    for (const Resource &pool : k_.resources) {
      if (pool.kind != ResourceKind::Pool) continue;
      int64_t used = 0;
      for (const Resource &v : k_.resources)
        if (v.kind == ResourceKind::View && v.pool == pool.id) used = std::max(used, satAdd(v.offset, v.totalBytes));
      ctx_.diags.report(DiagId::NotePoolDeclared, pool.range, pool.name, pool.bytes, used);
    }
  }

  // blocks_per_sm=N: N blocks fit one multiprocessor together (their shared
  // memory with the runtime's reservation, their threads, their TMEM
  // columns). The register file is checkRegisterFile's, with the pool of
  // one N-th of it. A block over the per-block limits is reported there.
  void checkBlocksPerSm() {
    int64_t n = k_.blocksPerSm;
    if (n <= 1) return;
    auto report = [&](std::string need, std::string have) {
      ctx_.diags.report(DiagId::HwBlocksPerSm, k_.blocksPerSmRange, k_.name, n, need, ti_.name, have);
    };
    if (n > static_cast<int64_t>(ti_.blocksPerSm)) {
      report(fmt::format("{} resident blocks", n), fmt::format("room for {} blocks", ti_.blocksPerSm));
      return;
    }
    if (k_.smemBytes <= static_cast<int64_t>(ti_.smemPerBlock)) {
      int64_t g = TargetInfo::kSmemGranularity;
      int64_t one = (satAdd(k_.smemBytes, TargetInfo::kSmemReservedPerBlock) + g - 1) / g * g;
      int64_t smem = satMul(n, one);
      if (smem > static_cast<int64_t>(ti_.smemPerSm()))
        report(fmt::format("{} bytes of shared memory ({} x {}: {} and the {} the runtime reserves per block, in units "
                           "of {})",
                           smem, n, one, k_.smemBytes, TargetInfo::kSmemReservedPerBlock, g),
               fmt::format("{} bytes", ti_.smemPerSm()));
    }
    int64_t threads = satMul(n, std::max<int64_t>(k_.threads, 32));
    if (k_.threads <= static_cast<int64_t>(ti_.maxThreads) && threads > static_cast<int64_t>(ti_.threadsPerSm))
      report(fmt::format("{} threads ({} x {})", threads, n, k_.threads),
             fmt::format("{} resident threads", ti_.threadsPerSm));
    if (ti_.tmem()) {
      int64_t end = 0;
      for (const Resource &r : k_.resources)
        if (r.kind == ResourceKind::Tmem) end = std::max(end, satAdd(r.firstColumn, r.width));
      std::optional<uint32_t> cols = end > 0 ? tmemAllocColumns(end) : std::nullopt;  // past 512: reported above
      if (cols && satMul(n, *cols) > ti_.tmemColumns)
        report(fmt::format("{} TMEM columns ({} x {}: tcgen05.alloc takes a power of two for columns up to {})",
                           satMul(n, *cols), n, *cols, end),
               fmt::format("{} columns", ti_.tmemColumns));
    }
  }

  // Per declaration, in order: a role's warps within the thread limit; a
  // TMEM region within the columns. (lm.tmem on a target without TMEM is
  // checkTmemTarget's to report.)
  void checkResourceLimits() {
    for (const Resource &r : k_.resources) {
      if (r.kind == ResourceKind::Role) {
        int64_t top = *std::max_element(r.warps.begin(), r.warps.end());
        int64_t threads = satMul(satAdd(top, 1), 32);
        if (threads > ti_.maxThreads)
          ctx_.diags.report(DiagId::HwThreadsLimit, r.range, r.name, top, threads, ti_.maxThreads);
      }
      if (r.kind == ResourceKind::Tmem && ti_.tmem() && satAdd(r.firstColumn, r.width) > ti_.tmemColumns)
        ctx_.diags.report(DiagId::HwTmemColumns, r.range, r.name, satAdd(r.firstColumn, r.width), ti_.tmemColumns);
    }
  }

  // Each role gets a named barrier (for lm.role_sync) besides barrier 0,
  // and so does each lm.named_barrier.
  void checkNamedBarriers() {
    size_t roleCount = std::count_if(k_.resources.begin(), k_.resources.end(), [](const Resource &r) {
      return r.kind == ResourceKind::Role || r.kind == ResourceKind::NamedBarrier;
    });
    if (roleCount + 1 > ti_.namedBarriers)
      ctx_.diags.report(DiagId::HwNamedBarriers, k_.nameRange, k_.name, roleCount, ti_.name, ti_.namedBarriers,
                        ti_.namedBarriers - 1);
  }

  // When any role sets a register budget, all the roles' registers together
  // fit the register file.
  void checkRegisterFile() {
    bool anyBudget = std::any_of(k_.resources.begin(), k_.resources.end(),
                                 [](const Resource &r) { return r.kind == ResourceKind::Role && r.regBudget; });
    if (!anyBudget || !ti_.setmaxnreg) return;  // budgets without setmaxnreg are reported above
    // The block is launched for blocks_per_sm blocks per SM
    // (__launch_bounds__(threads, blocks_per_sm)) with launchRegisters per
    // thread. setmaxnreg moves registers between warpgroups within that
    // pool; it never grows it.
    int64_t threads = std::max<int64_t>(k_.threads, 32);
    int64_t launch = analysis::launchRegisters(k_, target_);
    int64_t pool = satMul(launch, threads);
    int64_t total = 0;
    std::string parts;
    for (const Resource &r : k_.resources) {
      if (r.kind != ResourceKind::Role) continue;
      // A role without a budget keeps what the launch gives every thread.
      int64_t per = r.regBudget ? r.regBudget : launch;
      int64_t n = 32 * static_cast<int64_t>(r.warps.size());
      total = satAdd(total, satMul(per, n));
      parts += fmt::format("{}{} x {} threads for '{}'", parts.empty() ? "" : " + ", per, n, r.name);
    }
    if (total > pool) ctx_.diags.report(DiagId::HwRegisterFile, k_.nameRange, total, parts, pool, threads, launch);
  }

  // A wgmma accumulator lives in its role's registers whole and cannot be
  // spilled: its words per thread must leave registers over in what the
  // role has (its budget, or the launch's registers: a kernel built for
  // several blocks per SM has fewer). ptxas refuses it otherwise.
  void checkAccumulatorRegisters() {
    if (ti_.mma != MmaPath::Wgmma) return;
    std::set<ResourceId> seen;
    int64_t launch = analysis::launchRegisters(k_, target_);
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        if (e.op->kind != OpKind::Mma) continue;
        const Operand &accOp = e.op->operand(param::Mma::acc);
        if (!accOp.present || accOp.value.resource == kNoResource) continue;
        const Resource &acc = k_.resources[accOp.value.resource];
        const Resource &role = k_.resources[r.role];
        if (acc.kind != ResourceKind::Regs || role.warps.empty() || !seen.insert(acc.id).second) continue;
        int64_t elems = 1;
        for (int64_t d : acc.shape) elems = satMul(elems, d);
        int64_t words = satMul(elems, dtypeInfo(acc.dtype).bits) / 32 / (32 * static_cast<int64_t>(role.warps.size()));
        int64_t have = role.regBudget ? role.regBudget : launch;
        if (words < have) continue;
        std::string why = role.regBudget ? fmt::format("its regs= budget")
                                         : fmt::format("what {} threads are launched with at {} block(s) per SM",
                                                       k_.threads, k_.blocksPerSm);
        ctx_.diags.report(DiagId::HwAccumulatorRegisters, accOp.range, acc.name, words, role.name, have, why);
      }
  }

  // Tensor-core instructions legal on the target, in program order.
  void checkMmaInstructions() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events)
        if (e.op->kind == OpKind::Mma && e.op->info().legalOn(target_)) checkMma(*e.op, k_.resources[r.role]);
  }

  // One lm.mma: accumulator placement, then dtypes, then (for wgmma) whole
  // warpgroups, then the shape; the first problem found is the one reported.
  void checkMma(const Operation &op, const Resource &role) {
    MmaOperand acc = mmaOperand(k_, op.operand(param::Mma::acc));
    MmaOperand a = mmaOperand(k_, op.operand(param::Mma::a));
    MmaOperand b = mmaOperand(k_, op.operand(param::Mma::b));
    if (acc.id == kNoResource || a.id == kNoResource || b.id == kNoResource) return;
    const Resource &accRes = k_.resources[acc.id];
    bool blackwell = ti_.mma == MmaPath::Tcgen05;
    bool hopper = ti_.mma == MmaPath::Wgmma;
    // Accumulator placement.
    if (blackwell && accRes.kind != ResourceKind::Tmem) {
      ctx_.diags.report(DiagId::HwMmaAccumulator, op.operand(param::Mma::acc).range, ti_.name,
                        "a TMEM region (lm.tmem)", accRes.name, "a register fragment");
      return;
    }
    if (!blackwell && accRes.kind == ResourceKind::Tmem) return;  // lm.tmem itself is reported by checkTmemTarget
    // Operand dtypes: bf16/f16 with f32 (or f16) accumulation; fp8 with f32.
    bool okTypes =
        (isHalf(a.dtype) && (acc.dtype == DType::F32 || (acc.dtype == DType::F16 && a.dtype == DType::F16))) ||
        (isFp8(a.dtype) && acc.dtype == DType::F32 && (targets::kFp8Mma & targetBit(target_))) ||
        (a.dtype == DType::I8 && acc.dtype == DType::I32);
    if (!okTypes) {
      ctx_.diags.report(
          DiagId::HwMmaDtype, op.range, "'lm.mma'", ti_.name,
          (targets::kFp8Mma & targetBit(target_))
              ? "bf16/f16 operands with an f32 (or f16) accumulator, fp8 with f32, or i8 with i32"
              : "bf16/f16 operands with an f32 (or f16) accumulator or i8 with i32 (fp8 needs sm_89 or later)",
          fmt::format("{} operands with a {} accumulator", dtypeInfo(a.dtype).name, dtypeInfo(acc.dtype).name));
      return;
    }
    if (acc.shape.size() != 2) return;
    int64_t m = acc.shape[0], n = acc.shape[1];
    int64_t kk = a.shape.size() == 2 ? a.shape[1] : 0;
    int64_t kStep = (isFp8(a.dtype) || a.dtype == DType::I8) ? 32 : 16;
    std::string problem;
    if (hopper) {
      // wgmma: M = 64 per instruction, the rows split evenly over the role's
      // warpgroups (each issues one m64 wgmma per 64 of its rows); N a
      // multiple of 8 up to 256, K a multiple of 16 (32 for 8-bit). A role
      // not made of whole warpgroups is reported once.
      if (!warpgroupRole(op, role)) return;
      WgmmaTiling tiling = wgmmaTiling(acc.shape, role);
      if (!tiling.ok)
        problem = tiling.problem;
      else if (kk % kStep != 0)
        problem = fmt::format("K = {} must be a multiple of {} for {}", kk, kStep, dtypeInfo(a.dtype).name);
      else if (!b.inSmem)
        problem = "the B operand must be in shared memory";
      if (problem.empty()) checkFp8Major(op, a, b);
    } else if (blackwell) {
      // tcgen05.mma (cta_group::1): M 64 or 128; N a multiple of 8 (M=64) or 16 (M=128) up to 256.
      if (m != 64 && m != 128)
        problem = fmt::format("M = {} must be 64 or 128", m);
      else if (n % (m == 64 ? 8 : 16) != 0 || n < (m == 64 ? 8 : 16) || n > 256)
        problem =
            fmt::format("N = {} must be a multiple of {} between {} and 256", n, m == 64 ? 8 : 16, m == 64 ? 8 : 16);
      else if (kk % kStep != 0)
        problem = fmt::format("K = {} must be a multiple of {} for {}", kk, kStep, dtypeInfo(a.dtype).name);
      else if (!b.inSmem)
        problem = "the B operand must be in shared memory";
    } else {
      // mma.sync m16n8k16 in the shared fragment layout (analysis/Tiling.h):
      // groups of four of the role's warps (any four: no hardware warpgroup
      // is involved) holding 64-row blocks, N a multiple of 16.
      if (role.warps.size() % 4 != 0) {
        if (wgmmaRolesReported_.insert(role.id).second)
          ctx_.diags.build(DiagId::HwFragmentWarps, op.range, role.name, role.warps.size())
              .note(DiagId::NoteRoleDeclaredHere, role.range, role.name)
              .emit();
        return;
      }
      if (WgmmaTiling tiling = mmaSyncTiling(acc.shape, role); !tiling.ok)
        problem = tiling.problem;
      else if (kk % kStep != 0)
        problem = fmt::format("K = {} must be a multiple of {}", kk, kStep);
      else if (accRes.kind != ResourceKind::Regs)
        problem = "the accumulator must be a register fragment";
    }
    if (!problem.empty()) ctx_.diags.report(DiagId::HwMmaShape, op.range, "'lm.mma'", ti_.name, problem);
  }

  // fp8 wgmma has no transpose immediates: A and B are read K-major, A as an
  // (M, K) tile and B as an (N, K) tile used as '.T'. A from registers is
  // not a shared-memory operand (the instruction takes it; its 8-bit
  // register layout is the lowering's concern). An fp8 operand beside a
  // 16-bit one is data.mma-dtype's.
  void checkFp8Major(const Operation &op, const MmaOperand &a, const MmaOperand &b) {
    if (!isFp8(a.dtype) || !isFp8(b.dtype)) return;
    const Operand &ao = op.operand(param::Mma::a), &bo = op.operand(param::Mma::b);
    auto tile = [](const std::vector<int64_t> &s) { return fmt::format("({}, {})", s[0], s[1]); };
    if (a.inSmem && ao.value.transposed && a.shape.size() == 2) {
      const Resource &r = k_.resources[a.id];
      ctx_.diags
          .build(DiagId::HwMmaOperandMajor, ao.range, ti_.name, "A", r.name, tile(r.shape), "K, M",
                 fmt::format("store A K-major, as an (M, K) tensor copied into a {} view used without "
                             "'.T', or transpose it in shared memory first",
                             tile({a.shape[0], a.shape[1]})))
          .note(DiagId::NoteDeclaredHere, r.range, r.name)
          .emit();
    }
    if (b.inSmem && !bo.value.transposed && b.shape.size() == 2) {
      const Resource &r = k_.resources[b.id];
      ctx_.diags
          .build(DiagId::HwMmaOperandMajor, bo.range, ti_.name, "B", r.name, tile(r.shape), "K, N",
                 fmt::format("store the weight K-major, as an (N, K) tensor copied into a {} view used as "
                             "'{}.T', or transpose it in shared memory first",
                             tile({b.shape[1], b.shape[0]}), r.name))
          .note(DiagId::NoteDeclaredHere, r.range, r.name)
          .emit();
    }
  }

  // TMA boxes: at most the target's box size per dimension; the inner box a
  // multiple of 16 bytes, and within the swizzle span or whole panels of it.
  void checkTmaBoxes() {
    for (ResourceId id : tmaViews_) {
      const Resource &v = k_.resources[id];
      for (size_t i = 0; i < v.shape.size(); ++i)
        if (ti_.tma() && v.shape[i] > ti_.tmaBoxMax)
          ctx_.diags.report(DiagId::HwTmaBox, v.range, i, v.name, v.shape[i], ti_.tmaBoxMax);
      if (v.shape.empty()) continue;
      int64_t innerBytes = satMul(v.shape.back(), dtypeInfo(v.dtype).bits) / 8;
      unsigned sw = swizzleBytes(v.swizzle);
      // Wider swizzled rows are panels of the span, one TMA box each.
      if (sw != 0 && innerBytes > sw && innerBytes % sw != 0)
        ctx_.diags.report(DiagId::HwTmaInnerBox, v.range, v.name, innerBytes,
                          fmt::format("with swizzle {} it must be at most {} or a multiple of it (panels of {} bytes)",
                                      swizzleName(v.swizzle), sw, sw));
      else if (innerBytes % 16 != 0)
        ctx_.diags.report(DiagId::HwTmaInnerBox, v.range, v.name, innerBytes, "it must be a multiple of 16");
    }
  }

  // Clusters: a multicast copy shares its tile among all the blocks of the
  // cluster (each copies an equal share of the rows); cluster-wide arrivals
  // need a cluster. Per operation, multicast first.
  void checkClusters() {
    int64_t blocks = clusterSize(k_);
    // At most the portable eight blocks (the launcher does not opt in to
    // larger ones); a target without clusters is checkResourceTargets'.
    if (ti_.clusters && blocks > kMaxClusterBlocks)
      ctx_.diags.report(DiagId::HwCluster, k_.clusterRange, fmt::format("a cluster of {} blocks", blocks),
                        fmt::format("a cluster has at most {} blocks", kMaxClusterBlocks));
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const Operation &op = *e.op;
        const OpEffects &fx = op.info().effects;
        int64_t n = fx.multicast >= 0 ? op.operands[static_cast<size_t>(fx.multicast)].value.constInt.value_or(0) : 0;
        if (n != 0) {
          const Operand &mc = op.operands[static_cast<size_t>(fx.multicast)];
          const Resource &v = k_.resources[effectResource(op, fx.writes)];
          std::string what = fmt::format("'{}.{}' with {}={}", v.name, op.info().name,
                                         op.info().params[static_cast<size_t>(fx.multicast)].name, n);
          SourceRange at = mc.range.valid() ? mc.range : op.range;
          int64_t dim = multicastDim(op);
          int64_t along = dim >= 0 && dim <= 2 ? k_.cluster[static_cast<size_t>(dim)] : 0;
          if (dim >= 0 && (dim > 2 || along < 2 || n != along))
            ctx_.diags.report(DiagId::HwCluster, at, what,
                              dim > 2 ? fmt::format("multicast_dim is {}; it must be 0, 1 or 2", dim)
                                      : fmt::format("multicast_dim={} shares the tile among the cluster's {} block(s) "
                                                    "along that dimension, so multicast must be {}{}",
                                                    dim, along, along, along < 2 ? " (at least 2)" : ""));
          else if (dim < 0 && (blocks < 2 || n != blocks))
            ctx_.diags.report(DiagId::HwCluster, at, what,
                              fmt::format("multicast must equal the number of blocks in the cluster, which is {}{}",
                                          blocks, blocks < 2 ? " (set cluster= in @cake.schedule)" : ""));
          else if (v.shape.empty() || v.shape[0] % n != 0 || (v.swizzle != Swizzle::None && (v.shape[0] / n) % 8 != 0))
            ctx_.diags.report(
                DiagId::HwCluster, at, what,
                fmt::format("each block copies 1/{} of the {} rows of '{}'; they must divide evenly{}", n,
                            v.shape.empty() ? 0 : v.shape[0], v.name,
                            v.swizzle != Swizzle::None ? ", in multiples of 8 rows for the swizzle" : ""));
        }
        if (signalsCluster(op) && blocks < 2) {
          const Operand &cl = op.operands[static_cast<size_t>(fx.clusterSignal)];
          ctx_.diags.report(DiagId::HwCluster, cl.range.valid() ? cl.range : op.range,
                            fmt::format("'lm.{}' with {}=True", op.info().name,
                                        op.info().params[static_cast<size_t>(fx.clusterSignal)].name),
                            "the kernel's cluster has one block (set cluster= in @cake.schedule)");
        }
      }
  }

  // Views that TMA or the tensor core address start, and step between
  // stages, at the alignment their swizzle needs. TMA views first, then the
  // tensor core's, each view once.
  void checkAlignment() {
    std::set<ResourceId> aligned;
    for (const auto *set : {&tmaViews_, &mmaViews_})
      for (ResourceId id : *set) {
        if (!aligned.insert(id).second) continue;
        const Resource &v = k_.resources[id];
        int64_t need = requiredAlignment(v.swizzle);
        const char *user = tmaViews_.count(id) && mmaViews_.count(id) ? "TMA and the tensor core"
                           : tmaViews_.count(id)                      ? "TMA"
                                                                      : "the tensor core";
        if (v.alignment < need)
          ctx_.diags.report(
              DiagId::HwAlignment, v.range, v.name, user, need,
              fmt::format("it starts at byte {} of shared memory", k_.resources[v.pool].smemOffset + v.offset));
        else if (v.stages > 1 && v.bytesPerStage % need != 0)
          ctx_.diags.report(DiagId::HwAlignment, v.range, v.name, user, need,
                            fmt::format("its stages are {} bytes apart", v.bytesPerStage));
      }
  }

  const PassContext &ctx_;
  const Kernel &k_;
  const std::vector<RoleEvents> &roles_;
  Target target_;
  const TargetInfo &ti_;
  std::set<ResourceId> tmaViews_, mmaViews_;  // views TMA copies through; views MMA reads
  // A register accumulator is laid out over whole warpgroups (analysis/
  // Tiling.h); a role that is not is reported once.
  bool warpgroupRole(const Operation &op, const Resource &role) {
    if (wholeWarpgroups(role)) return true;
    if (wgmmaRolesReported_.insert(role.id).second) {
      std::string ws;
      for (int64_t x : role.warps) ws += (ws.empty() ? "" : ", ") + std::to_string(x);
      ctx_.diags.build(DiagId::HwWarpgroupAlignment, op.range, role.name, "[" + ws + "]", mmaPathName(ti_.mma))
          .note(DiagId::NoteRoleDeclaredHere, role.range, role.name)
          .emit();
    }
    return false;
  }

  struct Unsupported {
    SourceRange range;
    std::string name;
    uint32_t targets;
    std::string feature;  // what the target lacks ("TMA", "setmaxnreg"; featureName by default)
  };
  std::vector<Unsupported> unsupported_;           // uses of what the target lacks (reportUnsupported)
  static constexpr int64_t kMaxClusterBlocks = 8;  // the portable cluster size (CUDA guide: thread block clusters)
  std::set<ResourceId> wgmmaRolesReported_;        // roles told they are not whole warpgroups
};

}  // namespace

void checkHardwareCompliance(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  HardwareChecker(ctx, k, f).run();
}

}  // namespace cake::passes
