// Feeds the launcher's -fcheck-waits report (check_waits.test) the records a
// hung kernel would leave, without a GPU: the generated file is included, so
// its static functions are called as its launcher calls them. Here
// the stream query fails (no device), as it does after a kernel traps.
#include CHECK_WAITS_CU

#include <cstdlib>

static cake_wait_log fake;

static void record(unsigned site, int stage, unsigned parity, unsigned bx, unsigned warp, unsigned arrivals) {
  cake_wait_record &r = fake.records[fake.count++];
  r.site = site;
  r.stage = stage;
  r.parity = parity;
  r.lanes = 0xffffffffu;
  r.block[0] = bx;
  r.block[1] = r.block[2] = 0;
  r.warp = warp;
  r.arrivals = arrivals;
  r.waited_ns = 2100000000ull;
}

int main() {
  char msg[512];
  // No record: the kernel's own failure is the launch error.
  int rc = cake_wait_for_kernel(msg, 0, &fake, cake_gemm_bf16_waits, 2, 2000000000ull, "gemm_bf16");
  printf("no records: %d (%s)\n", rc, msg);
  // The producer and both consumer warpgroups' warps of two blocks stuck:
  // 'empty' (2 a phase, a release barrier) at stage 3 waits for the slot's
  // phase 0, of which 1 arrival was issued; 'full' (1 a phase and 49152
  // bytes) at stage 3 for phase 1, 2 arrivals in all: the bytes are missing.
  record(0, 3, 1, 0, 0, 1);
  record(1, 3, 1, 0, 4, 2);
  record(1, 3, 1, 0, 8, 2);
  record(1, 3, 1, 1, 4, 2);
  record(0, 3, 1, 1, 0, 1);
  record(1, 4, 1, 1, 4, 0);   // stage 4: phase 1 of slot 1, whose counter says 0 in all
  record(0, 6, 1, 1, 0, ~0u);  // not counted
  record(0, 1, 1, 2, 0, 2);    // stage 1: the first lap, which passes unless 2 arrivals came early
  record(7, 0, 0, 2, 0, 0);    // a site the table does not have
  rc = cake_wait_for_kernel(msg, 0, &fake, cake_gemm_bf16_waits, 2, 2000000000ull, "gemm_bf16");
  printf("records: %d == CAKE_ERROR_HANG (%d): %s\n", rc, CAKE_ERROR_HANG, msg);
  // The time limit: compiled, or from the environment when it is valid.
  printf("budget %llu\n", (unsigned long long)cake_wait_budget_ns(2));
  setenv("CAKE_CHECK_WAITS_SECONDS", "0.25", 1);
  printf("budget %llu\n", (unsigned long long)cake_wait_budget_ns(2));
  setenv("CAKE_CHECK_WAITS_SECONDS", "1e9", 1);
  printf("budget %llu\n", (unsigned long long)cake_wait_budget_ns(2));
  setenv("CAKE_CHECK_WAITS_SECONDS", "3s", 1);
  printf("budget %llu\n", (unsigned long long)cake_wait_budget_ns(2));
  // The launcher's deadline for a kernel none of whose waits ran out: 20
  // times a wait's limit, at least 10 s.
  printf("deadline %llu %llu\n", (unsigned long long)cake_kernel_deadline_ns(2000000000ull),
         (unsigned long long)cake_kernel_deadline_ns(250000000ull));
  setenv("CAKE_CHECK_WAITS_KERNEL_SECONDS", "90", 1);
  printf("deadline %llu\n", (unsigned long long)cake_kernel_deadline_ns(2000000000ull));
  setenv("CAKE_CHECK_WAITS_KERNEL_SECONDS", "0", 1);
  printf("deadline off %d\n", cake_kernel_deadline_ns(2000000000ull) == UINT64_MAX);
  setenv("CAKE_CHECK_WAITS_KERNEL_SECONDS", "soon", 1);
  printf("deadline %llu\n", (unsigned long long)cake_kernel_deadline_ns(2000000000ull));
  return 0;
}
