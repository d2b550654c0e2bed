// Fragments.cpp - register fragments, written once against the fragment
// layout (analysis::fragmentTiling): their declarations, elementwise math,
// row reductions and tiles to and from global memory (shared-memory views:
// FragmentViews.cpp).
#include <fmt/format.h>

#include <cstring>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// ---------------------------------------------------------------------------
// register fragments and the tensor cores

// The wgmma accumulator layout: a role of W warpgroups holds an M x N tile,
// each warpgroup M / W rows in blocks of 64; within a block, warp w of the
// warpgroup holds rows 16w..16w+15 and thread `lane` element i of each
// 64 x N block at row 16w + lane/4 + 8*((i/2)%2), column 8*(i/4) + 2*(lane%4) + i%2.
bool KernelEmitter::fragmentLayout(const Resource &frag, const Resource &role, SourceRange at, int64_t &perThread) {
  analysis::WgmmaTiling t = analysis::accumulatorTiling(ti_.mma, frag.shape, role);
  if (frag.layout == FragmentLayout::Rows) {
    t.ok = false;
    t.problem = "it is in the rows layout, and this operation takes the accumulator layout";
  }
  if (!t.ok) {
    if (badLayouts_.insert(&frag).second)
      refuse(DiagId::LowerFragmentLayout, at,
             fmt::format("the register fragment '{}' ({})", frag.name, shapeText(frag.shape)),
             "fragments lower to the accumulator layout of the target's tensor-core path: " + t.problem);
    return false;
  }
  perThread = t.perThread;
  return true;
}

// Any fragment: a tile in the accumulator layout, or a row or column vector
// of one (analysis::fragmentTiling).
bool KernelEmitter::fragmentLayout(const Resource &frag, const Resource &role, SourceRange at,
                                   analysis::FragmentTiling &t, bool accumulator) {
  t = analysis::fragmentTiling(ti_.mma, frag, role);
  if (accumulator && t.rows) {
    t.ok = false;
    t.problem = "it is in the rows layout, and this operation takes the accumulator layout";
  }
  if (!t.ok && badLayouts_.insert(&frag).second)
    refuse(DiagId::LowerFragmentLayout, at,
           fmt::format("the register fragment '{}' ({})", frag.name, shapeText(frag.shape)),
           (frag.layout == FragmentLayout::Rows
                ? std::string("fragments in the rows layout are tiles, M x 1 row vectors or 1 x N column vectors "
                              "spread by rows over the role's warps: ")
                : std::string("fragments lower to the accumulator layout of the target's tensor-core path (a tile, an "
                              "M x 1 row vector or a 1 x N column vector of one): ")) +
               t.problem);
  return t.ok;
}

bool KernelEmitter::registerTileA(const Resource &a, const Resource &role, SourceRange at) {
  analysis::FragmentTiling t;
  if (!fragmentLayout(a, role, at, t, true)) return false;
  if (t.form == analysis::FragmentForm::Tile) return true;
  refuse(DiagId::LowerMmaPlacement, at, fmt::format("the register fragment '{}' as A", a.name),
         "A from registers is a tile in the accumulator layout, not a row or column vector");
  return false;
}

