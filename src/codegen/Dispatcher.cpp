// Dispatcher.cpp - a kernel family's dispatcher (C ABI, like the launchers):
// it checks the shape against the family's declared domain and shapes, and
// launches the first route whose guard holds, else the fallback.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

namespace {
// The integer parameters the guards and the domain range over (the
// analysis's dims), as the dispatcher's C text needs them.
struct Dims {
  std::string decl;            // "int32_t M, int32_t N"
  std::string wide;            // "int64_t M, int64_t N": the guards compute in 64 bits
  std::string args;            // "M, N"
  std::string format, values;  // "M = %lld, N = %lld" and ", (long long)M, (long long)N"
  std::string domain;          // "M in 1 .. 16384, N in 8 .. 65536 (a multiple of 8)"
};
Dims dimsOf(const Kernel &sig, const Family &fam, const analysis::FamilyFacts &f) {
  Dims d;
  for (ResourceId id : f.dims) {
    const Resource &r = sig.resource(id);
    std::string sep = d.args.empty() ? "" : ", ";
    d.decl += sep + fmt::format("{} {}", dtypeInfo(r.dtype).cudaType, ident(r.name));
    d.wide += sep + fmt::format("int64_t {}", ident(r.name));
    d.args += sep + ident(r.name);
    d.format += sep + r.name + " = %lld";
    d.values += ", (long long)" + ident(r.name);
    FamilyDomain dom = fam.domainOf(id);
    d.domain += sep + fmt::format("{} in {} .. {}{}", r.name, dom.lo, dom.hi,
                                  dom.multiple > 1 ? fmt::format(" (a multiple of {})", dom.multiple) : "");
  }
  if (d.decl.empty()) d.decl = d.wide = "void";
  return d;
}

// Whether a route's schedule takes a workspace (lm.workspace).
bool takesWorkspace(const Kernel &k) {
  for (const KernelParam &p : k.params)
    if (p.workspace) return true;
  return false;
}

// The family's launch signature: its schedules', and the workspace before
// the stream when a route takes one.
std::string withWorkspace(std::string sig, bool ws) {
  const std::string stream = "cudaStream_t stream";
  if (ws && sig.size() >= stream.size() && sig.compare(sig.size() - stream.size(), stream.size(), stream) == 0)
    sig.insert(sig.size() - stream.size(), "void *workspace, size_t workspace_bytes, ");
  return sig;
}
}  // namespace

bool KernelEmitter::familyWorkspace(const Family &fam) {
  for (const FamilyRoute &r : fam.routes)
    if (takesWorkspace(*r.schedule)) return true;
  return fam.fallback && takesWorkspace(*fam.fallback->schedule);
}

std::string KernelEmitter::dispatcherDeclarations(const Family &fam, const analysis::FamilyFacts &f) {
  std::string docs, sig = launcherSignature(docs);
  bool ws = familyWorkspace(fam);
  sig = withWorkspace(sig, ws);
  std::string name = symbol();
  Dims dims = dimsOf(k_, fam, f);
  std::string o =
      fmt::format("// Family '{}': launches the first of its routes whose guard holds, else its fallback.\n", k_.name);
  o += fmt::format("// Shapes outside its domain ({}) are CAKE_ERROR_SHAPE.\n", dims.domain);
  o += fmt::format("int {}_launch({});\n", name, sig);
  if (ws)
    o += "// The workspace bytes the route a shape takes needs (0 for a route without one).\n" +
         fmt::format("int {}_workspace_size({});\n", name, workspaceSizeSignature());
  o += fmt::format("const char *{}_last_error(void);\n", name);
  o += "// The name of the route a shape takes (the fallback's when no guard holds), or NULL outside the domain\n"
       "// (and where a guard would divide by zero).\n";
  o += fmt::format("const char *{}_route({});\n", name, dims.decl);
  return o;
}

