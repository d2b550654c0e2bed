// Tcgen05.cpp - the sm_100a / sm_103a tensor-core path: tcgen05.mma into a
// TMEM accumulator from shared-memory descriptors, tcgen05.commit to an
// mbarrier, tcgen05.ld from TMEM into registers (the lanes layout,
// analysis::lanesTiling). The TMEM columns are allocated and released by
// the kernel skeleton (Kernel.cpp). Encodings: Tcgen05Encoding.h.
#include <fmt/format.h>

#include "codegen/Emitter.h"
#include "codegen/nvidia/sm100/Tcgen05Encoding.h"

namespace cake::codegen::detail {

// One tcgen05.mma per k-step of the stage, issued by one thread. A is a
// K-major (M, K) view; B a K-major (N, K) view used transposed (b[k].T) or
// an MN-major (K, N) view. Each is either swizzled, its rows one swizzle
// span or whole panels of it, or unswizzled and stored as 16-byte panels of
// core matrices (analysis::KernelFacts::coreMatrixViews), as TMA writes
// them. A k-step of a K-major tile moves its start along the row (into the
// next panel past the span); of an MN-major one, down the rows.
void KernelEmitter::tcgen05Mma(const Operation &o, RoleCtx &rc) {
  const auto [accV, aV, bV, acc, a, b] = mmaOperands(o);
  bool bMnMajor = !bV.transposed;
  if (acc.kind != ResourceKind::Tmem || a.kind != ResourceKind::View || b.kind != ResourceKind::View) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           "tcgen05.mma is lowered with the accumulator in TMEM and A and B in shared memory");
    return;
  }
  if (aV.transposed) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'", "tcgen05.mma is lowered with A K-major: an (M, K) view");
    return;
  }
  if (bMnMajor && dtypeInfo(b.dtype).bits != 16) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           "tcgen05.mma is lowered with an MN-major B (used without '.T') for 16-bit types only");
    return;
  }
  int64_t M = acc.shape[0], N = acc.shape[1], K = a.shape[1];
  std::optional<uint32_t> idesc = sm100::instrDesc(M, N, a.dtype, b.dtype, acc.dtype, false, bMnMajor);
  if (!idesc || M != analysis::kTmemLanes || !table_.lowersDtype(o.kind, a.dtype) ||
      (sm100::mmaKind(a.dtype) != std::string_view("f16") && acc.dtype != DType::F32)) {
    refuse(DiagId::LowerMmaDtype, o.range, "'lm.mma'",
           fmt::format("tcgen05.mma is lowered for bf16 or f16 operands with an f32 or f16 accumulator, or fp8 "
                       "(e4m3, e5m2) with an f32 one, of {} rows and 8 to 256 columns in steps of 8 (here {}x{}, "
                       "{} and {} into {})",
                       analysis::kTmemLanes, M, N, dtypeInfo(a.dtype).name, dtypeInfo(b.dtype).name,
                       dtypeInfo(acc.dtype).name));
    return;
  }
  int64_t esize = dtypeInfo(a.dtype).bits / 8, kStep = sm100::mmaK(a.dtype);
  for (const Resource *v : {&a, &b}) {
    bool ok = operandTile(*v, coreMatrices(*v));
    if (ok && v == &b && bMnMajor) ok = v->swizzle == Swizzle::B128 || coreMatrices(*v);
    if (!ok) {
      refuse(DiagId::LowerOperandView, o.range, fmt::format("the operand view '{}'", v->name),
             "tcgen05.mma operands lower as unswizzled tiles whose rows are whole 16-byte core matrices, or "
             "swizzled tiles whose rows are one swizzle span or whole panels of it (for example 64 bf16 with "
             "swizzle=\"128B\"); a swizzled MN-major B (used without '.T') needs swizzle=\"128B\"");
      return;
    }
  }
  Panels ap = panels(a), bp = panels(b);
  // Descriptors: the start address (bits 0-13, 16-byte units) is added per
  // k-step to a template carrying the two byte offsets, the version bit and
  // the swizzle. Swizzled K-major: LBO 16 B (unused), SBO 8 rows; swizzled
  // MN-major: LBO one panel, SBO 8 rows; core matrices: see coreOffsets.
  auto tmpl = [&](const Resource &v, const Panels &p, bool mnMajor) {
    if (coreMatrices(v)) {
      auto [lbo, sbo] = coreOffsets(p, mnMajor);
      return sm100::smemDescTemplate(static_cast<uint32_t>(lbo), static_cast<uint32_t>(sbo), v.swizzle);
    }
    return sm100::smemDescTemplate(static_cast<uint32_t>(mnMajor ? p.bytes : 16), static_cast<uint32_t>(8 * p.rowPitch),
                                   v.swizzle);
  };
  uint64_t aTmpl = tmpl(a, ap, false), bTmpl = tmpl(b, bp, bMnMajor);
  auto bOffset = [&](int64_t s) { return bMnMajor ? s * kStep * bp.rowPitch : kStepOffset(bp, s * kStep * esize); };
  const Value &init = o.operand(param::Mma::init).value;
  std::string accumulate =
      init.boolIsConst ? (init.constBool ? "0u" : "1u") : fmt::format("({}) ? 0u : 1u", value(init, false));
  int64_t kSteps = K / kStep;
  line(fmt::format("// {}x{}x{}: {} k{} step(s) of tcgen05.mma kind::{}, idesc 0x{:08x} (M {}, N {}, {} -> {}{})", M, N,
                   K, kSteps, kStep, sm100::mmaKind(a.dtype), *idesc, M, N, dtypeInfo(a.dtype).name,
                   dtypeInfo(acc.dtype).name, bMnMajor ? ", B MN-major" : ""));
  line(fmt::format("{}{{", electedGuard(rc)));
  ++indent_;
  line(fmt::format("const uint32_t cake_a = {};", viewStageAddr(aV)));
  line(fmt::format("const uint32_t cake_b = {};", viewStageAddr(bV)));
  line(fmt::format("const uint32_t cake_accumulate = {};", accumulate));
  std::string fn = w_.use(fmt::format("cake_tcgen05_mma_{}", sm100::mmaKind(a.dtype)));
  for (int64_t s = 0; s < kSteps; ++s)
    line(
        fmt::format("{}(cake_tmem + {}u, 0x{:016x}ull | (((cake_a + {}u) & 0x3FFFFu) >> 4), 0x{:016x}ull | (((cake_b + "
                    "{}u) & 0x3FFFFu) >> 4), 0x{:08x}u, {});",
                    fn, acc.firstColumn, aTmpl, kStepOffset(ap, s * kStep * esize), bTmpl, bOffset(s), *idesc,
                    s == 0 ? "cake_accumulate" : "1u"));
  --indent_;
  line("}");
}

