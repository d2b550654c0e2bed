// The stream-K launcher on the host (no GPU here: every check runs before
// the first CUDA call, which fails here): the workspace size query and the
// range checks of every copy at the shapes given as M N K triples, then the
// first shape with a workspace one byte short, which is refused.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "streamk.h"

static cake_tensor tensor(int64_t rows, int64_t cols) {
  static char *memory = static_cast<char *>(aligned_alloc(1024, 1 << 20));
  cake_tensor t = {};
  t.data = memory;  // never read: the launch fails at its first CUDA call
  t.rank = 2;
  t.dtype = CAKE_DTYPE_BF16;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.stride[0] = cols;
  t.stride[1] = 1;
  return t;
}

static int launch(int M, int N, int K, long short_by) {
  cake_tensor A = tensor(M, K), B = tensor(N, K), C = tensor(M, N);
  size_t bytes = 0;
  if (gemm_bf16_streamk_workspace_size(M, N, K, &bytes) != CAKE_SUCCESS) {
    std::printf("%dx%dx%d: size query: %s\n", M, N, K, gemm_bf16_streamk_last_error());
    return 1;
  }
  static void *ws = aligned_alloc(256, 256);
  int rc = gemm_bf16_streamk_launch(&A, &B, &C, M, N, K, ws, bytes - short_by, nullptr);
  std::printf("%dx%dx%d: workspace %zu bytes: %s\n", M, N, K, bytes,
              rc == CAKE_ERROR_LAUNCH || rc == CAKE_ERROR_DRIVER ? "past the checks" : gemm_bf16_streamk_last_error());
  return 0;
}

int main(int argc, char **argv) {
  for (int i = 1; i + 2 < argc; i += 3) launch(atoi(argv[i]), atoi(argv[i + 1]), atoi(argv[i + 2]), 0);
  if (argc > 3) launch(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), 1);
  return 0;
}
