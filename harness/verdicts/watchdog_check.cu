// harness/verdicts/watchdog_check.cu - the -fcheck-waits launcher's deadline
// on the GPU (issue 38): a kernel stuck where no wait has a limit is reported
// after the deadline ([run.hang], CAKE_ERROR_HANG) instead of blocking the
// launcher forever. The stuck kernel here spins on a flag in mapped host
// memory, so that after the report the program can release it and show the
// device is still usable.
//
//   build-test/bin/cakec testsuite/namedbarrier/pass_epilogue_store_role.cake -fcheck-waits -o OUT/cw.cu   # here
//   nvcc -gencode=arch=compute_90a,code=sm_90a -DCW='"OUT/cw.cu"' harness/verdicts/watchdog_check.cu -lcuda  # device
#include CW

__global__ void spin(volatile uint32_t *flag) {
  while (*flag == 0) __nanosleep(1000);
}

__global__ void sleepy(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(100000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

int main() {
  uint32_t *flag = NULL, *flag_dev = NULL;
  if (cudaHostAlloc((void **)&flag, sizeof *flag, cudaHostAllocMapped) != cudaSuccess ||
      cudaHostGetDevicePointer((void **)&flag_dev, flag, 0) != cudaSuccess) {
    printf("FAIL: no mapped memory\n");
    return 1;
  }
  *(volatile uint32_t *)flag = 0;
  cake_wait_log *log = cake_wait_log_host();
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  // A kernel queued before it that runs 3 s: the deadline counts from the
  // event recorded before the launch, so the report comes at about 13 s.
  sleepy<<<1, 32>>>(3000000000ull);
  cudaEvent_t started = cake_wait_start_event(0);
  spin<<<1, 32>>>(flag_dev);
  char msg[512];
  int rc = cake_wait_for_kernel(msg, 0, log, NULL, 0, cake_wait_budget_ns(0.25), "spin", started);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("rc %d after %.1f s: %s\n", rc, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, msg);
  *(volatile uint32_t *)flag = 1;  // release it
  cudaError_t err = cudaDeviceSynchronize();
  printf("released: %s\n", cudaGetErrorString(err));
  return rc == CAKE_ERROR_HANG && err == cudaSuccess ? 0 : 1;
}
