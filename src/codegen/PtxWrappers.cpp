// PtxWrappers.cpp - the texts of the device wrappers, in one table.
//
// Each entry: its name, the wrappers it calls, and its definition with a
// comment saying what the instruction does. Static (internal linkage), so
// several generated files can be linked into one program.
#include "codegen/PtxWrappers.h"

#include "codegen/WrapperTable.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace cake::codegen {

// One poll of an mbarrier's phase (indented for a loop's body): `done`
// becomes 1 once the phase with `parity` has completed.
std::string mbarPollText(const char *instruction) {
  return fmt::format(R"CAKE(    asm volatile(
        "{{\n"
        "  .reg .pred p;\n"
        "  {0}.parity.shared::cta.b64 p, [%1], %2;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
)CAKE",
                     instruction);
}

namespace {

// An mbarrier phase wait polling one PTX test instruction (try_wait, which
// may suspend the thread a while, or test_wait, which returns at once).
std::string mbarWaitText(const char *name, const char *instruction, const char *doc) {
  return fmt::format(R"CAKE({2}
static __device__ __forceinline__ void {0}(uint32_t bar, uint32_t parity) {{
  uint32_t done;
  do {{
{3}  }} while (!done);
}}
)CAKE",
                     name, instruction, doc, mbarPollText(instruction));
}

// One mma.sync: m16n8k16 for 16-bit operands, m16n8k32 for 8-bit ones (the
// same 32 bytes of K per step), f32 or s32 accumulators.
std::string mmaSyncText(const char *ab) {
  std::string t = ab;
  bool eight = t == "e4m3" || t == "e5m2" || t == "s8";
  std::string acc = t == "s8" ? "s32" : "f32";
  const char *cty = t == "s8" ? "int32_t" : "float";
  const char *con = t == "s8" ? "+r" : "+f";
  return fmt::format(R"CAKE(// mma.sync m16n8k{1}: d ({2}, 4 per lane) += a ({0} 16x{1}, row) . b ({0} {1}x8, col).
static __device__ __forceinline__ void cake_mma_m16n8k{1}_{2}_{0}({3} *d, const uint32_t (&a)[4], uint32_t b0,
                                                                  uint32_t b1) {{
  asm volatile(
      "mma.sync.aligned.m16n8k{1}.row.col.{2}.{0}.{0}.{2} {{%0, %1, %2, %3}}, {{%4, %5, %6, %7}}, {{%8, %9}}, "
      "{{%0, %1, %2, %3}};"
      : "{4}"(d[0]), "{4}"(d[1]), "{4}"(d[2]), "{4}"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}}
)CAKE",
                     t, eight ? 32 : 16, acc, cty, con);
}

// tcgen05.mma of one kind (PTX ISA 9.7.16.10.9.1), issued by one thread.
std::string tcgen05MmaText(const char *kind) {
  return fmt::format(R"CAKE(// tcgen05.mma kind::{0} (PTX ISA 9.7.16.10.9.1), issued by one thread: the TMEM
// accumulator at `tmem` (+)= A . B, both from shared-memory descriptors, the
// shape and types in the instruction descriptor `idesc`; accumulate = 0
// overwrites the accumulator.
static __device__ __forceinline__ void cake_tcgen05_mma_{0}(uint32_t tmem, uint64_t adesc, uint64_t bdesc,
                                                            uint32_t idesc, uint32_t accumulate) {{
  asm volatile(
      "{{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %4, 0;\n"
      "  tcgen05.mma.cta_group::1.kind::{0} [%0], %1, %2, %3, p;\n"
      "}}\n" ::"r"(tmem),
      "l"(adesc), "l"(bdesc), "r"(idesc), "r"(accumulate)
      : "memory");
}}
)CAKE",
                     kind);
}

