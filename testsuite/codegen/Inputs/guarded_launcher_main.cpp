// The launcher of guarded_copy.cake on the host (no GPU here: every check
// runs before the first CUDA call, which fails here): X of 2048 columns, the
// last guarded copy's, gets past the checks; X of 1792 columns is
// refused, naming the guarded copy's coordinate.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "guarded.h"

static cake_tensor tensor(int64_t rows, int64_t cols) {
  static char *memory = static_cast<char *>(aligned_alloc(1024, 1 << 20));
  cake_tensor t = {};
  t.data = memory;
  t.rank = 2;
  t.dtype = CAKE_DTYPE_BF16;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.stride[0] = cols;
  t.stride[1] = 1;
  return t;
}

int main() {
  for (int64_t cols : {2048, 1792}) {
    cake_tensor X = tensor(4, cols), Y = tensor(4, 2048);
    int rc = guarded_launch(&X, &Y, nullptr);
    std::printf("X of %lld columns: %s\n", (long long)cols,
                rc == CAKE_ERROR_LAUNCH || rc == CAKE_ERROR_DRIVER ? "past the checks" : guarded_last_error());
  }
  return 0;
}
