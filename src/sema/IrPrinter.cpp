// IrPrinter: `--emit=ir`, the resolved module as text: each kernel's launch
// shape, parameters, resource table with derived facts, and each role's
// operations with resolved operands and source locations. Deterministic.
#include <fmt/format.h>

#include <algorithm>

#include "sema/ConstEval.h"
#include "sema/SemaIR.h"

namespace cake::sema {

namespace {

class IrPrinter {
public:
  IrPrinter(const SourceManager &sm, const Kernel &k) : sm_(sm), k_(k) {}

  std::string value(const Value &v) const {
    switch (v.kind) {
    case ValueKind::Int:
      if (v.constInt) return std::to_string(*v.constInt);
      return v.expr ? sourceText(sm_, v.expr->range) : "?";
    case ValueKind::Float: return v.expr ? sourceText(sm_, v.expr->range) : fmt::format("{}", v.floatValue);
    case ValueKind::Bool:
      if (v.boolIsConst && !v.expr) return v.constBool ? "True" : "False";
      return v.expr ? sourceText(sm_, v.expr->range) : "?";
    case ValueKind::String: return "\"" + v.str + "\"";
    case ValueKind::DType: return std::string(dtypeInfo(v.dtype).name);
    case ValueKind::None: return "None";
    case ValueKind::Tuple:
    case ValueKind::List: {
      std::string s = v.kind == ValueKind::Tuple ? "(" : "[";
      for (size_t i = 0; i < v.elts.size(); ++i) s += (i ? ", " : "") + value(v.elts[i]);
      if (v.kind == ValueKind::Tuple && v.elts.size() == 1) s += ",";
      return s + (v.kind == ValueKind::Tuple ? ")" : "]");
    }
    case ValueKind::Resource: return name(v.resource) + (v.transposed ? ".T" : "");
    case ValueKind::ViewStage:
      return fmt::format("{}[{}]{}", name(v.resource), v.stage ? sourceText(sm_, v.stage->range) : "?",
                         v.transposed ? ".T" : "");
    default: return "?";
    }
  }

  std::string name(ResourceId id) const {
    if (id == kNoResource) return "?";
    return k_.resources[id].name.empty() ? fmt::format("%{}", id) : k_.resources[id].name;
  }

  std::string names(const std::vector<ResourceId> &ids) const {
    std::string s;
    for (ResourceId id : ids) s += (s.empty() ? "" : ", ") + name(id);
    return "[" + s + "]";
  }

  static std::string shape(const std::vector<int64_t> &s) {
    std::string out;
    for (int64_t d : s) out += (out.empty() ? "" : "x") + std::to_string(d);
    return out;
  }