const std::vector<Wrapper> &wrapperTable() {
  // The fp8 conversions (Fp8Wrappers.cpp) follow cake_tanh; the debugging
  // lowerings' wrappers (DebugWrappers.cpp) come last.
  static const std::vector<Wrapper> table = withDebugWrappers(withFp8Wrappers({
      {"cake_floordiv", {}, R"CAKE(// Floor division and modulo, as `//` and `%` mean in .cake (Python's rules).
static __host__ __device__ __forceinline__ int32_t cake_floordiv(int32_t a, int32_t b) {
  int32_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
)CAKE"},
      {"cake_floormod",
       {},
       R"CAKE(static __host__ __device__ __forceinline__ int32_t cake_floormod(int32_t a, int32_t b) {
  int32_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
)CAKE"},
      {"cake_min", {}, R"CAKE(// lm.min and lm.max on 32-bit integers, in the kernel and the launcher.
static __host__ __device__ __forceinline__ int32_t cake_min(int32_t a, int32_t b) { return a < b ? a : b; }
)CAKE"},
      {"cake_max",
       {},
       R"CAKE(static __host__ __device__ __forceinline__ int32_t cake_max(int32_t a, int32_t b) { return a > b ? a : b; }
)CAKE"},
      {"cake_smem_u32", {}, R"CAKE(// The 32-bit shared-memory address of a generic pointer into shared memory.
static __device__ __forceinline__ uint32_t cake_smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
)CAKE"},
      {"cake_mbar_init", {}, R"CAKE(// mbarrier.init: an mbarrier expecting `count` arrivals per phase.
static __device__ __forceinline__ void cake_mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
)CAKE"},
      {"cake_fence_mbarrier_init",
       {},
       R"CAKE(// Makes the mbarrier initialisations visible to the async proxy (TMA) and the cluster.
static __device__ __forceinline__ void cake_fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
)CAKE"},
      {"cake_mbar_wait",
       {},
       mbarWaitText("cake_mbar_wait", "mbarrier.try_wait",
                    "// Blocks until the mbarrier's phase with the given parity has completed.")},
      {"cake_gtensor", {}, R"CAKE(// A global tensor as the kernel reads it (LM.tensorNd): its bytes and its strides in
// elements, outermost first, the innermost 1 (the launcher fills it from a cake_tensor).
typedef struct cake_gtensor {
  uint8_t *data;
  int64_t stride[5];
} cake_gtensor;
)CAKE"},
      {"cake_mbar_wait_polled",
       {},
       mbarWaitText("cake_mbar_wait_polled", "mbarrier.test_wait",
                    "// Blocks until the mbarrier's phase with the given parity has completed, by\n"
                    "// polling mbarrier.test_wait (targets before sm_90 have no mbarrier.try_wait).")},
      {"cake_cp_async_16", {}, R"CAKE(// cp.async: 16 bytes from global to shared memory, bypassing L1 (.cg); it
// completes asynchronously, tracked by cake_cp_async_mbar_arrive.
static __device__ __forceinline__ void cake_cp_async_16(uint32_t dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
)CAKE"},
      {"cake_cp_async_mbar_arrive",
       {},
       R"CAKE(// One arrival on an mbarrier once every cp.async this thread issued so far
// has landed (.noinc: the arrival counts toward the barrier's init count).
static __device__ __forceinline__ void cake_cp_async_mbar_arrive(uint32_t bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}
)CAKE"},
      {"cake_ld_shared_v4", {}, R"CAKE(// 16 bytes from shared memory.
static __device__ __forceinline__ uint4 cake_ld_shared_v4(uint32_t src) {
  uint4 v;
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(src)
               : "memory");
  return v;
}
)CAKE"},
      {"cake_ldmatrix_x4", {}, R"CAKE(// ldmatrix: four 8x8 matrices of 16-bit elements from shared memory, lanes
// 8q..8q+7 giving the row addresses of matrix q; register q of lane l holds
// row l/4, elements 2*(l%4) and 2*(l%4)+1 of matrix q.
static __device__ __forceinline__ void cake_ldmatrix_x4(uint32_t (&r)[4], uint32_t src) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(src)
               : "memory");
}
)CAKE"},
      {"cake_ldmatrix_x4_trans", {}, R"CAKE(// ldmatrix .trans: four 8x8 matrices of 16-bit elements from shared memory,
// each transposed: lanes 8q..8q+7 give the row addresses of matrix q;
// register q of lane l holds rows 2*(l%4) and 2*(l%4)+1, column l/4.
static __device__ __forceinline__ void cake_ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t src) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(src)
               : "memory");
}
)CAKE"},
      {"cake_mma_m16n8k16_f32_bf16", {}, mmaSyncText("bf16")},
      {"cake_mma_m16n8k16_f32_f16", {}, mmaSyncText("f16")},
      {"cake_mma_m16n8k32_f32_e4m3", {}, mmaSyncText("e4m3")},
      {"cake_mma_m16n8k32_f32_e5m2", {}, mmaSyncText("e5m2")},
      {"cake_mma_m16n8k32_s32_s8", {}, mmaSyncText("s8")},
      {"cake_mbar_arrive", {}, R"CAKE(// One arrival on an mbarrier (release semantics at CTA scope).
static __device__ __forceinline__ void cake_mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
)CAKE"},
      {"cake_mbar_arrive_expect_tx",
       {},
       R"CAKE(// One arrival that also tells the mbarrier to expect `bytes` more transaction bytes
// (delivered by the TMA copies that complete on it) before the phase can complete.
static __device__ __forceinline__ void cake_mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
)CAKE"},
      {"cake_fence_proxy_async",
       {},
       R"CAKE(// Orders this thread's generic-proxy shared-memory accesses before later async-proxy ones.
static __device__ __forceinline__ void cake_fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
)CAKE"},
      {"cake_ld_relaxed_s32",
       {},
       R"CAKE(// Reads the int at p (relaxed, gpu scope).
static __device__ __forceinline__ int32_t cake_ld_relaxed_s32(const int32_t *p) {
  int32_t v;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
)CAKE"},
      {"cake_ld_acquire_s32",
       {},
       R"CAKE(// Reads the int at p (acquire, gpu scope): this thread's later reads see what
// the write it reads released.
static __device__ __forceinline__ int32_t cake_ld_acquire_s32(const int32_t *p) {
  int32_t v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
)CAKE"},
      {"cake_flag_wait",
       {"cake_ld_acquire_s32"},
       R"CAKE(// lm.wait_flag: reads the int at p (acquire, gpu scope) until it equals v,
// backing off between reads.
static __device__ __forceinline__ void cake_flag_wait(const int32_t *p, int32_t v) {
  for (uint32_t ns = 32; cake_ld_acquire_s32(p) != v; ns = ns < 1024u ? 2 * ns : ns) __nanosleep(ns);
}
)CAKE"},
      {"cake_value_fault",
       {},
       R"CAKE(// lm.load_scalar: the record of a value read outside the range its read
// declares, in host memory the kernel writes through (mapped): the launcher
// prints it (docs/language.md 9.8).
#ifndef CAKE_VALUE_FAULT_DEFINED
#define CAKE_VALUE_FAULT_DEFINED
typedef struct cake_value_fault {
  uint32_t state;     // 0: none; 1: being written; 2: written
  uint32_t site;      // the read: its index in the launcher's table of reads
  int64_t value;      // what it read
  int64_t lo, hi;     // the range it declares, at the launch's values
  uint32_t block[3];  // blockIdx of the first block that read outside it
  uint32_t pad;
} cake_value_fault;
#endif
)CAKE"},
      {"cake_value_out_of_range",
       {"cake_value_fault"},
       R"CAKE(// A value read from memory outside the range its read declares: one thread
// of the reading role records it (the launch's first such record stays;
// the others wait until it is written), before the kernel stops. Inlined, with no call (a call, printf's too, would
// make ptxas serialize the kernel's wgmmas and ignore its setmaxnreg); with
// no record (a kernel launched by hand) the kernel only stops.
static __device__ __forceinline__ void cake_value_out_of_range(cake_value_fault *f, uint32_t site, int64_t v,
                                                               int64_t lo, int64_t hi) {
  if (!f) return;
  if (atomicCAS(&f->state, 0u, 1u) == 0u) {
    f->site = site;
    f->value = v;
    f->lo = lo;
    f->hi = hi;
    f->block[0] = blockIdx.x;
    f->block[1] = blockIdx.y;
    f->block[2] = blockIdx.z;
    __threadfence_system();
    atomicExch(&f->state, 2u);
    __threadfence_system();
    return;
  }
  // Another thread records: wait (bounded) until it has, since this
  // thread's stop would end the kernel, and the writer with it, first.
  for (int i = 0; i < 4096 && *reinterpret_cast<volatile uint32_t *>(&f->state) != 2u; ++i) __nanosleep(256);
}
)CAKE"},
      {"cake_named_barrier_sync",
       {},
       R"CAKE(// Named barrier `id` (1..15; 0 is __syncthreads) for `threads` threads of one role.
static __device__ __forceinline__ void cake_named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
)CAKE"},
      {"cake_barrier_sync_roles",
       {},
       R"CAKE(// Named barrier `id` for `threads` threads of several roles, which reach it from different code:
// barrier.sync without .aligned (bar.sync is the .aligned form, which wants one instruction for all).
static __device__ __forceinline__ void cake_barrier_sync_roles(uint32_t id, uint32_t threads) {
  asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
)CAKE"},
      {"cake_setmaxnreg",
       {},
       R"CAKE(// Raises or lowers this warpgroup's per-thread register budget (all its warps execute it).
template <uint32_t kRegs>
static __device__ __forceinline__ void cake_setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegs));
}
template <uint32_t kRegs>
static __device__ __forceinline__ void cake_setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegs));
}
)CAKE"},
      {"cake_prefetch_tensormap",
       {},
       R"CAKE(// Brings a TMA descriptor (a __grid_constant__ parameter) into the descriptor cache.
static __device__ __forceinline__ void cake_prefetch_tensormap(const CUtensorMap *map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}
)CAKE"},
      {"cake_bulk_commit_group", {}, R"CAKE(// Closes the group of bulk (TMA store) copies this thread issued.
static __device__ __forceinline__ void cake_bulk_commit_group() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
)CAKE"},
      {"cake_bulk_wait_group_read",
       {},
       R"CAKE(// Waits until at most N of this thread's bulk groups still read shared memory.
template <int kPending>
static __device__ __forceinline__ void cake_bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kPending) : "memory");
}
)CAKE"},
      {"cake_fence_proxy_async_global",
       {},
       R"CAKE(// Orders this thread's generic-proxy view of global memory (what an acquire
// made visible) before its later async-proxy (TMA) accesses of it.
static __device__ __forceinline__ void cake_fence_proxy_async_global() {
  asm volatile("fence.proxy.async.global;" ::: "memory");
}
)CAKE"},
      {"cake_bulk_wait_group",
       {},
       R"CAKE(// Waits until at most N of this thread's bulk groups are incomplete: the older
// ones have written global memory, and the fence orders those writes (the async
// proxy's) before this thread's later generic accesses, such as a release.
template <int kPending>
static __device__ __forceinline__ void cake_bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;\n\tfence.proxy.async.global;" ::"n"(kPending) : "memory");
}
)CAKE"},
      {"cake_wgmma_fence", {}, R"CAKE(// Orders register accesses to the accumulators before the next wgmma.
static __device__ __forceinline__ void cake_wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
)CAKE"},
      {"cake_ex2", {}, R"CAKE(// 2^x by the multi-function unit (ex2.approx.ftz: 2 ulp, subnormals flushed).
static __device__ __forceinline__ float cake_ex2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
)CAKE"},
      {"cake_tanh", {}, R"CAKE(// tanh(x) by the multi-function unit (tanh.approx: about 2^-11 relative error).
static __device__ __forceinline__ float cake_tanh(float x) {
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
)CAKE"},
      {"cake_lg2", {}, R"CAKE(// log2(x) by the multi-function unit (lg2.approx.ftz).
static __device__ __forceinline__ float cake_lg2(float x) {
  float y;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
)CAKE"},
      {"cake_fence_fragment", {}, R"CAKE(// Pins a register fragment that wgmma reads or writes at this point of the
// program: no instruction of the compiler's moves a use of it across an
// earlier wgmma wait (it emits nothing; the fragment counts as read and
// written here).
template <int N>
static __device__ __forceinline__ void cake_fence_fragment(float (&x)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(x[i])::"memory");
}
template <class T, int N>
static __device__ __forceinline__ void cake_fence_fragment(T (&x)[N]) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 2, "two 16-bit or 8-bit values per element");
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if constexpr (sizeof(T) == 4)
      asm volatile("" : "+r"(reinterpret_cast<uint32_t &>(x[i]))::"memory");
    else  // fp8 pairs
      asm volatile("" : "+h"(reinterpret_cast<uint16_t &>(x[i]))::"memory");
  }
}
)CAKE"},
      {"cake_wgmma_commit_group", {}, R"CAKE(// Closes the group of wgmma operations this warpgroup issued.
static __device__ __forceinline__ void cake_wgmma_commit_group() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
)CAKE"},
      {"cake_wgmma_wait_group", {}, R"CAKE(// Waits until at most N wgmma groups of this warpgroup are in flight.
template <int kPending>
static __device__ __forceinline__ void cake_wgmma_wait_group() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}
)CAKE"},
      {"cake_wgmma_desc", {}, R"CAKE(// A wgmma shared-memory matrix descriptor for a K-major operand tile:
//   bits  0-13  start address >> 4
//   bits 16-29  leading byte offset >> 4 (unused by swizzled K-major layouts: 1)
//   bits 32-45  stride byte offset >> 4 (between groups of 8 rows)
//   bits 49-51  base offset (0: every tile starts on a swizzle-pattern boundary)
//   bits 62-63  layout: 1 = 128-byte, 2 = 64-byte, 3 = 32-byte swizzle
static __device__ __forceinline__ uint64_t cake_wgmma_desc(uint32_t addr, uint32_t stride_bytes, uint32_t layout) {
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>((addr & 0x3FFFFu) >> 4);
  desc |= static_cast<uint64_t>(1) << 16;
  desc |= static_cast<uint64_t>((stride_bytes & 0x3FFFFu) >> 4) << 32;
  desc |= static_cast<uint64_t>(layout) << 62;
  return desc;
}
)CAKE"},
      {"cake_wgmma_desc_mn", {}, R"CAKE(// A wgmma shared-memory matrix descriptor for an MN-major operand tile
// (used with imm-trans-b = 1), stored as panels of 64 MN-elements (one
// 128-byte swizzle span) by K rows:
//   bits  0-13  start address >> 4
//   bits 16-29  leading byte offset >> 4: from one panel (64 MN-elements) to the next
//   bits 32-45  stride byte offset >> 4: from one group of 8 K rows to the next
//   bits 62-63  layout: 1 = 128-byte swizzle
static __device__ __forceinline__ uint64_t cake_wgmma_desc_mn(uint32_t addr, uint32_t panel_bytes, uint32_t stride_bytes,
                                                              uint32_t layout) {
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>((addr & 0x3FFFFu) >> 4);
  desc |= static_cast<uint64_t>((panel_bytes & 0x3FFFFu) >> 4) << 16;
  desc |= static_cast<uint64_t>((stride_bytes & 0x3FFFFu) >> 4) << 32;
  desc |= static_cast<uint64_t>(layout) << 62;
  return desc;
}
)CAKE"},
      {"cake_wgmma_desc_core", {}, R"CAKE(// A wgmma shared-memory matrix descriptor for an unswizzled operand tile
// stored as core matrices (8 rows of 16 bytes, 128 contiguous bytes):
//   bits  0-13  start address >> 4
//   bits 16-29  leading byte offset >> 4: to the next core matrix along K
//   bits 32-45  stride byte offset >> 4: to the next core matrix along M or N
//   bits 62-63  layout: 0 = no swizzle
static __device__ __forceinline__ uint64_t cake_wgmma_desc_core(uint32_t addr, uint32_t leading_bytes,
                                                                uint32_t stride_bytes) {
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>((addr & 0x3FFFFu) >> 4);
  desc |= static_cast<uint64_t>((leading_bytes & 0x3FFFFu) >> 4) << 16;
  desc |= static_cast<uint64_t>((stride_bytes & 0x3FFFFu) >> 4) << 32;
  return desc;
}
)CAKE"},
      {"cake_cluster_sync", {}, R"CAKE(// Every thread of every block of the cluster meets here (not .aligned: warps
// may arrive diverged); release/acquire orders shared memory across blocks.
static __device__ __forceinline__ void cake_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\n" "barrier.cluster.wait.acquire;" ::: "memory");
}
)CAKE"},
      {"cake_mbar_arrive_cluster",
       {},
       R"CAKE(// One arrival on the mbarrier at the same shared-memory offset in block `rank`
// of the cluster.
static __device__ __forceinline__ void cake_mbar_arrive_cluster(uint32_t bar, uint32_t rank) {
  asm volatile(
      "{\n"
      "  .reg .b32 remote;\n"
      "  mapa.shared::cluster.u32 remote, %0, %1;\n"
      "  mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(bar), "r"(rank)
      : "memory");
}
)CAKE"},
      {"cake_cluster_rank", {}, R"CAKE(// This block's rank within its cluster.
static __device__ __forceinline__ uint32_t cake_cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
)CAKE"},
      // ---- tcgen05 (sm_100a, sm_103a): PTX ISA 9.7.16 ----
      {"cake_tmem_alloc", {}, R"CAKE(// tcgen05.alloc (PTX ISA 9.7.16.7.1): one whole warp allocates `cols` TMEM columns
// (a power of two, 32 to 512) and the hardware writes their address (lane in
// bits 31:16, column in 15:0) to shared memory at `slot`; the permit to
// allocate again is given up at once.
static __device__ __forceinline__ void cake_tmem_alloc(uint32_t slot, uint32_t cols) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(slot), "r"(cols) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
}
)CAKE"},
      {"cake_tmem_dealloc", {}, R"CAKE(// tcgen05.dealloc: the allocating warp releases the columns (every access done).
static __device__ __forceinline__ void cake_tmem_dealloc(uint32_t tmem, uint32_t cols) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(cols) : "memory");
}
)CAKE"},
      {"cake_tcgen05_fence_before", {}, R"CAKE(// Orders this thread's earlier tcgen05 operations before the next thread
// synchronisation (tcgen05.fence::before_thread_sync, PTX ISA 9.7.16.11.1).
static __device__ __forceinline__ void cake_tcgen05_fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
)CAKE"},
      {"cake_tcgen05_fence_after", {}, R"CAKE(// Orders this thread's later tcgen05 operations after the last thread
// synchronisation (tcgen05.fence::after_thread_sync, PTX ISA 9.7.16.11.1).
static __device__ __forceinline__ void cake_tcgen05_fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}
)CAKE"},
      {"cake_tcgen05_mma_f16", {}, tcgen05MmaText("f16")},
      {"cake_tcgen05_mma_f8f6f4", {}, tcgen05MmaText("f8f6f4")},
      {"cake_tcgen05_commit", {}, R"CAKE(// tcgen05.commit (PTX ISA 9.7.16.12.1): one arrival on the mbarrier once every
// tcgen05 operation this thread issued has completed.
static __device__ __forceinline__ void cake_tcgen05_commit(uint32_t bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar) : "memory");
}
)CAKE"},
      {"cake_tmem_load_32", {}, R"CAKE(// tcgen05.ld 32x32b.x32 (PTX ISA 9.7.16.8.3): each thread of the warp reads 32
// consecutive 32-bit columns of its TMEM lane (the warp's 32 lanes start at
// the lane in bits 31:16 of `taddr`); tcgen05.wait::ld before they are used.
static __device__ __forceinline__ void cake_tmem_load_32(uint32_t taddr, float *d) {
  uint32_t *r = reinterpret_cast<uint32_t *>(d);
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, "
      "%15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8]),
        "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15]), "=r"(r[16]),
        "=r"(r[17]), "=r"(r[18]), "=r"(r[19]), "=r"(r[20]), "=r"(r[21]), "=r"(r[22]), "=r"(r[23]), "=r"(r[24]),
        "=r"(r[25]), "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]), "=r"(r[30]), "=r"(r[31])
      : "r"(taddr));
}
)CAKE"},
      {"cake_tmem_load_wait", {}, R"CAKE(// Waits until this thread's tcgen05.ld have completed (tcgen05.wait::ld).
static __device__ __forceinline__ void cake_tmem_load_wait() {
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}
)CAKE"},
      {"cake_st_shared_v4", {}, R"CAKE(// 16 bytes to shared memory.
static __device__ __forceinline__ void cake_st_shared_v4(uint32_t addr, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
}
)CAKE"},
  }));
  return table;
}

