// CpAsync.cpp - copies between global tensors (LM.tensorNd: a pointer with
// strides) and shared-memory views by every thread of a role, 16 bytes per
// thread and chunk: cp.async in (completing on an mbarrier, one arrival per
// thread), ld.shared + st.global out. Every NVIDIA target has them.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// A tile of `view` (one stage) moved in 16-byte chunks: the loop over the
// chunks each thread of the role takes, and for chunk cake_i the byte
// offset in the view (cake_soff, with the view's panels and swizzle) and the
// element offset in the tensor (cake_goff, from the coordinates, innermost
// first, and the tensor's strides). Returns false, having reported why, for
// tiles that do not split into 16-byte chunks.
bool KernelEmitter::openChunkLoop(const Operation &o, RoleCtx &rc, ResourceId tensor, const Value &coords) {
  const Resource &view = k_.resource(o.receiver), &t = k_.resource(tensor);
  int64_t esize = dtypeInfo(view.dtype).bits / 8;
  int64_t rowBytes = analysis::viewRowBytes(view);
  int64_t span = swizzleBytes(view.swizzle);
  Panels pn = panels(view);
  if (esize == 0 || rowBytes % 16 != 0 || (span != 0 && rowBytes % span != 0)) {
    refuse(DiagId::LowerCopyView, o.range,
           fmt::format("a copy of the view '{}' ({})", view.name, shapeText(view.shape)),
           "copies move 16-byte chunks: a row must be a multiple of 16 bytes, and of the swizzle span when "
           "swizzled");
    return false;
  }
  if (view.shape.size() > t.rank || coords.elts.size() != t.rank) {
    refuse(DiagId::LowerCopyView, o.range, fmt::format("a copy of the view '{}'", view.name),
           fmt::format("the tensor '{}' has rank {}: the copy needs {} coordinates and a view of at most that "
                       "rank",
                       t.name, t.rank, t.rank));
    return false;
  }
  int64_t chunksPerRow = rowBytes / 16;
  int64_t rows = product(view.shape) / view.shape.back();
  int64_t chunks = rows * chunksPerRow;
  line(fmt::format("// {} chunks of 16 B ({} per row), {} per thread of the role", chunks, chunksPerRow,
                   (chunks + rc.threads - 1) / rc.threads));
  std::string rowOffset;  // element offset of the tile's first element, from the coordinates
  int64_t rank = static_cast<int64_t>(t.rank);
  for (int64_t d = 0; d < rank; ++d) {
    // coords[0] is the innermost dimension; the tensor's strides are
    // outermost first, stride[rank - 1] = 1.
    std::string c = fmt::format("static_cast<int64_t>({})", value(coords.elts[static_cast<size_t>(d)], false));
    rowOffset += (d ? " + " : "") + (d == 0 ? c : fmt::format("{} * {}.stride[{}]", c, globalRef(t), rank - 1 - d));
  }
  line(fmt::format("const int64_t cake_g0 = {};", rowOffset));
  line(fmt::format("const uint32_t cake_s0 = {};", viewAddr(o.receiver, analysis::stageOperand(o).expr)));
  // A constant trip count when the chunks split evenly: the loop unrolls and
  // every offset but the coordinates' is computed once, outside the k loop.
  line("#pragma unroll");
  if (chunks % rc.threads == 0) {
    line(fmt::format("for (uint32_t cake_j = 0; cake_j < {}u; ++cake_j) {{", chunks / rc.threads));
    ++indent_;
    line(fmt::format("const uint32_t cake_i = cake_rtid + cake_j * {}u;", rc.threads));
  } else {
    line(fmt::format("for (uint32_t cake_i = cake_rtid; cake_i < {}u; cake_i += {}u) {{", chunks, rc.threads));
    ++indent_;
  }
  line(fmt::format("const uint32_t cake_row = cake_i / {}u, cake_byte = (cake_i % {}u) * 16u;", chunksPerRow,
                   chunksPerRow));
  // The view's rows are its outer dimensions flattened; in the tensor, row
  // r of a view of rank v steps through dimensions rank-2 .. rank-v.
  std::string gRow = "static_cast<int64_t>(cake_row)";
  if (view.shape.size() > 2) {
    gRow.clear();
    int64_t inner = 1;
    for (int64_t d = static_cast<int64_t>(view.shape.size()) - 2; d >= 0; --d) {
      int64_t tdim = rank - static_cast<int64_t>(view.shape.size()) + d;
      gRow += fmt::format("{}static_cast<int64_t>((cake_row / {}u) % {}u) * {}.stride[{}]", gRow.empty() ? "" : " + ",
                          inner, view.shape[static_cast<size_t>(d)], globalRef(t), tdim);
      inner *= view.shape[static_cast<size_t>(d)];
    }
    line(fmt::format("const int64_t cake_goff = cake_g0 + {} + cake_byte / {}u;", gRow, esize));
  } else if (rank >= 2) {
    line(fmt::format("const int64_t cake_goff = cake_g0 + {} * {}.stride[{}] + cake_byte / {}u;", gRow, globalRef(t),
                     rank - 2, esize));
  } else {
    line(fmt::format("const int64_t cake_goff = cake_g0 + cake_byte / {}u;", esize));
  }
  if (pn.count > 1)
    line(fmt::format("uint32_t cake_soff = (cake_byte / {0}u) * {1}u + cake_row * {0}u + cake_byte % {0}u;"
                     "  // panel, row, byte",
                     pn.rowPitch, pn.bytes));
  else
    line(fmt::format("uint32_t cake_soff = cake_row * {}u + cake_byte;", rowBytes));
  if (view.swizzle != Swizzle::None)
    line(fmt::format("cake_soff ^= ((cake_soff >> 7) & {}u) << 4;  // the view's {} swizzle", span / 16 - 1,
                     swizzleName(view.swizzle)));
  return true;
}