  std::string resource(const Resource &r) const {
    std::string head = fmt::format("{:<9}{:<10}", resourceKindName(r.kind), name(r.id));
    switch (r.kind) {
    case ResourceKind::TensorParam: {
      return head + fmt::format("rank {}{}", r.rank, r.dims.empty() ? "" : ", shape " + declaredShape(k_, r));
    }
    case ResourceKind::ScalarParam: return head + std::string(dtypeInfo(r.dtype).name);
    case ResourceKind::Pool: return head + fmt::format("{} B at smem+{}", r.bytes, r.smemOffset);
    case ResourceKind::View:
      return head + fmt::format("{}+{}: {} {}, {} stage{} x {} B = {} B, swizzle {}, align {}{}", name(r.pool),
                                r.offset, shape(r.shape), dtypeInfo(r.dtype).name, r.stages, r.stages == 1 ? "" : "s",
                                r.bytesPerStage, r.totalBytes, swizzleName(r.swizzle), r.alignment,
                                r.alias ? ", alias" : "");
    case ResourceKind::Tmem:
      return head + fmt::format("columns [{}, {}): {} {}", r.firstColumn, satAdd(r.firstColumn, r.width),
                                shape(r.shape), dtypeInfo(r.dtype).name);
    case ResourceKind::Regs:
      return head + fmt::format("{} {}{}{}", shape(r.shape), dtypeInfo(r.dtype).name,
                                r.role == kNoResource ? "" : ", role " + name(r.role), r.derived ? " (derived)" : "");
    case ResourceKind::Role: {
      std::string warps;
      for (int64_t w : r.warps) warps += (warps.empty() ? "" : ", ") + std::to_string(w);
      int64_t lo = *std::min_element(r.warps.begin(), r.warps.end());
      int64_t hi = *std::max_element(r.warps.begin(), r.warps.end());
      return head +
             fmt::format("warps [{}], threads {}..{}, {}", warps, satMul(lo, 32), satAdd(satMul(hi, 32), 31),
                         r.regBudget ? fmt::format("setmaxnreg {}", r.regBudget) : std::string("no register budget"));
    }
    case ResourceKind::Pipeline: return head + fmt::format("{} stages", r.stages);
    case ResourceKind::NamedBarrier: return head + fmt::format("roles {}", names(r.consumers));
    case ResourceKind::Barrier:
      return head + fmt::format("{} mbarrier{} at smem+{} (8 B each), init_count {}, producers {}, consumers {}{}",
                                r.count, r.count == 1 ? "" : "s", r.smemOffset, r.initCount, names(r.producers),
                                names(r.consumers),
                                (r.pipeline == kNoResource ? "" : ", pipeline " + name(r.pipeline)) +
                                    (r.credits < 0 ? "" : fmt::format(", credits {}", r.credits)));
    }
    return head;
  }

  void stmts(std::string &out, const std::vector<IrStmt> &list, int depth) const {
    for (const IrStmt &s : list) stmt(out, s, depth);
  }

  void stmt(std::string &out, const IrStmt &s, int depth) const {
    std::string pad(static_cast<size_t>(depth) * 2, ' ');
    switch (s.kind) {
    case IrStmt::Kind::For:
      out += fmt::format("{}for {} in range({}, {}, {}):  @{}:{}\n", pad, s.loopVar, value(s.start), value(s.stop),
                         value(s.stepValue), s.range.begin.line, s.range.begin.col);
      stmts(out, s.body, depth + 1);
      break;
    case IrStmt::Kind::If:
      out += fmt::format("{}if {}:  @{}:{}\n", pad, value(s.cond), s.range.begin.line, s.range.begin.col);
      stmts(out, s.body, depth + 1);
      if (!s.orelse.empty()) {
        out += pad + "else:\n";
        stmts(out, s.orelse, depth + 1);
      }
      break;
    case IrStmt::Kind::Let:
      out +=
          fmt::format("{}let {} = {}  @{}:{}\n", pad, s.loopVar, value(s.start), s.range.begin.line, s.range.begin.col);
      break;
    case IrStmt::Kind::Op: {
      const Operation &op = s.op;
      const OpInfo &info = op.info();
      std::string args;
      for (size_t i = 0; i < op.operands.size(); ++i) {
        const Operand &o = op.operands[i];
        if (!o.present) continue;
        args += fmt::format("{}{}={}", args.empty() ? "" : ", ", info.params[i].name, value(o.value));
      }
      std::string recv = op.receiver == kNoResource ? "" : name(op.receiver) + ".";
      std::string result =
          op.result.kind == ValueKind::Resource || op.result.kind == ValueKind::Tuple ? value(op.result) + " = " : "";
      // A value an operation computes for its role: its number (reads of
      // one element by several roles share one: docs/language.md 9.8).
      if (op.result.ix != kNoIntExpr && k_.ints.node(op.result.ix).op == IntOp::RoleValue)
        result = fmt::format("value#{} = ", k_.ints.node(op.result.ix).value);
      out += fmt::format("{}{}{}{}({})  @{}:{}\n", pad, result, recv, info.name, args, s.range.begin.line,
                         s.range.begin.col);
      break;
    }
    }
  }

