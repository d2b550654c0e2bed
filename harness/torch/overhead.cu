// overhead.cu - host time of one call of a generated launcher from C, the
// baseline the Python package's call is measured against (torch_check.py's
// overhead section runs the same launcher of the same shared library).
//
// Usage: overhead LIB.so M BATCHES CALLS
//   dlopens LIB.so (a cakec.load cache entry's k.so built from
//   examples/rmsnorm_sm90a.cake), allocates X, R, W, Y, H for M rows of 4096
//   bf16, and times BATCHES batches of CALLS launches each on the default
//   stream (the launch calls only; the device is synchronized between
//   batches, so the queue never fills). Prints one JSON line: the median,
//   10th and 90th percentile of the host microseconds per call.
// Built with the launcher's generated header: cakec --emit=header.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "rmsnorm.h"

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: overhead LIB.so M BATCHES CALLS\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    std::fprintf(stderr, "overhead: %s\n", dlerror());
    return 1;
  }
  auto launch = reinterpret_cast<decltype(&rmsnorm_residual_launch)>(dlsym(lib, "rmsnorm_residual_launch"));
  auto lastError = reinterpret_cast<decltype(&rmsnorm_residual_last_error)>(dlsym(lib, "rmsnorm_residual_last_error"));
  if (!launch || !lastError) {
    std::fprintf(stderr, "overhead: %s has no rmsnorm_residual_launch\n", argv[1]);
    return 1;
  }
  const int m = std::atoi(argv[2]), batches = std::atoi(argv[3]), calls = std::atoi(argv[4]);
  const int n = 4096;
  void *buf[5];
  for (int i = 0; i < 5; ++i) {
    size_t rows = i == 2 ? 1 : static_cast<size_t>(m);
    if (cudaMalloc(&buf[i], rows * n * 2) != cudaSuccess || cudaMemset(buf[i], 0, rows * n * 2) != cudaSuccess) {
      std::fprintf(stderr, "overhead: cudaMalloc failed\n");
      return 1;
    }
  }
  cake_tensor t[5] = {};
  for (int i = 0; i < 5; ++i) {
    t[i].data = buf[i];
    t[i].rank = 2;
    t[i].shape[0] = i == 2 ? 1 : m;
    t[i].shape[1] = n;
    t[i].stride[0] = n;
    t[i].stride[1] = 1;
    t[i].dtype = CAKE_DTYPE_BF16;
  }
  auto once = [&] {
    int rc = launch(&t[0], &t[1], &t[2], &t[3], &t[4], m, nullptr);
    if (rc != 0) {
      std::fprintf(stderr, "overhead: launch refused (%d): %s\n", rc, lastError());
      std::exit(1);
    }
  };
  for (int i = 0; i < 2 * calls; ++i) once();  // warm-up
  cudaDeviceSynchronize();
  std::vector<double> per;
  for (int b = 0; b < batches; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) once();
    auto t1 = std::chrono::steady_clock::now();
    per.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::fprintf(stderr, "overhead: %s\n", cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
  }
  std::sort(per.begin(), per.end());
  auto q = [&](double f) { return per[static_cast<size_t>(f * (per.size() - 1))]; };
  std::printf("{\"median_us\": %.3f, \"p10_us\": %.3f, \"p90_us\": %.3f, \"batches\": %d, \"calls\": %d}\n", q(0.5),
              q(0.1), q(0.9), batches, calls);
  return 0;
}
