// Launcher.cpp - each kernel's host launcher (C ABI) and the launcher
// support text, once per file.
#include <fmt/format.h>

#include <functional>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// ---------------------------------------------------------------------------
// the host launcher

std::string boxList(const std::vector<int64_t> &box) {
  std::string s;
  for (size_t i = 0; i < box.size(); ++i) s += (i ? ", " : "") + std::to_string(box[i]);
  return s;
}

// The TMA box of a tensor map: the view's shape, or one panel of it.
std::string boxText(const TensorMap &info) {
  Resource v;
  v.shape = info.box;
  v.dtype = info.dtype;
  v.swizzle = info.swizzle;
  v.bytesPerStage = product(info.box) * dtypeInfo(info.dtype).bits / 8;
  Panels p = panelsOf(v, info.coreMatrices);
  std::string s;
  for (size_t i = 0; i < info.box.size(); ++i) {
    int64_t d = i + 1 == info.box.size() ? p.boxInner : info.box[i];
    if (i == 0 && info.multicast > 1) d /= info.multicast;  // this block's share of the rows
    s += (i ? ", " : "") + std::to_string(d);
  }
  return s;
}

// The global tensors (LM.tensorNd) the kernel copies, with the element type
// and tile of their first copy: what the launcher checks their shape against.
// A tensor the kernel reads one element at a time (OpEffects::oneElement:
// lm.load_scalar) has i32 elements and a tile of ones.
std::map<ResourceId, KernelEmitter::GlobalUse> KernelEmitter::globalTensors() {
  std::map<ResourceId, GlobalUse> uses;
  std::function<void(const std::vector<IrStmt> &)> walk = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      if (s.kind == IrStmt::Kind::Op) {
        const OpInfo &info = s.op.info();
        for (size_t i = 0; i < info.params.size(); ++i) {
          if (info.params[i].kind != ParamKind::GlobalTensorP || !s.op.operands[i].present) continue;
          ResourceId tile = analysis::copyTile(s.op);
          ResourceId tensor = s.op.operands[i].value.resource;
          GlobalUse use;
          std::string what;
          if (tile != kNoResource) {
            const Resource &view = k_.resource(tile);
            // An accumulator-layout vector reads one element per access.
            bool vector = view.kind == ResourceKind::Regs && view.layout == sema::FragmentLayout::Accumulator &&
                          view.shape.size() == 2 && (view.shape[0] == 1 || view.shape[1] == 1);
            use = GlobalUse{view.dtype, analysis::copyExtent(k_, s.op), &s.op,
                            vector ? std::max<int64_t>(1, dtypeInfo(view.dtype).bits / 8) : 16};
            what = fmt::format("a copy of '{}' as {}", k_.resource(tensor).name, dtypeInfo(view.dtype).name);
          } else if (info.effects.oneElement && !info.effects.globalWrite && tensor != kNoResource &&
                     !k_.resource(tensor).workspace) {
            // One element at a time (a scalar read): i32, the elements' alignment.
            use = GlobalUse{kElementDType, std::vector<int64_t>(k_.resource(tensor).rank, 1), &s.op,
                            dtypeInfo(kElementDType).bits / 8, true};
            what = fmt::format("a read of one element of '{}' as {}", k_.resource(tensor).name,
                               dtypeInfo(kElementDType).name);
          } else {
            continue;
          }
          auto [it, fresh] = uses.try_emplace(tensor, use);
          if (fresh) continue;
          if (it->second.dtype != use.dtype) {
            if (!tensorTypesChecked_)
              refuse(DiagId::LowerTensorDtype, s.op.range, what,
                     fmt::format("an earlier copy reads it as {}; a tensor has one element type",
                                 dtypeInfo(it->second.dtype).name));
          } else if (it->second.elementOnly && !use.elementOnly) {  // a copy's tile, not an element's
            use.align = std::max(use.align, it->second.align);
            it->second = use;
          } else {
            it->second.align = std::max(it->second.align, use.align);
          }
        }
      }
      walk(s.body);
      walk(s.orelse);
    }
  };
  for (const RoleBlock &rb : k_.roles) walk(rb.body);
  tensorTypesChecked_ = true;
  return uses;
}

// A scalar's type in the launcher's C signature: CUDA's 16-bit float types
// need CUDA's headers, so the launcher takes their bit pattern and the
// header stays plain C.
namespace {
std::string hostScalarType(DType d) {
  const DTypeInfo &t = dtypeInfo(d);
  if (t.scalar == ScalarKind::Float && t.bits == 16) return "uint16_t";  // bf16, f16
  return std::string(t.cudaType);
}
bool passedAsBits(DType d) { return hostScalarType(d) != dtypeInfo(d).cudaType; }
}  // namespace

// The launcher's checks that a tensor has the shape the schedule declares.
std::string KernelEmitter::shapeChecks(const Resource &tensor, const char *who) const {
  std::string o;
  for (size_t d = 0; d < tensor.dims.size(); ++d) {
    const Resource::Dim &dim = tensor.dims[d];
    std::string want =
        dim.scalar != kNoResource ? "(int64_t)" + ident(k_.resource(dim.scalar).name) : std::to_string(dim.constant);
    std::string what = dim.scalar != kNoResource ? k_.resource(dim.scalar).name + " = %lld" : "%lld";
    o += fmt::format("  if ({0}->shape[{1}] != {2})\n"
                     "    return cake_fail(msg, CAKE_ERROR_SHAPE, \"tensor {3}: dimension {1} is %lld but {5} "
                     "declares it {4}\", (long long){0}->shape[{1}], (long long)({2}));\n",
                     ident(tensor.name), d, want, tensor.name, what, who);
  }
  return o;
}

