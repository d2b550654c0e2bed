// Fp8Wrappers.cpp - the device wrappers of fp8 register fragments: pairs
// converted from and to f32 (cvt's e4m3x2 / e5m2x2 forms, sm_89 and later)
// and wgmma's 8-bit A fragment gathered from the accumulator layout. A part
// of the wrappers' table (PtxWrappers.cpp), among the fragment math's.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "codegen/WrapperTable.h"

namespace cake::codegen {

std::vector<Wrapper> withFp8Wrappers(std::vector<Wrapper> table) {
  std::vector<Wrapper> fp8 = {
      {"cake_e4m3x2", {}, R"CAKE(// Two f32 to a pair of e4m3 (lo in the low byte), nearest even, saturated to +-448.
static __device__ __forceinline__ uint16_t cake_e4m3x2(float lo, float hi) {
  uint16_t r;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %2, %1;" : "=h"(r) : "f"(lo), "f"(hi));
  return r;
}
)CAKE"},
      {"cake_e5m2x2", {}, R"CAKE(// Two f32 to a pair of e5m2 (lo in the low byte), nearest even, saturated to +-57344.
static __device__ __forceinline__ uint16_t cake_e5m2x2(float lo, float hi) {
  uint16_t r;
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %2, %1;" : "=h"(r) : "f"(lo), "f"(hi));
  return r;
}
)CAKE"},
      {"cake_fp8_a_reg", {}, R"CAKE(// One register of wgmma's 8-bit A fragment from fp8 pairs in the accumulator
// layout. Every thread of a quad (t = lane % 4) offers the pairs of its row at
// two 8-column chunks, lo and hi, in one word; thread t takes columns
// 4t .. 4t + 3 of the 16 from the words of threads 2(t % 2) and 2(t % 2) + 1,
// their low halves (chunk lo) where t < 2, their high halves where t >= 2.
// Run by every thread of the warp.
static __device__ __forceinline__ uint32_t cake_fp8_a_reg(uint16_t lo, uint16_t hi) {
  const uint32_t word = static_cast<uint32_t>(lo) | (static_cast<uint32_t>(hi) << 16);
  const uint32_t lane = threadIdx.x % 32u;
  const int from = static_cast<int>((lane & ~3u) | ((lane & 1u) << 1));
  const uint32_t x = __shfl_sync(0xffffffffu, word, from);
  const uint32_t y = __shfl_sync(0xffffffffu, word, from + 1);
  return __byte_perm(x, y, (lane & 2u) ? 0x7632u : 0x5410u);
}
)CAKE"},
  };
  // Element i of fp8 pairs as f32, one wrapper per type (cvt's f16x2 forms).
  for (const char *type : {"e4m3", "e5m2"})
    fp8.push_back({type[1] == '4' ? "cake_e4m3_at" : "cake_e5m2_at",
                   {},
                   fmt::format(R"CAKE(// Element i of {0} pairs, exactly, as f32 (through f16x2).
static __device__ __forceinline__ float cake_{0}_at(const uint16_t *p, int i) {{
  uint32_t h;
  asm("cvt.rn.f16x2.{0}x2 %0, %1;" : "=r"(h) : "h"(p[i / 2]));
  const float2 f = __half22float2(*reinterpret_cast<const __half2 *>(&h));
  return (i & 1) ? f.y : f.x;
}}
)CAKE",
                               type)});
  // After cake_tanh, where the generated files have always had them.
  auto at =
      std::find_if(table.begin(), table.end(), [](const Wrapper &w) { return std::string(w.name) == "cake_tanh"; });
  table.insert(at == table.end() ? at : at + 1, std::make_move_iterator(fp8.begin()),
               std::make_move_iterator(fp8.end()));
  return table;
}

}  // namespace cake::codegen