const Wrapper *findWrapper(const std::string &name) {
  for (const Wrapper &w : wrapperTable())
    if (name == w.name) return &w;
  return nullptr;
}

std::string coordList(unsigned rank, unsigned firstOperand) {
  std::string s;
  for (unsigned i = 0; i < rank; ++i) s += fmt::format("{}%{}", i ? ", " : "", firstOperand + i);
  return s;
}

std::string tmaText(int store, unsigned rank) {
  std::string params, operands;
  for (unsigned i = 0; i < rank; ++i) {
    params += fmt::format(", int32_t c{}", i);
    operands += fmt::format(", \"r\"(c{})", i);
  }
  if (store == 2)
    return fmt::format(
        "// TMA multicast: copies a box of a {0}-d global tensor into shared memory at `dst` in\n"
        "// every block of the cluster in `mask`; each copy completes its bytes on the mbarrier\n"
        "// at `bar` in its block.\n"
        "static __device__ __forceinline__ void cake_tma_load_multicast_{0}d(uint32_t dst, const CUtensorMap *map, "
        "uint32_t bar, uint16_t mask{1}) {{\n"
        "  asm volatile(\n"
        "      \"cp.async.bulk.tensor.{0}d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster \"\n"
        "      \"[%0], [%1, {{{2}}}], [%2], %3;\"\n"
        "      ::\"r\"(dst), \"l\"(map), \"r\"(bar), \"h\"(mask){3}\n"
        "      : \"memory\");\n"
        "}}\n",
        rank, params, coordList(rank, 4), operands);
  if (!store)
    return fmt::format(
        "// TMA: copies a box of a {0}-d global tensor into shared memory at `dst`; the copy\n"
        "// completes its bytes on the mbarrier `bar`. Coordinates innermost first.\n"
        "static __device__ __forceinline__ void cake_tma_load_{0}d(uint32_t dst, const CUtensorMap *map, uint32_t "
        "bar{1}) {{\n"
        "  asm volatile(\n"
        "      \"cp.async.bulk.tensor.{0}d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {{{2}}}], "
        "[%2];\"\n"
        "      ::\"r\"(dst), \"l\"(map), \"r\"(bar){3}\n"
        "      : \"memory\");\n"
        "}}\n",
        rank, params, coordList(rank, 3), operands);
  if (store == 3)
    return fmt::format(
        "// TMA: adds shared memory at `src` into a box of a {0}-d global tensor, element by\n"
        "// element, as atomic reductions in L2 (a bulk group).\n"
        "static __device__ __forceinline__ void cake_tma_reduce_add_{0}d(const CUtensorMap *map, uint32_t src{1}) "
        "{{\n"
        "  asm volatile(\"cp.reduce.async.bulk.tensor.{0}d.global.shared::cta.add.tile.bulk_group [%0, {{{2}}}], "
        "[%1];\"\n"
        "               ::\"l\"(map), \"r\"(src){3}\n"
        "               : \"memory\");\n"
        "}}\n",
        rank, params, coordList(rank, 2), operands);
  return fmt::format(
      "// TMA: copies shared memory at `src` to a box of a {0}-d global tensor (a bulk group).\n"
      "static __device__ __forceinline__ void cake_tma_store_{0}d(const CUtensorMap *map, uint32_t src{1}) {{\n"
      "  asm volatile(\"cp.async.bulk.tensor.{0}d.global.shared::cta.bulk_group [%0, {{{2}}}], [%1];\"\n"
      "               ::\"l\"(map), \"r\"(src){3}\n"
      "               : \"memory\");\n"
      "}}\n",
      rank, params, coordList(rank, 2), operands);
}

