// SemaIR: small helpers of the resolved module, and the dtype table.
#include "sema/SemaIR.h"

#include <fmt/format.h>

namespace cake::sema {

const std::vector<DTypeInfo> &allDTypes() {
  static const std::vector<DTypeInfo> table = {
#define DTYPE(Enum, Name, Bits, Cuda, Ptx, TensorMap, Scalar) \
  {DType::Enum, Name, Bits, Cuda, Ptx, TensorMap, ScalarKind::Scalar},
#include "sema/DTypes.def"
#undef DTYPE
  };
  return table;
}

const DTypeInfo &dtypeInfo(DType d) { return allDTypes()[static_cast<size_t>(d)]; }

std::optional<DType> parseDType(std::string_view name) {
  for (const DTypeInfo &d : allDTypes())
    if (d.name == name) return d.dtype;
  return std::nullopt;
}

std::string_view resourceKindName(ResourceKind k) {
  switch (k) {
  case ResourceKind::TensorParam: return "tensor";
  case ResourceKind::ScalarParam: return "scalar";
  case ResourceKind::Pool: return "pool";
  case ResourceKind::View: return "view";
  case ResourceKind::Tmem: return "tmem";
  case ResourceKind::Regs: return "regs";
  case ResourceKind::Role: return "role";
  case ResourceKind::Pipeline: return "pipeline";
  case ResourceKind::Barrier: return "barrier";
  case ResourceKind::NamedBarrier: return "namedbar";
  }
  return "?";
}

std::string_view swizzleName(Swizzle s) {
  switch (s) {
  case Swizzle::None: return "none";
  case Swizzle::B32: return "32B";
  case Swizzle::B64: return "64B";
  case Swizzle::B128: return "128B";
  }
  return "?";
}

unsigned swizzleBytes(Swizzle s) {
  switch (s) {
  case Swizzle::None: return 0;
  case Swizzle::B32: return 32;
  case Swizzle::B64: return 64;
  case Swizzle::B128: return 128;
  }
  return 0;
}

std::string_view arrivalScopeName(ArrivalScope s) {
  switch (s) {
  case ArrivalScope::Role: return "role";
  case ArrivalScope::Warpgroup: return "warpgroup";
  case ArrivalScope::Warp: return "warp";
  case ArrivalScope::Thread: return "thread";
  }
  return "?";
}

FamilyDomain Family::domainOf(ResourceId param) const {
  for (const FamilyDomain &d : domain)
    if (d.param == param) return d;
  FamilyDomain d;
  d.param = param;
  return d;
}

std::string declaredShape(const Kernel &k, const Resource &tensor) {
  std::string s;
  for (const Resource::Dim &d : tensor.dims)
    s += (s.empty() ? "" : ", ") + (d.scalar != kNoResource ? k.resource(d.scalar).name : std::to_string(d.constant));
  return "(" + s + ")";
}

std::vector<ResourceId> Family::integerParams() const {
  std::vector<ResourceId> out;
  for (const KernelParam &p : signature->params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = signature->resource(p.resource);
    if (r.kind == ResourceKind::ScalarParam && dtypeInfo(r.dtype).scalar == ScalarKind::Int) out.push_back(r.id);
  }
  return out;
}

std::vector<const Kernel *> Module::compiledKernels() const {
  std::vector<const Kernel *> out;
  for (const auto &k : kernels) out.push_back(k.get());
  for (const auto &[k, name] : importedRoutes) out.push_back(k);
  return out;
}

std::string Module::symbolOf(const Kernel &k) const {
  for (const auto &[ik, name] : importedRoutes)
    if (ik == &k) return name;
  return k.name;
}

std::string Kernel::leafText(const IntNode &n) const {
  if (n.op == IntOp::Const) return std::to_string(n.value);
  if (n.op == IntOp::LoopVar) {
    auto it = loopVars.find(static_cast<uint32_t>(n.value));
    return it == loopVars.end() ? "?" : it->second;
  }
  if (n.op == IntOp::Param)
    return n.value >= 0 && static_cast<size_t>(n.value) < resources.size() ? resources[n.value].name : "?";
  const IntOpInfo &info = intOpInfo(n.op);
  CAKE_CHECK(info.arity == 0 && info.source, "leafText of an operation node '" + std::string(info.name) + "'");
  return fmt::format(fmt::runtime(info.source), n.value);
}

std::string Kernel::intText(IntExprId x) const {
  const IntNode &n = ints.node(x);
  const IntOpInfo &info = intOpInfo(n.op);
  if (n.op == IntOp::Let) return n.value >= 0 && static_cast<size_t>(n.value) < letVars.size() ? letVars[n.value] : "?";
  if (info.arity == 0) return leafText(n);
  // An operand binding less tightly than the operator (or as tightly, on
  // the side its associativity does not group) is parenthesised.
  auto operand = [&](IntExprId y, bool left) {
    int p = intOpInfo(ints.node(y).op).prec;
    if (ints.node(y).op == IntOp::Const && ints.node(y).value < 0) p = intOpInfo(IntOp::Neg).prec;
    bool rightAssoc = n.op == IntOp::Pow;
    bool paren = p < info.prec || (p == info.prec && left == rightAssoc);
    std::string t = intText(y);
    return paren ? "(" + t + ")" : t;
  };
  if (info.has(kCall)) return fmt::format("{}({}, {})", info.source, intText(n.a), intText(n.b));
  if (info.arity == 1) return info.source + operand(n.a, false);
  return fmt::format("{} {} {}", operand(n.a, true), info.source, operand(n.b, false));
}

std::string sourceText(const SourceManager &sm, const SourceRange &r) {
  if (!r.valid()) return "?";
  std::string_view line = sm.lineText(r.begin.file, r.begin.line);
  // Columns are code points; walk to byte offsets.
  auto byteAt = [&](uint32_t col) {
    size_t i = 0;
    for (uint32_t c = 1; c < col && i < line.size(); ++c) {
      ++i;
      while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
    }
    return i;
  };
  size_t b = byteAt(r.begin.col);
  if (r.end.line != r.begin.line) return std::string(line.substr(b)) + " ...";
  size_t e = byteAt(r.end.col);
  return std::string(line.substr(b, e > b ? e - b : 0));
}

}  // namespace cake::sema