// One arrival on the barrier stage once the tensor-core work this thread
// issued is done; the same elected thread issued it.
void KernelEmitter::tcgen05Commit(const Operation &o, RoleCtx &rc) {
  const Value &stage = o.operand(param::Commit::stage).value;
  ResourceId bar = o.operand(param::Commit::barrier).value.resource;
  std::string s = value(stage, false);
  line(electedGuard(rc) +
       countedSignal(fmt::format("{}({});", w_.use("cake_tcgen05_commit"), barrierAddr(bar, s)), bar, s));
}

// TMEM to registers: each warp of the role's warpgroup reads its quarter of
// the lanes (warp w % 4: lanes 32w..32w+31), each thread its lane's columns,
// 32 at a time; the wait makes the registers usable.
void KernelEmitter::tmemLoad(const Operation &o, RoleCtx &rc) {
  const Resource &dst = k_.resource(o.operand(param::TmemLoad::dst).value.resource);
  const Resource &src = k_.resource(o.operand(param::TmemLoad::src).value.resource);
  analysis::FragmentTiling ft;
  if (!fragmentLayout(dst, *rc.role, o.range, ft, true)) return;
  if (dst.shape != src.shape || dst.dtype != src.dtype || !table_.lowersDtype(o.kind, src.dtype) ||
      dst.shape[1] % 32 != 0) {
    refuse(DiagId::LowerFragmentLoad, o.range, fmt::format("'lm.tmem_load' of '{}' into '{}'", src.name, dst.name),
           fmt::format("TMEM is loaded into a fragment of the region's shape and dtype ({}), 32 columns at a time",
                       table_.dtypeNames(o.kind)));
    return;
  }
  declareFragment(dst, ft);
  int64_t N = dst.shape[1];
  line(w_.use("cake_tcgen05_fence_after") + "();  // after the wait that handed the accumulator over");
  line("#pragma unroll");
  line(fmt::format("for (int cake_c = 0; cake_c < {}; cake_c += 32)", N));
  line(fmt::format("  {}(cake_tmem + ((32u * (cake_warp % 4u)) << 16) + {}u + cake_c, {} + cake_c);",
                   w_.use("cake_tmem_load_32"), src.firstColumn, ident(dst.name)));
  line(w_.use("cake_tmem_load_wait") + "();");
  line(fmt::format("{}({});  // no use of the loaded registers moves above the wait", w_.use("cake_fence_fragment"),
                   ident(dst.name)));
}

