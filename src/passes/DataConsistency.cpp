// DataConsistency: what one side writes is what the other side reads.
//
// The gate is a list of named sub-checks, run in this order:
//  - checkTensorMaps: every copy of a tensor uses the same box, dtype,
//    swizzle and multicast (the launcher builds one tensor map per tensor);
//  - checkMulticastCoords: a multicast copy's coordinates are the same in
//    every block of the cluster;
//  - checkPartialTiles: a grid or a loop bound that divides a declared
//    tensor dimension (`A: LM.tma2d[M, K]`) by a tile, rounding down, skips
//    the partial last tile the declaration allows (a warning, -Wpartial-tile);
//  - checkViewsInPools: views stay inside their pool;
//  - checkViewOverlaps: views do not overlap (unless alias=True), and
//    aliases over the same bytes agree on the swizzle when one writes and
//    the other reads;
//  - checkTmemRegions: per region, checkTmemShape (it holds its shape) and
//    checkTmemOverlaps (it stays apart from the later regions);
//  - checkOperations: per operation, in program order,
//    checkTmaRank (a TMA copy's coordinates match its tensor's rank, and
//    its box, the view, fits in that rank), checkMmaShapes (MMA operand
//    and accumulator shapes agree: M, N, K, with transposes; so do the
//    operands' dtypes) and checkFragmentCopy (stores and TMEM loads copy a
//    fragment of the destination's shape and dtype).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "analysis/ScheduleModel.h"
#include "passes/Passes.h"
#include "sema/ConstEval.h"

namespace cake::passes {

using namespace sema;
using namespace analysis;

namespace {

// The first leaf of a coordinate whose value differs between the blocks of a
// multicast copy's group (lm.block_id or lm.cluster_block along a dimension
// the group spans, lm.cluster_rank, a value read from memory), or
// kNoIntExpr; names bound to run-time values carry their expression. A
// block index floor-divided by a multiple of the cluster's extent along its
// dimension (`lm.block_id(0) // 2` in 2-block clusters along x, plus a
// multiple of the extent) is the same in all of a cluster's blocks, which
// are consecutive and aligned along it.
IntExprId clusterVarying(const Kernel &k, const Operation &op, const Value &coord) {
  if (coord.kind != ValueKind::Int || coord.ix == kNoIntExpr) return kNoIntExpr;
  // Along the dimensions the copy's group spans (all clustered ones, or its
  // multicast_dim), block indices differ; the rank differs in any group.
  auto varies = [&](const IntNode &n) {
    // A value read from memory (an atomic's old value, lm.load_scalar's
    // element) may differ between the blocks: nothing says it does not.
    if (n.op == IntOp::ClusterRank || n.op == IntOp::RoleValue) return true;
    return (n.op == IntOp::BlockId || n.op == IntOp::ClusterBlock) && multicastSpans(k, op, n.value);
  };
  auto clusterInvariant = [&](const IntNode &n) {
    if (n.op != IntOp::FloorDiv) return false;
    const AffineForm &num = k.ints.form(n.a);
    std::optional<int64_t> den = k.ints.constantValue(n.b);
    if (!den || *den <= 0 || num.terms.size() != 1 || num.terms[0].second != 1 ||
        !k.ints.atomIsLeaf(num.terms[0].first, IntOp::BlockId))
      return false;
    int64_t d = k.ints.atomValue(num.terms[0].first);
    if (d < 0 || d > 2) return false;
    int64_t extent = k.cluster[static_cast<size_t>(d)];
    return extent > 0 && *den % extent == 0 && num.constant % extent == 0;
  };
  return k.ints.findLeaf(coord.ix, varies, clusterInvariant);
}

std::string shapeText(const std::vector<int64_t> &s) {
  std::string out;
  for (int64_t d : s) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out.empty() ? "a scalar" : out;
}

class DataChecker {
public:
  DataChecker(const PassContext &ctx, const Kernel &k, const KernelFacts &f)
      : ctx_(ctx), k_(k), facts_(f), roles_(f.roles) {
    // Writes of each view, and reads that see data the reading role did not
    // write itself first (so they may see what an alias wrote).
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        for (int8_t slot : fx.reads) {
          ResourceId x = effectResource(*e.op, slot);
          if (x == kNoResource) continue;
          bool ownWriteFirst = false;
          for (const Event *w : writes_[x]) ownWriteFirst |= w->role == r.role;
          if (!ownWriteFirst) foreignReads_[x].push_back(&e);
        }
        if (ResourceId w = effectResource(*e.op, fx.writes); w != kNoResource) writes_[w].push_back(&e);
      }
  }