// A launcher's (or dispatcher's) message buffer, its last_error function
// and the opening of its launch function, up to `msg` cleared.
std::string launcherHead(const std::string &name, const std::string &sig) {
  std::string o = fmt::format("static thread_local char cake_{}_message[512];\n\n", name);
  o += fmt::format("extern \"C\" const char *{}_last_error(void) {{ return cake_{}_message; }}\n\n", name, name);
  o += fmt::format("extern \"C\" int {}_launch({}) {{\n", name, sig);
  o += fmt::format("  char *msg = cake_{}_message;\n", name);
  o += "  msg[0] = '\\0';\n";
  return o;
}

// The launcher's C signature, and a line of documentation per tensor.
std::string KernelEmitter::launcherSignature(std::string &tensorDocs) {
  std::map<ResourceId, GlobalUse> globals = globalTensors();
  std::string sig;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource || p.workspace) continue;
    const Resource &r = k_.resource(p.resource);
    if (!sig.empty()) sig += ", ";
    if (r.kind == ResourceKind::TensorParam) {
      sig += fmt::format("const cake_tensor *{}", ident(p.name));
      auto it = maps_.find(r.id);
      auto g = globals.find(r.id);
      if (g != globals.end())
        tensorDocs += fmt::format("//   {}: rank {}, {}, tile {} (each dimension a multiple of it), moved by a role's "
                                  "threads (cp.async, load_tile, ...)\n",
                                  p.name, r.rank, dtypeInfo(g->second.dtype).name, shapeText(g->second.box));
      else if (it != maps_.end() && !r.dims.empty())
        tensorDocs += fmt::format(
            "//   {}: shape {}, {}, tile {} (partial tiles read as zeros, their stores dropped), swizzle {}\n", p.name,
            declaredShape(k_, r), dtypeInfo(it->second.dtype).name, shapeText(it->second.box),
            swizzleName(it->second.swizzle));
      else if (it != maps_.end())
        tensorDocs +=
            fmt::format("//   {}: rank {}, {}, tile {} (each dimension a multiple of it), swizzle {}\n", p.name, r.rank,
                        dtypeInfo(it->second.dtype).name, shapeText(it->second.box), swizzleName(it->second.swizzle));
      else
        tensorDocs += fmt::format("//   {}: rank {}, not copied by the kernel\n", p.name, r.rank);
      if (!r.dims.empty() && g != globals.end())
        tensorDocs += fmt::format("//      its shape must be {}\n", declaredShape(k_, r));
      if (g != globals.end() && g->second.align != 16)
        tensorDocs +=
            fmt::format("//      moved one element at a time: data and strides {}-byte aligned\n", g->second.align);
    } else {
      sig += fmt::format("{} {}", hostScalarType(r.dtype), ident(p.name));
      if (passedAsBits(r.dtype))
        tensorDocs += fmt::format("//   {}: a {} scalar, passed as its bit pattern ({})\n", p.name,
                                  dtypeInfo(r.dtype).name, hostScalarType(r.dtype));
    }
  }
  std::vector<const Resource *> ws = workspaces();
  if (!ws.empty()) {
    sig += (sig.empty() ? "" : ", ") + std::string("void *workspace, size_t workspace_bytes");
    tensorDocs +=
        fmt::format("//   workspace: device memory of at least {}_workspace_size(...) bytes, 256-byte "
                    "aligned, zero-filled\n//      before its first launch at these scalars (the kernel leaves its "
                    "counters as it found them);\n//      one launch at a time uses it. The reduction through it: "
                    "{}.\n//      It holds:\n",
                    symbol(), analysis::reductionOrder(k_, f_.crossBlock));
    for (const Resource *w : ws) {
      std::string shape;
      for (const Value &e : w->workspaceShape)
        shape +=
            (shape.empty() ? "" : ", ") +
            (e.isConstInt() ? std::to_string(*e.constInt) : (e.ix != kNoIntExpr ? k_.intText(e.ix) : std::string("?")));
      tensorDocs += fmt::format("//      {}: ({}{}) {}\n", w->name, shape, w->workspaceShape.size() == 1 ? "," : "",
                                dtypeInfo(w->dtype).name);
    }
  }
  if (!sig.empty()) sig += ", ";
  sig += "cudaStream_t stream";
  return sig;
}

// The header's declarations for this kernel (--emit=header).
std::string KernelEmitter::headerDeclarations() {
  std::string tensorDocs, sig = launcherSignature(tensorDocs);
  std::string name = symbol();
  std::string o = fmt::format("// Launches '{}' ({} threads, {} B of dynamic shared memory) on `stream`.\n", k_.name,
                              k_.threads, launchSmemBytes());
  o += "// Returns CAKE_SUCCESS, or an error code with a message from " + name + "_last_error().\n";
  o += "// Tensors (shape outermost first, strides in elements, innermost stride 1, data\n"
       "// 16-byte aligned, other strides multiples of 16 bytes, unless noted):\n";
  for (size_t pos = 0; pos < tensorDocs.size();) {  // "//   A: ..." -> "//   A: ..."
    size_t end = tensorDocs.find('\n', pos);
    o += tensorDocs.substr(pos, end - pos + 1);
    pos = end + 1;
  }
  o += fmt::format("int {}_launch({});\n", name, sig);
  if (!workspaces().empty()) o += fmt::format("int {}_workspace_size({});\n", name, workspaceSizeSignature());
  o += fmt::format("const char *{}_last_error(void);\n", name);
  return o;
}

