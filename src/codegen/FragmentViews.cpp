// FragmentViews.cpp - register fragments and shared-memory views: a
// fragment stored into a view (in place, by columns, transposed, or a row
// vector) and a view loaded into a fragment, in the layouts of
// analysis::fragmentTiling (see Fragments.cpp for the accumulator layout).
#include <fmt/format.h>

#include <cstring>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// Whether the rows of a view are whole for its swizzle: unswizzled, or each
// row one swizzle span or whole panels of it (elementOffset's addressing).
bool KernelEmitter::swizzledRowsFit(const Resource &view) {
  return view.swizzle == Swizzle::None || analysis::viewRowBytes(view) % swizzleBytes(view.swizzle) == 0;
}

// `uint32_t cake_off`: the byte offset in a stage of `view` of the element
// at (row, col), through its panels and swizzle.
void KernelEmitter::elementOffset(const Resource &view, const std::string &row, const std::string &col) {
  int64_t esize = dtypeInfo(view.dtype).bits / 8;
  Panels pn = panels(view);
  if (pn.count > 1)
    line(fmt::format("uint32_t cake_off = ({3} * {0}u / {1}u) * {2}u + {4} * {1}u + ({3} * {0}u) % {1}u;"
                     "  // panel, row, byte",
                     esize, pn.rowPitch, pn.bytes, col, row));
  else
    line(fmt::format("uint32_t cake_off = ({} * {}u + {}) * {}u;", row, view.shape.back(), col, esize));
  if (view.swizzle != Swizzle::None)
    line(fmt::format("cake_off ^= ((cake_off >> 7) & {}u) << 4;  // the view's {} swizzle",
                     swizzleBytes(view.swizzle) / 16 - 1, swizzleName(view.swizzle)));
}

// The loop over the pairs of elements a thread holds in the wgmma
// accumulator layout (a pair: two columns of one row), inside a block that
// names the view's stage (`cake_base`) and the pair's row (`cake_row`);
// the caller closes both.
void KernelEmitter::openAccumulatorStores(const Operation &o, int64_t perThread, int64_t rowsPerWg, int64_t N) {
  line("{");
  ++indent_;
  line(fmt::format("const uint32_t cake_base = {};", viewAddr(o.receiver, analysis::stageOperand(o).expr)));
  line(fmt::format("const uint32_t cake_row0 = cake_wg * {}u + cake_wg_warp * 16u + cake_lane / 4u;", rowsPerWg));
  line("const uint32_t cake_col0 = 2u * (cake_lane % 4u);");
  line("#pragma unroll");
  line(fmt::format("for (int cake_i = 0; cake_i < {}; cake_i += 2) {{", perThread));
  ++indent_;
  line(fmt::format("const uint32_t cake_row = cake_row0 + (cake_i / {}) * 64u + 8u * ((cake_i / 2) % 2);", N / 2));
}

