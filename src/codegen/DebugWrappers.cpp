// DebugWrappers.cpp - the device wrappers of the debugging lowerings
// (docs/language.md 19.1): -fcheck-waits (checked waits, the records they
// write, the arrival counters) and -fjitter (seeded delays). The last part
// of the wrappers' table (PtxWrappers.cpp); used only under those options.
#include <fmt/format.h>

#include "codegen/WrapperTable.h"

namespace cake::codegen {
namespace {

// -fcheck-waits: an mbarrier phase wait as above that gives up after
// `budget` nanoseconds of %globaltimer, recording itself (cake_wait_expired).
std::string mbarWaitCheckedText(const char *name, const char *instruction) {
  return fmt::format(R"CAKE(// -fcheck-waits: blocks until the mbarrier's phase with the given parity has completed
// ({1}), or, after the budget in `info` (ns), records this wait (site, stage,
// the arrivals `counter` has seen) and stops the kernel.
static __device__ __forceinline__ void {0}(uint32_t bar, uint32_t parity, uint32_t info, uint32_t site,
                                              int32_t stage, uint32_t counter) {{
  uint64_t start = 0;
  for (;;) {{
    uint32_t done;
{2}    if (done) return;
    const uint64_t now = cake_globaltimer();
    if (start == 0)
      start = now;
    else if (now - start > cake_wait_budget(info))
      cake_wait_expired(info, site, stage, parity, counter, now - start);
  }}
}}
)CAKE",
                     name, instruction, mbarPollText(instruction));
}

}  // namespace