std::string wgmmaName(const WgmmaForm &f) {
  bool fp8 = sema::dtypeInfo(f.a).bits == 8;
  std::string types(sema::dtypeInfo(f.a).name);
  if (f.b != f.a) types += fmt::format("_{}", sema::dtypeInfo(f.b).name);
  return fmt::format("cake_wgmma_m64n{}k{}_f32_{}{}{}", f.n, fp8 ? 32 : 16, types, f.aInRegs ? "_rs" : "",
                     f.bMnMajor ? "_bmn" : "");
}

// One wgmma instruction as a function: A through a descriptor or from four
// registers (two 16-bit values each), B through a descriptor, K-major or
// MN-major (imm-trans-b), f32 accumulators in registers. fp8 (e4m3, e5m2,
// either for A and B) is k32 and K-major only: its form has no transpose
// immediates (PTX ISA, wgmma.mma_async).
std::string wgmmaText(const WgmmaForm &f) {
  int64_t regs = f.n / 2;  // f32 accumulators per thread
  bool fp8 = sema::dtypeInfo(f.a).bits == 8;
  int64_t k = fp8 ? 32 : 16;
  std::string ptxTypes = fmt::format("{}.{}", sema::dtypeInfo(f.a).ptxType, sema::dtypeInfo(f.b).ptxType);
  std::string regLines, outs;
  for (int64_t i = 0; i < regs; i += 8) {
    std::string line;
    for (int64_t j = i; j < std::min(regs, i + 8); ++j) line += fmt::format("%{}{}", j, j + 1 < regs ? ", " : "");
    regLines += fmt::format("      \"  {}\"\n", line);
  }
  for (int64_t i = 0; i < regs; ++i) {
    if (i % 8 == 0 && i) outs += "\n        ";
    outs += fmt::format("\"+f\"(d[{}]){}", i, i + 1 < regs ? ", " : "");
  }
  // Operand numbers after the accumulators: A (one descriptor or four
  // registers), B's descriptor, the accumulate flag.
  int64_t next = regs;
  std::string aText, aParams, aInputs;
  if (f.aInRegs) {
    aText = fmt::format("{{%{}, %{}, %{}, %{}}}", next, next + 1, next + 2, next + 3);
    aParams = "uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3";
    aInputs = "\"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3)";
    next += 4;
  } else {
    aText = fmt::format("%{}", next);
    aParams = "uint64_t desc_a";
    aInputs = "\"l\"(desc_a)";
    next += 1;
  }
  int64_t bIndex = next, accIndex = next + 1;
  // scale-d (p), imm-scale-a, imm-scale-b, [imm-trans-a,] imm-trans-b.
  std::string imms = fp8         ? std::string("p, 1, 1")
                     : f.aInRegs ? fmt::format("p, 1, 1, {}", f.bMnMajor ? 1 : 0)
                                 : fmt::format("p, 1, 1, 0, {}", f.bMnMajor ? 1 : 0);
  std::string types = f.a == f.b ? std::string(sema::dtypeInfo(f.a).name)
                                 : fmt::format("{} x {}", sema::dtypeInfo(f.a).name, sema::dtypeInfo(f.b).name);
  return fmt::format("// wgmma: D[64x{0}] (+)= A[64x{15}] . B[{15}x{0}], {1}; A {2}, B {3};\n"
                     "// f32 accumulators in registers ({4} per thread). accumulate == 0 overwrites D.\n"
                     "// Issued by all 128 threads of a warpgroup.\n"
                     "static __device__ __forceinline__ void {5}(float *d, {6}, uint64_t desc_b, int32_t "
                     "accumulate) {{\n"
                     "  asm volatile(\n"
                     "      \"{{\\n\"\n"
                     "      \".reg .pred p;\\n\"\n"
                     "      \"setp.ne.b32 p, %{7}, 0;\\n\"\n"
                     "      \"wgmma.mma_async.sync.aligned.m64n{0}k{15}.f32.{8}\\n\"\n"
                     "      \"{{\"\n"
                     "{9}"
                     "      \"}},\\n\"\n"
                     "      \"{10}, %{11}, {12};\\n\"\n"
                     "      \"}}\\n\"\n"
                     "      : {13}\n"
                     "      : {14}, \"l\"(desc_b), \"r\"(accumulate));\n"
                     "}}\n",
                     f.n, types,
                     f.aInRegs ? (fp8 ? "from registers (wgmma's 8-bit fragment, four values per register)"
                                      : "from registers (the accumulator layout, two values per register)")
                               : "from shared memory (a K-major descriptor)",
                     f.bMnMajor ? "an MN-major descriptor (transposed)" : "a K-major descriptor", regs, wgmmaName(f),
                     aParams, accIndex, ptxTypes, regLines, aText, bIndex, imms, outs, aInputs, k);
}