// One object per parameter the caller passes, in the launcher's order. A
// tensor's element type is that of its copies (null where nothing moves it);
// its access says whether the kernel reads it ("in"), writes it and never
// reads it ("out"), or both ("inout"). Nothing says an output is written
// whole: the coverage analysis finds gaps in the tiles' pattern, it does not
// prove that the grid and the guards reach every element.
std::string KernelEmitter::interfaceParams(const std::vector<KernelEmitter *> &routes) {
  std::map<ResourceId, GlobalUse> globals = globalTensors();
  // This kernel's facts of the tensor parameter named `name`, or, for a
  // family's signature, the first route's that moves it.
  struct TensorUse {
    std::optional<DType> dtype;
    analysis::ParamAccess access;
  };
  auto useOf = [&](KernelEmitter &e, const std::string &name, TensorUse &u) {
    std::map<ResourceId, GlobalUse> g = &e == this ? globals : e.globalTensors();
    for (const Resource &r : e.k_.resources) {
      if (r.kind != ResourceKind::TensorParam || r.name != name) continue;
      if (auto it = e.maps_.find(r.id); it != e.maps_.end() && !u.dtype) u.dtype = it->second.dtype;
      if (auto it = g.find(r.id); it != g.end() && !u.dtype) u.dtype = it->second.dtype;
      if (auto it = e.f_.paramAccess.find(r.id); it != e.f_.paramAccess.end()) {
        u.access.reads |= it->second.reads;
        u.access.writes |= it->second.writes;
      }
    }
  };
  bool workspace = !workspaces().empty();
  for (KernelEmitter *e : routes) workspace |= !e->workspaces().empty();
  std::string out;
  auto item = [&](const std::string &text) { out += (out.empty() ? "\n      " : ",\n      ") + text; };
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource || p.workspace) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind == ResourceKind::TensorParam) {
      TensorUse u;
      if (routes.empty()) useOf(*this, p.name, u);
      for (KernelEmitter *e : routes) useOf(*e, p.name, u);
      std::string shape;
      for (const Resource::Dim &d : r.dims)
        shape += (shape.empty() ? "" : ", ") + (d.scalar != kNoResource
                                                    ? "\"" + jsonEscape(ident(k_.resource(d.scalar).name)) + "\""
                                                    : std::to_string(d.constant));
      const char *access = u.access.writes ? (u.access.reads ? "inout" : "out") : u.access.reads ? "in" : "none";
      item(fmt::format("{{\"name\": \"{}\", \"kind\": \"tensor\", \"rank\": {}, \"shape\": {}, \"dtype\": {}, "
                       "\"access\": \"{}\"}}",
                       jsonEscape(ident(p.name)), r.rank, r.dims.empty() ? "null" : "[" + shape + "]",
                       u.dtype ? "\"" + std::string(dtypeInfo(*u.dtype).name) + "\"" : "null", access));
    } else
      item(fmt::format("{{\"name\": \"{}\", \"kind\": \"scalar\", \"ctype\": \"{}\", \"dtype\": \"{}\", "
                       "\"bits\": {}}}",
                       jsonEscape(ident(p.name)), hostScalarType(r.dtype), dtypeInfo(r.dtype).name,
                       passedAsBits(r.dtype) ? "true" : "false"));
  }
  if (workspace) item("{\"name\": \"workspace\", \"kind\": \"workspace\"}");
  return "[" + out + "\n    ]";
}

