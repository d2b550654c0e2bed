// overhead.cu - the C side of torch_check.py's host-overhead comparison: a
// shared library that calls a generated launcher in a C loop, so that the
// Python calls and the C calls are timed in one process, batch by batch,
// interleaved (the host's speed drifts between and within runs).
//
//   int cakec_overhead_setup(const char *lib, void *X, void *R, void *W, void *Y, void *H, int M)
//       dlopens LIB (a cakec.load cache entry's k.so built from
//       examples/rmsnorm_sm90a.cake) and describes the five device buffers
//       (M x 4096 bf16; W 1 x 4096) once; 0 on success
//   double cakec_overhead_batch(int calls)
//       calls rmsnorm_residual_launch CALLS times on the default stream and
//       returns the host microseconds per call (the caller synchronizes
//       between batches, so the queue never fills); negative on a refusal
//   const char *cakec_overhead_error(void)
//
// Built with the launcher's generated header (cakec --emit=header).
#include <dlfcn.h>

#include <chrono>
#include <cstdio>

#include "rmsnorm.h"

namespace {
decltype(&rmsnorm_residual_launch) launch = nullptr;
decltype(&rmsnorm_residual_last_error) lastError = nullptr;
cake_tensor t[5];
int rows = 0;
char message[512] = "";
}  // namespace

extern "C" int cakec_overhead_setup(const char *lib, void *X, void *R, void *W, void *Y, void *H, int M) {
  void *h = dlopen(lib, RTLD_NOW);
  if (!h) {
    std::snprintf(message, sizeof message, "%s", dlerror());
    return 1;
  }
  launch = reinterpret_cast<decltype(launch)>(dlsym(h, "rmsnorm_residual_launch"));
  lastError = reinterpret_cast<decltype(lastError)>(dlsym(h, "rmsnorm_residual_last_error"));
  if (!launch || !lastError) {
    std::snprintf(message, sizeof message, "%s has no rmsnorm_residual_launch", lib);
    return 1;
  }
  void *bufs[5] = {X, R, W, Y, H};
  for (int i = 0; i < 5; ++i) {
    t[i] = cake_tensor{};
    t[i].data = bufs[i];
    t[i].rank = 2;
    t[i].shape[0] = i == 2 ? 1 : M;
    t[i].shape[1] = 4096;
    t[i].stride[0] = 4096;
    t[i].stride[1] = 1;
    t[i].dtype = CAKE_DTYPE_BF16;
  }
  rows = M;
  return 0;
}

extern "C" double cakec_overhead_batch(int calls) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {
    if (launch(&t[0], &t[1], &t[2], &t[3], &t[4], rows, nullptr) != 0) {
      std::snprintf(message, sizeof message, "%s", lastError());
      return -1;
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / calls;
}

extern "C" const char *cakec_overhead_error(void) { return message; }
