// Feeds the launcher's -fcheck-waits report (named_barrier_nvcc.test) the
// record a meeting that ran out would leave, without a GPU: the generated
// file is included, so its static functions are called as its launcher
// calls them (the stream query fails here: no device).
#include MEETING_CU

int main() {
  static cake_wait_log log;
  // Warp 0 of role 'load' (site 1) stuck at its second meeting on 'staged'
  // (meeting 1): the block's warps arrived 12 times in all, so 4 of the 8
  // that complete meeting 1 came.
  cake_wait_record &r = log.records[log.count++];
  r.site = 1;
  r.stage = 1;
  r.parity = 1;
  r.lanes = 0xffffffffu;
  r.block[0] = 3;
  r.block[1] = r.block[2] = 0;
  r.warp = 0;
  r.arrivals = 12;
  r.waited_ns = 500000000ull;
  char msg[512];
  int rc = cake_wait_for_kernel(msg, 0, &log, cake_epilogue_by_loader_waits, 4, 500000000ull, "epilogue_by_loader");
  printf("%d %s\n", rc, msg);
  return 0;
}
