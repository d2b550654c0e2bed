// MmaSync.cpp - the mma.sync tensor-core path (sm_80, sm_89, sm_120a,
// sm_121a): each warp multiplies its rows with mma.sync.m16n8k16, its
// operands loaded from swizzled shared memory by ldmatrix.
//
// The accumulator keeps the fragment layout of analysis::fragmentTiling:
// warp w of a warpgroup holds rows 16w..16w+15 of each m64 block of the
// warpgroup's rows, thread `lane` element i of a block at row lane/4 +
// 8*((i/2)%2), column 8*(i/4) + 2*(lane%4) + i%2. That is the m16n8 C
// fragment of mma.sync, n-tile j being elements 4j..4j+3, so fragment math,
// reductions and stores (Fragments.cpp) are shared with the wgmma path.
// Two neighbouring n-tiles of a 16-bit tile in that layout are the A
// fragment of one k16 step (its packed pairs 4s..4s+3 of an m64 block, as
// for wgmma): A may come from registers (P . V after a softmax, as
// FlashAttention-2 does), and B may be MN-major, a (K, N) view read with
// ldmatrix .trans.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// The byte offset of (row, byte within the row) in one stage of a view:
// its panels and swizzle (the pattern TMA and Fragments.cpp use).
static std::string viewOffsetLambda(const std::string &name, const Resource &v) {
  Panels pn = panelsOf(v);
  std::string o = pn.count > 1 ? fmt::format("(b / {0}u) * {1}u + r * {0}u + b % {0}u", pn.rowPitch, pn.bytes)
                               : fmt::format("r * {}u + b", pn.rowPitch);
  std::string swz =
      v.swizzle == Swizzle::None ? "o" : fmt::format("o ^ (((o >> 7) & {}u) << 4)", swizzleBytes(v.swizzle) / 16 - 1);
  return fmt::format("auto {} = [](uint32_t r, uint32_t b) {{ const uint32_t o = {}; return {}; }};", name, o, swz);
}