std::vector<Wrapper> withDebugWrappers(std::vector<Wrapper> table) {
  std::vector<Wrapper> debug = {
      {"cake_wait_log", {}, R"CAKE(// -fcheck-waits: what a wait that ran out records, in host memory the kernel
// writes through (mapped); the launcher reads it after the kernel stops.
#ifndef CAKE_WAIT_LOG_DEFINED
#define CAKE_WAIT_LOG_DEFINED
#define CAKE_WAIT_LOG_CAPACITY 512
typedef struct cake_wait_record {
  uint32_t site;      // the wait: its index in the launcher's table of waits
  int32_t stage;      // the stage it waited for (the stage counter's value)
  uint32_t parity;    // the phase parity it waited for
  uint32_t lanes;     // the warp's lanes still waiting
  uint32_t block[3];  // blockIdx
  uint32_t warp;      // the warp's index in the block
  uint32_t arrivals;  // the arrivals this block issued on the slot so far (~0u: not counted)
  uint64_t waited_ns;
} cake_wait_record;
typedef struct cake_wait_log {
  uint32_t count;  // records written (more than the capacity: some were dropped)
  uint32_t pad;
  cake_wait_record records[CAKE_WAIT_LOG_CAPACITY];
} cake_wait_log;
#endif
)CAKE"},
      {"cake_globaltimer", {}, R"CAKE(// The global nanosecond timer (%globaltimer).
static __device__ __forceinline__ uint64_t cake_globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
)CAKE"},
      {"cake_wait_expired",
       {"cake_wait_log", "cake_globaltimer"},
       R"CAKE(// -fcheck-waits: a wait ran out. The first waiting lane of each warp records it,
// then every waiting thread gives the other stuck roles an eighth of the budget
// to record theirs and ends the kernel (with an illegal address). `info`: the
// shared-memory address of the record buffer's pointer and the budget (read
// here only, so that they take no registers where the waits are); `counter`:
// of the arrivals this block issued on the slot (0: not counted). Inlined,
// with no call (a call, printf's too, would make ptxas serialize the kernel's
// wgmmas and ignore its setmaxnreg); with no buffer (a kernel launched by
// hand) it only stops the kernel.
static __device__ __forceinline__ void cake_wait_expired(uint32_t info, uint32_t site, int32_t stage, uint32_t parity,
                                                         uint32_t counter, uint64_t waited) {
  uint64_t log_bits, budget;
  asm volatile("ld.shared.v2.u64 {%0, %1}, [%2];" : "=l"(log_bits), "=l"(budget) : "r"(info) : "memory");
  cake_wait_log *log = reinterpret_cast<cake_wait_log *>(log_bits);
  const uint32_t lanes = __activemask();
  if (log && threadIdx.x % 32u == static_cast<uint32_t>(__ffs(lanes) - 1)) {
    uint32_t arrivals = ~0u;
    if (counter) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(arrivals) : "r"(counter) : "memory");
    const uint32_t i = atomicAdd(&log->count, 1u);
    if (i < CAKE_WAIT_LOG_CAPACITY) {
      cake_wait_record *r = &log->records[i];
      r->site = site;
      r->stage = stage;
      r->parity = parity;
      r->lanes = lanes;
      r->block[0] = blockIdx.x;
      r->block[1] = blockIdx.y;
      r->block[2] = blockIdx.z;
      r->warp = threadIdx.x / 32u;
      r->arrivals = arrivals;
      r->waited_ns = waited;
    }
    __threadfence_system();
  }
  const uint64_t until = cake_globaltimer() + budget / 8u;
  while (cake_globaltimer() < until) __nanosleep(10000);
  // Ends the kernel with an error: a store to address 0 (a trap instruction
  // here would make ptxas spill registers in the kernels that wait here).
  uint64_t zero;
  asm volatile("mov.u64 %0, 0;" : "=l"(zero));
  asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(zero), "r"(site) : "memory");
}
)CAKE"},
      {"cake_count_arrival",
       {},
       R"CAKE(// -fcheck-waits: counts an arrival issued on a barrier slot (a shared-memory counter).
static __device__ __forceinline__ void cake_count_arrival(uint32_t counter) {
  asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(counter) : "memory");
}
)CAKE"},
      {"cake_wait_budget",
       {},
       R"CAKE(// -fcheck-waits: the budget of a wait (ns), from shared memory (after the buffer's pointer).
static __device__ __forceinline__ uint64_t cake_wait_budget(uint32_t info) {
  uint64_t budget;
  asm volatile("ld.shared.u64 %0, [%1];" : "=l"(budget) : "r"(info + 8u) : "memory");
  return budget;
}
)CAKE"},
      {"cake_mbar_wait_checked",
       {"cake_wait_expired", "cake_globaltimer", "cake_wait_log", "cake_wait_budget"},
       mbarWaitCheckedText("cake_mbar_wait_checked", "mbarrier.try_wait")},
      {"cake_mbar_wait_checked_polled",
       {"cake_wait_expired", "cake_globaltimer", "cake_wait_log", "cake_wait_budget"},
       mbarWaitCheckedText("cake_mbar_wait_checked_polled", "mbarrier.test_wait")},
      {"cake_flag_wait_checked",
       {"cake_wait_expired", "cake_globaltimer", "cake_wait_log", "cake_wait_budget", "cake_ld_acquire_s32"},
       R"CAKE(// -fcheck-waits: lm.wait_flag, which after the budget in `info` (ns) records
// itself (the value it waits for as the stage, the last it read as the parity)
// and stops the kernel.
static __device__ __forceinline__ void cake_flag_wait_checked(const int32_t *p, int32_t v, uint32_t info,
                                                              uint32_t site) {
  uint64_t start = 0;
  for (uint32_t ns = 32;; ns = ns < 1024u ? 2 * ns : ns) {
    const int32_t seen = cake_ld_acquire_s32(p);
    if (seen == v) return;
    __nanosleep(ns);
    const uint64_t now = cake_globaltimer();
    if (start == 0)
      start = now;
    else if (now - start > cake_wait_budget(info))
      cake_wait_expired(info, site, v, static_cast<uint32_t>(seen), 0u, now - start);
  }
}
)CAKE"},
      {"cake_jitter",
       {"cake_globaltimer"},
       R"CAKE(// -fjitter: one time in four, delays the warp by 0.5 to 16.5 us, drawn from a hash
// of the seed, the operation's site, the block, the warp and the number of
// delays the thread has drawn (the same for every lane of a converged warp).
// Brings out races that depend on timing; deterministic for a seed.
static __device__ __forceinline__ void cake_jitter(uint32_t seed, uint32_t site, uint32_t n) {
  uint32_t h = seed ^ (site * 0x9e3779b9u) ^ (n * 0x85ebca6bu) ^ ((threadIdx.x / 32u) * 0x61c88647u) ^
               (blockIdx.x * 0xc2b2ae35u + blockIdx.y * 0x27d4eb2fu + blockIdx.z * 0x165667b1u);
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  if ((h & 3u) != 0u) return;
  const uint64_t until = cake_globaltimer() + 500u + (h >> 8) % 16000u;
  while (cake_globaltimer() < until) __nanosleep(256);
}
)CAKE"},
  };
  for (Wrapper &w : debug) table.push_back(std::move(w));
  return table;
}

}  // namespace cake::codegen