  void run() {
    checkTensorMaps();
    checkOutputCoverage();
    checkOutputOverlaps();
    checkMulticastCoords();
    checkValueReads();
    checkTileReadsWritten();
    checkPartialTiles();
    checkViewsInPools();
    checkViewOverlaps();
    checkTmemRegions();
    checkOperations();
  }

private:
  // Data written through `x` may be read through `y`: unless the only writes
  // of x come later in the reading role itself.
  bool flowsInto(ResourceId x, ResourceId y) {
    for (const Event *w : writes_[x])
      for (const Event *rd : foreignReads_[y])
        if (!(w->role == rd->role && w->index > rd->index)) return true;
    return false;
  }

  // One tensor map per tensor: each copy that disagrees with the map its
  // tensor's first copy set (the analysis layer finds them).
  void checkTensorMaps() {
    for (const TensorMapConflict &c : facts_.tensorMapConflicts) {
      const TensorMap &map = facts_.tensorMaps.at(c.tensor);
      const Resource &view = k_.resources[c.at->receiver];
      ctx_.diags
          .build(DiagId::DataTensorBoxConflict, c.at->range, k_.resources[c.tensor].name,
                 "'" + describeBox(map.box, map.dtype, map.swizzle, map.coreMatrices) + "'",
                 "'" + describeBox(view.shape, view.dtype, view.swizzle, facts_.coreMatrixViews.count(view.id) != 0) +
                     "'")
          .note(DiagId::NoteTensorMapFirstUse, c.first->range, k_.resources[c.tensor].name)
          .emit();
    }
  }

  // Every element of a tensor the schedule writes is written by some write
  // (the analysis layer's cell of one period of the coordinates, Coverage.h).
  void checkOutputCoverage() {
    for (const OutputCoverage &c : facts_.outputCoverage) {
      if (c.gap.empty()) continue;
      auto box = [&](const std::vector<std::pair<int64_t, int64_t>> &b) {
        std::string s;
        for (size_t d = 0; d < b.size(); ++d) s += (d ? " x " : "") + fmt::format("[{}, {})", b[d].first, b[d].second);
        return s;
      };
      // Where the elements repeat: the period along each dimension that
      // has one ('*' along those that do not).
      std::string step;
      if (std::any_of(c.period.begin(), c.period.end(), [](int64_t p) { return p != 0; })) {
        for (size_t d = 0; d < c.period.size(); ++d)
          step += (d ? " x " : "") + (c.period[d] ? std::to_string(c.period[d]) : std::string("*"));
        step = fmt::format(", nor the same elements of any other {} step of its coordinates", step);
      }
      auto diag = ctx_.diags.build(DiagId::DataOutputGap, c.group.front()->range, k_.resources[c.tensor].name,
                                   box(c.gap), step);
      for (const Operation *w : c.group) {
        std::vector<std::pair<int64_t, int64_t>> covers;
        const Operand *coords = copyCoords(*w);
        const Resource &t = k_.resources[c.tensor];
        std::vector<int64_t> shape = copyExtent(k_, *w);
        for (size_t d = 0; d < t.rank && coords; ++d) {
          const Value &v = coords->value.elts[t.rank - 1 - d];
          int64_t p = c.period[d], ext = d >= t.rank - shape.size() ? shape[d - (t.rank - shape.size())] : 1;
          int64_t lo = v.isConstInt() ? *v.constInt : v.ix != kNoIntExpr ? k_.ints.form(v.ix).constant : 0;
          if (p) lo = lo % p < 0 ? lo % p + p : lo % p;
          covers.push_back(
              {lo, p ? lo + std::min(ext, p - lo) : lo + ext});  // within the period; past it the next one's start
        }
        diag.note(DiagId::NoteTensorWrite, w->range, k_.resources[c.tensor].name, box(covers));
      }
      diag.emit();
    }
  }

