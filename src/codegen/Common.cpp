// Common.cpp - naming, shared-memory layout helpers and the `#line` writer.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <set>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// Keywords of C, C++ and CUDA C++, CUDA's built-in variables, and the names
// the launchers and kernels declare themselves.
bool isCppReserved(const std::string &n) {
  // clang-format off
  static const std::set<std::string> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
      "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
      "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "main", "stream", "msg", "err", "config", "attrs",
      "e", "workspace", "workspace_bytes", "bytes"};
  // clang-format on
  return words.count(n) != 0;
}

// Names the generated file's headers declare (tools/reserved_names.py
// writes them sorted): a constant array searched by bisection (a set of
// 2,000 strings built at start-up compiled for minutes under the fuzzers'
// sanitizers).
static const char *const kHeaderNames[] = {
#define R(name) #name,
#include "codegen/ReservedNames.def"
#undef R
};

static bool isHeaderName(const std::string &n) {
  return std::binary_search(std::begin(kHeaderNames), std::end(kHeaderNames), n.c_str(),
                            [](const char *a, const char *b) { return std::strcmp(a, b) < 0; });
}

// Names of the implementation and of ours by their spelling, whatever the
// headers hold (tools/reserved_names.py leaves these out of its table):
// '_' first; 'cake', 'CAKE' or 'cuda' first; 'cu', 'nv', 'CU' or 'NV' then a
// capital (the last two also then '_'); '_t' or '_' last.
static bool mangledByRule(const std::string &n) {
  auto startsWith = [&](const char *p) { return n.rfind(p, 0) == 0; };
  auto capitalAt = [&](size_t i, bool underscore) {
    return n.size() > i && (std::isupper(static_cast<unsigned char>(n[i])) || (underscore && n[i] == '_'));
  };
  if (n.empty() || n[0] == '_' || startsWith("cake") || startsWith("CAKE") || startsWith("cuda")) return true;
  if ((startsWith("cu") || startsWith("nv")) && capitalAt(2, false)) return true;
  if ((startsWith("CU") || startsWith("NV")) && capitalAt(2, true)) return true;
  return n.back() == '_' || (n.size() >= 2 && n.compare(n.size() - 2, 2, "_t") == 0);
}

// A user's name as a C++ identifier: our own names start with `cake_`. A
// keyword, a name the included headers declare, a name of the
// implementation's or ours, or a name already ending in '_' gets one more
// '_', so no two names map to one (`int` -> `int_`, `int_` -> `int__`) and
// none means anything else in the generated file.
std::string ident(const std::string &n) {
  if (!n.empty() && n[0] == '%') return "cake_t" + n.substr(1);  // an unnamed fragment: a part of an expression
  // A role family's member, or a member's copy of a fragment or view:
  // `acc[1]` -> `cake_acc_m1` (no user name starts with `cake`).
  if (size_t open = n.find('['); open != std::string::npos && n.back() == ']')
    return fmt::format("cake_{}_m{}", n.substr(0, open), n.substr(open + 1, n.size() - open - 2));
  if (isCppReserved(n) || isHeaderName(n) || mangledByRule(n)) return n + "_";
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

namespace cake::codegen {
bool isPlainCName(const std::string &name) { return !name.empty() && detail::ident(name) == name; }
}  // namespace cake::codegen