void KernelEmitter::storeFragment(const Operation &o, RoleCtx &rc) {
  const Resource &src = k_.resource(o.operand(param::Store::src).value.resource);
  const Resource &view = k_.resource(o.receiver);
  analysis::FragmentTiling ft;
  if (!fragmentLayout(src, *rc.role, o.range, ft)) return;
  if (ft.rows) {
    refuse(DiagId::LowerFragmentStore, o.range, fmt::format("a store of '{}' into '{}'", src.name, view.name),
           "fragments in the rows layout are stored to global memory (lm.store_tile), not to shared memory");
    return;
  }
  if (o.transposedStore() && ft.lanes) {
    refuse(DiagId::LowerFragmentStore, o.range,
           fmt::format("a transposed store of '{}' into '{}'", src.name, view.name),
           "tiles in the tcgen05 lanes layout are stored as they are, one row per thread");
    return;
  }
  if (ft.form == analysis::FragmentForm::Scalar) {
    refuse(DiagId::LowerFragmentStore, o.range, fmt::format("a store of '{}' into '{}'", src.name, view.name),
           "a 1 x 1 fragment (one value in every thread) is loaded from shared memory, not stored");
    return;
  }
  if (ft.form == analysis::FragmentForm::RowVector) {
    storeRowVector(o, rc, ft);
    return;
  }
  if (ft.lanes) {
    storeLanes(o);
    return;
  }
  int64_t perThread = 0;
  if (!fragmentLayout(src, *rc.role, o.range, perThread)) return;
  int64_t esize = dtypeInfo(view.dtype).bits / 8;
  if (!swizzledRowsFit(view)) {
    refuse(DiagId::LowerFragmentStore, o.range, fmt::format("a store into the swizzled view '{}'", view.name),
           "a swizzled destination's rows must be one swizzle span or whole panels of it");
    return;
  }
  if (src.dtype != view.dtype || !table_.lowersDtype(o.kind, src.dtype)) {
    refuse(DiagId::LowerFragmentStore, o.range, fmt::format("a store of '{}' into '{}'", src.name, view.name),
           fmt::format("fragments of {} are stored into views of their own dtype", table_.dtypeNames(o.kind)));
    return;
  }
  int64_t N = src.shape[1], wgs = static_cast<int64_t>(rc.role->warps.size()) / 4;
  int64_t rowsPerWg = src.shape[0] / wgs;
  // 16-bit and fp8 fragments hold their elements in pairs (a __nv_bfloat162,
  // __half2 or uint16_t each): one store of 4 or 2 bytes a pair.
  bool pairs = esize == 2 || isFp8(view.dtype);
  if (o.transposedStore()) {
    storeTransposed(o, perThread, rowsPerWg, N);
    return;
  }
  // col=c: the tile's columns c .. c + W - 1 into a view W wide (the data
  // gate proved both multiples of 8 and within the tile). A thread holds its
  // columns in groups of 8, element i in group (i % (N / 2)) / 4; the groups
  // outside the part are skipped, at compile time once the loop is unrolled.
  std::optional<int64_t> first = o.firstColumn();
  bool part = first.has_value();
  int64_t col = first.value_or(0), width = view.shape.back();
  line(fmt::format("// the wgmma accumulator layout: {} elements per thread, two per store{}", perThread,
                   part ? fmt::format("; columns {} to {} of '{}'", col, col + width - 1, src.name) : ""));
  openAccumulatorStores(o, perThread, rowsPerWg, N);
  if (part) {
    if (col == 0)
      line(fmt::format("if ((cake_i % {}) / 4 >= {}) continue;", N / 2, width / 8));
    else
      line(fmt::format("if ((cake_i % {0}) / 4 < {1} || (cake_i % {0}) / 4 >= {2}) continue;", N / 2, col / 8,
                       (col + width) / 8));
    line(fmt::format("const uint32_t cake_col = cake_col0 + 8u * ((cake_i % {}) / 4){};", N / 2,
                     col == 0 ? "" : fmt::format(" - {}u", col)));
  } else {
    line(fmt::format("const uint32_t cake_col = cake_col0 + 8u * ((cake_i % {}) / 4);", N / 2));
  }
  elementOffset(view, "cake_row", "cake_col");
  std::string s = ident(src.name);
  if (pairs && isFp8(view.dtype))
    line(fmt::format(
        "*reinterpret_cast<uint16_t *>(cake_smem_raw + (cake_base - cake_smem) + cake_off) = {}[cake_i / 2];", s));
  else if (pairs)
    line(fmt::format("*reinterpret_cast<{}2 *>(cake_smem_raw + (cake_base - cake_smem) + cake_off) = {}[cake_i / 2];",
                     dtypeInfo(view.dtype).cudaType == "__half" ? "__half" : "__nv_bfloat16", s));
  else
    line(fmt::format(
        "*reinterpret_cast<{0}2 *>(cake_smem_raw + (cake_base - cake_smem) + cake_off) = make_{0}2({1}[cake_i], "
        "{1}[cake_i + 1]);",
        view.dtype == DType::F32   ? "float"
        : view.dtype == DType::I32 ? "int"
                                   : "uint",
        s));
  --indent_;
  line("}");
  --indent_;
  line("}");
}

