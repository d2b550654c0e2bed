// OpTable: Ops.def as data, and its printed form.
#include "sema/OpTable.h"

#include <fmt/format.h>

#include <algorithm>

namespace cake::sema {

// The table's macros stay one per line.
// clang-format off
#define EFFECTS(...) OpEffects{__VA_ARGS__}
#define PTX(...) std::vector<PtxForm>{__VA_ARGS__}
#define P(Targets, Text) PtxForm{Targets, Text}
#define REQ(Name, Kind) ParamInfo{#Name, ParamKind::Kind, true, ParamInfo::Default::Absent, 0, ""}
#define OPT(Name, Kind) ParamInfo{#Name, ParamKind::Kind, false, ParamInfo::Default::Absent, 0, ""}
#define DEF_INT(Name, Kind, V) ParamInfo{#Name, ParamKind::Kind, false, ParamInfo::Default::Int, V, ""}
#define DEF_BOOL(Name, Kind, V) ParamInfo{#Name, ParamKind::Kind, false, ParamInfo::Default::Bool, (V) ? 1 : 0, ""}
#define DEF_STR(Name, Kind, V) ParamInfo{#Name, ParamKind::Kind, false, ParamInfo::Default::String, 0, V}

const std::vector<OpInfo> &allOps() {
  static const std::vector<OpInfo> table = {
#define OP(Enum, Name, Recv, Res, Scope, Targets, Effects, Ptx, Desc, ...)                        \
  OpInfo{OpKind::Enum, Name, Receiver::Recv, OpResult::Res, OpScope::Scope, Targets, Effects, Ptx, \
         Desc, std::vector<ParamInfo>{__VA_ARGS__}},
#include "sema/Ops.def"
#undef OP
  };
  return table;
}
// clang-format on

#undef EFFECTS
#undef PTX
#undef P
#undef REQ
#undef OPT
#undef DEF_INT
#undef DEF_BOOL
#undef DEF_STR

const OpInfo &opInfo(OpKind k) { return allOps()[static_cast<size_t>(k)]; }

std::string_view OpInfo::ptxFor(Target t) const {
  for (const PtxForm &f : ptx)
    if (f.targets & targetBit(t)) return f.ptx;
  return "";
}

std::string OpInfo::targetNames() const { return cake::targetNames(targets); }

int OpInfo::paramIndex(std::string_view n) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == n) return static_cast<int>(i);
  return -1;
}

std::string_view receiverName(Receiver r) {
  switch (r) {
  case Receiver::Builder: return "lm";
  case Receiver::Pool: return "pool";
  case Receiver::View: return "view";
  }
  return "?";
}

std::string_view paramKindDescription(ParamKind k) {
  switch (k) {
  case ParamKind::ConstInt: return "a compile-time integer";
  case ParamKind::ConstIntTuple: return "a tuple of compile-time integers";
  case ParamKind::WarpList: return "a list of warp indices";
  case ParamKind::WarpLists: return "a list of lists of warp indices";
  case ParamKind::Swizzle: return "one of \"none\", \"32B\", \"64B\", \"128B\"";
  case ParamKind::LayoutP: return "one of \"accumulator\", \"rows\"";
  case ParamKind::ArrivalScope: return "one of \"role\", \"warpgroup\", \"warp\", \"thread\"";
  case ParamKind::AtomicOpP: return "one of \"add\", \"max\", \"min\", \"exch\", \"cas\"";
  case ParamKind::MemOrderP: return "one of \"relaxed\", \"acquire\", \"release\", \"acq_rel\"";
  case ParamKind::MemScopeP: return "one of \"gpu\", \"cluster\"";
  case ParamKind::DTypeP: return "a dtype such as lm.bf16";
  case ParamKind::RoleP: return "a role or a role family";
  case ParamKind::RoleFamilyP: return "a role family";
  case ParamKind::RoleList: return "a list of roles and role families";
  case ParamKind::PipelineP: return "a pipeline";
  case ParamKind::BarrierP: return "a barrier";
  case ParamKind::NamedBarrierP: return "a named barrier (lm.named_barrier)";
  case ParamKind::TensorP: return "a TMA tensor parameter (LM.tmaNd)";
  case ParamKind::GlobalTensorP: return "a global tensor parameter (LM.tensorNd)";
  case ParamKind::IntExpr: return "an integer";
  case ParamKind::IntTuple: return "a tuple of integers";
  case ParamKind::BoolExpr: return "a boolean";
  case ParamKind::ConstBool: return "True or False";
  case ParamKind::FloatExpr: return "a number";
  case ParamKind::OperandP: return "a shared-memory view (stage) or a register fragment";
  case ParamKind::AccumulatorP: return "a TMEM region or a register fragment";
  case ParamKind::RegsP: return "a register fragment";
  case ParamKind::FragmentOrNumber: return "a register fragment or a number";
  case ParamKind::MaskP: return "an i32 register fragment (a mask)";
  case ParamKind::TmemP: return "a TMEM region";
  case ParamKind::ScheduleP: return "a schedule (defined in this file or imported)";
  }
  return "?";
}