// Element `i` of a fragment of layout `dst`, read from the operand `v`: the
// same element of a fragment of the same form, the element's row of a row
// vector, its column of a column vector, or a number.
std::string KernelEmitter::fragmentElement(const Value &v, const Resource &role, const analysis::FragmentTiling &dst,
                                           const std::string &i) {
  if (v.kind != ValueKind::Resource) return value(v, false);
  const Resource &r = k_.resource(v.resource);
  analysis::FragmentTiling t = analysis::fragmentTiling(ti_.mma, r, role);
  // A 16-bit fragment (packed in pairs) is read element by element as f32.
  bool packed = r.dtype == DType::BF16 || r.dtype == DType::F16;
  std::string n = packed ? fmt::format("reinterpret_cast<const {} *>({})", dtypeInfo(r.dtype).cudaType, ident(r.name))
                         : ident(r.name);
  std::string element;
  if (dst.rows) {
    // By shape (a one-row tile held by all the role's warps has a column
    // vector's form): the same shape element by element; a 1 x 1 operand
    // one value; an M x 1 one holds the warp's rows, a 1 x N one a lane's
    // columns.
    bool rowVec = r.shape.size() == 2 && r.shape[1] == 1, dstRowVec = dst.form == analysis::FragmentForm::RowVector;
    if (rowVec == dstRowVec && t.perThread == dst.perThread)
      element = fmt::format("{}[{}]", n, i);
    else if (r.shape == std::vector<int64_t>{1, 1})  // one value for every element
      element = fmt::format("{}[0]", n);
    else if (rowVec)
      element = fmt::format("{}[({}) / {}]", n, i, dst.perRow);
    else
      element = fmt::format("{}[({}) % {}]", n, i, dst.perRow);
  } else if (t.form == analysis::FragmentForm::Scalar) {  // one value for every element
    element = fmt::format("{}[0]", n);
  } else if (t.form == dst.form) {
    element = fmt::format("{}[{}]", n, i);
  } else {
    CAKE_CHECK(dst.form == analysis::FragmentForm::Tile, "a vector operand broadcast into a vector");
    int64_t half = dst.cols / 2;  // elements of a thread per m64 block
    element = t.form == analysis::FragmentForm::RowVector
                  ? fmt::format("{}[({} / {}) * 2 + ({} / 2) % 2]", n, i, half, i)
                  : fmt::format("{}[(({} % {}) / 4) * 2 + {} % 2]", n, i, half, i);
  }
  if (isFp8(r.dtype)) {
    // fp8 pairs (uint16_t, the first element in the low byte) are read
    // through cvt.rn.f16x2.{e4m3x2,e5m2x2}: element i is half i % 2 of
    // pair i / 2 (the index is a constant once the loops unroll).
    std::string at = element.substr(ident(r.name).size());  // "[index]"
    return fmt::format("{}({}, {})", w_.use(r.dtype == DType::E4M3 ? "cake_e4m3_at" : "cake_e5m2_at"), ident(r.name),
                       at.substr(1, at.size() - 2));
  }
  if (!packed) return element;
  return fmt::format("{}({})", r.dtype == DType::BF16 ? "__bfloat162float" : "__half2float", element);
}

bool KernelEmitter::isFp8(DType d) { return d == DType::E4M3 || d == DType::E5M2; }

// A fragment's array: a declared one at the start of its role, a derived
// one where it is first written. 16-bit elements are packed in pairs.
void KernelEmitter::declareFragment(const Resource &frag, const analysis::FragmentTiling &t) {
  if (!declaredFragments_.insert(frag.id).second) return;
  bool packed = frag.dtype == DType::BF16 || frag.dtype == DType::F16 || isFp8(frag.dtype);
  std::string type = frag.dtype == DType::BF16  ? "__nv_bfloat162"
                     : frag.dtype == DType::F16 ? "__half2"
                     : isFp8(frag.dtype)        ? "uint16_t"
                                                : std::string(dtypeInfo(frag.dtype).cudaType);
  line(fmt::format("{} {}[{}];  // {}{} {}{}", type, ident(frag.name), packed ? t.perThread / 2 : t.perThread,
                   frag.derived ? "" : "'" + frag.name + "' ", shapeText(frag.shape), dtypeInfo(frag.dtype).name,
                   packed ? ", two per register" : ""));
  if (a8Fragments_.count(frag.id))
    line(fmt::format("uint32_t {}[{}];  // the same as wgmma's fp8 A fragment, four per register (each write "
                     "fills both)",
                     a8Var(frag), t.perThread / 4));
}

// The checks of every elementwise handler: the result and each fragment
// operand in a layout this role holds, operands f32 (or i32 where the op's
// formula makes i32 fragments), a 16-bit result only as a tile. Reports and
// returns false where the op does not lower.
bool KernelEmitter::elementwiseOperands(const Operation &o, RoleCtx &rc, analysis::FragmentTiling &dt) {
  const Resource &dst = k_.resource(o.result.resource);
  if (!fragmentLayout(dst, *rc.role, o.range, dt)) return false;
  const OpInfo &info = o.info();
  for (size_t p = 0; p < info.params.size(); ++p) {
    const Operand &x = o.operands[p];
    if (!x.present || x.value.kind != ValueKind::Resource || k_.resource(x.value.resource).kind != ResourceKind::Regs)
      continue;
    const Resource &src = k_.resource(x.value.resource);
    analysis::FragmentTiling st;
    if (!fragmentLayout(src, *rc.role, o.range, st)) return false;
    if (!table_.lowersDtype(o.kind, src.dtype)) {
      refuse(DiagId::LowerFragmentMath, o.range,
             fmt::format("'lm.{}' on the {} fragment '{}'", info.name, dtypeInfo(src.dtype).name, src.name),
             fmt::format("fragment math is lowered on {} fragments", table_.dtypeNames(o.kind)));
      return false;
    }
  }
  if (dst.dtype == DType::I32 && !table_.math[static_cast<size_t>(o.kind)].integer) {
    refuse(DiagId::LowerFragmentMath, o.range, fmt::format("'lm.{}' to an i32 fragment", info.name),
           "i32 fragments (masks, indices) are made by comparisons, lm.where, copies, fills, + - *");
    return false;
  }
  bool packed = dst.dtype == DType::BF16 || dst.dtype == DType::F16 || isFp8(dst.dtype);
  bool word = dst.dtype == DType::F32 || dst.dtype == DType::I32;
  if ((packed && dt.form != analysis::FragmentForm::Tile) || (!packed && !word)) {
    refuse(DiagId::LowerFragmentMath, o.range,
           fmt::format("'lm.{}' to a {} {} fragment", info.name, shapeText(dst.shape), dtypeInfo(dst.dtype).name),
           "fragment math yields f32; lm.cast converts tiles to bf16, f16, e4m3 or e5m2");
    return false;
  }
  // fp8 conversions are cvt's e4m3x2 / e5m2x2 forms (sm_89 and later).
  bool fp8 = isFp8(dst.dtype);
  for (const Operand &x : o.operands)
    fp8 |= x.present && x.value.kind == ValueKind::Resource &&
           k_.resource(x.value.resource).kind == ResourceKind::Regs && isFp8(k_.resource(x.value.resource).dtype);
  if (fp8 && ti_.sm < 89) {
    refuse(DiagId::LowerFragmentMath, o.range, fmt::format("'lm.{}' on fp8 fragments", info.name),
           "fp8 conversions (cvt e4m3x2 / e5m2x2) need sm_89 or later");
    return false;
  }
  return true;
}