// transpose=True: element (r, c) of the tile goes to (c, r) of the view
// (the data gate checked the shapes), one element per store: the pair a
// thread holds in a row lies in two rows of the view.
void KernelEmitter::storeTransposed(const Operation &o, int64_t perThread, int64_t rowsPerWg, int64_t N) {
  const Resource &src = k_.resource(o.operand(param::Store::src).value.resource);
  const Resource &view = k_.resource(o.receiver);
  std::string_view type = dtypeInfo(view.dtype).cudaType;
  std::string s = ident(src.name);
  line(fmt::format("// the wgmma accumulator layout, transposed: {} elements per thread, each (r, c) stored at (c, r)",
                   perThread));
  openAccumulatorStores(o, perThread, rowsPerWg, N);
  line(fmt::format("const uint32_t cake_col = cake_col0 + 8u * ((cake_i % {}) / 4);", N / 2));
  for (int e = 0; e < 2; ++e) {
    line("{");
    ++indent_;
    elementOffset(view, e == 0 ? "cake_col" : "(cake_col + 1u)", "cake_row");
    // an fp8 pair: the first element in the low byte
    std::string value = isFp8(view.dtype) ? fmt::format("static_cast<uint8_t>({}[cake_i / 2] >> {})", s, 8 * e)
                        : dtypeInfo(view.dtype).bits == 16 ? fmt::format("{}[cake_i / 2].{}", s, e == 0 ? "x" : "y")
                                                           : fmt::format("{}[cake_i + {}]", s, e);
    line(fmt::format("*reinterpret_cast<{} *>(cake_smem_raw + (cake_base - cake_smem) + cake_off) = {};",
                     isFp8(view.dtype) ? "uint8_t" : type, value));
    --indent_;
    line("}");
  }
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
    refuse(DiagId::LowerFragmentStore, o.range,
           fmt::format("a store of the row vector '{}' into '{}'", src.name, view.name),
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

// A view's tile loaded in the rows layout (view.load(layout="rows")), as
// lm.load_tile reads a global one: lane l of warp w reads the 8 elements at
// columns 256 j + 8 l of each of the warp's rows (with P warps per row, of
// its part of the row), 16 bytes per access (two for 32-bit elements), so a
// warp's lanes read 512 consecutive bytes: four conflict-free wavefronts.
// The view is unswizzled and row-major.
void KernelEmitter::loadRowsFragment(const Operation &o, const Resource &view, const Resource &dst,
                                     const analysis::FragmentTiling &dt) {
  int64_t esize = dtypeInfo(view.dtype).bits / 8;
  if (!table_.lowersDtype(o.kind, view.dtype) || view.swizzle != Swizzle::None || view.shape.size() != 2 ||
      dt.form == analysis::FragmentForm::RowVector) {
    refuse(DiagId::LowerFragmentLoad, o.range, fmt::format("a load of '{}'", view.name),
           fmt::format("in the rows layout, unswizzled views of {} are loaded as tiles (a 1 x N view as one row of "
                       "every warp), not as M x 1 row vectors",
                       dtypeSetNames(table_.dtypes[static_cast<size_t>(o.kind)] &
                                     ~(dtypeBit(DType::E4M3) | dtypeBit(DType::E5M2)))));
    return;
  }
  declareFragment(dst, dt);
  bool column = dt.form == analysis::FragmentForm::ColumnVector;  // one row, the same in every warp
  int64_t perRow = dt.perRow, rows = column ? 1 : dt.rowsPerWarp, P = dt.warpsPerRow, width = view.shape[1];
  int64_t per = esize == 4 ? 2 : 1, perUnit = 16 / esize;
  line(fmt::format("// the rows layout from shared memory: {}, {} elements per lane and row, 8 per access",
                   column ? std::string("one row in every warp") : fmt::format("{} row(s) per warp", rows), perRow));
  line("{");
  ++indent_;
  line(fmt::format("const uint32_t cake_base = {};", viewAddr(o.receiver, analysis::stageOperand(o).expr)));
  line(column ? std::string("const uint32_t cake_r0 = 0u;")
              : fmt::format("const uint32_t cake_r0 = (cake_rtid / 32u{}) * {}u;",
                            P > 1 ? fmt::format(" / {}u", P) : "", rows));
  line(fmt::format("const uint32_t cake_c0 = {}8u * cake_lane;",
                   P > 1 ? fmt::format("((cake_rtid / 32u) % {}u) * {}u + ", P, width / P) : ""));
  line(fmt::format("uint4 *cake_f = reinterpret_cast<uint4 *>({});  // 8 elements: {} access(es) of 16 bytes",
                   ident(dst.name), per));
  rowsLaneAccesses(rows, perRow, per, perUnit,
                   fmt::format("const uint4 *cake_g = reinterpret_cast<const uint4 *>(cake_smem_raw + (cake_base - "
                               "cake_smem) + ((cake_r0 + cake_r) * {}u + cake_c0) * {}u);",
                               width, esize),
                   true);
  --indent_;
  line("}");
}

// A view loaded into registers, in the layout of the fragment it becomes
// (the view's shape and dtype): a tile in the accumulator layout or the
// lanes layout, an M x 1 row vector from M consecutive elements, a 1 x N
// column vector (each thread reading the columns its accumulator elements
// sit in), a 1 x 1 fragment from the view's first element (shape=(1, 1)),
// or the rows layout (loadRowsFragment). 16-bit fragments are packed in
// pairs as declareFragment lays them out; a tile through the view's panels
// and swizzle (elementOffset).
void KernelEmitter::loadFragment(const Operation &o, RoleCtx &rc) {
  const Resource &view = k_.resource(o.receiver), &dst = k_.resource(o.result.resource);
  analysis::FragmentTiling dt;
  if (!fragmentLayout(dst, *rc.role, o.range, dt)) return;
  int64_t esize = dtypeInfo(view.dtype).bits / 8;
  bool tile = dt.form == analysis::FragmentForm::Tile;
  if (isFp8(view.dtype) && (!tile || dt.lanes || dt.rows)) {
    refuse(DiagId::LowerFragmentLoad, o.range, fmt::format("a load of the fp8 view '{}'", view.name),
           "fp8 views are loaded as tiles in the wgmma accumulator layout (two elements per load), not as vectors, "
           "1 x 1 values, the rows layout or the tcgen05 lanes layout");
    return;
  }
  if (dt.rows) {
    loadRowsFragment(o, view, dst, dt);
    return;
  }
  bool scalar = dt.form == analysis::FragmentForm::Scalar;
  if (!table_.lowersDtype(o.kind, view.dtype) || (!tile && view.swizzle != Swizzle::None) ||
      (tile && !swizzledRowsFit(view)) || (dt.lanes && (dt.cols * esize) % 16 != 0) || (scalar && esize != 4)) {
    refuse(DiagId::LowerFragmentLoad, o.range, fmt::format("a load of '{}'", view.name),
           fmt::format("views of {} are loaded: tiles (a swizzled one's rows one swizzle span or whole panels of it), "
                       "unswizzled M x 1 and 1 x N vectors, 1 x 1 views of 32-bit elements (fp8 ones only as tiles)",
                       table_.dtypeNames(o.kind)));
    return;
  }
  declareFragment(dst, dt);
  std::string d = ident(dst.name), type(dtypeInfo(view.dtype).cudaType);
  bool packed = esize == 2, fp8 = isFp8(view.dtype);
  // Element `i` of the destination, written through its element type.
  std::string elem = packed ? fmt::format("reinterpret_cast<{} *>({})", type, d) : d;
  std::string base = viewAddr(o.receiver, analysis::stageOperand(o).expr);
  if (scalar) {
    line(fmt::format("// one value, every thread's: {}[0]", d));
    line(fmt::format("{}[0] = *reinterpret_cast<const {} *>(cake_smem_raw + ({} - cake_smem));", d, type, base));
    return;
  }
  if (!tile) {
    bool rows = dt.form == analysis::FragmentForm::RowVector;
    line(rows ? fmt::format("// row vector: this thread's {} rows", dt.perThread)
              : fmt::format("// column vector: this thread's {} columns", dt.perThread));
    line("{");
    ++indent_;
    line(fmt::format("const {0} *cake_src = reinterpret_cast<const {0} *>(cake_smem_raw + ({1} - cake_smem));", type,
                     base));
    line("#pragma unroll");
    line(fmt::format("for (int cake_c = 0; cake_c < {}; ++cake_c)", dt.perThread));
    if (rows)
      line(fmt::format("  {}[cake_c] = cake_src[cake_wg * {}u + (cake_c / 2) * 64u + cake_wg_warp * 16u + cake_lane / "
                       "4u + 8u * (cake_c % 2)];",
                       elem, dt.rowsPerWarpgroup));
    else
      line(fmt::format("  {}[cake_c] = cake_src[8 * (cake_c / 2) + 2 * static_cast<int>(cake_lane % 4u) + cake_c % 2];",
                       elem));
    --indent_;
    line("}");
    return;
  }
  line("{");
  ++indent_;
  line(fmt::format("const uint32_t cake_base = {};", base));
  if (dt.lanes) {
    // One row per thread, element i its column i, 16 bytes per load.
    int64_t perChunk = 16 / esize;
    line(fmt::format("// the lanes layout: row 32 * (warp % 4) + lane, {} elements, 16 bytes per load", dt.cols));
    line("const uint32_t cake_row = 32u * (cake_warp % 4u) + cake_lane;");
    line(fmt::format("uint32_t *cake_dst = reinterpret_cast<uint32_t *>({});", d));
    line("#pragma unroll");
    line(fmt::format("for (int cake_c = 0; cake_c < {}; cake_c += {}) {{", dt.cols, perChunk));
    ++indent_;
    elementOffset(view, "cake_row", "cake_c");
    line(fmt::format("const uint4 cake_v = {}(cake_base + cake_off);", w_.use("cake_ld_shared_v4")));
    line(fmt::format("cake_dst[cake_c * {0} / 4] = cake_v.x; cake_dst[cake_c * {0} / 4 + 1] = cake_v.y;", esize));
    line(fmt::format("cake_dst[cake_c * {0} / 4 + 2] = cake_v.z; cake_dst[cake_c * {0} / 4 + 3] = cake_v.w;", esize));
    --indent_;
    line("}");
  } else {
    int64_t half = dt.cols / 2;
    line(fmt::format("// the wgmma accumulator layout: {} elements per thread, two per load", dt.perThread));
    line(fmt::format("const uint32_t cake_row0 = cake_wg * {}u + cake_wg_warp * 16u + cake_lane / 4u;",
                     dt.rowsPerWarpgroup));
    line("const uint32_t cake_col0 = 2u * (cake_lane % 4u);");
    line("#pragma unroll");
    line(fmt::format("for (int cake_i = 0; cake_i < {}; cake_i += 2) {{", dt.perThread));
    ++indent_;
    line(fmt::format("const uint32_t cake_row = cake_row0 + (cake_i / {}) * 64u + 8u * ((cake_i / 2) % 2);", half));
    line(fmt::format("const uint32_t cake_col = cake_col0 + 8u * ((cake_i % {}) / 4);", half));
    elementOffset(view, "cake_row", "cake_col");
    std::string at = "cake_smem_raw + (cake_base - cake_smem) + cake_off";
    if (fp8) {  // a pair of bytes, the first element in the low byte (declareFragment's uint16_t)
      line(fmt::format("{}[cake_i / 2] = *reinterpret_cast<const uint16_t *>({});", d, at));
    } else if (packed) {
      line(fmt::format("{}[cake_i / 2] = *reinterpret_cast<const {}2 *>({});", d,
                       view.dtype == DType::BF16 ? "__nv_bfloat16" : "__half", at));
    } else {
      std::string pair = view.dtype == DType::F32 ? "float2" : "int2";
      line(fmt::format("const {0} cake_v = *reinterpret_cast<const {0} *>({1});", pair, at));
      line(fmt::format("{0}[cake_i] = cake_v.x; {0}[cake_i + 1] = cake_v.y;", d));
    }
    --indent_;
    line("}");
  }
  --indent_;
  line("}");
}

}  // namespace cake::codegen::detail