void KernelEmitter::launcher(std::string &text) {
  std::string name = symbol();
  std::map<ResourceId, GlobalUse> globals = globalTensors();
  std::string tensorDocs, callArgs;
  std::string sig = launcherSignature(tensorDocs);

  std::string o;
  o += fmt::format("// ---- host launcher for '{}' ----\n", k_.name);
  o += fmt::format("//\n// int {}_launch({});\n", name, sig);
  o += "//   Checks its arguments, builds the tensor maps and launches the kernel on `stream`.\n";
  o += "//   Returns CAKE_SUCCESS, or an error code with a message from " + name + "_last_error().\n";
  o += "//   Tensors (shape outermost first, strides in elements, innermost stride 1, data\n"
       "//   16-byte aligned, other strides multiples of 16 bytes, unless noted):\n" +
       tensorDocs;
  std::vector<const Resource *> ws = workspaces();
  o += workspaceLayout();
  if (checkWaits()) o += waitSitesTable();
  o += valueSitesTable();
  o += launcherHead(name, sig);
  if (readsValues())
    o += fmt::format("  if (int e = cake_value_fault_earlier(&cake_{}_values, msg)) return e;\n", name);
  std::string scalars;  // the integer scalars, for the workspace's layout
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind == ResourceKind::ScalarParam && dtypeInfo(r.dtype).scalar == ScalarKind::Int)
      scalars += "(int64_t)" + ident(p.name) + ", ";
  }
  // Tensor checks and maps.
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::TensorParam || (p.workspace && !r.tma)) continue;
    if (auto g = globals.find(r.id); !p.workspace && g != globals.end()) {
      std::string outer;
      for (size_t i = g->second.box.size(); i < r.rank; ++i) outer += "1, ";
      o += fmt::format("  const int64_t cake_{}_tile[{}] = {{{}{}}};\n", ident(p.name), r.rank, outer,
                       boxList(g->second.box));
      o += fmt::format(
          "  if (int e = cake_check_tensor({0}, \"{1}\", {2}, {3}, \"{4}\", {5}, cake_{0}_tile, msg{6})) return e;\n",
          ident(p.name), p.name, r.rank, dtypeCode(g->second.dtype), upperName(g->second.dtype),
          dtypeInfo(g->second.dtype).bits / 8, g->second.align == 16 ? "" : fmt::format(", {}", g->second.align));
      o += shapeChecks(r);
      continue;
    }
    auto it = maps_.find(r.id);
    if (it == maps_.end()) continue;
    const TensorMap &info = it->second;
    // A view of lower rank than its tensor copies a box of extent 1 in the
    // tensor's outer dimensions (a 2-d tile of one head of a 3-d tensor).
    std::string outer;
    for (size_t i = info.box.size(); i < r.rank; ++i) outer += "1, ";
    std::string box = boxList(info.box);
    // The tile is the tensor map's box unless a panel is, and the launcher's
    // multiple unless the shape is declared.
    if (boxText(info) == box || (r.dims.empty() && !p.workspace))  // a workspace is not checked by tiles
      o += fmt::format("  const int64_t cake_{}_tile[{}] = {{{}{}}};\n", ident(p.name), r.rank, outer, box);
    if (boxText(info) != box)
      o += fmt::format(
          "  const int64_t cake_{}_box[{}] = {{{}{}}};  // {}\n", ident(p.name), r.rank, outer, boxText(info),
          info.multicast > 1 ? "this block's share of the tile's rows (multicast)" : "one panel of the tile");
    if (p.workspace) continue;  // laid out by the launcher below: its tensor map's box only
    // A declared shape may end in a partial tile in any dimension: TMA reads
    // zeros past the end and drops stores there.
    std::string multiple = "tile";
    if (!r.dims.empty()) {
      std::string m;
      for (size_t d = 0; d < r.rank; ++d) m += d ? ", 1" : "1";
      o += fmt::format("  const int64_t cake_{}_multiple[{}] = {{{}}};  // partial tiles allowed\n", ident(p.name),
                       r.rank, m);
      multiple = "multiple";
    }
    o += fmt::format(
        "  if (int e = cake_check_tensor({0}, \"{1}\", {2}, {3}, \"{4}\", {5}, cake_{0}_{6}, msg)) return e;\n",
        ident(p.name), p.name, r.rank, dtypeCode(info.dtype), upperName(info.dtype), dtypeInfo(info.dtype).bits / 8,
        multiple);
    o += shapeChecks(r);
  }
  if (!ws.empty()) {
    // The workspace tensors, placed in the caller's buffer (after the caller's
    // tensors are checked: their errors come first).
    o += fmt::format("  int64_t cake_ws_shape[{0}][5], cake_ws_offset[{0}], cake_ws_bytes = 0;\n", ws.size());
    o += fmt::format("  if (int e = cake_{}_workspace_layout({}cake_ws_shape, cake_ws_offset, &cake_ws_bytes, msg)) "
                     "return e;\n",
                     name, scalars);
    o += fmt::format(
        "  if (!workspace)\n    return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, \"the workspace is null; this "
        "launch needs %lld bytes ({0}_workspace_size)\", (long long)cake_ws_bytes);\n"
        "  if (reinterpret_cast<uintptr_t>(workspace) % 256 != 0)\n    return cake_fail(msg, CAKE_ERROR_MISALIGNED, "
        "\"the workspace %p is not 256-byte aligned\", workspace);\n"
        "  if ((uint64_t)workspace_bytes < (uint64_t)cake_ws_bytes)\n    return cake_fail(msg, CAKE_ERROR_SHAPE, \"the "
        "workspace has %llu bytes; this launch needs %lld ({0}_workspace_size)\", (unsigned long long)workspace_bytes, "
        "(long long)cake_ws_bytes);\n",
        name);
    for (size_t i = 0; i < ws.size(); ++i) {
      const Resource &w = *ws[i];
      o += fmt::format("  cake_tensor cake_ws_{0};  // workspace tensor {1}: contiguous\n"
                       "  memset(&cake_ws_{0}, 0, sizeof cake_ws_{0});\n"
                       "  cake_ws_{0}.data = static_cast<uint8_t *>(workspace) + cake_ws_offset[{2}];\n"
                       "  cake_ws_{0}.rank = {3};\n  cake_ws_{0}.dtype = {4};\n",
                       ident(w.name), cStringText(w.name), i, w.rank, dtypeCode(w.dtype));
      o += fmt::format("  for (int cake_d = {0} - 1; cake_d >= 0; --cake_d) {{\n"
                       "    cake_ws_{1}.shape[cake_d] = cake_ws_shape[{2}][cake_d];\n"
                       "    cake_ws_{1}.stride[cake_d] = cake_d == {0} - 1 ? 1 : cake_ws_{1}.stride[cake_d + 1] * "
                       "cake_ws_{1}.shape[cake_d + 1];\n  }}\n",
                       w.rank, ident(w.name), i);
      o += fmt::format("  const cake_tensor *{0} = &cake_ws_{0};\n", ident(w.name));
    }
  }
  // Grid.
  std::vector<std::string> grid = {"1", "1", "1"};
  // A divisor that is a run-time value is checked before the grid divides
  // by it (a host division by zero would end the user's program).
  std::string divisors = divisorChecks(
      [&] {
        for (size_t i = 0; i < k_.grid.size() && i < 3; ++i) grid[i] = value(k_.grid[i], true);
      },
      [](const std::string &source) {
        return fmt::format("return cake_fail(msg, CAKE_ERROR_SHAPE, \"the grid divides by {}, which is 0\");",
                           cStringText(source, true));
      });
  if (usesSmCount_) {
    o += "  int cake_device = 0, cake_sm_count = 0;\n";
    o += "  if (cudaGetDevice(&cake_device) != cudaSuccess ||\n"
         "      cudaDeviceGetAttribute(&cake_sm_count, cudaDevAttrMultiProcessorCount, cake_device) != cudaSuccess)\n"
         "    return cake_fail(msg, CAKE_ERROR_LAUNCH, \"cannot read the device's multiprocessor count\");\n";
  }
  // The divisors and the grid are computed with the integer scalars widened
  // to int64 (a lambda's parameters of their names), the grid itself in
  // overflow-checked int64 (cake_iv).
  std::string wide, widened;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::ScalarParam || dtypeInfo(r.dtype).scalar != ScalarKind::Int) continue;
    wide += (wide.empty() ? "" : ", ") + std::string("int64_t ") + ident(p.name);
    widened += (widened.empty() ? "" : ", ") + ident(p.name);
  }
  o += "  int64_t cake_grid[3];\n";
  o += fmt::format("  if (int e = [&]({}) -> int {{  // the scalars in int64\n", wide);
  o += divisors;
  o += gridValues(grid);
  o += "    return CAKE_SUCCESS;\n";
  o += fmt::format("  }}({}))\n    return e;\n", widened);
  o += "  if (cake_grid[0] <= 0 || cake_grid[1] <= 0 || cake_grid[2] <= 0 || cake_grid[0] > 2147483647 ||\n"
       "      cake_grid[1] > 65535 || cake_grid[2] > 65535)\n";
  o += fmt::format(
      "    return cake_fail(msg, CAKE_ERROR_SHAPE, \"the grid ({}, {}, {}) = (%lld, %lld, %lld) is empty or "
      "too large\", (long long)cake_grid[0], (long long)cake_grid[1], (long long)cake_grid[2]);\n",
      grid[0], grid[1], grid[2]);
  for (int i = 0; i < 3; ++i)
    if (k_.cluster[i] > 1)
      o += fmt::format("  if (cake_grid[{0}] % {1} != 0)\n    return cake_fail(msg, CAKE_ERROR_SHAPE, \"grid dimension "
                       "{0} (%lld) is not a multiple of the cluster's {1}\", (long long)cake_grid[{0}]);\n",
                       i, k_.cluster[i]);
  o += rangeChecks();
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    auto it = maps_.find(r.id);
    if (r.kind != ResourceKind::TensorParam) continue;
    if (!r.tma) {
      o += fmt::format("  cake_gtensor cake_map_{0};  // the pointer and strides the kernel reads\n"
                       "  memset(&cake_map_{0}, 0, sizeof cake_map_{0});\n",
                       ident(p.name));
      if (globals.count(r.id) || r.workspace)
        o += fmt::format(
            "  cake_map_{0}.data = static_cast<uint8_t *>({0}->data);\n"
            "  for (int cake_d = 0; cake_d < {1}; ++cake_d) cake_map_{0}.stride[cake_d] = {0}->stride[cake_d];\n",
            ident(p.name), r.rank);
      continue;
    }
    if (r.workspace)  // a TMA workspace: the threads also address it (load_tile, atomics)
      o += fmt::format("  cake_gtensor cake_gmap_{0};  // the pointer and strides the kernel's threads read\n"
                       "  memset(&cake_gmap_{0}, 0, sizeof cake_gmap_{0});\n"
                       "  cake_gmap_{0}.data = static_cast<uint8_t *>({0}->data);\n"
                       "  for (int cake_d = 0; cake_d < {1}; ++cake_d) cake_gmap_{0}.stride[cake_d] = "
                       "{0}->stride[cake_d];\n",
                       ident(p.name), r.rank);
    o += fmt::format("  CUtensorMap cake_map_{};\n", ident(p.name));
    if (it == maps_.end()) {
      o += fmt::format("  memset(&cake_map_{}, 0, sizeof cake_map_{});\n", ident(p.name), ident(p.name));
      continue;
    }
    const TensorMap &info = it->second;
    std::string box = boxText(info) != boxList(info.box) ? "box" : "tile";
    if (info.clipExtent != kNoResource && ti_.tma()) {
      // A tensor shorter than the box in its outer dimension: the box is cut
      // to it (the kernel copies that many rows and zeroed the rest).
      o += fmt::format("  int64_t cake_{0}_cut[{1}];  // the box, its outer dimension cut to a shorter tensor\n"
                       "  memcpy(cake_{0}_cut, cake_{0}_{2}, sizeof cake_{0}_cut);\n"
                       "  if ({0}->shape[0] < cake_{0}_cut[0]) cake_{0}_cut[0] = {0}->shape[0];\n",
                       ident(p.name), r.rank, box);
      box = "cut";
    }
    o += fmt::format("  if (int e = cake_encode_tensor_map(&cake_map_{0}, {0}, \"{1}\", {2}, "
                     "CU_TENSOR_MAP_DATA_TYPE_{3}, {4}, cake_{0}_{6}, {5}, msg)) return e;\n",
                     ident(p.name), p.name, r.rank, dtypeInfo(info.dtype).tensorMapType, dtypeInfo(info.dtype).bits / 8,
                     tensorMapSwizzle(info.swizzle), box);
  }
  o += fmt::format("  cudaError_t err = cudaFuncSetAttribute({}, cudaFuncAttributeMaxDynamicSharedMemorySize, {});\n",
                   name, launchSmemBytes());
  o += "  if (err != cudaSuccess)\n"
       "    return cake_fail(msg, CAKE_ERROR_LAUNCH, \"cannot raise the dynamic shared memory limit to " +
       std::to_string(launchSmemBytes()) + " bytes: %s\", cudaGetErrorString(err));\n";
  o += "  cudaLaunchConfig_t config = {};\n";
  o += "  config.gridDim = dim3((unsigned)cake_grid[0], (unsigned)cake_grid[1], (unsigned)cake_grid[2]);\n";
  o += fmt::format("  config.blockDim = dim3({}, 1, 1);\n", k_.threads);
  o += fmt::format("  config.dynamicSmemBytes = {};\n", launchSmemBytes());
  o += "  config.stream = stream;\n";
  if (waitsOnFlags()) {
    // A block that waits on a flag waits for other blocks of the grid, which
    // must then be running: all resident at once, or the launch fails.
    // Only where some flag's element is shared by more than one block of
    // this launch: the grid dimensions its coordinates do not name.
    std::string shared;
    for (const analysis::FlagWait &w : f_.crossBlock.flagWaits) {
      std::string product;
      for (int d = 0; d < 3; ++d)
        if (!w.sharersKnown || !w.blockDims.count(d))
          product += fmt::format("{}cake_grid[{}]", product.empty() ? "" : " * ", d);
      shared += fmt::format("{}{} > 1", shared.empty() ? "" : " || ", product.empty() ? "1" : product);
    }
    o += "  cudaLaunchAttribute attrs[1];\n"
         "  attrs[0].id = cudaLaunchAttributeCooperative;  // lm.wait_flag: every block resident at once\n";
    o += fmt::format("  attrs[0].val.cooperative = ({}) ? 1 : 0;  // where blocks share a flag's element\n",
                     shared.empty() ? "0" : shared);
    o += "  config.attrs = attrs;\n"
         "  config.numAttrs = 1;\n";
  } else if (!ti_.clusters) {
    o += "  config.numAttrs = 0;  // no clusters on this target\n";
  } else {
    o += "  cudaLaunchAttribute attrs[1];\n";
    o += fmt::format("  attrs[0].id = cudaLaunchAttributeClusterDimension;\n"
                     "  attrs[0].val.clusterDim.x = {};\n  attrs[0].val.clusterDim.y = {};\n"
                     "  attrs[0].val.clusterDim.z = {};\n",
                     k_.cluster[0], k_.cluster[1], k_.cluster[2]);
    o += "  config.attrs = attrs;\n";
    o += "  config.numAttrs = 1;\n";
  }
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind == ResourceKind::ScalarParam && passedAsBits(r.dtype)) {
      o += fmt::format(
          "  {0} cake_arg_{1};  // from its bit pattern\n  memcpy(&cake_arg_{1}, &{1}, sizeof cake_arg_{1});\n",
          dtypeInfo(r.dtype).cudaType, ident(p.name));
      callArgs += ", cake_arg_" + ident(p.name);
      continue;
    }
    callArgs += ", " + (r.kind == ResourceKind::TensorParam ? "cake_map_" + ident(p.name) : ident(p.name));
    if (r.kind == ResourceKind::TensorParam && r.tma && r.workspace) callArgs += ", cake_gmap_" + ident(p.name);
  }
  if (readsValues()) {
    o += fmt::format("  cake_value_fault *cake_vfault = cake_value_fault_device(&cake_{}_values);\n", name);
    callArgs += ", cake_vfault";
  }
  if (opts_.jitterSeed) callArgs += fmt::format(", cake_jitter_seed_of({}u)", opts_.jitterSeed);
  if (checkWaits()) {
    o += fmt::format("  if (int e = cake_wait_capturing(stream, msg)) return e;\n"
                     "  // -fcheck-waits: a wait that runs out records itself in host memory the kernel writes "
                     "through.\n"
                     "  cake_wait_log *cake_wlog = cake_wait_log_host();\n"
                     "  cake_wait_log *cake_wlog_dev = NULL;\n"
                     "  if (cake_wlog && cudaHostGetDevicePointer((void **)&cake_wlog_dev, cake_wlog, 0) != "
                     "cudaSuccess) {{\n"
                     "    (void)cudaGetLastError();\n"
                     "    cake_wlog = NULL;  // a wait that runs out then stops the kernel without a record\n"
                     "  }}\n"
                     "  const uint64_t cake_wait_budget = cake_wait_budget_ns({});\n",
                     opts_.checkWaitsSeconds);
    callArgs += ", cake_wlog_dev, cake_wait_budget";
  }
  if (checkWaits()) o += "  cudaEvent_t cake_started = cake_wait_start_event(stream);\n";
  o += fmt::format("  err = cudaLaunchKernelEx(&config, {}{});\n", name, callArgs);
  if (waitsOnFlags())
    o += "  if (err == cudaErrorCooperativeLaunchTooLarge)\n"
         "    return cake_fail(msg, CAKE_ERROR_LAUNCH, \"launch failed: its blocks wait on flags (lm.wait_flag), so "
         "all \"\n"
         "                     \"%lld of them must be resident at once, more than the device holds: %s\",\n"
         "                     (long long)(cake_grid[0] * cake_grid[1] * cake_grid[2]), cudaGetErrorString(err));\n";
  o += "  if (err != cudaSuccess)\n"
       "    return cake_fail(msg, CAKE_ERROR_LAUNCH, \"launch failed: %s\", cudaGetErrorString(err));\n";
  if (checkWaits() && readsValues())  // the kernel has finished: a stop on a value is its error
    o += fmt::format("  int cake_e = cake_wait_for_kernel(msg, stream, cake_wlog, {}, {}u, cake_wait_budget, \"{}\", "
                     "cake_started);\n"
                     "  if (cake_e != CAKE_SUCCESS && cake_value_fault_earlier(&cake_{}_values, msg)) return "
                     "CAKE_ERROR_VALUE_RANGE;\n  return cake_e;\n",
                     waitSites_.empty() ? "NULL" : fmt::format("cake_{}_waits", name), waitSites_.size(),
                     cStringText(k_.name), name);
  else if (checkWaits())
    o += fmt::format("  return cake_wait_for_kernel(msg, stream, cake_wlog, {}, {}u, cake_wait_budget, \"{}\", "
                     "cake_started);\n",
                     waitSites_.empty() ? "NULL" : fmt::format("cake_{}_waits", name), waitSites_.size(),
                     cStringText(k_.name));
  else
    o += "  return CAKE_SUCCESS;\n";
  o += "}\n";
  if (!ws.empty()) {
    o += fmt::format("\n// The bytes of workspace a launch at these scalars needs (in *bytes).\n"
                     "extern \"C\" int {0}_workspace_size({1}) {{\n"
                     "  char *msg = cake_{0}_message;\n  msg[0] = '\\0';\n"
                     "  if (!bytes) return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, \"bytes is null\");\n"
                     "  int64_t cake_ws_shape[{2}][5], cake_ws_offset[{2}], cake_ws_bytes = 0;\n"
                     "  if (int e = cake_{0}_workspace_layout({3}cake_ws_shape, cake_ws_offset, &cake_ws_bytes, msg)) "
                     "return e;\n"
                     "  *bytes = (size_t)cake_ws_bytes;\n  return CAKE_SUCCESS;\n}}\n",
                     name, workspaceSizeSignature(), ws.size(), scalars);
  }
  text = o;
}

