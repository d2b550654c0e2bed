// Does compute-sanitizer's racecheck order shared-memory accesses across a
// raw-PTX mbarrier hand-off (arrive with release semantics, a wait by
// test_wait or try_wait)? Two roles of four warps each; every variant is
// race-free by the PTX memory model. A hazard reported here is the tool's,
// not the program's (bench/results/device_2026-12-07b/README.md).
#include <cstdio>
#include <cstdint>
#include <cstring>

__device__ __forceinline__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void wait_test(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W: mbarrier.test_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void wait_try(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}

// variant 0: write -> all arrive -> test_wait -> read (RAW)
// variant 1: read -> all arrive -> test_wait -> write (WAR)
// variant 2: read -> all arrive -> try_wait -> write (WAR)
// variant 3: read -> __syncwarp, lane 0 arrives (4 per phase) -> test_wait -> write (WAR)
// variant 4: no synchronisation at all (a real race: the tool must report it)
// variant 5: read -> bar.sync of the role's 128 threads, one thread arrives (1 per phase) -> test_wait -> write (WAR)
__global__ void control(int variant, float *out) {
  __shared__ alignas(8) uint64_t bar;
  __shared__ float buf[128];
  const int t = threadIdx.x;
  const uint32_t b = smem_addr(&bar);
  if (t == 0) mbar_init(b, variant == 3 ? 4 : variant == 5 ? 1 : 128);
  if (t < 128) buf[t] = 1.0f;
  __syncthreads();
  const bool first = t >= 128;  // the role that goes first
  const int i = (t * 7) % 128;
  if (variant == 0) {
    if (!first) {
      buf[i] = 2.0f;
      mbar_arrive(b);
    } else {
      wait_test(b, 0);
      out[t] = buf[(i + 5) % 128];
    }
  } else if (first) {
    out[t] = buf[i];
    if (variant == 3) {
      __syncwarp();
      if (t % 32 == 0) mbar_arrive(b);
    } else if (variant == 5) {
      asm volatile("bar.sync 1, 128;" ::: "memory");
      if (t == 128) mbar_arrive(b);
    } else if (variant != 4) {
      mbar_arrive(b);
    }
  } else {
    if (variant == 2) wait_try(b, 0);
    else if (variant != 4) wait_test(b, 0);
    buf[(i + 5) % 128] = 3.0f;
  }
}

int main(int argc, char **argv) {
  int variant = argc > 1 ? atoi(argv[1]) : 0;
  float *out;
  cudaMalloc(&out, 256 * sizeof(float));
  control<<<1, 256>>>(variant, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("variant %d: %s\n", variant, cudaGetErrorString(e));
  return e != cudaSuccess;
}
