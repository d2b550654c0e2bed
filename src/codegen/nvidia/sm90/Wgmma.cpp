// Wgmma.cpp - the sm_90a tensor-core path: wgmma.mma_async with shared-memory
// descriptors or A from registers, its commit groups and waits.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// wgmma, one instruction per warpgroup, m64 block and k-step (k16 for 16-bit
// types, k32 for fp8: 32 bytes of K either way). A is a
// K-major view (through a descriptor) or a register fragment in the
// accumulator layout. Of a 16-bit one, the packed pairs 4s..4s+3 of an m64
// block are the A registers of k-step s. An fp8 one is rearranged first
// (fp8ARegisters): the accumulator layout puts columns 2t, 2t+1, 8+2t, 9+2t
// of each 16 in thread t of a quad, and wgmma's 8-bit A fragment wants
// 4t..4t+3. B is a K-major view used transposed (b[s].T, an
// (N, K) tile) or an MN-major one (b[s], a (K, N) tile stored as panels of
// 64 N-columns by K rows).
void KernelEmitter::wgmma(const Operation &o, RoleCtx &rc) {
  const auto [accV, aV, bV, acc, a, b] = mmaOperands(o);
  bool aInRegs = a.kind == ResourceKind::Regs, bMnMajor = !bV.transposed;
  if (acc.kind != ResourceKind::Regs || b.kind != ResourceKind::View) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           "sm_90a lowers wgmma with the accumulator in registers and B in shared memory");
    return;
  }
  int64_t perThread = 0;
  if (!fragmentLayout(acc, *rc.role, o.range, perThread)) return;
  if (aV.transposed) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           "A is lowered K-major only: an (M, K) view or register fragment");
    return;
  }
  // fp8 mixes: e4m3 by e5m2 is a form of its own; 16-bit types do not mix.
  const bool fp8 = dtypeInfo(a.dtype).bits == 8 && dtypeInfo(b.dtype).bits == 8;
  if ((a.dtype != b.dtype && !fp8) || !table_.lowersDtype(o.kind, a.dtype) || !table_.lowersDtype(o.kind, b.dtype) ||
      acc.dtype != DType::F32) {
    refuse(DiagId::LowerMmaDtype, o.range, "'lm.mma'",
           fmt::format("wgmma is lowered for A and B of one type among {} (e4m3 and e5m2 mix), with f32 "
                       "accumulators (here {} and {} into {})",
                       table_.dtypeNames(o.kind), dtypeInfo(a.dtype).name, dtypeInfo(b.dtype).name,
                       dtypeInfo(acc.dtype).name));
    return;
  }
  // fp8 wgmma reads K-major operands only (the gate's hw.mma-operand-major
  // says so first; this guards -fno-gates-like input).
  if (fp8 && bMnMajor) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           "fp8 wgmma is lowered with B K-major: an (N, K) view used as '.T'");
    return;
  }
  int64_t esize = dtypeInfo(a.dtype).bits / 8;
  // Elements of K per instruction: 32 bytes of each row, for every type.
  const int64_t kStep = 32 / esize;
  std::vector<const Resource *> views = {&b};
  if (!aInRegs) views.push_back(&a);
  for (const Resource *v : views) {
    bool ok = operandTile(*v, coreMatrices(*v));
    if (ok && v == &b && bMnMajor) ok = v->swizzle == Swizzle::B128 || coreMatrices(*v);
    if (!ok) {
      refuse(DiagId::LowerOperandView, o.range, fmt::format("the operand view '{}'", v->name),
             "wgmma operands lower as unswizzled tiles whose rows are whole 16-byte core matrices, or swizzled "
             "tiles whose rows are one swizzle span or whole panels of it (for example 64 bf16 with "
             "swizzle=\"128B\"); a swizzled MN-major B (used without '.T') needs swizzle=\"128B\"");
      return;
    }
  }
  if (aInRegs && !registerTileA(a, *rc.role, o.range)) return;
  // fp8 A from registers: the registers each write of the fragment filled
  // (a8Fragments_: every write elementwise, as lm.cast is).
  const bool a8InRegs = aInRegs && fp8;
  if (a8InRegs && !a8Fragments_.count(a.id)) {
    refuse(
        DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
        fmt::format("an fp8 A from registers is lowered where every write of '{}' is elementwise (lm.cast)", a.name));
    return;
  }
  int64_t M = acc.shape[0], N = acc.shape[1], K = a.shape[1];
  int64_t wgs = static_cast<int64_t>(rc.role->warps.size()) / 4;
  int64_t rowsPerWg = M / wgs, mBlocks = rowsPerWg / 64, kSteps = K / kStep;
  Panels bp = panels(b);
  int64_t bRowBytes = bp.rowPitch;
  // The k-step s of a K-major tile starts 32 * s bytes into the rows: in
  // panel (that / pitch), at (that % pitch) within it. Of an MN-major tile
  // (16-bit types), 16 rows further down each panel.
  auto bOffset = [&](int64_t s) { return bMnMajor ? s * 16 * bRowBytes : kStepOffset(bp, s * 32); };
  const std::string &fn = w_.useWgmma(codegen::WgmmaForm{N, a.dtype, b.dtype, aInRegs, bMnMajor});
  // (clang 14 lambdas do not capture structured bindings: the two facts of B
  // are copied out first.)
  const bool bCore = coreMatrices(b);
  const Swizzle bSwizzle = b.swizzle;
  // A tile's descriptor is built once; each instruction's is that plus its
  // byte offset >> 4. The start address is the descriptor's low 14 bits
  // (address >> 4) and shared addresses are below 2^18, so the sum never
  // carries into the next field: it is the descriptor at base + offset.
  auto bDescBase = [&]() {
    if (bCore) return coreDesc("cake_b", 0, bp, bMnMajor);
    if (bMnMajor)
      return fmt::format("{}(cake_b, {}u, {}u, {}u)", w_.use("cake_wgmma_desc_mn"), bp.bytes, 8 * bRowBytes,
                         swizzleLayout(bSwizzle));
    return fmt::format("{}(cake_b, {}u, {}u)", w_.use("cake_wgmma_desc"), 8 * bRowBytes, swizzleLayout(bSwizzle));
  };
  auto descAt = [](const std::string &base, int64_t off) {
    return off == 0 ? base : fmt::format("{} + {}u", base, off / 16);
  };
  const Value &init = o.operand(param::Mma::init).value;
  line(fmt::format("// {}x{}x{} per block: {} warpgroup(s) x {} m64 block(s) x {} k{} step(s) of m64n{}k{}{}{}", M, N,
                   K, wgs, mBlocks, kSteps, kStep, N, kStep, aInRegs ? ", A from registers" : "",
                   bMnMajor ? ", B MN-major" : ""));
  line(w_.use("cake_wgmma_fence") + "();");
  line("{");
  ++indent_;
  Panels ap = aInRegs ? Panels{} : panels(a);
  if (a8InRegs)
    ;  // its NAME_a8, filled where it was written
  else if (aInRegs)
    line(fmt::format("const uint32_t *cake_a = reinterpret_cast<const uint32_t *>({});  // two 16-bit values each",
                     ident(a.name)));
  else
    line(fmt::format("const uint32_t cake_a = {} + cake_wg * {}u;", viewStageAddr(aV), rowsPerWg * ap.rowPitch));
  line(fmt::format("const uint32_t cake_b = {};", viewStageAddr(bV)));
  if (!aInRegs)
    line(fmt::format("const uint64_t cake_da = {};",
                     coreMatrices(a) ? coreDesc("cake_a", 0, ap, false)
                                     : fmt::format("{}(cake_a, {}u, {}u)", w_.use("cake_wgmma_desc"), 8 * ap.rowPitch,
                                                   swizzleLayout(a.swizzle))));
  line(fmt::format("const uint64_t cake_db = {};", bDescBase()));
  std::string accumulate =
      init.boolIsConst ? (init.constBool ? "0" : "1") : fmt::format("({}) ? 0 : 1", value(init, false));
  line(fmt::format("const int32_t cake_accumulate = {};", accumulate));
  // k-steps outer, m64 blocks inner: consecutive wgmmas of a warpgroup write
  // different accumulators, so they need not wait for each other.
  for (int64_t st = 0; st < kSteps; ++st)
    for (int64_t mb = 0; mb < mBlocks; ++mb) {
      std::string aArg;
      if (a8InRegs) {
        int64_t r = 4 * (mb * kSteps + st);
        aArg = fmt::format("{0}[{1}], {0}[{2}], {0}[{3}], {0}[{4}]", a8Var(a), r, r + 1, r + 2, r + 3);
      } else if (aInRegs) {
        int64_t r = mb * (K / 4) + 4 * st;
        aArg = fmt::format("cake_a[{}], cake_a[{}], cake_a[{}], cake_a[{}]", r, r + 1, r + 2, r + 3);
      } else {
        aArg = descAt("cake_da", mb * 64 * ap.rowPitch + kStepOffset(ap, st * 32));
      }
      line(fmt::format("{}({} + {}, {}, {}, {});", fn, ident(acc.name), mb * (N / 2), aArg,
                       descAt("cake_db", bOffset(st)), st == 0 ? "cake_accumulate" : "1"));
    }
  --indent_;
  line("}");
}