std::string atomicName(const std::string &op, const std::string &order, const std::string &scope) {
  return fmt::format("cake_atom_{}_{}_{}", op, order, scope);
}

// One atomic on a global 32-bit integer, with its memory order and scope.
std::string atomicText(const std::string &op, const std::string &order, const std::string &scope) {
  bool cas = op == "cas";
  std::string type = op == "exch" || cas ? "b32" : "s32";
  return fmt::format(
      "// Atomically {0} the int at p ({1}, {2} scope{8}); returns its old value.\n"
      "static __device__ __forceinline__ int32_t {3}(int32_t *p, int32_t v{4}) {{\n"
      "  int32_t old;\n"
      "  asm volatile(\"atom.{1}.{2}.global.{0}.{5} %0, [%1], {6};\" : \"=r\"(old) : \"l\"(p), \"r\"(v){7} : "
      "\"memory\");\n"
      "  return old;\n}}\n",
      op, order, scope, atomicName(op, order, scope), cas ? ", int32_t c" : "", type, cas ? "%3, %2" : "%2",
      cas ? ", \"r\"(c)" : "", cas ? ": v where it equals c" : "");
}

}  // namespace

std::string WrapperSet::useAtomic(const std::string &op, const std::string &order, const std::string &scope) {
  atomics_.insert({op, order, scope});
  return atomicName(op, order, scope);
}

