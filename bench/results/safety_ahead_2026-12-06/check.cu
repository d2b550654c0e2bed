// Runs one generated copy-ahead kernel (KFILE, built with -DKFILE=...) N times
// and checks its outputs: X's block of 256 columns b holds b + 1; Y (and Z,
// with HASZ) must hold X's blocks in order (Z's first ZCOLS columns from block
// ZFROM on). A launch
// that does not finish in 5 s is reported as a hang.
#include KFILE
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>
static cake_tensor mk(int r, int c) {
  cake_tensor t = {};
  cudaMalloc(&t.data, r * c * 2);
  t.shape[0] = r; t.shape[1] = c; t.stride[0] = c; t.stride[1] = 1; t.rank = 2; t.dtype = CAKE_DTYPE_BF16;
  return t;
}
static long wrong(const cake_tensor &t, int first, int cols) {
  int r = t.shape[0], c = t.shape[1];
  std::vector<__nv_bfloat16> h(r * c);
  cudaMemcpy(h.data(), t.data, r * c * 2, cudaMemcpyDeviceToHost);
  long n = 0;
  for (int i = 0; i < r * c; i++) n += i % c < cols && __bfloat162float(h[i]) != (float)((i % c) / 256 + first);
  return n;
}
int main(int argc, char **argv) {
  int N = atoi(argv[1]);
  cake_tensor X = mk(4, XC), Y = mk(4, 2048), Z = mk(4, 2048);
  std::vector<__nv_bfloat16> hx(4 * XC);
  for (int i = 0; i < 4 * XC; i++) hx[i] = __float2bfloat16((float)((i % XC) / 256 + 1));
  cudaMemcpy(X.data, hx.data(), 4 * XC * 2, cudaMemcpyHostToDevice);
  long badY = 0, badZ = 0;
  for (int it = 0; it < N; it++) {
    cudaMemset(Y.data, 0, 4 * 2048 * 2);
    cudaMemset(Z.data, 0, 4 * 2048 * 2);
#ifdef HASZ
    int e = k_launch(&X, &Y, &Z, 0);
#else
    int e = k_launch(&X, &Y, 0);
#endif
    if (e) { printf("launch error %d\n", e); return 1; }
    auto t0 = std::chrono::steady_clock::now();
    while (cudaStreamQuery(0) == cudaErrorNotReady)
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(5)) { printf("HANG at launch %d\n", it); fflush(stdout); _exit(3); }
    if (cudaGetLastError() != cudaSuccess) { printf("CUDA error\n"); return 1; }
    badY += wrong(Y, 1, 2048) > 0;
#ifdef HASZ
    badZ += wrong(Z, ZFROM + 1, ZCOLS) > 0;
#endif
  }
  printf("%d launches: %ld with Y wrong, %ld with Z wrong: %s\n", N, badY, badZ, badY + badZ ? "FAIL" : "ok");
  return badY + badZ ? 1 : 0;
}
