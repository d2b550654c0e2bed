// Tcgen05Encoding.h - the bit encodings of Blackwell's (sm_100a, sm_103a)
// fifth-generation tensor-core instructions, derived from the PTX ISA and
// checked against hand-computed values in testsuite/unit/Tcgen05EncodingTest.cpp.
#pragma once

#include <cstdint>
#include <optional>

#include "sema/SemaIR.h"

namespace cake::codegen::sm100 {

// The 32-bit instruction descriptor of tcgen05.mma for .kind::f16 (bf16/f16
// operands) and .kind::f8f6f4 (e4m3/e5m2): PTX ISA 9.7.16.4.2, "Instruction
// descriptor format for .kind::tf32, .kind::f16, .kind::f8f6f4 and
// .kind::i8" (Table 42). Fields: bits 4-5 D format (F16 0, F32 1), 7-9 A
// format, 10-12 B format (kind::f16: F16 0, BF16 1; kind::f8f6f4: E4M3 0,
// E5M2 1), 15 A major and 16 B major (0 K-major, 1 MN-major), 17-22 N >> 3,
// 24-28 M >> 4; dense, no negation, no saturation, no max shift.
// nullopt for a combination the kinds do not have (mixed families, an
// accumulator other than f32/f16, M not 64 or 128, N not 8..256 in 8s).
std::optional<uint32_t> instrDesc(int64_t m, int64_t n, sema::DType a, sema::DType b, sema::DType d, bool aMnMajor,
                                  bool bMnMajor);

// The instruction's kind for an operand type: "f16" or "f8f6f4", or nullptr.
const char *mmaKind(sema::DType a);

// K of one instruction: 256 bits of an operand row (16 bf16/f16, 32 fp8).
int64_t mmaK(sema::DType a);

// The layout-type field (bits 61-63) of an sm_100 shared-memory descriptor:
// PTX ISA 9.7.16.4.1, "Shared memory descriptor layout" (Table 40): none 0,
// 128B with 32B atoms 1, 128B 2, 64B 4, 32B 6.
uint64_t smemLayoutType(sema::Swizzle s);

// The sm_100 shared-memory matrix descriptor without its start address
// (bits 0-13, `(addr & 0x3FFFF) >> 4`, added per use): leading and stride
// byte offsets >> 4 at bits 16-29 and 32-45, the fixed version bit 46 = 1
// (which sm_90's wgmma descriptor does not have), base offset 0 (the view's
// stages start on their swizzle's 1024-byte boundary), relative LBO mode,
// and the layout type at bits 61-63.
uint64_t smemDescTemplate(uint32_t lboBytes, uint32_t sboBytes, sema::Swizzle s);

// The columns tcgen05.alloc takes for regions ending at column `end`: a
// power of two of at least 32 (PTX ISA 9.7.16.7.1); nullopt past 512.
std::optional<uint32_t> tmemAllocColumns(int64_t end);

}  // namespace cake::codegen::sm100
