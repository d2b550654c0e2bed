// Tcgen05Encoding.cpp - see Tcgen05Encoding.h for the PTX ISA sections.
#include "codegen/nvidia/sm100/Tcgen05Encoding.h"

#include <string_view>

namespace cake::codegen::sm100 {

using sema::DType;
using sema::Swizzle;

namespace {
// A and B format codes of the kind (Table 42).
std::optional<uint32_t> formatCode(DType t) {
  switch (t) {
  case DType::F16: return 0;   // kind::f16
  case DType::BF16: return 1;  // kind::f16
  case DType::E4M3: return 0;  // kind::f8f6f4
  case DType::E5M2: return 1;  // kind::f8f6f4
  default: return std::nullopt;
  }
}
}  // namespace

const char *mmaKind(DType a) {
  switch (a) {
  case DType::F16:
  case DType::BF16: return "f16";
  case DType::E4M3:
  case DType::E5M2: return "f8f6f4";
  default: return nullptr;
  }
}

int64_t mmaK(DType a) { return 256 / sema::dtypeInfo(a).bits; }

std::optional<uint32_t> instrDesc(int64_t m, int64_t n, DType a, DType b, DType d, bool aMnMajor, bool bMnMajor) {
  const char *ka = mmaKind(a), *kb = mmaKind(b);
  std::optional<uint32_t> fa = formatCode(a), fb = formatCode(b);
  if (!ka || !kb || std::string_view(ka) != kb || !fa || !fb) return std::nullopt;
  if (std::string_view(ka) == "f16" && a != b) return std::nullopt;  // kind::f16 takes one operand type
  if (d != DType::F32 && d != DType::F16) return std::nullopt;
  if ((m != 64 && m != 128) || n < 8 || n > 256 || n % 8 != 0) return std::nullopt;
  uint32_t desc = 0;
  desc |= (d == DType::F32 ? 1u : 0u) << 4;     // D format
  desc |= *fa << 7;                             // A format
  desc |= *fb << 10;                            // B format
  desc |= (aMnMajor ? 1u : 0u) << 15;           // A major
  desc |= (bMnMajor ? 1u : 0u) << 16;           // B major
  desc |= static_cast<uint32_t>(n >> 3) << 17;  // N >> 3, 6 bits
  desc |= static_cast<uint32_t>(m >> 4) << 24;  // M >> 4, 5 bits
  return desc;
}

uint64_t smemLayoutType(Swizzle s) {
  switch (s) {
  case Swizzle::None: return 0;
  case Swizzle::B128: return 2;
  case Swizzle::B64: return 4;
  case Swizzle::B32: return 6;
  }
  return 0;
}

uint64_t smemDescTemplate(uint32_t lboBytes, uint32_t sboBytes, Swizzle s) {
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>((lboBytes >> 4) & 0x3FFF) << 16;
  desc |= static_cast<uint64_t>((sboBytes >> 4) & 0x3FFF) << 32;
  desc |= uint64_t{1} << 46;  // the fixed version field of sm_100 descriptors
  desc |= smemLayoutType(s) << 61;
  return desc;
}

std::optional<uint32_t> tmemAllocColumns(int64_t end) { return cake::tmemAllocColumns(end); }

}  // namespace cake::codegen::sm100
