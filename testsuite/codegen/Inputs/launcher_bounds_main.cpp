// Calls three launchers with hostile and near-miss arguments and prints what
// each returns (launcher_bounds.test): the sm_80 GEMM (cp.async, shapes not
// declared), the 2-block-cluster sm_90a GEMM (TMA, shapes not declared) and
// the persistent sm_90a GEMM (TMA, declared shapes, lm.sm_count()).
// Runs without a GPU: the checks come before any CUDA call except the
// multiprocessor count, which the stubs below give (the test links the CUDA
// runtime as a shared library, so these definitions take the place of its
// own). A launch that passes every check fails later, at the first real CUDA
// call (no device here): "launch error" or "driver error", never "shape
// error".
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "bounds_cluster.h"
#include "bounds_persistent.h"
#include "bounds_sm80.h"

extern "C" cudaError_t CUDARTAPI cudaGetDevice(int *device) {
  *device = 0;
  return cudaSuccess;
}
extern "C" cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int) {
  *value = attr == cudaDevAttrMultiProcessorCount ? 132 : 0;
  return cudaSuccess;
}

alignas(256) static char storage[256];  // never read: the launchers only check the pointer

static cake_tensor tensor(int64_t rows, int64_t cols) {
  cake_tensor t = {};
  t.data = storage;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.stride[0] = cols;
  t.stride[1] = 1;
  t.rank = 2;
  t.dtype = CAKE_DTYPE_BF16;
  return t;
}

static const char *codeName(int e) {
  switch (e) {
  case CAKE_SUCCESS: return "launched";
  case CAKE_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case CAKE_ERROR_MISALIGNED: return "misaligned";
  case CAKE_ERROR_SHAPE: return "shape error";
  case CAKE_ERROR_DRIVER: return "driver error";
  case CAKE_ERROR_LAUNCH: return "launch error";
  }
  return "unknown";
}

typedef int (*Launch)(const cake_tensor *, const cake_tensor *, const cake_tensor *, int32_t, int32_t, int32_t,
                      cudaStream_t);

// A, B, C of the usual shapes [M, K], [N, K], [M, N] unless given.
static void run(const char *what, Launch launch, const char *(*lastError)(void), cake_tensor a, cake_tensor b,
                cake_tensor c, int32_t m, int32_t n, int32_t k) {
  int e = launch(&a, &b, &c, m, n, k, nullptr);
  std::printf("%s: %s: %s\n", what, codeName(e), lastError());
}

int main() {
  const int64_t big = int64_t(1) << 41, huge = (int64_t(1) << 62) + 16;
  cake_tensor a = tensor(1024, 1024), b = tensor(1024, 1024), c = tensor(1024, 1024);
  cake_tensor wideStride = a, hugeStride = a;
  wideStride.stride[0] = big;
  hugeStride.stride[0] = huge;

  // sm_80, cp.async: M, N, K are tied to the tensors only by the checks.
  run("sm80 1024^3", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, c, 1024, 1024, 1024);
  run("sm80 M=8192", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, c, 8192, 1024, 1024);
  run("sm80 N=2048", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, tensor(1024, 2048), 1024, 2048, 1024);
  run("sm80 K=65536", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, c, 1024, 1024, 65536);
  run("sm80 K=0", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, c, 1024, 1024, 0);
  run("sm80 K=-64", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, c, 1024, 1024, -64);
  run("sm80 M=2^31-1", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, c, 2147483647, 1024, 1024);
  run("sm80 stride 2^41", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, wideStride, b, c, 1024, 1024, 1024);
  run("sm80 stride 2^62", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, hugeStride, b, c, 1024, 1024, 1024);
  // The tensor's rank and dtype, from the caller: an f32 A is not read as
  // bf16, a rank-3 A is not read as rank 2, a caller that sets neither is refused.
  cake_tensor f32 = a, rank3 = a, unset = a;
  f32.dtype = CAKE_DTYPE_F32;
  rank3.rank = 3;
  unset.rank = unset.dtype = 0;
  run("sm80 A f32", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, f32, b, c, 1024, 1024, 1024);
  run("sm80 A rank 3", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, rank3, b, c, 1024, 1024, 1024);
  run("sm80 A unset", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, unset, b, c, 1024, 1024, 1024);
  run("cluster C f32", cluster_launch, cluster_last_error, a, b, f32, 1024, 1024, 1024);
  // Near misses: smaller problems inside larger tensors.
  run("sm80 M=768 K=992", gemm_bf16_sm80_launch, gemm_bf16_sm80_last_error, a, b, c, 768, 1024, 992);

  // sm_90a, TMA, shapes not declared: TMA would clip, the checks reject.
  run("cluster 1024^3", cluster_launch, cluster_last_error, a, b, c, 1024, 1024, 1024);
  run("cluster M=8192", cluster_launch, cluster_last_error, a, b, c, 8192, 1024, 1024);
  run("cluster K=65536", cluster_launch, cluster_last_error, a, b, c, 1024, 1024, 65536);
  run("cluster K=0", cluster_launch, cluster_last_error, a, b, c, 1024, 1024, 0);
  run("cluster K=-64", cluster_launch, cluster_last_error, a, b, c, 1024, 1024, -64);
  run("cluster stride 2^41", cluster_launch, cluster_last_error, wideStride, b, c, 1024, 1024, 1024);
  run("cluster stride 2^62", cluster_launch, cluster_last_error, hugeStride, b, c, 1024, 1024, 1024);

  // sm_90a persistent, declared shapes [M, K], [N, K], [M, N].
  const int32_t maxM = 2147483647;
  run("persistent 1024^3", persistent_launch, persistent_last_error, a, b, c, 1024, 1024, 1024);
  run("persistent 200x304x136", persistent_launch, persistent_last_error, tensor(200, 136), tensor(304, 136),
      tensor(200, 304), 200, 304, 136);
  run("persistent M=2^31-1", persistent_launch, persistent_last_error, tensor(maxM, 64), tensor(256, 64),
      tensor(maxM, 256), maxM, 256, 64);
  // A large M that fits: the ranges are not narrowed by conditions, so M
  // close to 2^31 may be refused that would run correctly (conservative).
  run("persistent M=2^30", persistent_launch, persistent_last_error, tensor(1 << 30, 64), tensor(256, 64),
      tensor(1 << 30, 256), 1 << 30, 256, 64);
  run("persistent stride 2^62", persistent_launch, persistent_last_error, hugeStride, b, c, 1024, 1024, 1024);
  // One row: its stride addresses nothing, and torch gives a (1, K) tensor
  // stride 1 as often as K; two rows with stride 1 are refused.
  cake_tensor oneRow = tensor(1, 64), twoRows = tensor(2, 64);
  oneRow.stride[0] = twoRows.stride[0] = 1;
  run("persistent one row, stride 1", persistent_launch, persistent_last_error, oneRow, tensor(256, 64), tensor(1, 256),
      1, 256, 64);
  run("persistent two rows, stride 1", persistent_launch, persistent_last_error, twoRows, tensor(256, 64),
      tensor(2, 256), 2, 256, 64);
  return 0;
}
