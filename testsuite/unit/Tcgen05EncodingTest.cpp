// The tcgen05 encoders against values computed by hand from the PTX ISA's
// tables (9.7.16.4.1 Table 40, 9.7.16.4.2 Table 42, 9.7.16.7.1).
#include <doctest/doctest.h>

#include "codegen/nvidia/sm100/Tcgen05Encoding.h"

using namespace cake::codegen::sm100;
using cake::sema::DType;
using cake::sema::Swizzle;

TEST_CASE("instruction descriptor, kind::f16") {
  // M=128 (8 << 24 = 0x08000000), N=256 (32 << 17 = 0x00400000), B bf16
  // (1 << 10 = 0x400), A bf16 (1 << 7 = 0x80), D f32 (1 << 4 = 0x10).
  CHECK(instrDesc(128, 256, DType::BF16, DType::BF16, DType::F32, false, false) == 0x08400490u);
  // N=128: 16 << 17 = 0x00200000.
  CHECK(instrDesc(128, 128, DType::BF16, DType::BF16, DType::F32, false, false) == 0x08200490u);
  // M=64: 4 << 24.
  CHECK(instrDesc(64, 256, DType::BF16, DType::BF16, DType::F32, false, false) == 0x04400490u);
  // f16 operands are format 0.
  CHECK(instrDesc(128, 256, DType::F16, DType::F16, DType::F32, false, false) == 0x08400010u);
  // B MN-major sets bit 16; A MN-major bit 15.
  CHECK(instrDesc(128, 8, DType::BF16, DType::BF16, DType::F32, false, true) ==
        (0x08000490u | (1u << 17) | (1u << 16)));
  CHECK(instrDesc(128, 8, DType::BF16, DType::BF16, DType::F32, true, false) ==
        (0x08000490u | (1u << 17) | (1u << 15)));
  // An f16 accumulator leaves bits 4-5 zero.
  CHECK(instrDesc(128, 64, DType::F16, DType::F16, DType::F16, false, false) == (0x08000000u | (8u << 17)));
}

TEST_CASE("instruction descriptor, kind::f8f6f4") {
  CHECK(std::string(mmaKind(DType::E4M3)) == "f8f6f4");
  CHECK(mmaK(DType::E4M3) == 32);
  CHECK(mmaK(DType::BF16) == 16);
  CHECK(instrDesc(128, 256, DType::E4M3, DType::E4M3, DType::F32, false, false) == 0x08400010u);
  // e5m2 A (1 << 7) with e4m3 B.
  CHECK(instrDesc(128, 256, DType::E5M2, DType::E4M3, DType::F32, false, false) == 0x08400090u);
}

TEST_CASE("instruction descriptor, what the kinds do not have") {
  CHECK(!instrDesc(256, 128, DType::BF16, DType::BF16, DType::F32, false, false));   // cta_group::1: M 64 or 128
  CHECK(!instrDesc(128, 12, DType::BF16, DType::BF16, DType::F32, false, false));    // N in steps of 8
  CHECK(!instrDesc(128, 264, DType::BF16, DType::BF16, DType::F32, false, false));   // N at most 256
  CHECK(!instrDesc(128, 128, DType::BF16, DType::F16, DType::F32, false, false));    // one 16-bit type
  CHECK(!instrDesc(128, 128, DType::BF16, DType::E4M3, DType::F32, false, false));   // two kinds
  CHECK(!instrDesc(128, 128, DType::BF16, DType::BF16, DType::BF16, false, false));  // D f32 or f16
  CHECK(!instrDesc(128, 128, DType::I8, DType::I8, DType::I32, false, false));
}

TEST_CASE("shared-memory descriptor") {
  // K-major bf16, 128-byte swizzle: LBO 16 B (encoded 1), SBO 1024 B (8 rows
  // of 128 B, encoded 64), version bit 46, layout 2 at bits 61-63.
  CHECK(smemDescTemplate(16, 1024, Swizzle::B128) == 0x4000404000010000ull);
  CHECK(smemLayoutType(Swizzle::None) == 0);
  CHECK(smemLayoutType(Swizzle::B64) == 4);
  CHECK(smemLayoutType(Swizzle::B32) == 6);
  // The version bit is what sm_90's descriptor lacks: without a swizzle and
  // offsets, only bit 46 is set.
  CHECK(smemDescTemplate(0, 0, Swizzle::None) == (1ull << 46));
}

TEST_CASE("shared-memory descriptor, core matrices without swizzle") {
  // examples/mandatory_forms.cake, checked by hand against the canonical
  // layouts and against CUTLASS's make_umma_desc for the same layouts (a
  // host run, 2026-12-01): A 128x64 bf16 K-major as 8 panels of 128 rows x
  // 16 B: LBO = one panel, 2048 B (encoded 128 at bit 16), SBO = 8 rows of
  // 16 B, 128 B (encoded 8 at bit 32), version bit 46, layout 0.
  CHECK(smemDescTemplate(2048, 128, Swizzle::None) == 0x0000400800800000ull);
  // B 64x128 (K x N) bf16 MN-major as 16 panels of 64 K rows x 16 B: LBO =
  // 8 K rows, 128 B (encoded 8); SBO = one panel, 1024 B (encoded 64).
  CHECK(smemDescTemplate(128, 1024, Swizzle::None) == 0x0000404000080000ull);
  // Its instruction descriptor: M 128, N 128, bf16 -> f32, B MN-major (bit 16).
  CHECK(instrDesc(128, 128, DType::BF16, DType::BF16, DType::F32, false, true) == 0x08210490u);
}

TEST_CASE("TMEM allocation columns") {
  CHECK(tmemAllocColumns(1) == 32u);
  CHECK(tmemAllocColumns(32) == 32u);
  CHECK(tmemAllocColumns(33) == 64u);
  CHECK(tmemAllocColumns(128) == 128u);
  CHECK(tmemAllocColumns(257) == 512u);
  CHECK(tmemAllocColumns(512) == 512u);
  CHECK(!tmemAllocColumns(513));
}