// NAME_workspace_size's parameters: the launcher's scalars, then where the
// size goes.
std::string KernelEmitter::workspaceSizeSignature() const {
  std::string sig;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind == ResourceKind::ScalarParam) sig += fmt::format("{} {}, ", hostScalarType(r.dtype), ident(p.name));
  }
  return sig + "size_t *bytes";
}

// Runtime support of the launchers, once per file.
// cake_tensor and the error codes: in the generated file and in its header
// (--emit=header), guarded so that both can be included.
// cake_tensor's dtype codes: CAKE_DTYPE_<NAME> = its place in DTypes.def,
// from 1 (0: not set). The order is ABI: new types go at the end.
std::string dtypeCode(DType d) {
  std::string n(dtypeInfo(d).name);
  for (char &c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "CAKE_DTYPE_" + n;
}

static std::string tensorTypes() {
  std::string codes;
  for (const DTypeInfo &t : allDTypes())
    codes += fmt::format("  {} = {},\n", dtypeCode(t.dtype), static_cast<int>(t.dtype) + 1);
  return R"CAKE(#ifndef CAKE_TENSOR_DEFINED
#define CAKE_TENSOR_DEFINED
// A tensor argument: a device pointer with its shape (outermost first, as in
// PyTorch) and strides in elements, its rank (only the first `rank` entries
// are read) and its element type (a CAKE_DTYPE_ code); the launcher checks
// both against the schedule.
typedef struct cake_tensor {
  void *data;
  int64_t shape[5];
  int64_t stride[5];
  int32_t rank;
  int32_t dtype;
} cake_tensor;
enum {
  CAKE_SUCCESS = 0,
  CAKE_ERROR_INVALID_ARGUMENT = 1,  // a null tensor or pointer, a wrong rank or dtype, a stride that is not 1 innermost
  CAKE_ERROR_MISALIGNED = 2,        // data or a stride not 16-byte aligned
  CAKE_ERROR_SHAPE = 3,             // a dimension not a multiple of the kernel's tile or not the declared size, an empty grid
  CAKE_ERROR_DRIVER = 4,            // the driver's tensor-map entry point failed
  CAKE_ERROR_LAUNCH = 5             // the launch or a launch attribute failed
};
enum {  // cake_tensor.dtype
)CAKE" + codes +
         R"CAKE(};
#endif
)CAKE";
}

