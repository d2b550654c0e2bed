// Tma.cpp - TMA (cp.async.bulk.tensor) loads and stores, sm_90 and later:
// one box per panel of a swizzled view, the expect-tx bytes of each group of
// copies on one barrier stage, multicast to the blocks of a cluster.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// A copy into (a stage of) a view, completing on a barrier stage.
void KernelEmitter::tmaLoad(const Operation &o, RoleCtx &rc) {
  int64_t multicast = analysis::multicastCount(o);
  ResourceId tensor = o.operand(param::TmaLoad::tensor).value.resource;
  ResourceId bar = o.operand(param::TmaLoad::barrier).value.resource;
  std::string stage = stageText(o);
  const Value &coords = o.operand(param::TmaLoad::coords).value;
  Panels pn = panels(k_.resource(o.receiver));
  std::vector<std::string> calls;
  if (multicast > 1) {
    // This block copies its share of the rows (1/multicast of them, at its
    // rank in the cluster) into the same offsets of every block's view.
    const Resource &v = k_.resource(o.receiver);
    int64_t slice = v.shape.front() / multicast;
    std::string clusterRank = fmt::format("{}()", w_.use("cake_cluster_rank"));
    std::string rank = clusterRank, mask = fmt::format("0x{:x}", (1u << multicast) - 1);
    if (int64_t dim = analysis::multicastDim(o); dim >= 0 && dim <= 2) {
      // The group is the cluster's blocks along `dim` (ranks x + cx * y + ...
      // with this block's other coordinates): a pattern of every
      // stride-th rank, shifted to this block's first.
      int64_t stride = 1;
      for (int64_t e = 0; e < dim; ++e) stride *= k_.cluster[static_cast<size_t>(e)];
      uint32_t pattern = 0;
      for (int64_t i = 0; i < multicast; ++i) pattern |= 1u << (i * stride);
      rank = fmt::format("static_cast<uint32_t>(__clusterRelativeBlockIdx().{})", "xyz"[dim]);
      mask = fmt::format("static_cast<uint16_t>(0x{:x}u << ({} - {} * {}u))", pattern, clusterRank, rank, stride);
    }
    for (int64_t p = 0; p < pn.count; ++p) {
      std::string args = panelCoords(coords, pn, p);
      size_t last = args.rfind(", ");
      args = args.substr(0, last + 2) +
             fmt::format("{} + static_cast<int32_t>({} * {}u)", args.substr(last + 2), rank, slice);
      calls.push_back(fmt::format("{}({} + {} * {}u, &{}, {}, {}{});",
                                  w_.useTmaLoadMulticast(static_cast<unsigned>(coords.elts.size())),
                                  panelAddr(o, pn, p), rank, slice * pn.rowPitch, ident(k_.resource(tensor).name),
                                  barrierAddr(bar, stage), mask, args));
    }
  } else {
    for (int64_t p = 0; p < pn.count; ++p)
      calls.push_back(fmt::format("{}({}, &{}, {}{});", w_.useTmaLoad(static_cast<unsigned>(coords.elts.size())),
                                  panelAddr(o, pn, p), ident(k_.resource(tensor).name), barrierAddr(bar, stage),
                                  panelCoords(coords, pn, p)));
  }
  auto tx = f_.expectTx.find(&o);
  if (tx != f_.expectTx.end() || calls.size() > 1) {
    line(fmt::format("{}{{", electedGuard(rc)));
    ++indent_;
    if (tx != f_.expectTx.end()) {
      std::string bytes = expectTxText(o, tx->second);
      line(fmt::format("{}({}, {});  // {} bytes land on this stage{}", w_.use("cake_mbar_arrive_expect_tx"),
                       barrierAddr(bar, stage), bytes, tx->second,
                       bytes == std::to_string(tx->second) ? "" : " (less the rows a cut box leaves out)"));
      if (std::string count = countArrival(bar, stage); !count.empty())
        line(count + "  // -fcheck-waits: count the arrival");
    }
    if (pn.count > 1) line(fmt::format("// {} panels of {} bytes, one box each", pn.count, pn.bytes));
    if (multicast > 1)
      line(fmt::format("// multicast: this block's {} of {} rows, to all {} blocks of the cluster{}",
                       k_.resource(o.receiver).shape.front() / multicast, k_.resource(o.receiver).shape.front(),
                       multicast,
                       analysis::multicastDim(o) >= 0 ? fmt::format(" along dimension {}", analysis::multicastDim(o))
                                                      : std::string()));
    for (const std::string &c : calls) line(c);
    --indent_;
    line("}");
  } else {
    line(electedGuard(rc) + calls[0]);
  }
}