std::string WrapperSet::use(const std::string &name) {
  const Wrapper *w = findWrapper(name);
  if (w) {
    fixed_.insert(name);
    for (const char *d : w->deps) use(d);
  }
  return name;
}

std::string WrapperSet::useTmaLoad(unsigned rank) {
  tma_.insert({0, rank});
  return fmt::format("cake_tma_load_{}d", rank);
}

std::string WrapperSet::useTmaLoadMulticast(unsigned rank) {
  tma_.insert({2, rank});
  return fmt::format("cake_tma_load_multicast_{}d", rank);
}

std::string WrapperSet::useTmaStore(unsigned rank) {
  tma_.insert({1, rank});
  return fmt::format("cake_tma_store_{}d", rank);
}

std::string WrapperSet::useTmaReduceAdd(unsigned rank) {
  tma_.insert({3, rank});
  return fmt::format("cake_tma_reduce_add_{}d", rank);
}

std::string WrapperSet::useWgmma(const WgmmaForm &f) {
  wgmma_.insert(f);
  return wgmmaName(f);
}

std::string WrapperSet::text() const {
  std::string out;
  for (const Wrapper &w : wrapperTable())
    if (fixed_.count(w.name)) out += w.text + "\n";
  for (const auto &[store, rank] : tma_) out += tmaText(store, rank) + "\n";
  for (const WgmmaForm &f : wgmma_) out += wgmmaText(f) + "\n";
  for (const auto &[op, order, scope] : atomics_) out += atomicText(op, order, scope) + "\n";
  return out;
}

}  // namespace cake::codegen