const std::string kTensorTypes = tensorTypes();

const std::string kLauncherSupport = std::string("// ---- launcher support (host) ----\n") + kTensorTypes + R"CAKE(
static int cake_fail(char *msg, int code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(msg, 512, format, args);
  va_end(args);
  return code;
}

// int64 arithmetic that reports overflow instead of wrapping (CERT INT32-C).
[[maybe_unused]] static inline int cake_add64(int64_t a, int64_t b, int64_t *r) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return 0;
  *r = a + b;
  return 1;
}
[[maybe_unused]] static inline int cake_mul64(int64_t a, int64_t b, int64_t *r) {
  if (a != 0 && b != 0 &&
      (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b)))
    return 0;
  *r = a * b;
  return 1;
}

// align: the bytes the data and the outer strides are a multiple of (16 for
// TMA and vector accesses; an element's size for one-element accesses).
static int cake_check_tensor(const cake_tensor *t, const char *name, int rank, int dtype, const char *dtype_name,
                             int64_t elem_bytes, const int64_t *tile, char *msg, int64_t align = 16) {
  if (!t || !t->data) return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, "tensor %s is null", name);
  if (t->rank != rank)
    return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, "tensor %s: rank %d, but the kernel takes a rank-%d tensor", name,
                     (int)t->rank, rank);
  if (t->dtype != dtype)
    return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT,
                     "tensor %s: dtype code %d, but the kernel reads it as %s (CAKE_DTYPE_%s = %d)", name,
                     (int)t->dtype, dtype_name, dtype_name, dtype);
  if (reinterpret_cast<uintptr_t>(t->data) % align != 0)
    return cake_fail(msg, CAKE_ERROR_MISALIGNED, "tensor %s: data %p is not %lld-byte aligned", name, t->data,
                     (long long)align);
  if (t->stride[rank - 1] != 1)
    return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, "tensor %s: the innermost stride is %lld, not 1", name,
                     (long long)t->stride[rank - 1]);
  for (int d = 0; d < rank; ++d) {
    if (t->shape[d] <= 0 || t->shape[d] > (int64_t(1) << 32) || t->shape[d] % tile[d] != 0)
      return cake_fail(msg, CAKE_ERROR_SHAPE, "tensor %s: dimension %d is %lld; it must be a positive multiple of %lld",
                       name, d, (long long)t->shape[d], (long long)tile[d]);
    // At most 2^40 bytes, TMA's limit for every tensor: the product with the
    // element size is then exact. The stride of a dimension of extent 1
    // addresses nothing (its one coordinate is 0): any value passes, as
    // torch gives a (1, N) tensor stride 1 or N alike.
    if (t->shape[d] == 1) continue;
    if (d < rank - 1 && (t->stride[d] <= 0 || t->stride[d] > (int64_t(1) << 40) / elem_bytes))
      return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT,
                       "tensor %s: stride %d is %lld elements; it must be positive and at most 2^40 bytes", name, d,
                       (long long)t->stride[d]);
    if (d < rank - 1 && (t->stride[d] * elem_bytes) % align != 0)
      return cake_fail(msg, CAKE_ERROR_MISALIGNED, "tensor %s: stride %d is %lld elements; it must be a positive multiple of %lld bytes",
                       name, d, (long long)t->stride[d], (long long)align);
  }
  // The byte just past the last element: every offset the kernel computes
  // (checked against the shape by the launcher) lies below it, in int64 and
  // in the address space.
  int64_t end = 1, step = 0;
  for (int d = 0; d < rank; ++d)
    if (t->shape[d] > 1 && !cake_mul64(t->stride[d], t->shape[d] - 1, &step) || !cake_add64(end, step, &end)) {
      end = -1;
      break;
    }
  if (end < 0 || !cake_mul64(end, elem_bytes, &end) || (uintptr_t)end > UINTPTR_MAX - (uintptr_t)t->data)
    return cake_fail(msg, CAKE_ERROR_SHAPE, "tensor %s: its shape and strides span more than the address space", name);
  return CAKE_SUCCESS;
}

)CAKE" + kRangeSupport;