// A fragment in the lanes layout into a view: each thread writes its row,
// 16 bytes at a time, through the view's panels and swizzle. With col=c,
// the row's columns c .. c + W - 1 into a view W wide (the data gate proved
// both multiples of 8 and within the tile).
void KernelEmitter::storeLanes(const Operation &o) {
  const Resource &src = k_.resource(o.operand(param::Store::src).value.resource);
  const Resource &view = k_.resource(o.receiver);
  int64_t esize = dtypeInfo(view.dtype).bits / 8, N = src.shape[1];
  std::optional<int64_t> first = o.firstColumn();
  bool part = first.has_value();
  int64_t col = first.value_or(0), width = view.shape.back();
  bool shapeOk =
      part ? view.shape.size() == 2 && view.shape[0] == src.shape[0] && col + width <= N : view.shape == src.shape;
  Panels pn = panels(view);
  if (src.dtype != view.dtype || (esize != 2 && esize != 4) || !shapeOk || (width * esize) % 16 != 0 ||
      (col * esize) % 16 != 0 ||
      (view.swizzle != Swizzle::None && pn.rowPitch != static_cast<int64_t>(swizzleBytes(view.swizzle)))) {
    refuse(DiagId::LowerFragmentStore, o.range, fmt::format("a store of '{}' into '{}'", src.name, view.name),
           "a tcgen05 register tile is stored into a view of its shape (or of its rows and the columns "
           "col= names) and dtype (16- or 32-bit), whole 16-byte pieces of a row, the row one swizzle span or "
           "whole panels of it");
    return;
  }
  int64_t perChunk = 16 / esize;
  line(fmt::format("// the lanes layout: row 32 * (warp % 4) + lane, {} elements, 16 bytes per store{}", N,
                   part ? fmt::format("; columns {} to {} of '{}'", col, col + width - 1, src.name) : ""));
  line("{");
  ++indent_;
  line(fmt::format("const uint32_t cake_base = {};", viewAddr(o.receiver, analysis::stageOperand(o).expr)));
  line("const uint32_t cake_row = 32u * (cake_warp % 4u) + cake_lane;");
  line(fmt::format("const uint32_t *cake_src = reinterpret_cast<const uint32_t *>({});", ident(src.name)));
  line("#pragma unroll");
  line(fmt::format("for (int cake_c = {}; cake_c < {}; cake_c += {}) {{", col, col + width, perChunk));
  ++indent_;
  elementOffset(view, "cake_row", col == 0 ? "cake_c" : fmt::format("(cake_c - {})", col));
  line(fmt::format("{1}(cake_base + cake_off, cake_src[cake_c * {0} / 4], cake_src[cake_c * {0} / 4 + 1], "
                   "cake_src[cake_c * {0} / 4 + 2], cake_src[cake_c * {0} / 4 + 3]);",
                   esize, w_.use("cake_st_shared_v4")));
  --indent_;
  line("}");
  --indent_;
  line("}");
}

}  // namespace cake::codegen::detail