// An fp8 register fragment (uint16_t pairs in the accumulator layout,
// `src`) as wgmma's 8-bit A fragment, in `dst`: four registers per m64
// block and k32 step. Register j = 2h + r of k-step s holds row g + 8r, columns
// 16h + 4t .. 16h + 4t + 3 of the step (g = lane / 4, t = lane % 4, PTX
// ISA: wgmma's register fragment for .e4m3/.e5m2 A). Those four are the
// pairs of quad threads 2(t % 2) and 2(t % 2) + 1 at 8-column chunk
// 2h + t / 2: every thread offers its two chunks' pairs of row r in one
// word, takes the words of those two threads and keeps their low or high
// halves (cake_fp8_a_reg).
void KernelEmitter::fp8ARegisters(const std::string &src, const std::string &dst, int64_t mBlocks, int64_t kSteps) {
  int64_t pairsPerBlock = 8 * kSteps;  // K columns x 64 rows / 128 threads / 2 per pair, K = 32 kSteps
  const std::string &fn = w_.use("cake_fp8_a_reg");
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t st = 0; st < kSteps; ++st)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t r = 0; r < 2; ++r) {
          int64_t chunk = 4 * st + 2 * h, lo = mb * pairsPerBlock + 2 * chunk + r, hi = lo + 2;
          line(fmt::format("{}[{}] = {}({}[{}], {}[{}]);", dst, 4 * (mb * kSteps + st) + 2 * h + r, fn, src, lo, src,
                           hi));
        }
}

// The descriptor of an unswizzled operand tile stored as 16-byte panels of
// core matrices (8 rows of 16 bytes, 128 contiguous bytes).
std::string KernelEmitter::coreDesc(const std::string &base, int64_t off, const Panels &p, bool mnMajor) {
  auto [lbo, sbo] = coreOffsets(p, mnMajor);
  if (off == 0) return fmt::format("{}({}, {}u, {}u)", w_.use("cake_wgmma_desc_core"), base, lbo, sbo);
  return fmt::format("{}({} + {}u, {}u, {}u)", w_.use("cake_wgmma_desc_core"), base, off, lbo, sbo);
}

void KernelEmitter::wgmmaCommit(const Operation &, RoleCtx &) { line(w_.use("cake_wgmma_commit_group") + "();"); }

void KernelEmitter::wgmmaWait(const Operation &o, RoleCtx &) {
  line(fmt::format("{}<{}>();", w_.use("cake_wgmma_wait_group"), o.pendingGroups()));
}

}  // namespace cake::codegen::detail
