// Calls the launcher of launcher_i64.cake with K an i64 the kernel narrows
// to int32_t (launcher_i64.test). Runs without a GPU: the checks come before
// any CUDA call.
#include <cstdint>
#include <cstdio>

#include "launcher_i64.h"

alignas(256) static char storage[256];  // never read: the launcher only checks the pointer

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

int main() {
  cake_tensor a = tensor(128, 64), c = tensor(128, 64);
  const int64_t ks[] = {64, 4096, -(int64_t(1) << 32) + 4096};
  for (int64_t k : ks) {
    int e = cp_launch(&a, &c, 128, k, nullptr);
    std::printf("K=%lld: %s: %s\n", (long long)k, e == CAKE_ERROR_SHAPE ? "shape error" : "past the checks",
                cp_last_error());
  }
  return 0;
}
