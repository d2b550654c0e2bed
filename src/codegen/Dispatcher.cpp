// Dispatcher.cpp - a kernel family's dispatcher (C ABI, like the launchers):
// it checks the shape against the family's declared domain and shapes, and
// launches the first route whose guard holds, else the fallback.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

namespace {
// "M in 1 .. 16384, N in 8 .. 65536 (a multiple of 8)"
std::string domainText(const Kernel &sig, const Family &fam) {
  std::string s;
  for (const KernelParam &p : sig.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = sig.resource(p.resource);
    if (r.kind != ResourceKind::ScalarParam || dtypeInfo(r.dtype).scalar != ScalarKind::Int) continue;
    FamilyDomain d = fam.domainOf(r.id);
    s += fmt::format("{}{} in {} .. {}{}", s.empty() ? "" : ", ", r.name, d.lo, d.hi,
                     d.multiple > 1 ? fmt::format(" (a multiple of {})", d.multiple) : "");
  }
  return s;
}
}  // namespace

std::string KernelEmitter::dispatcherDeclarations(const Family &fam) {
  std::string docs, sig = launcherSignature(docs);
  std::string name = symbol(), scalars;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind == ResourceKind::ScalarParam && dtypeInfo(r.dtype).scalar == ScalarKind::Int)
      scalars += (scalars.empty() ? "" : ", ") + fmt::format("{} {}", dtypeInfo(r.dtype).cudaType, ident(p.name));
  }
  std::string o =
      fmt::format("// Family '{}': launches the first of its routes whose guard holds, else its fallback.\n", k_.name);
  o += fmt::format("// Shapes outside its domain ({}) are CAKE_ERROR_SHAPE.\n", domainText(k_, fam));
  o += fmt::format("int {}_launch({});\n", name, sig);
  o += fmt::format("const char *{}_last_error(void);\n", name);
  o += "// The name of the route a shape takes (the fallback's when no guard holds), or NULL outside the domain.\n";
  o += fmt::format("const char *{}_route({});\n", name, scalars.empty() ? "void" : scalars);
  return o;
}

std::string KernelEmitter::dispatcher(const Family &fam, const std::vector<std::string> &symbols) {
  std::string name = symbol();
  std::string docs, sig = launcherSignature(docs);
  std::string scalars, wide, scalarArgs, args;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    args += ident(p.name) + ", ";
    if (r.kind == ResourceKind::ScalarParam && dtypeInfo(r.dtype).scalar == ScalarKind::Int) {
      scalars += (scalars.empty() ? "" : ", ") + fmt::format("{} {}", dtypeInfo(r.dtype).cudaType, ident(p.name));
      wide += (wide.empty() ? "" : ", ") + fmt::format("int64_t {}", ident(p.name));
      scalarArgs += (scalarArgs.empty() ? "" : ", ") + ident(p.name);
    }
  }
  args += "stream";
  std::vector<const FamilyRoute *> routes;
  for (const FamilyRoute &r : fam.routes) routes.push_back(&r);
  routes.push_back(&*fam.fallback);

  std::string o;
  o += fmt::format("// ---- family '{}': its dispatcher ----\n//\n", k_.name);
  o += fmt::format("// int {}_launch({});\n", name, sig);
  o += fmt::format("//   Domain: {}.\n", domainText(k_, fam));
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
  o += fmt::format("static int cake_{}_pick({}) {{\n", name, wide.empty() ? "void" : wide);
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::ScalarParam || dtypeInfo(r.dtype).scalar != ScalarKind::Int) continue;
    FamilyDomain d = fam.domainOf(r.id);
    o += fmt::format("  if ((int64_t){0} < {1} || (int64_t){0} > {2}{3}) return -1;\n", ident(p.name), d.lo, d.hi,
                     d.multiple > 1 ? fmt::format(" || (int64_t){} % {} != 0", ident(p.name), d.multiple) : "");
  }
  for (size_t i = 0; i + 1 < routes.size(); ++i) {
    std::string guard = expr(routes[i]->guard, true);
    o += fmt::format("  if ({}) return {};  // {}\n", guard, i, symbols[i]);
  }
  o += fmt::format("  return {};  // the fallback, {}\n}}\n\n", routes.size() - 1, symbols.back());
  o += fmt::format("extern \"C\" const char *{}_route({}) {{\n", name, scalars.empty() ? "void" : scalars);
  std::string names;
  for (const std::string &s : symbols) names += (names.empty() ? "" : ", ") + ("\"" + s + "\"");
  o += fmt::format("  static const char *const names[] = {{{}}};\n", names);
  o += fmt::format("  int route = cake_{}_pick({});\n", name, scalarArgs);
  o += "  return route < 0 ? NULL : names[route];\n}\n\n";

  o += launcherHead(name, sig);
  // The family's declared shapes hold for every route.
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::TensorParam) continue;
    o += fmt::format("  if (!{0}) return cake_fail(msg, CAKE_ERROR_INVALID_ARGUMENT, \"tensor {1} is null\");\n",
                     ident(p.name), p.name);
    o += shapeChecks(r);
  }
  std::string fmtArgs, valueArgs;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::ScalarParam || dtypeInfo(r.dtype).scalar != ScalarKind::Int) continue;
    fmtArgs += (fmtArgs.empty() ? "" : ", ") + p.name + " = %lld";
    valueArgs += ", (long long)" + ident(p.name);
  }
  o += fmt::format("  switch (cake_{}_pick({})) {{\n", name, scalarArgs);
  for (size_t i = 0; i < routes.size(); ++i) {
    o += fmt::format("  case {}: {{\n", i);
    o += fmt::format("    int e = {}_launch({});\n", symbols[i], args);
    o += fmt::format("    if (e != CAKE_SUCCESS) snprintf(msg, 512, \"route '{}': %.400s\", {}_last_error());\n",
                     symbols[i], symbols[i]);
    o += "    return e;\n  }\n";
  }
  o += "  default:\n";
  o += fmt::format("    return cake_fail(msg, CAKE_ERROR_SHAPE, \"{} is outside the domain of family '{}' ({})\"{});\n",
                   fmtArgs, k_.name, domainText(k_, fam), valueArgs);
  o += "  }\n}\n";
  return o;
}

}  // namespace cake::codegen::detail