  // A family: its signature, domain and routes in order (guards as written).
  std::string family(const Family &f) const {
    std::string out = fmt::format("family {}  @{}:{}\n", k_.name, k_.nameRange.begin.line, k_.nameRange.begin.col);
    out += "  params:\n";
    for (const KernelParam &p : k_.params)
      if (!p.isBuilder && p.resource != kNoResource) out += "    " + resource(k_.resources[p.resource]) + "\n";
    out += "  domain:\n";
    for (ResourceId id : f.integerParams()) {
      const Resource &r = k_.resources[id];
      FamilyDomain d = f.domainOf(id);
      out += fmt::format("    {} in {} .. {}{}{}\n", r.name, d.lo, d.hi,
                         d.multiple > 1 ? fmt::format(", a multiple of {}", d.multiple) : "",
                         d.range.begin.line ? "" : " (not declared)");
    }
    for (const FamilyRoute &r : f.routes)
      out += fmt::format("  route {} when {}  @{}:{}\n", r.name, sourceText(sm_, r.guardRange), r.range.begin.line,
                         r.range.begin.col);
    if (f.fallback)
      out += fmt::format("  fallback {}  @{}:{}\n", f.fallback->name, f.fallback->range.begin.line,
                         f.fallback->range.begin.col);
    return out;
  }

  std::string kernel(Target target) const {
    std::string out = fmt::format("kernel {}  @{}:{}\n", k_.name, k_.nameRange.begin.line, k_.nameRange.begin.col);
    std::string grid;
    for (const Value &g : k_.grid) grid += (grid.empty() ? "" : ", ") + value(g);
    out +=
        fmt::format("  launch: block {} threads ({} warps), grid {}, cluster {}x{}x{}{}\n", k_.threads, k_.threads / 32,
                    grid.empty() ? "(1, 1, 1) (no grid= given)" : "(" + grid + ")", k_.cluster[0], k_.cluster[1],
                    k_.cluster[2], k_.blocksPerSm > 1 ? fmt::format(", {} blocks per SM", k_.blocksPerSm) : "");
    out += fmt::format("  shared memory: {} B dynamic ({} B of mbarriers{}); target limit {} B\n", k_.smemBytes,
                       k_.barrierBytes,
                       k_.tmemSlot >= 0 ? fmt::format(", with 16 B of TMEM bookkeeping at smem+{}", k_.tmemSlot) : "",
                       targetInfo(target).smemPerBlock);
    out += "  params:\n";
    for (const KernelParam &p : k_.params) {
      if (p.isBuilder)
        out += fmt::format("    {:<9}{}\n", "builder", p.name);
      else if (p.resource != kNoResource)
        out += "    " + resource(k_.resources[p.resource]) + "\n";
    }
    out += "  resources:\n";
    for (const Resource &r : k_.resources) {
      if (r.kind == ResourceKind::TensorParam || r.kind == ResourceKind::ScalarParam) continue;
      out += "    " + resource(r) + "\n";
    }
    if (!k_.lets.empty()) out += "  values:\n";
    stmts(out, k_.lets, 2);
    for (const RoleBlock &b : k_.roles) {
      out += fmt::format("  role {}:  @{}:{}\n", name(b.role), b.range.begin.line, b.range.begin.col);
      stmts(out, b.body, 2);
    }
    return out;
  }

private:
  const SourceManager &sm_;
  const Kernel &k_;
};

}  // namespace

std::string printIR(const Module &m, const SourceManager &sm) {
  std::string out = fmt::format("module '{}' for {}\n", sm.name(m.file), targetInfo(m.target).name);
  for (const auto &k : m.kernels) {
    out += "\n";
    out += IrPrinter(sm, *k).kernel(m.target);
  }
  for (const auto &f : m.families) {
    out += "\n";
    out += IrPrinter(sm, *f->signature).family(*f);
  }
  return out;
}

}  // namespace cake::sema