// Elementwise fragment math: one unrolled loop over the elements each
// thread holds, each element the op's formula (LoweringTable::math) over
// the operands' elements, broadcast by fragmentElement; a 16-bit result
// converts pairs. nvcc keeps the arrays in registers and contracts
// multiplies and adds into FMAs.
void KernelEmitter::elementwise(const Operation &o, RoleCtx &rc) {
  analysis::FragmentTiling dt;
  if (!elementwiseOperands(o, rc, dt)) return;
  const Resource &dst = k_.resource(o.result.resource);
  const FragmentMath &math = table_.math[static_cast<size_t>(o.kind)];
  CAKE_CHECK(math.formula != nullptr, "no formula for 'lm." + std::string(o.info().name) + "' on " +
                                          std::string(ti_.name) + " (LoweringTable::math)");
  if (math.wrapper) w_.use(math.wrapper);
  auto element = [&](const std::string &i) {
    std::string x[3];
    for (size_t p = 0; p < 3 && p < o.operands.size(); ++p)  // the operands the formula names
      if (o.operands[p].present && std::strstr(math.formula, fmt::format("{{{}}}", p).c_str()))
        x[p] = fragmentElement(o.operands[p].value, *rc.role, dt, i);
    return fmt::format(fmt::runtime(math.formula), x[0], x[1], x[2]);
  };
  declareFragment(dst, dt);
  std::string d = ident(dst.name);
  line("#pragma unroll");
  if (dst.dtype == DType::BF16 || dst.dtype == DType::F16 || isFp8(dst.dtype)) {
    // Pairs converted together: round to nearest even; fp8 saturates to
    // the largest finite value (cvt .satfinite).
    std::string pack = dst.dtype == DType::BF16  ? std::string("__floats2bfloat162_rn")
                       : dst.dtype == DType::F16 ? std::string("__floats2half2_rn")
                                                 : w_.use(dst.dtype == DType::E4M3 ? "cake_e4m3x2" : "cake_e5m2x2");
    line(fmt::format("for (int cake_i = 0; cake_i < {}; cake_i += 2) {}[cake_i / 2] = {}({}, {});", dt.perThread, d,
                     pack, element("cake_i"), element("cake_i + 1")));
    if (a8Fragments_.count(dst.id)) {
      // wgmma's A registers of the new values, here rather than at the
      // wgmma (between a ping-pong's two wgmmas, in its turn). The wgmma
      // that read the old ones is done (safety.fragment-in-flight): pinned
      // after its wait, as the fragment itself is.
      int64_t K = dst.shape[1], kSteps = K / 32, mBlocks = dt.perThread / (K / 2);
      line(fmt::format("{}({});", w_.use("cake_fence_fragment"), a8Var(dst)));
      fp8ARegisters(d, a8Var(dst), mBlocks, kSteps);
    }
    return;
  }
  line(fmt::format("for (int cake_i = 0; cake_i < {}; ++cake_i) {}[cake_i] = {};", dt.perThread, d, element("cake_i")));
}

