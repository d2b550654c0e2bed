// Common.cpp - naming, shared-memory layout helpers and the `#line` writer.
#include <fmt/format.h>

#include <set>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

bool isCppReserved(const std::string &n) {
  static const std::set<std::string> words = {
      "alignas",  "alignof", "and",      "asm",       "auto",     "bool",      "break",     "case",     "catch",
      "char",     "class",   "const",    "constexpr", "continue", "decltype",  "default",   "delete",   "do",
      "double",   "else",    "enum",     "explicit",  "extern",   "false",     "float",     "for",      "friend",
      "goto",     "if",      "inline",   "int",       "long",     "mutable",   "namespace", "new",      "noexcept",
      "not",      "nullptr", "operator", "or",        "private",  "protected", "public",    "register", "return",
      "short",    "signed",  "sizeof",   "static",    "struct",   "switch",    "template",  "this",     "throw",
      "true",     "try",     "typedef",  "typename",  "union",    "unsigned",  "using",     "virtual",  "void",
      "volatile", "while",   "xor",      "threadIdx", "blockIdx", "blockDim",  "gridDim",   "warpSize", "main",
      "stream",   "msg",     "err",      "config",    "attrs",    "e"};
  return words.count(n) != 0;
}

// A user's name as a C++ identifier: our own names start with `cake_`. A
// reserved word, a name of ours, or a name already ending in '_' gets one
// more '_', so no two names map to one (`int` -> `int_`, `int_` -> `int__`).
std::string ident(const std::string &n) {
  if (!n.empty() && n[0] == '%') return "cake_t" + n.substr(1);  // an unnamed fragment: a part of an expression
  if (isCppReserved(n) || n.rfind("cake_", 0) == 0 || (!n.empty() && n.back() == '_')) return n + "_";
  return n;
}

std::string addrVar(const Resource &r) {
  return fmt::format("cake_{}_{}", ident(r.name), r.kind == ResourceKind::Barrier ? "bar" : "view");
}

unsigned swizzleLayout(Swizzle s) {
  switch (s) {
  case Swizzle::B128: return 1;
  case Swizzle::B64: return 2;
  case Swizzle::B32: return 3;
  case Swizzle::None: return 0;
  }
  return 0;
}

const char *tensorMapSwizzle(Swizzle s) {
  switch (s) {
  case Swizzle::B128: return "CU_TENSOR_MAP_SWIZZLE_128B";
  case Swizzle::B64: return "CU_TENSOR_MAP_SWIZZLE_64B";
  case Swizzle::B32: return "CU_TENSOR_MAP_SWIZZLE_32B";
  case Swizzle::None: return "CU_TENSOR_MAP_SWIZZLE_NONE";
  }
  return "CU_TENSOR_MAP_SWIZZLE_NONE";
}

int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

std::string shapeText(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

bool operandTile(const Resource &v, bool coreMatrices) {
  int64_t esize = dtypeInfo(v.dtype).bits / 8;
  int64_t span = coreMatrices ? 16 : swizzleBytes(v.swizzle);
  return (coreMatrices || v.swizzle != Swizzle::None) && v.shape.size() == 2 && esize > 0 &&
         (v.shape[1] * esize) % span == 0;
}

Panels panelsOf(const Resource &v, bool coreMatrices) {
  Panels p;
  int64_t esize = dtypeInfo(v.dtype).bits / 8;
  int64_t rowBytes = analysis::viewRowBytes(v);
  int64_t span = coreMatrices && v.swizzle == Swizzle::None ? 16 : swizzleBytes(v.swizzle);
  p.rowPitch = rowBytes;
  p.bytes = v.bytesPerStage;
  p.boxInner = v.shape.empty() ? 0 : v.shape.back();
  if (esize != 0 && span != 0 && rowBytes > span && rowBytes % span == 0) {  // sub-byte types have no panels
    p.count = rowBytes / span;
    p.rowPitch = span;
    p.bytes = v.bytesPerStage / p.count;
    p.boxInner = span / esize;
  }
  return p;
}

}  // namespace cake::codegen::detail