  // Blocks whose stores of a tensor parameter provably overlap: which
  // writes last decides the overlapping elements (analysis::OutputOverlap).
  void checkOutputOverlaps() {
    for (const OutputOverlap &o : facts_.outputOverlaps)
      if (o.proven)
        ctx_.diags.build(DiagId::DataOutputOverlap, o.store->range, k_.resources[o.tensor].name, o.why).emit();
      else
        ctx_.diags.build(DiagId::DataUnprovenOutputOverlap, o.store->range, k_.resources[o.tensor].name, o.why).emit();
  }

  // A multicast copy lands the same tile in every block of the cluster, so
  // its coordinates must be the same in all of them (the first varying
  // coordinate of each copy is reported).
  void checkMulticastCoords() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        if (!multicastCount(*e.op)) continue;
        const Operand *coords = copyCoords(*e.op);
        if (!coords) continue;
        for (const Value &c : coords->value.elts)
          if (IntExprId x = clusterVarying(k_, *e.op, c); x != kNoIntExpr) {
            ctx_.diags.report(
                DiagId::DataMulticastCoords, c.expr ? c.expr->range : e.op->range,
                k_.resources[e.op->receiver].name + "." + std::string(e.op->info().name), k_.leafText(k_.ints.node(x)),
                multicastDim(*e.op) >= 0 ? fmt::format("the cluster's blocks along dimension {}", multicastDim(*e.op))
                                         : std::string("every block of the cluster"));
            break;
          }
      }
  }

  // A value read from memory (OpEffects::valueRange: lm.load_scalar) comes
  // from a tensor no block of the launch writes: the kernel's own writes
  // (facts_.paramAccess) or a workspace's could change an element while
  // blocks read it, and its threads could see different values.
  void checkValueReads() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (fx.valueRange == kNone || fx.global == kNone) continue;
        const Operand &t = e.op->operandAt(fx.global);
        if (!t.present || t.value.resource == kNoResource) continue;
        const Resource &table = k_.resources[t.value.resource];
        auto a = facts_.paramAccess.find(table.id);
        const Operation *write = a != facts_.paramAccess.end() ? a->second.write : nullptr;
        if (!table.workspace && !write) continue;
        std::string name = "lm." + std::string(e.op->info().name);
        auto diag =
            ctx_.diags.build(DiagId::DataValueReadWritten, e.op->range, name, table.name,
                             table.workspace ? "is a workspace (blocks of this launch write it)" : "the kernel writes");
        if (write) diag.note(DiagId::NoteValueTableWrite, write->range, table.name);
        diag.emit();
      }
  }

  // A tile of a tensor parameter the kernel also writes may be read only
  // inside a tile the same role writes (in place: coordinates that differ by
  // constants keeping the read inside, as normal forms); any other read may
  // meet another block's write of the same elements in the same launch. A
  // grid of one block has no other block.
  void checkTileReadsWritten() {
    // One block: no other block writes in the launch.
    bool oneBlock = true;
    for (const Value &g : k_.grid) oneBlock &= g.isConstInt() && *g.constInt == 1;
    if (oneBlock) return;
    // The tile read lies inside the tile written: along each dimension the
    // coordinates differ by a constant that keeps the read inside.
    auto inside = [&](const Operation &rd, const Operation &wr) {
      const Operand *cr = copyCoords(rd), *cw = copyCoords(wr);
      ResourceId tr = copyTile(rd), tw = copyTile(wr);
      if (!cr || !cw || tr == kNoResource || tw == kNoResource || cr->value.elts.size() != cw->value.elts.size())
        return false;
      const std::vector<int64_t> sr = copyExtent(k_, rd), sw = copyExtent(k_, wr);
      size_t n = cr->value.elts.size();
      for (size_t i = 0; i < n; ++i) {  // coordinates innermost first, shapes outermost first
        const Value &x = cr->value.elts[i], &y = cw->value.elts[i];
        AffineForm fx = x.isConstInt()       ? AffineForm{*x.constInt, {}}
                        : x.ix != kNoIntExpr ? k_.ints.form(x.ix)
                                             : AffineForm{};
        AffineForm fy = y.isConstInt()       ? AffineForm{*y.constInt, {}}
                        : y.ix != kNoIntExpr ? k_.ints.form(y.ix)
                                             : AffineForm{};
        if ((!x.isConstInt() && x.ix == kNoIntExpr) || (!y.isConstInt() && y.ix == kNoIntExpr)) return false;
        std::optional<int64_t> d = IntExprTable::constantDifference(fx, fy);
        int64_t er = i < sr.size() ? sr[sr.size() - 1 - i] : 1, ew = i < sw.size() ? sw[sw.size() - 1 - i] : 1;
        if (!d || *d < 0 || *d + er > ew) return false;
      }
      return true;
    };
    std::set<ResourceId> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const Operation &op = *e.op;
        const OpEffects &fx = op.info().effects;
        if (fx.oneElement || !copyCoords(op)) continue;  // one-element reads: data.value-read-written
        ResourceId t = fx.global != kNone ? op.operandAt(fx.global).value.resource : copiedTensor(op);
        if (t == kNoResource || k_.resources[t].workspace || writtenTensor(op) == t) continue;
        auto a = facts_.paramAccess.find(t);
        if (a == facts_.paramAccess.end() || !a->second.writes || reported.count(t)) continue;
        bool inPlace = false;
        for (const Event &w : r.events)
          if (writtenTensor(*w.op) == t && inside(op, *w.op)) inPlace = true;
        if (inPlace) continue;
        reported.insert(t);
        ctx_.diags
            .build(DiagId::DataTileReadWritten, op.range, "lm." + std::string(op.info().name), k_.resources[t].name)
            .note(DiagId::NoteValueTableWrite, a->second.write->range, k_.resources[t].name)
            .emit();
      }
  }

  // True if view `v` lies inside its pool's bytes.
  bool insidePool(const Resource &v) const { return satAdd(v.offset, v.totalBytes) <= k_.resources[v.pool].bytes; }

  // Views inside their pools.
  // Declared dimensions, by scalar parameter: (tensor, dimension).
  void checkPartialTiles() {
    std::map<ResourceId, std::pair<const Resource *, size_t>> declared;
    for (const Resource &r : k_.resources)
      if (r.kind == ResourceKind::TensorParam)
        for (size_t d = 0; d < r.dims.size(); ++d)
          if (r.dims[d].scalar != kNoResource) declared.emplace(r.dims[d].scalar, std::make_pair(&r, d));
    if (declared.empty()) return;
    // The first `S // c` (c > 1, S exactly a declared scalar) in x's tree.
    std::function<void(IntExprId, const std::string &, SourceRange, std::set<ResourceId> &)> visit =
        [&](IntExprId x, const std::string &where, SourceRange range, std::set<ResourceId> &seen) {
          if (x == kNoIntExpr) return;
          const IntNode &n = k_.ints.node(x);
          if (isLeaf(n.op)) return;
          if (n.op == IntOp::FloorDiv) {
            const AffineForm &num = k_.ints.form(n.a);
            std::optional<int64_t> den = k_.ints.constantValue(n.b);
            if (num.constant == 0 && num.terms.size() == 1 && num.terms[0].second == 1 &&
                k_.ints.atomIsLeaf(num.terms[0].first, IntOp::Param) && den && *den > 1) {
              auto it = declared.find(static_cast<ResourceId>(k_.ints.atomValue(num.terms[0].first)));
              if (it != declared.end() && seen.insert(it->first).second)
                ctx_.diags.report(DiagId::DataPartialTile, range, where, k_.resource(it->first).name, *den,
                                  it->second.first->name, it->second.second);
            }
          }
          visit(n.a, where, range, seen);
          visit(n.b, where, range, seen);
        };
    for (size_t i = 0; i < k_.grid.size(); ++i) {
      std::set<ResourceId> seen;
      visit(k_.grid[i].ix, fmt::format("grid dimension {}", i), k_.gridRange, seen);
    }
    std::function<void(const std::vector<IrStmt> &)> walk = [&](const std::vector<IrStmt> &body) {
      for (const IrStmt &s : body) {
        if (s.kind == IrStmt::Kind::For) {
          std::set<ResourceId> seen;
          visit(s.stop.ix, "the loop bound", s.range, seen);
        }
        walk(s.body);
        walk(s.orelse);
      }
    };
    for (const RoleBlock &rb : k_.roles) walk(rb.body);
  }

  void checkViewsInPools() {
    for (const Resource &v : k_.resources) {
      if (v.kind != ResourceKind::View || v.pool == kNoResource || insidePool(v)) continue;
      const Resource &pool = k_.resources[v.pool];
      ctx_.diags
          .build(DiagId::DataViewOverflow, v.range, v.name, v.offset, satAdd(v.offset, v.totalBytes), pool.name,
                 fmt::format("{} bytes", pool.bytes))
          .note(DiagId::NoteDeclaredHere, pool.range, pool.name)
          .emit();
    }
  }

  // Views of one pool apart from each other (those that overflow their pool
  // are checkViewsInPools' to report), or aliases laid out alike. A sweep
  // over each pool's views by offset compares a view only with the views
  // still open where it starts, grouped by layout and alias, and skips the
  // groups that cannot conflict with it (aliases laid out as it is): the
  // cost is n log n plus the pairs that can be reported. It stops as soon
  // as a diagnostic would no longer be shown (-fmax-errors). A pair is
  // reported at the view declared later.
  void checkViewOverlaps() {
    std::vector<const Resource *> views;
    for (const Resource &v : k_.resources)
      if (v.kind == ResourceKind::View && v.pool != kNoResource && insidePool(v) && v.totalBytes > 0)
        views.push_back(&v);
    std::stable_sort(views.begin(), views.end(), [](const Resource *x, const Resource *y) {
      return x->pool != y->pool ? x->pool < y->pool : x->offset < y->offset;
    });
    auto layout = [&](const Resource &v) {
      return std::string(swizzleName(v.swizzle)) +
             (facts_.coreMatrixViews.count(v.id) ? ", read by the tensor core as 16-byte core-matrix panels" : "");
    };
    // The open views of the current pool by (layout, alias), each by end.
    std::map<std::pair<std::string, bool>, std::multimap<int64_t, const Resource *>> open;
    ResourceId pool = kNoResource;
    for (const Resource *bp : views) {
      if (!ctx_.diags.willShow(DiagId::DataViewOverlap)) return;
      if (bp->pool != pool) {
        open.clear();
        pool = bp->pool;
      }
      std::string bLayout = layout(*bp);
      for (auto &[key, group] : open) {
        while (!group.empty() && group.begin()->first <= bp->offset) group.erase(group.begin());
        bool errors = !key.second && !bp->alias;
        if (!errors && key.first == bLayout) continue;
        for (const auto &[end, other] : group) {
          if (!ctx_.diags.willShow(DiagId::DataViewOverlap)) return;
          const Resource &a = other->id < bp->id ? *other : *bp;
          const Resource &b = other->id < bp->id ? *bp : *other;
          int64_t lo = std::max(a.offset, b.offset);
          int64_t hi = std::min(satAdd(a.offset, a.totalBytes), satAdd(b.offset, b.totalBytes));
          if (errors) {
            ctx_.diags.build(DiagId::DataViewOverlap, b.range, a.name, b.name, k_.resources[a.pool].name, lo, hi)
                .note(DiagId::NoteDeclaredHere, a.range, a.name)
                .emit();
            continue;
          }
          // Aliases: the same bytes must be laid out the same way when one
          // view writes them and the other reads them.
          if (flowsInto(a.id, b.id) || flowsInto(b.id, a.id))
            ctx_.diags
                .build(DiagId::DataSwizzleMismatch, b.range, a.name, layout(a), b.name, layout(b),
                       "data written through one is read through the other")
                .note(DiagId::NoteDeclaredHere, a.range, a.name)
                .emit();
        }
      }
      open[{bLayout, bp->alias}].emplace(satAdd(bp->offset, bp->totalBytes), bp);
    }
  }

  // Per TMEM region, in declaration order: its shape, then its overlaps
  // with the regions declared after it.
  void checkTmemRegions() {
    std::vector<const Resource *> tmems;
    for (const Resource &t : k_.resources)
      if (t.kind == ResourceKind::Tmem) tmems.push_back(&t);
    for (size_t i = 0; i < tmems.size(); ++i) {
      checkTmemShape(*tmems[i]);
      checkTmemOverlaps(tmems, i);
    }
  }

  // A region is big enough for its shape (128 lanes x 32-bit columns).
  void checkTmemShape(const Resource &a) {
    if (a.shape.size() != 2) return;
    int64_t lanes = a.shape[0];
    int64_t cols = satMul(a.shape[1], dtypeInfo(a.dtype).bits) / 32;
    if (lanes > 128)
      ctx_.diags.report(DiagId::DataTmemShape, a.range, a.name, shapeText(a.shape),
                        fmt::format("tensor memory has 128 lanes, not {}", lanes));
    else if (cols > a.width)
      ctx_.diags.report(DiagId::DataTmemShape, a.range, a.name,
                        fmt::format("{} {}", shapeText(a.shape), dtypeInfo(a.dtype).name),
                        fmt::format("that needs {} columns and the region is {} wide", cols, a.width));
  }

  // Region `i`'s columns are apart from those of every later region.
  void checkTmemOverlaps(const std::vector<const Resource *> &tmems, size_t i) {
    const Resource &a = *tmems[i];
    for (size_t j = i + 1; j < tmems.size(); ++j) {
      const Resource &b = *tmems[j];
      int64_t lo = std::max(a.firstColumn, b.firstColumn);
      int64_t hi = std::min(satAdd(a.firstColumn, a.width), satAdd(b.firstColumn, b.width));
      if (lo < hi)
        ctx_.diags.build(DiagId::DataTmemOverlap, b.range, a.name, b.name, lo, hi)
            .note(DiagId::NoteDeclaredHere, a.range, a.name)
            .emit();
    }
  }

  // Per operation, in program order: TMA copies, MMA, fragment copies.
  void checkOperations() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        checkTmaRank(*e.op);
        checkMmaShapes(*e.op);
        checkFragmentCopy(*e.op);
      }
  }

  // TMA copies: coordinates against the tensor's rank; the box against it.
  void checkTmaRank(const Operation &op) {
    ResourceId tensor = copiedTensor(op);
    const Operand *coordsPtr = copyCoords(op);
    if (tensor == kNoResource || !coordsPtr || op.receiver == kNoResource) return;
    const Operand &coords = *coordsPtr;
    const Resource &t = k_.resources[tensor];
    const Resource &v = k_.resources[op.receiver];
    if (coords.value.elts.size() != t.rank)
      ctx_.diags
          .build(DiagId::DataTmaRank, coords.range, t.name, t.rank,
                 fmt::format("the copy gives {} coordinate(s)", coords.value.elts.size()))
          .note(DiagId::NoteDeclaredHere, t.range, t.name)
          .emit();
    else if (v.shape.size() > t.rank)
      ctx_.diags
          .build(DiagId::DataTmaRank, op.range, t.name, t.rank,
                 fmt::format("the box '{}' has rank {}", v.name, v.shape.size()))
          .note(DiagId::NoteDeclaredHere, t.range, t.name)
          .emit();
  }

  // MMA: acc[M, N] (+)= a[M, K] . b[K, N]; `.T` transposes an operand. The
  // shapes first, then the operands' dtypes.
  void checkMmaShapes(const Operation &op) {
    if (op.kind != OpKind::Mma) return;
    auto shapeOf = [&](const Operand &o) {
      std::vector<int64_t> s = k_.resources[o.value.resource].shape;
      if (o.value.transposed && s.size() == 2) std::swap(s[0], s[1]);
      return s;
    };
    const Operand &acc = op.operand(param::Mma::acc), &a = op.operand(param::Mma::a), &b = op.operand(param::Mma::b);
    std::vector<int64_t> sc = shapeOf(acc), sa = shapeOf(a), sb = shapeOf(b);
    const Resource &ra = k_.resources[a.value.resource], &rb = k_.resources[b.value.resource];
    if (sc.size() != 2 || sa.size() != 2 || sb.size() != 2) {
      ctx_.diags.report(DiagId::DataMmaShape, op.range, "acc, a and b must be two-dimensional");
    } else if (sa[1] != sb[0]) {
      ctx_.diags.report(
          DiagId::DataMmaShape, op.range,
          fmt::format("'{}' is {} so K = {}, but '{}' is {} so K = {}{}", ra.name, shapeText(sa), sa[1], rb.name,
                      shapeText(sb), sb[0],
                      sb[1] == sa[1] && !b.value.transposed ? "; did you mean to transpose it with '.T'?" : ""));
    } else if (sc[0] != sa[0] || sc[1] != sb[1]) {
      ctx_.diags.report(DiagId::DataMmaShape, op.range,
                        fmt::format("the product is {}x{} but the accumulator '{}' is {}", sa[0], sb[1],
                                    k_.resources[acc.value.resource].name, shapeText(sc)));
    }
    // e4m3 and e5m2 mix (every fp8 tensor-core form takes either for A and B).
    auto fp8 = [](DType d) { return d == DType::E4M3 || d == DType::E5M2; };
    if (ra.dtype != rb.dtype && !(fp8(ra.dtype) && fp8(rb.dtype)))
      ctx_.diags.report(DiagId::DataMmaDtype, op.range, ra.name, dtypeInfo(ra.dtype).name, rb.name,
                        dtypeInfo(rb.dtype).name);
  }

  // Register stores and TMEM loads move whole fragments: the same shape
  // (and, for a store, the same dtype) on both sides. A row vector (M x 1)
  // is stored as M consecutive values: into a view of M elements in one row
  // or one column (1 x M for a TMA store of one value per row). A store
  // with col=c copies the tile's columns c .. c + W - 1 into a view W wide
  // (an epilogue staged in parts); c and W are multiples of 8, the columns
  // a thread's registers hold together.
  void checkFragmentCopy(const Operation &op) {
    if (op.kind != OpKind::Store && op.kind != OpKind::TmemLoad) return;
    bool store = op.kind == OpKind::Store;
    const Resource &src = k_.resources[store ? op.operand(param::Store::src).value.resource
                                             : op.operand(param::TmemLoad::src).value.resource];
    const Resource &dst =
        store ? k_.resources[op.receiver] : k_.resources[op.operand(param::TmemLoad::dst).value.resource];
    std::string name = store ? dst.name + ".store" : "lm.tmem_load";
    auto describe = [&](const Resource &r) {
      return fmt::format("'{}' ({} {})", r.name, shapeText(r.shape), dtypeInfo(r.dtype).name);
    };
    // A part is asked for with col= (a narrower view without it is a
    // mistake, reported as the shapes it copies between).
    std::optional<int64_t> col = op.firstColumn();
    // transpose=True: an M x N tile (not a vector, not a part) into an
    // N x M view of its dtype.
    if (op.transposedStore()) {
      bool tile = src.shape.size() == 2 && src.shape[0] > 1 && src.shape[1] > 1;
      if (!tile || col || dst.shape.size() != 2 || dst.shape[0] != src.shape[1] || dst.shape[1] != src.shape[0] ||
          src.dtype != dst.dtype)
        ctx_.diags.report(DiagId::DataCopyShape, op.range, name,
                          fmt::format("{} transposed{}", describe(src), col ? " from a column" : ""), describe(dst));
      return;
    }
    bool rowVectorStore = store && src.shape.size() == 2 && src.shape[1] == 1 && dst.shape.size() <= 2 &&
                          !dst.shape.empty() && dst.shape.front() * dst.shape.back() == src.shape[0] &&
                          (dst.shape.size() == 1 || dst.shape.front() == 1 || dst.shape.back() == 1);
    bool columns =
        col && !rowVectorStore && src.shape.size() == 2 && dst.shape.size() == 2 && src.shape[0] == dst.shape[0];
    if (columns) {
      int64_t width = dst.shape[1], c = *col;
      // (c > extent - width: no overflow at any col= the source gives.)
      if (c < 0 || c % 8 != 0 || width % 8 != 0 || width > src.shape[1] || c > src.shape[1] - width) {
        int64_t last = 0;
        std::string range =
            __builtin_add_overflow(c, width - 1, &last) ? fmt::format("from {}", c) : fmt::format("{} to {}", c, last);
        ctx_.diags.report(DiagId::DataCopyShape, op.range, name, fmt::format("columns {} of {}", range, describe(src)),
                          fmt::format("{}: a part must lie within the tile and start and end on a multiple of 8 "
                                      "columns",
                                      describe(dst)));
        return;
      }
    } else if (col) {
      ctx_.diags.report(DiagId::DataCopyShape, op.range, name,
                        fmt::format("columns from {} of {}", *col, describe(src)),
                        fmt::format("{}: col= takes columns of a tile with the view's rows", describe(dst)));
      return;
    }
    if ((src.shape != dst.shape && !rowVectorStore && !columns) || (store && src.dtype != dst.dtype))
      ctx_.diags.report(DiagId::DataCopyShape, op.range, name, describe(src), describe(dst));
  }

  const PassContext &ctx_;
  const Kernel &k_;
  const KernelFacts &facts_;
  const std::vector<RoleEvents> &roles_;
  // Each view's writes, and its reads by a role that did not write it first.
  std::map<ResourceId, std::vector<const Event *>> writes_, foreignReads_;
};

}  // namespace

void checkDataConsistency(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  DataChecker(ctx, k, f).run();
}

}  // namespace cake::passes