// The causal mask: each element whose column lies past its row (both
// offset by the operands) becomes `value` (-inf by default).
void KernelEmitter::tril(const Operation &o, RoleCtx &rc) {
  analysis::FragmentTiling dt;
  if (!elementwiseOperands(o, rc, dt)) return;
  const Resource &dst = k_.resource(o.result.resource);
  if (dt.form != analysis::FragmentForm::Tile || dt.rows) {
    refuse(DiagId::LowerFragmentMath, o.range, dt.rows ? "'lm.tril' in the rows layout" : "'lm.tril' on a vector",
           "the causal mask applies to tiles in the accumulator layout");
    return;
  }
  declareFragment(dst, dt);
  line("#pragma unroll");
  const Operand &fill = o.operand(param::Tril::value);
  int64_t half = dt.cols / 2;
  // The element's row and column in the tile: the accumulator layout, or
  // tcgen05's lanes layout (one row per thread, element i its column i).
  std::string row = dt.lanes
                        ? std::string("static_cast<int32_t>(32u * (cake_warp % 4u) + cake_lane)")
                        : fmt::format("static_cast<int32_t>(cake_wg * {}u + cake_wg_warp * 16u + cake_lane / 4u) + "
                                      "(cake_i / {}) * 64 + 8 * ((cake_i / 2) % 2)",
                                      dt.rowsPerWarpgroup, half);
  std::string col =
      dt.lanes
          ? std::string("cake_i")
          : fmt::format("static_cast<int32_t>(2u * (cake_lane % 4u)) + 8 * ((cake_i % {}) / 4) + cake_i % 2", half);
  std::string src = fragmentElement(o.operand(param::Tril::src).value, *rc.role, dt, "cake_i");
  std::string rhs = fmt::format("({}) + {} <= ({}) + {} ? {} : {}", value(o.operand(param::Tril::col).value, false),
                                col, value(o.operand(param::Tril::row).value, false), row, src,
                                fill.present ? value(fill.value, false) : std::string("-INFINITY"));
  line(fmt::format("for (int cake_i = 0; cake_i < {}; ++cake_i) {}[cake_i] = {};", dt.perThread, ident(dst.name), rhs));
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
  if (st.form != analysis::FragmentForm::Tile || !table_.lowersDtype(o.kind, src.dtype)) {
    refuse(DiagId::LowerFragmentMath, o.range, fmt::format("'lm.{}' of '{}'", o.info().name, src.name),
           fmt::format("row reductions take {} tiles", table_.dtypeNames(o.kind)));
    return;
  }
  const FragmentMath &math = table_.math[static_cast<size_t>(o.kind)];
  CAKE_CHECK(math.formula != nullptr, "no fold for 'lm." + std::string(o.info().name) + "' on " +
                                          std::string(ti_.name) + " (LoweringTable::math)");
  if (math.wrapper) w_.use(math.wrapper);
  auto fold = [&](const std::string &a, const std::string &b) { return fmt::format(fmt::runtime(math.formula), a, b); };
  int64_t half = st.cols / 2;
  std::string s = ident(src.name), d = ident(dst.name);
  declareFragment(dst, dt);
  if (st.rows) {
    // The rows layout: each lane folds its N / (32 P) elements of each of
    // its warp's rows in four partials, then the 32 lanes exchange theirs;
    // with P warps per row, lane 0 of each writes its part's value to the
    // scratch, the role meets, every thread folds the P parts of its rows,
    // and the role meets again before the scratch is reused.
    int64_t perRow = st.perRow, P = st.warpsPerRow;
    line(fmt::format("// {}: {} values per lane and row in 4 partials, then across the 32 lanes of the warp{}",
                     o.info().name, perRow, P > 1 ? fmt::format(", then across the row's {} warps", P) : ""));
    line("#pragma unroll");
    line(fmt::format("for (int cake_r = 0; cake_r < {}; ++cake_r) {{", st.rowsPerWarp));
    ++indent_;
    line(fmt::format("const int cake_b = cake_r * {};  // the row's first element", perRow));
    line("float cake_p[4];");
    line("#pragma unroll");
    line(fmt::format("for (int cake_q = 0; cake_q < 4; ++cake_q) cake_p[cake_q] = {};",
                     fragmentElement(o.operandAt(o.info().effects.reads[0]).value, *rc.role, st, "cake_b + cake_q")));
    line("#pragma unroll");
    line(fmt::format("for (int cake_j = 4; cake_j < {}; ++cake_j)", perRow));
    line(fmt::format("  cake_p[cake_j % 4] = {};",
                     fold("cake_p[cake_j % 4]", fragmentElement(o.operandAt(o.info().effects.reads[0]).value, *rc.role,
                                                                st, "cake_b + cake_j"))));
    line(fmt::format("float cake_v = {};", fold(fold("cake_p[0]", "cake_p[1]"), fold("cake_p[2]", "cake_p[3]"))));
    line("#pragma unroll");
    line("for (int cake_m = 16; cake_m >= 1; cake_m /= 2)");
    line(fmt::format("  cake_v = {};", fold("cake_v", "__shfl_xor_sync(0xffffffffu, cake_v, cake_m)")));
    line(fmt::format("{}[cake_r] = cake_v;", d));
    --indent_;
    line("}");
    if (P > 1) {
      auto at = k_.reduceScratchAt.find(src.role);
      CAKE_CHECK(at != k_.reduceScratchAt.end(),
                 "no shared-memory scratch for a row reduction across warps (Kernel::reduceScratchAt)");
      line("{");
      ++indent_;
      line(fmt::format("float *cake_red = reinterpret_cast<float *>(cake_smem_raw + {}u);  // [warp][row] of role '{}'",
                       k_.reduceScratch + at->second, rc.role->name));
      line("#pragma unroll");
      line(fmt::format("for (int cake_r = 0; cake_r < {}; ++cake_r)", st.rowsPerWarp));
      line(fmt::format("  if (cake_lane == 0) cake_red[(cake_rtid / 32u) * {}u + cake_r] = {}[cake_r];", st.rowsPerWarp,
                       d));
      line(fmt::format("{}({}, {});", w_.use("cake_named_barrier_sync"), rc.barrierId, rc.threads));
      line("#pragma unroll");
      line(fmt::format("for (int cake_r = 0; cake_r < {}; ++cake_r) {{", st.rowsPerWarp));
      ++indent_;
      line(fmt::format("const float *cake_parts = cake_red + ((cake_rtid / 32u) / {0}u) * {0}u * {1}u + cake_r;", P,
                       st.rowsPerWarp));
      line("float cake_v = cake_parts[0];");
      line("#pragma unroll");
      line(fmt::format("for (int cake_q = 1; cake_q < {}; ++cake_q)", P));
      line(fmt::format("  cake_v = {};", fold("cake_v", fmt::format("cake_parts[cake_q * {}]", st.rowsPerWarp))));
      line(fmt::format("{}[cake_r] = cake_v;", d));
      --indent_;
      line("}");
      line(fmt::format("{}({}, {});  // the scratch is free again", w_.use("cake_named_barrier_sync"), rc.barrierId,
                       rc.threads));
      --indent_;
      line("}");
    }
    return;
  }
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
  if (st.form != analysis::FragmentForm::Tile || st.rows || !table_.lowersDtype(o.kind, src.dtype)) {
    refuse(DiagId::LowerFragmentMath, o.range, fmt::format("'lm.rowargmin' of '{}'", src.name),
           fmt::format("row reductions take {} tiles", table_.dtypeNames(o.kind)));
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

// The rows layout's accesses of one lane: for each of its `rows` rows,
// `rowPtr` declares cake_g, the lane's first unit of the row (it may use
// cake_r); then perRow / 8 steps of 256 columns, `per` units of perUnit
// elements each, between cake_g and the fragment's cake_f.
void KernelEmitter::rowsLaneAccesses(int64_t rows, int64_t perRow, int64_t per, int64_t perUnit,
                                     const std::string &rowPtr, bool load) {
  line("#pragma unroll");
  line(fmt::format("for (int cake_r = 0; cake_r < {}; ++cake_r) {{", rows));
  ++indent_;
  line(rowPtr);
  line("#pragma unroll");
  line(fmt::format("for (int cake_j = 0; cake_j < {}; ++cake_j) {{", perRow / 8));
  ++indent_;
  for (int64_t h = 0; h < per; ++h) {
    std::string g = fmt::format("cake_g[cake_j * {} + {}]", 32 * per, h);
    std::string f = fmt::format("cake_f[(cake_r * {} + cake_j * 8) / {} + {}]", perRow, perUnit, h);
    line(load ? fmt::format("{} = {};", f, g) : fmt::format("{} = {};", g, f));
  }
  --indent_;
  line("}");
  --indent_;
  line("}");
}

// Whether an integer value is provably a multiple of `m`: a constant, or a
// normal form whose constant and coefficients all are.
bool KernelEmitter::multipleOf(const Value &v, int64_t m) const {
  if (v.constInt) return *v.constInt % m == 0;
  if (v.ix == kNoIntExpr) return false;
  const AffineForm &f = k_.ints.form(v.ix);
  if (f.constant % m != 0) return false;
  for (const auto &[atom, c] : f.terms)
    if (c % m != 0) return false;
  return true;
}

// A tile of a global tensor moved straight between it and a fragment in the
// rows layout (lm.load_tile, lm.store_tile): lane l of warp w moves the 8
// elements at columns 256 j + 8 l of each of the warp's rows, 16 bytes per
// access for 16-bit elements, two for 32-bit ones; a warp's lanes cover 256
// consecutive elements of a row per step. The launcher checks the tensor's
// type, that its rows are 16-byte aligned and that every tile lies inside
// it. Returns false, having reported why, where it does not lower.
bool KernelEmitter::globalTileAccess(const Operation &o, RoleCtx &rc, ResourceId tensor, const Value &coords,
                                     const Resource &frag, bool load) {
  const Resource &t = k_.resource(tensor);
  analysis::FragmentTiling ft;
  if (!fragmentLayout(frag, *rc.role, o.range, ft)) return false;
  int64_t esize = dtypeInfo(frag.dtype).bits / 8;
  std::string what = load                           ? fmt::format("a load of a tile of '{}'", t.name)
                     : frag.name.rfind('%', 0) == 0 ? fmt::format("a store of a computed fragment into '{}'", t.name)
                                                    : fmt::format("a store of '{}' into '{}'", frag.name, t.name);
  bool column = ft.form == analysis::FragmentForm::ColumnVector;  // one row, the same in every warp
  auto refused = [&](const char *why) {
    if (load)
      refuse(DiagId::LowerFragmentLoad, o.range, what, why);
    else
      refuse(DiagId::LowerFragmentStore, o.range, what, why);
    return false;
  };
  if (ft.form == analysis::FragmentForm::Scalar)
    return refused("a 1 x 1 fragment (one value in every thread) comes from a 1 x 1 view of shared memory "
                   "(view.load); tiles and vectors move between registers and global memory");
  // reset=True: each thread writes zero where it read, which is safe only
  // where no other thread reads the same element (a tile, not a vector).
  const Operand *resetOp = load && o.kind == OpKind::LoadTile ? &o.operand(param::LoadTile::reset) : nullptr;
  bool reset = resetOp && resetOp->present && resetOp->value.constBool;
  if (reset && (ft.rows || ft.lanes || ft.form != analysis::FragmentForm::Tile))
    return refused("reset=True reads and zeroes tiles in the wgmma and mma.sync accumulator layout, where each "
                   "element is one thread's (not vectors, the rows layout or tcgen05's lanes)");
  // first_rows=R: only the tile's first R rows move (a load gives the rest
  // zero); sema keeps R within the fragment's rows. A bound of all the rows
  // (or of a column vector's one) changes nothing.
  int64_t bound = o.rowBound().value_or(0);  // 0: every row
  if (!frag.shape.empty() && bound >= frag.shape[0]) bound = 0;
  if (bound > 0 && (ft.rows || ft.lanes))
    return refused("first_rows= bounds tiles and row vectors in the wgmma and mma.sync accumulator layout (not the "
                   "rows layout or tcgen05's lanes)");
  if (!ft.rows && ft.form == analysis::FragmentForm::Tile && !ft.lanes) {
    // The accumulator layout: a thread holds pairs of adjacent elements of a
    // row (wgmma's and mma.sync's C fragment), each pair one 8-byte access.
    if ((esize != 4 && esize != 2) || t.rank != 2 || coords.elts.size() != 2)
      return refused("tiles of 16- and 32-bit elements in the accumulator layout move between registers and a 2-d "
                     "tensor, a pair of elements per access");
    if (!multipleOf(coords.elts[0], 2))
      return refused("the first column of a tile in the accumulator layout is provably even (each thread moves "
                     "aligned pairs of elements), as a constant or a multiple of one");
    int64_t half = ft.cols / 2;
    // 32-bit elements: a float2 or int2 per pair; 16-bit ones: the pair's
    // one 32-bit word, as the fragment holds it.
    std::string pair = esize == 2 ? "uint32_t" : frag.dtype == DType::F32 ? "float2" : "int2";
    line(fmt::format("// the accumulator layout: {} elements per thread, a pair per {}-byte access", ft.perThread,
                     2 * esize));
    line("{");
    ++indent_;
    line(fmt::format("const int64_t cake_r0 = static_cast<int64_t>({}) + cake_wg * {} + cake_wg_warp * 16u + "
                     "cake_lane / 4u;",
                     value(coords.elts[1], false), ft.rowsPerWarpgroup));
    line(fmt::format("const int64_t cake_c0 = static_cast<int64_t>({}) + 2u * (cake_lane % 4u);",
                     value(coords.elts[0], false)));
    std::string f = ident(frag.name);
    if (bound > 0)
      line(fmt::format("const int64_t cake_lr0 = cake_wg * {} + cake_wg_warp * 16u + cake_lane / 4u;  // the tile's "
                       "row, less the pair's offset",
                       ft.rowsPerWarpgroup));
    line("#pragma unroll");
    line(fmt::format("for (int cake_i = 0; cake_i < {}; cake_i += 2) {{", ft.perThread));
    ++indent_;
    if (bound > 0) {
      std::string zero = !load        ? std::string()
                         : esize == 2 ? fmt::format("  reinterpret_cast<uint32_t *>({})[cake_i / 2] = 0u;", f)
                                      : fmt::format("  {0}[cake_i] = 0;  {0}[cake_i + 1] = 0;", f);
      line(fmt::format("if (cake_lr0 + (cake_i / {}) * 64 + 8 * ((cake_i / 2) % 2) >= {}) {{  // first_rows={}{}", half,
                       bound, bound, load ? ": zero" : ""));
      if (load) line(zero);
      line("  continue;");
      line("}");
    }
    line(fmt::format("const int64_t cake_row = cake_r0 + (cake_i / {}) * 64 + 8 * ((cake_i / 2) % 2);", half));
    line(fmt::format("const int64_t cake_col = cake_c0 + 8 * ((cake_i % {}) / 4);", half));
    line(fmt::format("{0} *cake_g = reinterpret_cast<{0} *>({1}.data + (cake_row * {1}.stride[0] + cake_col) * {2});",
                     pair, globalRef(t), esize));
    if (esize == 2)
      line(load ? fmt::format("reinterpret_cast<uint32_t *>({})[cake_i / 2] = *cake_g;", f)
                : fmt::format("*cake_g = reinterpret_cast<const uint32_t *>({})[cake_i / 2];", f));
    else if (load)
      line(fmt::format("const {} cake_v = *cake_g;  {}[cake_i] = cake_v.x;  {}[cake_i + 1] = cake_v.y;", pair, f, f));
    else
      line(fmt::format("*cake_g = {}{{{}[cake_i], {}[cake_i + 1]}};", pair, f, f));
    if (reset) line(fmt::format("*cake_g = {}{{}};  // reset=True: zero for the next launch", pair));
    --indent_;
    line("}");
    --indent_;
    line("}");
    return true;
  }
  if (!ft.rows && !ft.lanes && ft.form != analysis::FragmentForm::Tile) {
    // Vectors in the accumulator layout: a thread's rows (M x 1) or columns
    // (1 x N) of the accumulator, one element per access. The threads that
    // share a row (the four lanes of a quad) or a column (the same lane of
    // every warp and quad) hold the same value: each reads it, and one of
    // them writes it (the quad's first lane; warp 0's first quad).
    bool rows = ft.form == analysis::FragmentForm::RowVector;
    if ((esize != 4 && esize != 2) || t.rank != 2 || coords.elts.size() != 2)
      return refused("row (M x 1) and column (1 x N) vectors of 16- and 32-bit elements in the accumulator layout "
                     "move between registers and a 2-d tensor");
    std::string type(dtypeInfo(frag.dtype).cudaType), f = ident(frag.name);
    std::string elem = esize == 2 ? fmt::format("reinterpret_cast<{} *>({})", type, f) : f;
    line(rows ? fmt::format("// the accumulator layout, a row vector: this thread's {} rows", ft.perThread)
              : fmt::format("// the accumulator layout, a column vector: this thread's {} columns", ft.perThread));
    line("{");
    ++indent_;
    line(fmt::format("const int64_t cake_r0 = static_cast<int64_t>({});", value(coords.elts[1], false)));
    line(fmt::format("const int64_t cake_c0 = static_cast<int64_t>({});", value(coords.elts[0], false)));
    if (!load)
      line(rows ? "if (cake_lane % 4u == 0) {  // one writer per row: the first lane of its quad"
                : "if (cake_wg == 0 && cake_wg_warp == 0 && cake_lane < 4u) {  // one writer per column: warp 0's "
                  "first quad");
    if (!load) ++indent_;
    line("#pragma unroll");
    line(fmt::format("for (int cake_c = 0; cake_c < {}; ++cake_c) {{", ft.perThread));
    ++indent_;
    if (rows && bound > 0) {
      line(fmt::format("if (cake_wg * {} + (cake_c / 2) * 64 + cake_wg_warp * 16u + cake_lane / 4u + 8 * (cake_c % 2) "
                       ">= {}) {{  // first_rows={}{}",
                       ft.rowsPerWarpgroup, bound, bound, load ? ": zero" : ""));
      if (load) line(fmt::format("  {}[cake_c] = static_cast<{}>(0.0f);", elem, type));
      line("  continue;");
      line("}");
    }
    if (rows)
      line(fmt::format("const int64_t cake_row = cake_r0 + cake_wg * {} + (cake_c / 2) * 64 + cake_wg_warp * 16u + "
                       "cake_lane / 4u + 8 * (cake_c % 2), cake_col = cake_c0;",
                       ft.rowsPerWarpgroup));
    else
      line("const int64_t cake_row = cake_r0, cake_col = cake_c0 + 8 * (cake_c / 2) + 2 * (cake_lane % 4u) + "
           "cake_c % 2;");
    std::string g = fmt::format("*reinterpret_cast<{}{} *>({}.data + (cake_row * {}.stride[0] + cake_col) * {})",
                                load ? "const " : "", type, globalRef(t), globalRef(t), esize);
    line(load ? fmt::format("{}[cake_c] = {};", elem, g) : fmt::format("{} = {}[cake_c];", g, elem));
    --indent_;
    line("}");
    if (!load) {
      --indent_;
      line("}");
    }
    --indent_;
    line("}");
    return true;
  }
  if (!ft.rows || ft.form == analysis::FragmentForm::RowVector || (esize != 1 && esize != 2 && esize != 4) ||
      t.rank != 2 || coords.elts.size() != 2)
    return refused("tiles and column vectors of 8-, 16- or 32-bit elements in the rows layout move between "
                   "registers and a 2-d tensor");
  // Each lane moves 8 consecutive elements with one vector access: the
  // tile's first column must keep them aligned (a constant multiple of 8).
  if (!multipleOf(coords.elts[0], 8))
    return refused("the first column of a tile in the rows layout is provably a multiple of 8 (each lane moves 8 "
                   "aligned elements per access), as a constant or a multiple of one");
  int64_t perRow = ft.perRow, rows = column ? 1 : ft.rowsPerWarp, P = ft.warpsPerRow;
  line(fmt::format("// the rows layout: {}, {} elements per lane and row, 8 per access",
                   column ? std::string("one row in every warp") : fmt::format("{} row(s) per warp", rows), perRow));
  line("{");
  ++indent_;
  line(column ? fmt::format("const int64_t cake_r0 = static_cast<int64_t>({});", value(coords.elts[1], false))
              : fmt::format("const int64_t cake_r0 = static_cast<int64_t>({}) + (cake_rtid / 32u{}) * {};",
                            value(coords.elts[1], false), P > 1 ? fmt::format(" / {}u", P) : "", rows));
  line(fmt::format("const int64_t cake_c0 = static_cast<int64_t>({}) + {}8 * cake_lane;", value(coords.elts[0], false),
                   P > 1 ? fmt::format("((cake_rtid / 32u) % {}u) * {} + ", P, ft.cols / P) : ""));
  // The unit of access: 8 bytes for 8 fp8 elements, else 16 bytes (8 of
  // 16 bits; 4 of 32 bits, two per 8 elements).
  std::string unit = esize == 1 ? "uint2" : "uint4";
  int64_t per = esize == 4 ? 2 : 1, perUnit = esize == 1 ? 8 : 16 / esize;
  line(fmt::format("{0} *cake_f = reinterpret_cast<{0} *>({1});  // 8 elements: {2} access(es) of {3} bytes", unit,
                   ident(frag.name), per, esize == 1 ? 8 : 16));
  rowsLaneAccesses(rows, perRow, per, perUnit,
                   fmt::format("{2} *cake_g = reinterpret_cast<{2} *>({0}.data + ((cake_r0 + cake_r) * {0}.stride[0] + "
                               "cake_c0) * {1});",
                               globalRef(t), esize, unit),
                   load);
  --indent_;
  line("}");
  return true;
}

void KernelEmitter::loadTile(const Operation &o, RoleCtx &rc) {
  const Resource &dst = k_.resource(o.result.resource);
  analysis::FragmentTiling dt;
  if (!fragmentLayout(dst, *rc.role, o.range, dt)) return;
  declareFragment(dst, dt);
  globalTileAccess(o, rc, o.operand(param::LoadTile::tensor).value.resource, o.operand(param::LoadTile::coords).value,
                   dst, true);
}

void KernelEmitter::storeTile(const Operation &o, RoleCtx &rc) {
  globalTileAccess(o, rc, o.operand(param::StoreTile::tensor).value.resource, o.operand(param::StoreTile::coords).value,
                   k_.resource(o.operand(param::StoreTile::src).value.resource), false);
}

}  // namespace cake::codegen::detail