void KernelEmitter::mmaSync(const Operation &o, RoleCtx &rc) {
  const auto [accV, aV, bV, acc, a, b] = mmaOperands(o);
  const bool aInRegs = a.kind == ResourceKind::Regs, bMnMajor = !bV.transposed;
  if (acc.kind != ResourceKind::Regs || (a.kind != ResourceKind::View && !aInRegs) || b.kind != ResourceKind::View ||
      aV.transposed) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           "mma.sync lowers with the accumulator in registers, A an (M, K) view or register tile, and B an "
           "(N, K) view used transposed (b[s].T) or a (K, N) view");
    return;
  }
  // The instruction per operand type: 16-bit types take 16 elements of K a
  // step, 8-bit ones 32; either way 32 bytes, so the ldmatrix addressing is
  // the same.
  if (a.dtype != b.dtype || !table_.lowersDtype(o.kind, a.dtype) ||
      acc.dtype != (a.dtype == DType::I8 ? DType::I32 : DType::F32)) {
    refuse(DiagId::LowerMmaDtype, o.range, "'lm.mma'",
           fmt::format("mma.sync is lowered for A and B of one type among {}, with f32 accumulators (i32 for i8) "
                       "(here {} and {} into {})",
                       table_.dtypeNames(o.kind), dtypeInfo(a.dtype).name, dtypeInfo(b.dtype).name,
                       dtypeInfo(acc.dtype).name));
    return;
  }
  if ((a.dtype == DType::E4M3 || a.dtype == DType::E5M2) && ti_.sm < 89) {
    refuse(DiagId::LowerMmaDtype, o.range, "'lm.mma'",
           "mma.sync takes fp8 operands from sm_89 on (the hardware gate, turned off by -fno-gates, rejects them)");
    return;
  }
  std::string mmaName;
  switch (a.dtype) {
  case DType::BF16: mmaName = "cake_mma_m16n8k16_f32_bf16"; break;
  case DType::F16: mmaName = "cake_mma_m16n8k16_f32_f16"; break;
  case DType::E4M3: mmaName = "cake_mma_m16n8k32_f32_e4m3"; break;
  case DType::E5M2: mmaName = "cake_mma_m16n8k32_f32_e5m2"; break;
  case DType::I8: mmaName = "cake_mma_m16n8k32_s32_s8"; break;
  default: break;
  }
  CAKE_CHECK(!mmaName.empty(), "the mma.sync lowering's dtype column names a type it has no instruction for");
  if ((aInRegs || bMnMajor) && dtypeInfo(a.dtype).bits != 16) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           "mma.sync takes A from registers and an MN-major B (used without '.T') for 16-bit types only");
    return;
  }
  analysis::FragmentTiling t;
  if (!fragmentLayout(acc, *rc.role, o.range, t, true)) return;
  if (aInRegs && !registerTileA(a, *rc.role, o.range)) return;
  int64_t M = acc.shape[0], N = acc.shape[1], K = a.shape[1];
  int64_t esize = dtypeInfo(a.dtype).bits / 8, kElems = 32 / esize;
  // The hardware gate (hw.mma-shape) holds N to multiples of 16 and K to
  // whole k-steps, and sema operands to 2-D tiles; not under -fno-gates.
  if (t.form != analysis::FragmentForm::Tile || N % 16 != 0 || K % kElems != 0 || a.shape.size() != 2 ||
      b.shape.size() != 2) {
    refuse(DiagId::LowerMmaPlacement, o.range, "'lm.mma'",
           fmt::format("mma.sync tiles have N a multiple of 16 and K of {} (the hardware gate, turned off by "
                       "-fno-gates, rejects this shape)",
                       kElems));
    return;
  }
  for (const Resource *v : {&a, &b})
    if (v->kind == ResourceKind::View && v->swizzle != Swizzle::None &&
        (v->shape[1] * esize) % swizzleBytes(v->swizzle) != 0) {
      refuse(DiagId::LowerOperandView, o.range, fmt::format("the operand view '{}'", v->name),
             "a swizzled operand's rows must be one swizzle span or whole panels of it");
      return;
    }
  int64_t wgs = static_cast<int64_t>(rc.role->warps.size()) / 4;
  int64_t rowsPerWg = M / wgs, mBlocks = rowsPerWg / 64, kSteps = K / kElems;
  const Value &init = o.operand(param::Mma::init).value;
  std::string mma = w_.use(mmaName);
  std::string ld = aInRegs && bMnMajor ? "" : w_.use("cake_ldmatrix_x4");
  std::string ldB = bMnMajor ? w_.use("cake_ldmatrix_x4_trans") : ld;
  line(fmt::format("// {}x{}x{} per block: each warp 16 rows of {} m64 block(s) x {} columns, {} k{} step(s) of {} "
                   "mma.sync m16n8k{} and {} ldmatrix.x4{}{}",
                   M, N, K, mBlocks, N, kSteps, kElems, mBlocks * N / 8, kElems, (aInRegs ? 0 : mBlocks) + N / 16,
                   aInRegs ? ", A from registers" : "", bMnMajor ? ", B MN-major (.trans)" : ""));
  line("{");
  ++indent_;
  std::string accName = ident(acc.name);
  if (!init.boolIsConst || init.constBool) {
    std::string zero = fmt::format("for (int cake_i = 0; cake_i < {}; ++cake_i) {}[cake_i] = 0{};", t.perThread,
                                   accName, acc.dtype == DType::F32 ? ".f" : "");
    if (init.boolIsConst)
      line(zero + "  // init=True");
    else
      line(fmt::format("if ({}) {{ {} }}  // init", value(init, false), zero));
  }
  if (aInRegs)
    line(fmt::format("const uint32_t *cake_ar = reinterpret_cast<const uint32_t *>({});  // two 16-bit values each",
                     ident(a.name)));
  else
    line(fmt::format("const uint32_t cake_a = {};", viewStageAddr(aV)));
  line(fmt::format("const uint32_t cake_b = {};", viewStageAddr(bV)));
  if (!aInRegs) line(viewOffsetLambda("cake_a_off", a));
  line(viewOffsetLambda("cake_b_off", b));
  // ldmatrix.x4 row addresses: for A, lanes 0-15 rows 0-15 at k 0, lanes
  // 16-31 the same rows at k 8 (a0..a3 of mma.sync); for a K-major B, lanes
  // 8q..8q+7 rows (n) 8*(q/2).. at k 8*(q%2) (b0, b1 of two n8 tiles); for an
  // MN-major one (.trans), rows (k) 8*(q%2).. at n 8*(q/2).
  if (!aInRegs) {
    line(fmt::format("const uint32_t cake_arow = cake_wg * {}u + cake_wg_warp * 16u + cake_lane % 16u;", rowsPerWg));
    line("const uint32_t cake_akb = (cake_lane / 16u) * 16u;");
  }
  if (bMnMajor) {
    line("const uint32_t cake_brow = cake_lane % 8u + 8u * ((cake_lane / 8u) % 2u);");
    line("const uint32_t cake_bnb = (cake_lane / 16u) * 16u;");
  } else {
    line("const uint32_t cake_brow = cake_lane % 8u + 8u * (cake_lane / 16u);");
    line("const uint32_t cake_bkb = ((cake_lane / 8u) % 2u) * 16u;");
  }
  line("#pragma unroll");
  line(fmt::format("for (uint32_t cake_s = 0; cake_s < {}u; ++cake_s) {{", kSteps));
  ++indent_;
  line(fmt::format("uint32_t cake_af[{}][4];", mBlocks));
  for (int64_t mb = 0; mb < mBlocks; ++mb) {
    if (aInRegs) {
      for (int q = 0; q < 4; ++q)
        line(fmt::format("cake_af[{}][{}] = cake_ar[{}u + 4u * cake_s + {}u];", mb, q, mb * (K / 4), q));
    } else {
      line(fmt::format("{}(cake_af[{}], cake_a + cake_a_off(cake_arow + {}u, cake_s * {}u + cake_akb));", ld, mb,
                       mb * 64, 32));
    }
  }
  line("#pragma unroll");
  line(fmt::format("for (uint32_t cake_n = 0; cake_n < {}u; ++cake_n) {{", N / 16));
  ++indent_;
  line("uint32_t cake_bf[4];");
  if (bMnMajor)
    line(fmt::format("{}(cake_bf, cake_b + cake_b_off(cake_s * 16u + cake_brow, cake_n * 32u + cake_bnb));", ldB));
  else
    line(fmt::format("{}(cake_bf, cake_b + cake_b_off(cake_n * 16u + cake_brow, cake_s * {}u + cake_bkb));", ld, 32));
  for (int64_t mb = 0; mb < mBlocks; ++mb) {
    line(
        fmt::format("{}({} + {} + cake_n * 8u, cake_af[{}], cake_bf[0], cake_bf[1]);", mma, accName, mb * (N / 2), mb));
    line(fmt::format("{}({} + {} + cake_n * 8u + 4u, cake_af[{}], cake_bf[2], cake_bf[3]);", mma, accName, mb * (N / 2),
                     mb));
  }
  --indent_;
  line("}");
  --indent_;
  line("}");
  --indent_;
  line("}");
}

}  // namespace cake::codegen::detail