namespace {
std::string_view scopeName(OpScope s) {
  switch (s) {
  case OpScope::Kernel: return "declaration";
  case OpScope::Role: return "inside a role";
  case OpScope::Anywhere: return "value";
  case OpScope::Loop: return "loop iterator";
  case OpScope::Family: return "family";
  }
  return "?";
}

std::string signature(const OpInfo &op) {
  std::string sig;
  for (const ParamInfo &p : op.params) {
    if (!sig.empty()) sig += ", ";
    sig += p.name;
    if (p.defaultKind == ParamInfo::Default::Int)
      sig += fmt::format("={}", p.defaultInt);
    else if (p.defaultKind == ParamInfo::Default::Bool)
      sig += p.defaultInt ? "=True" : "=False";
    else if (p.defaultKind == ParamInfo::Default::String)
      sig += fmt::format("=\"{}\"", p.defaultString);
    else if (!p.required)
      sig += "=None";
  }
  return fmt::format("{}.{}({})", receiverName(op.receiver), op.name, sig);
}

std::string effectsText(const OpInfo &op) {
  auto name = [&](int8_t i) -> std::string {
    if (i == kReceiver) return "receiver";
    if (i == kResult) return "the result";
    return std::string(op.params[static_cast<size_t>(i)].name);
  };
  std::vector<std::string> parts;
  if (op.effects.writes != kNone) parts.push_back("writes " + name(op.effects.writes));
  for (int8_t r : op.effects.reads)
    if (r != kNone) parts.push_back("reads " + name(r));
  if (op.effects.proxy == Proxy::Async) parts.push_back("async proxy");
  if (op.effects.proxy == Proxy::Generic) parts.push_back("generic proxy");
  if (op.effects.signals != kNone) {
    const char *how = op.effects.signal == Signal::CompleteTx     ? "completes bytes on "
                      : op.effects.signal == Signal::CommitArrive ? "arrives on completion at "
                      : op.effects.signal == Signal::CopyArrive   ? "every thread arrives, once its part landed, on "
                                                                  : "arrives on ";
    parts.push_back(how + name(op.effects.signals));
  }
  if (op.effects.waits != kNone) parts.push_back("waits on " + name(op.effects.waits));
  if (op.effects.fence) parts.push_back("proxy fence");
  if (op.effects.single) parts.push_back("one elected thread");
  if (op.effects.closesGroup) parts.push_back("closes an async group");
  if (op.effects.waitsGroup) parts.push_back("waits for async groups");
  if (op.effects.awaitsValue != kNone)
    parts.push_back("one thread waits until the element equals " + name(op.effects.awaitsValue));
  if (op.effects.syncsRole) parts.push_back("synchronises the role's threads");
  if (op.effects.multicast != kNone)
    parts.push_back("shares its tile with " + name(op.effects.multicast) + " blocks of the cluster");
  if (op.effects.clusterSignal != kNone)
    parts.push_back("in every block of the cluster when " + name(op.effects.clusterSignal));
  if (op.effects.threadElements != kNone)
    parts.push_back("each thread the elements " + name(op.effects.threadElements) + " holds");
  if (op.effects.firstColumn != kNone) parts.push_back("copies the columns from " + name(op.effects.firstColumn));
  if (op.effects.rowBound != kNone)
    parts.push_back("moves only the tile's first " + name(op.effects.rowBound) + " rows");
  if (parts.empty()) return "none";
  std::string s;
  for (const std::string &p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}
}  // namespace

std::string formatOpTable(const Target *only, const std::function<uint32_t(OpKind)> &loweredOn,
                          const std::function<std::string(OpKind, Target)> &loweredTypes) {
  std::string out;
  for (const OpInfo &op : allOps()) {
    if (only && !op.legalOn(*only)) continue;
    out += signature(op) + "\n";
    out += fmt::format("    {}\n", op.description);
    out += fmt::format("    kind: {}; targets: {}\n", scopeName(op.scope), op.targetNames());
    out += fmt::format("    effects: {}\n", effectsText(op));
    for (const PtxForm &f : op.ptx) {
      std::string ts;
      for (const TargetInfo &t : allTargets())
        if (f.targets & targetBit(t.target)) ts += (ts.empty() ? "" : ",") + std::string(t.name);
      if (only && !(f.targets & targetBit(*only))) continue;
      out += fmt::format("    ptx [{}]: {}\n", ts, f.ptx);
    }
    uint32_t lowered = loweredOn(op.kind) & op.targets;
    if (only) {
      std::string types = loweredTypes(op.kind, *only);
      out += fmt::format("    lowers on {}: {}\n", targetInfo(*only).name,
                         !(lowered & targetBit(*only)) ? "not yet (-fsyntax-only checks it; -o reports it)"
                         : types.empty()               ? "yes"
                                                       : "yes, for " + types + " operands");
    } else {
      // Targets grouped by the types the op lowers for there, in the order
      // their groups first appear: "sm_80, sm_89 (bf16, f16); sm_90a (bf16)".
      std::vector<std::pair<std::string, std::string>> groups;  // types, targets
      for (const TargetInfo &t : allTargets()) {
        if (!(lowered & targetBit(t.target))) continue;
        std::string types = loweredTypes(op.kind, t.target);
        auto g = std::find_if(groups.begin(), groups.end(), [&](const auto &x) { return x.first == types; });
        if (g == groups.end()) g = groups.insert(groups.end(), {types, ""});
        g->second += (g->second.empty() ? "" : ", ") + std::string(t.name);
      }
      std::string ts;
      for (const auto &[types, names] : groups)
        ts += (ts.empty() ? "" : "; ") + names + (types.empty() ? "" : " (" + types + ")");
      out += fmt::format("    lowers on: {}\n", lowered ? ts : "no target yet");
    }
  }
  return out;
}

std::string formatOpReferenceMarkdown(const std::function<uint32_t(OpKind)> &loweredOn) {
  std::string out;
  out += "This section is generated from the operation table (`src/sema/Ops.def`) by\n"
         "`cakec --list-ops --list-format=markdown`; a test keeps it equal to the table.\n\n";
  // The summary: where each operation is legal and where it lowers.
  out += "| operation |";
  std::string rule = "|---|";
  for (const TargetInfo &t : allTargets()) {
    out += fmt::format(" {} |", t.name);
    rule += ":-:|";
  }
  out += "\n" + rule + "\n";
  for (const OpInfo &op : allOps()) {
    out += fmt::format("| `{}.{}` |", receiverName(op.receiver), op.name);
    uint32_t lowered = loweredOn(op.kind);
    for (const TargetInfo &t : allTargets()) {
      uint32_t bit = targetBit(t.target);
      out += !(op.targets & bit) ? " - |" : (lowered & bit) ? " lowered |" : " checked |";
    }
    out += "\n";
  }
  out += "\n\"lowered\": checked and lowered to CUDA by `-o`; \"checked\": legal there and checked by\n"
         "`-fsyntax-only`, but `-o` does not lower it yet;\n"
         "\"-\": the target lacks it (`hw.unsupported-operation`).\n";

  static constexpr std::pair<OpScope, std::string_view> kGroups[] = {
      {OpScope::Kernel, "Declarations (kernel scope)"},
      {OpScope::Role, "Inside a role"},
      {OpScope::Anywhere, "Values"},
      {OpScope::Loop, "Loops"},
      {OpScope::Family, "Families (in a `@cake.family` function)"},
  };
  for (const auto &[scope, title] : kGroups) {
    out += fmt::format("\n### {}\n", title);
    for (const OpInfo &op : allOps()) {
      if (op.scope != scope) continue;
      out += fmt::format("\n#### `{}`\n\n{}.\n\n", signature(op), op.description);
      if (!op.params.empty()) {
        out += "| parameter | what it takes | default |\n|---|---|---|\n";
        for (const ParamInfo &p : op.params) {
          std::string def = p.required                                 ? "required"
                            : p.defaultKind == ParamInfo::Default::Int ? fmt::format("`{}`", p.defaultInt)
                            : p.defaultKind == ParamInfo::Default::Bool
                                ? std::string(p.defaultInt ? "`True`" : "`False`")
                            : p.defaultKind == ParamInfo::Default::String ? fmt::format("`\"{}\"`", p.defaultString)
                                                                          : std::string("absent");
          std::string kind(paramKindDescription(p.kind));
          out += fmt::format("| `{}` | {} | {} |\n", p.name, kind, def);
        }
        out += "\n";
      }
      out += fmt::format("- Effects: {}.\n", effectsText(op));
      for (const PtxForm &f : op.ptx) {
        std::string ts;
        for (const TargetInfo &t : allTargets())
          if (f.targets & targetBit(t.target)) ts += (ts.empty() ? "" : ", ") + std::string(t.name);
        out += fmt::format("- PTX on {}: `{}`\n", ts, f.ptx);
      }
      uint32_t lowered = loweredOn(op.kind) & op.targets;
      out += fmt::format("- Legal on: {}. Lowered on: {}.\n", op.targetNames(),
                         lowered ? targetNames(lowered) : "no target yet");
    }
  }
  return out;
}

}  // namespace cake::sema