// The tensor-map encoder, for files whose kernels copy with TMA.
const char *const kTensorMapSupport =
    R"CAKE(// cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda).
static int cake_encode_tensor_map(CUtensorMap *map, const cake_tensor *t, const char *name, int rank,
                                  CUtensorMapDataType type, int64_t elem_bytes, const int64_t *tile,
                                  CUtensorMapSwizzle swizzle, char *msg) {
  // Looked up once, by the first launch of any thread (a function-local
  // static: C++11 initialises it once, other threads wait for it).
  struct cake_encoder {
    PFN_cuTensorMapEncodeTiled_v12000 fn;
    cudaError_t err;
  };
  static const cake_encoder encoder = [] {
    cudaDriverEntryPointQueryResult query;
    void *fn = nullptr;
    cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &query);
    if (err == cudaSuccess && (query != cudaDriverEntryPointSuccess || !fn)) err = cudaErrorSymbolNotFound;
    return cake_encoder{err == cudaSuccess ? reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn) : nullptr, err};
  }();
  if (!encoder.fn)
    return cake_fail(msg, CAKE_ERROR_DRIVER, "cannot find cuTensorMapEncodeTiled in the driver: %s",
                     cudaGetErrorString(encoder.err));
  PFN_cuTensorMapEncodeTiled_v12000 encode = encoder.fn;
  cuuint64_t dims[5], strides[5];
  cuuint32_t box[5], elem_strides[5];
  // L2 fetches of 256 bytes when every row starts on a 256-byte line;
  // otherwise 128 (rows of 8176 bytes: 256-byte fetches of rows that start
  // mid-line made a 4096x4096x4088 GEMM 1.2x slower on the H200,
  // bench/results/gemm_family_routes_2026-12-01).
  bool lines256 = (uintptr_t)t->data % 256 == 0;
  for (int i = 0; i < rank; ++i) {  // innermost first
    int d = rank - 1 - i;
    dims[i] = (cuuint64_t)t->shape[d];
    box[i] = (cuuint32_t)tile[d];
    elem_strides[i] = 1;
    if (i > 0) {
      // A dimension of extent 1 (whatever its stride, cake_check_tensor):
      // the span of the dimensions inside it, in whole 16-byte units, as TMA
      // asks of every stride.
      strides[i - 1] = t->shape[d] == 1 ? (i == 1 ? dims[0] * (cuuint64_t)elem_bytes : strides[i - 2] * dims[i - 1])
                                        : (cuuint64_t)(t->stride[d] * elem_bytes);
      if (t->shape[d] == 1) strides[i - 1] = (strides[i - 1] + 15) / 16 * 16;
      lines256 = lines256 && strides[i - 1] % 256 == 0;
    }
  }
  CUresult r = encode(map, type, (cuuint32_t)rank, t->data, dims, strides, box, elem_strides,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                      lines256 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return cake_fail(msg, CAKE_ERROR_DRIVER, "tensor %s: cuTensorMapEncodeTiled failed (CUresult %d)", name, (int)r);
  return CAKE_SUCCESS;
}

)CAKE";

}  // namespace cake::codegen::detail