std::string KernelEmitter::dispatcher(const Family &fam, const analysis::FamilyFacts &f,
                                      const std::vector<std::string> &symbols) {
  std::string name = symbol();
  std::string docs, sig = launcherSignature(docs);
  bool ws = familyWorkspace(fam);
  sig = withWorkspace(sig, ws);
  Dims dims = dimsOf(k_, fam, f);
  std::string args, scalars;
  for (const KernelParam &p : k_.params)
    if (!p.isBuilder && p.resource != kNoResource) {
      args += ident(p.name) + ", ";
      if (k_.resource(p.resource).kind == ResourceKind::ScalarParam) scalars += ident(p.name) + ", ";
    }
  std::vector<const FamilyRoute *> routes;
  for (const FamilyRoute &r : fam.routes) routes.push_back(&r);
  routes.push_back(&*fam.fallback);
  // A route's arguments: the workspace too where its schedule takes one.
  auto routeArgs = [&](const FamilyRoute &r) {
    return args + (takesWorkspace(*r.schedule) ? "workspace, workspace_bytes, stream" : "stream");
  };

  std::string o;
  o += fmt::format("// ---- family '{}': its dispatcher ----\n//\n", k_.name);
  o += fmt::format("// int {}_launch({});\n", name, sig);
  o += fmt::format("//   Domain: {}.\n", dims.domain);
  o += "//   Routes, the first whose guard holds:\n";
  for (size_t i = 0; i < routes.size(); ++i) {
    const FamilyRoute &r = *routes[i];
    std::string from = r.schedule->name == r.name ? "" : fmt::format(" (schedule '{}')", r.schedule->name);
    if (r.guard)
      o += fmt::format("//     {}{} when {}\n", symbols[i], from, sourceText(sm_, r.guardRange));
    else
      o += fmt::format("//     {}{} otherwise (the fallback)\n", symbols[i], from);
  }
  // The route of a shape: an index into the routes (the fallback last), or
  // -1 outside the domain. The guards compute in 64 bits.
  o += fmt::format("static int cake_{}_pick({}) {{\n", name, dims.wide);
  for (ResourceId id : f.dims) {
    FamilyDomain d = fam.domainOf(id);
    std::string v = ident(k_.resource(id).name);
    o += fmt::format("  if ({0} < {1} || {0} > {2}{3}) return -1;\n", v, d.lo, d.hi,
                     d.multiple > 1 ? fmt::format(" || {} % {} != 0", v, d.multiple) : "");
  }
  // A guard that divides by a run-time value that is 0 picks no route
  // (-2): the launcher says so rather than the host program dividing by
  // zero.
  bool guardDivides = false;
  for (size_t i = 0; i + 1 < routes.size(); ++i) {
    std::string guard;
    std::string checks = divisorChecks([&] { guard = expr(routes[i]->guard, true); },
                                       [&](const std::string &) { return std::string("return -2;"); });
    guardDivides = guardDivides || !checks.empty();
    o += checks;
    o += fmt::format("  if ({}) return {};  // {}\n", guard, i, symbols[i]);
  }
  o += fmt::format("  return {};  // the fallback, {}\n}}\n\n", routes.size() - 1, symbols.back());
  o += fmt::format("extern \"C\" const char *{}_route({}) {{\n", name, dims.decl);
  std::string names;
  for (const std::string &s : symbols) names += (names.empty() ? "" : ", ") + ("\"" + s + "\"");
  o += fmt::format("  static const char *const names[] = {{{}}};\n", names);
  o += fmt::format("  int route = cake_{}_pick({});\n", name, dims.args);
  o += "  return route < 0 ? NULL : names[route];\n}\n\n";

  o += launcherHead(name, sig);
  // The family's declared shapes hold for every route.
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::TensorParam) continue;
    o += fmt::format("  if (!{0}) return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, \"tensor {1} is null\");\n",
                     ident(p.name), p.name);
    o += shapeChecks(r, "the family");
  }
  o += fmt::format("  switch (cake_{}_pick({})) {{\n", name, dims.args);
  for (size_t i = 0; i < routes.size(); ++i) {
    o += fmt::format("  case {}: {{\n", i);
    o += fmt::format("    int e = {}_launch({});\n", symbols[i], routeArgs(*routes[i]));
    o += fmt::format("    if (e != CAKE_SUCCESS) snprintf(msg, 512, \"route '{}': %.400s\", {}_last_error());\n",
                     symbols[i], symbols[i]);
    o += "    return e;\n  }\n";
  }
  if (guardDivides)
    o += "  case -2:\n" +
         fmt::format("    return cake_fail(msg, CAKE_ERROR_SHAPE, \"{}: a route's guard of family '{}' divides by "
                     "zero\"{});\n",
                     dims.format, k_.name, dims.values);
  o += "  default:\n";
  o += fmt::format("    return cake_fail(msg, CAKE_ERROR_SHAPE, \"{} is outside the domain of family '{}' ({})\"{});\n",
                   dims.format, k_.name, dims.domain, dims.values);
  o += "  }\n}\n";
  if (ws) {
    o += fmt::format("\n// The workspace bytes the route a shape takes needs (0 for a route without one).\n"
                     "extern \"C\" int {}_workspace_size({}) {{\n",
                     name, workspaceSizeSignature());
    o += fmt::format("  char *msg = cake_{}_message;\n  msg[0] = '\\0';\n", name);
    o += "  if (!bytes) return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, \"bytes is null\");\n  *bytes = 0;\n";
    o += fmt::format("  int route = cake_{}_pick({});\n", name, dims.args);
    o += fmt::format(
        "  if (route < 0)\n    return cake_fail(msg, CAKE_ERROR_SHAPE, \"{} is outside the domain of family "
        "'{}' ({}), or a guard divides by zero\"{});\n",
        dims.format, k_.name, dims.domain, dims.values);
    o += "  switch (route) {\n";
    for (size_t i = 0; i < routes.size(); ++i) {
      if (!takesWorkspace(*routes[i]->schedule)) continue;
      o += fmt::format("  case {}: {{\n    int e = {}_workspace_size({}bytes);\n", i, symbols[i], scalars);
      o += fmt::format("    if (e != CAKE_SUCCESS) snprintf(msg, 512, \"route '{}': %.400s\", {}_last_error());\n",
                       symbols[i], symbols[i]);
      o += "    return e;\n  }\n";
    }
    o += "  default:\n    return CAKE_SUCCESS;\n  }\n}\n";
  }
  return o;
}

}  // namespace cake::codegen::detail
