// DataConsistency: what one side writes is what the other side reads.
//
//  - views stay inside their pool and do not overlap (unless alias=True);
//    aliases over the same bytes agree on the swizzle when one writes and
//    the other reads;
//  - TMEM regions stay apart and hold their shape;
//  - a TMA copy's coordinates match its tensor's rank, and its box (the
//    view) fits in that rank;
//  - MMA operand and accumulator shapes agree (M, N, K, with transposes),
//    and so do the operands' dtypes;
//  - stores and TMEM loads copy a fragment of the destination's shape and
//    dtype;
//  - every copy of a tensor uses the same box, dtype, swizzle and multicast
//    (the launcher builds one tensor map per tensor).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "passes/Passes.h"
#include "sema/ConstEval.h"
#include "analysis/ScheduleModel.h"

namespace cake::passes {

using namespace sema;
using namespace analysis;

namespace {

// The first leaf of a coordinate whose value differs between the blocks of a
// cluster (lm.block_id along a clustered dimension, lm.cluster_rank), or
// kNoIntExpr; names bound to run-time values carry their expression.
IntExprId clusterVarying(const Kernel &k, const Value &coord) {
  if (coord.kind != ValueKind::Int || coord.ix == kNoIntExpr) return kNoIntExpr;
  return k.ints.findLeaf(coord.ix, [&](const IntNode &n) {
    if (n.op == IntOp::ClusterRank) return true;
    return n.op == IntOp::BlockId && n.value >= 0 && n.value < 3 && k.cluster[static_cast<size_t>(n.value)] > 1;
  });
}

std::string shapeText(const std::vector<int64_t> &s) {
  std::string out;
  for (int64_t d : s) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out.empty() ? "a scalar" : out;
}
}  // namespace

void checkDataConsistency(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DiagnosticEngine &diags = ctx.diags;
  const std::vector<RoleEvents> &roles = f.roles;

  // One tensor map per tensor.
  for (const TensorMapConflict &c : f.tensorMapConflicts) {
    const TensorMap &map = f.tensorMaps.at(c.tensor);
    const Resource &view = k.resources[c.at->receiver];
    diags.build(DiagId::DataTensorBoxConflict, c.at->range, k.resources[c.tensor].name,
                "'" + describeBox(map.box, map.dtype, map.swizzle) + "'",
                "'" + describeBox(view.shape, view.dtype, view.swizzle) + "'")
        .note(DiagId::NoteTensorMapFirstUse, c.first->range, k.resources[c.tensor].name)
        .emit();
  }

  // A multicast copy lands the same tile in every block of the cluster, so
  // its coordinates must be the same in all of them.
  for (const RoleEvents &r : roles)
    for (const Event &e : r.events) {
      if (!multicastCount(*e.op)) continue;
      const Operand *coords = copyCoords(*e.op);
      if (!coords) continue;
      for (const Value &c : coords->value.elts)
        if (IntExprId x = clusterVarying(k, c); x != kNoIntExpr) {
          diags.report(DiagId::DataMulticastCoords, c.expr ? c.expr->range : e.op->range,
                       k.resources[e.op->receiver].name + "." + std::string(e.op->info().name),
                       k.leafText(k.ints.node(x)));
          break;
        }
    }

  // Writes of each view, and reads that see data the reading role did not
  // write itself first (so they may see what an alias wrote).
  std::map<ResourceId, std::vector<const Event *>> writes, foreignReads;
  for (const RoleEvents &r : roles)
    for (const Event &e : r.events) {
      const OpEffects &fx = e.op->info().effects;
      for (int8_t slot : fx.reads) {
        ResourceId x = effectResource(*e.op, slot);
        if (x == kNoResource) continue;
        bool ownWriteFirst = false;
        for (const Event *w : writes[x]) ownWriteFirst |= w->role == r.role;
        if (!ownWriteFirst) foreignReads[x].push_back(&e);
      }
      if (ResourceId w = effectResource(*e.op, fx.writes); w != kNoResource) writes[w].push_back(&e);
    }
  // Data written through `x` may be read through `y`: unless the only writes
  // of x come later in the reading role itself.
  auto flowsInto = [&](ResourceId x, ResourceId y) {
    for (const Event *w : writes[x])
      for (const Event *rd : foreignReads[y])
        if (!(w->role == rd->role && w->index > rd->index)) return true;
    return false;
  };

  // Views inside their pools, and apart from each other.
  std::vector<const Resource *> views;
  for (const Resource &v : k.resources) {
    if (v.kind != ResourceKind::View || v.pool == kNoResource) continue;
    const Resource &pool = k.resources[v.pool];
    if (satAdd(v.offset, v.totalBytes) > pool.bytes) {
      diags.build(DiagId::DataViewOverflow, v.range, v.name, v.offset, satAdd(v.offset, v.totalBytes), pool.name,
                  fmt::format("{} bytes", pool.bytes))
          .note(DiagId::NoteDeclaredHere, pool.range, pool.name)
          .emit();
      continue;
    }
    views.push_back(&v);
  }
  for (size_t i = 0; i < views.size(); ++i)
    for (size_t j = i + 1; j < views.size(); ++j) {
      const Resource &a = *views[i];
      const Resource &b = *views[j];
      if (a.pool != b.pool) continue;
      int64_t lo = std::max(a.offset, b.offset);
      int64_t hi = std::min(satAdd(a.offset, a.totalBytes), satAdd(b.offset, b.totalBytes));
      if (lo >= hi) continue;
      if (!a.alias && !b.alias) {
        diags.build(DiagId::DataViewOverlap, b.range, a.name, b.name, k.resources[a.pool].name, lo, hi)
            .note(DiagId::NoteDeclaredHere, a.range, a.name)
            .emit();
        continue;
      }
      // Aliases: the same bytes must be laid out the same way when one view
      // writes them and the other reads them.
      bool flows = flowsInto(a.id, b.id) || flowsInto(b.id, a.id);
      if (flows && a.swizzle != b.swizzle)
        diags.build(DiagId::DataSwizzleMismatch, b.range, a.name, swizzleName(a.swizzle), b.name,
                    swizzleName(b.swizzle), "data written through one is read through the other")
            .note(DiagId::NoteDeclaredHere, a.range, a.name)
            .emit();
    }

  // TMEM regions apart, and big enough for their shape (128 lanes x 32-bit columns).
  std::vector<const Resource *> tmems;
  for (const Resource &t : k.resources)
    if (t.kind == ResourceKind::Tmem) tmems.push_back(&t);
  for (size_t i = 0; i < tmems.size(); ++i) {
    const Resource &a = *tmems[i];
    if (a.shape.size() == 2) {
      int64_t lanes = a.shape[0];
      int64_t cols = satMul(a.shape[1], dtypeInfo(a.dtype).bits) / 32;
      if (lanes > 128)
        diags.report(DiagId::DataTmemShape, a.range, a.name, shapeText(a.shape),
                     fmt::format("tensor memory has 128 lanes, not {}", lanes));
      else if (cols > a.width)
        diags.report(DiagId::DataTmemShape, a.range, a.name, fmt::format("{} {}", shapeText(a.shape), dtypeInfo(a.dtype).name),
                     fmt::format("that needs {} columns and the region is {} wide", cols, a.width));
    }
    for (size_t j = i + 1; j < tmems.size(); ++j) {
      const Resource &b = *tmems[j];
      int64_t lo = std::max(a.firstColumn, b.firstColumn);
      int64_t hi = std::min(satAdd(a.firstColumn, a.width), satAdd(b.firstColumn, b.width));
      if (lo < hi)
        diags.build(DiagId::DataTmemOverlap, b.range, a.name, b.name, lo, hi)
            .note(DiagId::NoteDeclaredHere, a.range, a.name)
            .emit();
    }
  }

  for (const RoleEvents &r : roles)
    for (const Event &e : r.events) {
      const Operation &op = *e.op;
      // TMA copies: coordinates against the tensor's rank; the box against it.
      ResourceId tensor = copiedTensor(op);
      const Operand *coordsPtr = copyCoords(op);
      if (tensor != kNoResource && coordsPtr && op.receiver != kNoResource) {
        const Operand &coords = *coordsPtr;
        const Resource &t = k.resources[tensor];
        const Resource &v = k.resources[op.receiver];
        if (coords.value.elts.size() != t.rank)
          diags.build(DiagId::DataTmaRank, coords.range, t.name, t.rank,
                      fmt::format("the copy gives {} coordinate(s)", coords.value.elts.size()))
              .note(DiagId::NoteDeclaredHere, t.range, t.name)
              .emit();
        else if (v.shape.size() > t.rank)
          diags.build(DiagId::DataTmaRank, op.range, t.name, t.rank,
                      fmt::format("the box '{}' has rank {}", v.name, v.shape.size()))
              .note(DiagId::NoteDeclaredHere, t.range, t.name)
              .emit();
      }
      // MMA: acc[M, N] (+)= a[M, K] . b[K, N]; `.T` transposes an operand.
      if (op.kind == OpKind::Mma) {
        auto shapeOf = [&](const Operand &o) {
          std::vector<int64_t> s = k.resources[o.value.resource].shape;
          if (o.value.transposed && s.size() == 2) std::swap(s[0], s[1]);
          return s;
        };
        const Operand &acc = op.operand(param::Mma::acc), &a = op.operand(param::Mma::a), &b = op.operand(param::Mma::b);
        std::vector<int64_t> sc = shapeOf(acc), sa = shapeOf(a), sb = shapeOf(b);
        const Resource &ra = k.resources[a.value.resource], &rb = k.resources[b.value.resource];
        if (sc.size() != 2 || sa.size() != 2 || sb.size() != 2) {
          diags.report(DiagId::DataMmaShape, op.range, "acc, a and b must be two-dimensional");
        } else if (sa[1] != sb[0]) {
          diags.report(DiagId::DataMmaShape, op.range,
                       fmt::format("'{}' is {} so K = {}, but '{}' is {} so K = {}{}", ra.name, shapeText(sa), sa[1],
                                   rb.name, shapeText(sb), sb[0],
                                   sb[1] == sa[1] && !b.value.transposed ? "; did you mean to transpose it with '.T'?" : ""));
        } else if (sc[0] != sa[0] || sc[1] != sb[1]) {
          diags.report(DiagId::DataMmaShape, op.range,
                       fmt::format("the product is {}x{} but the accumulator '{}' is {}", sa[0], sb[1],
                                   k.resources[acc.value.resource].name, shapeText(sc)));
        }
        if (ra.dtype != rb.dtype)
          diags.report(DiagId::DataMmaDtype, op.range, ra.name, dtypeInfo(ra.dtype).name, rb.name, dtypeInfo(rb.dtype).name);
      }
      // Register stores and TMEM loads move whole fragments.
      if (op.kind == OpKind::Store || op.kind == OpKind::TmemLoad) {
        bool store = op.kind == OpKind::Store;
        const Resource &src = k.resources[store ? op.operand(param::Store::src).value.resource
                                                : op.operand(param::TmemLoad::src).value.resource];
        const Resource &dst = store ? k.resources[op.receiver] : k.resources[op.operand(param::TmemLoad::dst).value.resource];
        std::string name = op.kind == OpKind::Store ? dst.name + ".store" : "lm.tmem_load";
        if (src.shape != dst.shape || (op.kind == OpKind::Store && src.dtype != dst.dtype))
          diags.report(DiagId::DataCopyShape, op.range, name,
                       fmt::format("'{}' ({} {})", src.name, shapeText(src.shape), dtypeInfo(src.dtype).name),
                       fmt::format("'{}' ({} {})", dst.name, shapeText(dst.shape), dtypeInfo(dst.dtype).name));
      }
    }
}

}  // namespace cake::passes