// A copy of (a stage of) a view to global memory, or its addition into it
// (tma_reduce_add), as one bulk group.
void KernelEmitter::tmaStore(const Operation &o, RoleCtx &rc) {
  static_assert(static_cast<int>(param::TmaStore::tensor) == static_cast<int>(param::TmaReduceAdd::tensor) &&
                static_cast<int>(param::TmaStore::coords) == static_cast<int>(param::TmaReduceAdd::coords));
  bool reduce = o.info().effects.reducesInto;
  // The two share their operands' places (above), so read them by index.
  ResourceId tensor = o.operandAt(static_cast<int8_t>(param::TmaStore::tensor)).value.resource;
  const Value &coords = o.operandAt(static_cast<int8_t>(param::TmaStore::coords)).value;
  DType dtype = k_.resource(o.receiver).dtype;  // what the tensor map holds: the view's type
  if (reduce && !table_.lowersDtype(o.kind, dtype)) {
    refuse(DiagId::LowerTmaDtype, o.range, fmt::format("an addition into '{}'", k_.resource(tensor).name),
           fmt::format("TMA adds into tensors of {}, not {}", table_.dtypeNames(o.kind), dtypeInfo(dtype).name));
    return;
  }
  Panels pn = panels(k_.resource(o.receiver));
  line(fmt::format("{}{{", electedGuard(rc)));
  ++indent_;
  if (pn.count > 1) line(fmt::format("// {} panels of {} bytes, one box each", pn.count, pn.bytes));
  auto rank = static_cast<unsigned>(coords.elts.size());
  for (int64_t p = 0; p < pn.count; ++p)
    line(fmt::format("{}(&{}, {}{});", reduce ? w_.useTmaReduceAdd(rank) : w_.useTmaStore(rank),
                     ident(k_.resource(tensor).name), panelAddr(o, pn, p), panelCoords(coords, pn, p)));
  line(w_.use("cake_bulk_commit_group") + "();");
  --indent_;
  line("}");
}

// pending=N leaves the role's last N store groups (one per tma_store) reading.
// visible=True waits for the writes too, and fences them (async proxy) before
// the thread's later generic accesses.
void KernelEmitter::tmaStoreWait(const Operation &o, RoleCtx &rc) {
  const Operand &visible = o.operandAt(o.info().effects.waitsWrites);
  bool writes = visible.present && visible.value.constBool;
  line(fmt::format("{}{}<{}>();", electedGuard(rc),
                   w_.use(writes ? "cake_bulk_wait_group" : "cake_bulk_wait_group_read"), o.pendingGroups()));
}

// A TMA copy's shared-memory address and coordinates for panel p of its view.
std::string KernelEmitter::panelAddr(const Operation &o, const Panels &pn, int64_t p) {
  std::string addr = viewAddr(o.receiver, analysis::stageOperand(o).expr);
  return p > 0 ? fmt::format("{} + {}u", addr, p * pn.bytes) : addr;
}

std::string KernelEmitter::panelCoords(const Value &coords, const Panels &pn, int64_t p) {
  std::string args;
  for (size_t i = 0; i < coords.elts.size(); ++i) {
    std::string c = value(coords.elts[i], false);
    args += ", " + (i == 0 && p > 0 ? fmt::format("{} + {}", c, p * pn.boxInner) : c);
  }
  return args;
}

}  // namespace cake::codegen::detail