void KernelEmitter::closeChunkLoop() {
  --indent_;
  line("}");
}

// lm.cp_async: each thread copies its chunks, then arrives on the barrier
// once they land (cp.async.mbarrier.arrive.noinc).
void KernelEmitter::cpAsync(const Operation &o, RoleCtx &rc) {
  ResourceId tensor = o.operand(param::CpAsync::tensor).value.resource;
  ResourceId bar = o.operand(param::CpAsync::barrier).value.resource;
  const Resource &t = k_.resource(tensor);
  line("{");
  ++indent_;
  if (openChunkLoop(o, rc, tensor, o.operand(param::CpAsync::coords).value)) {
    line(fmt::format("{}(cake_s0 + cake_soff, {}.data + cake_goff * {});", w_.use("cake_cp_async_16"), globalRef(t),
                     dtypeInfo(k_.resource(o.receiver).dtype).bits / 8));
    closeChunkLoop();
    line(fmt::format("{}({});  // one arrival per thread, once its chunks land", w_.use("cake_cp_async_mbar_arrive"),
                     barrierAddr(bar, stageText(o))));
    if (std::string count = countArrival(bar, stageText(o)); !count.empty())
      line(count + "  // -fcheck-waits: count the arrival");
  }
  --indent_;
  line("}");
}

// lm.copy_to: each thread reads its chunks of the view and stores them.
void KernelEmitter::copyTo(const Operation &o, RoleCtx &rc) {
  ResourceId tensor = o.operand(param::CopyTo::tensor).value.resource;
  const Resource &t = k_.resource(tensor);
  line("{");
  ++indent_;
  if (openChunkLoop(o, rc, tensor, o.operand(param::CopyTo::coords).value)) {
    line(fmt::format("*reinterpret_cast<uint4 *>({}.data + cake_goff * {}) = {}(cake_s0 + cake_soff);", globalRef(t),
                     dtypeInfo(k_.resource(o.receiver).dtype).bits / 8, w_.use("cake_ld_shared_v4")));
    closeChunkLoop();
  }
  --indent_;
  line("}");
}

}  // namespace cake::codegen::detail
