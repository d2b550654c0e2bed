// The launchers of load_scalar_ranges.cake on the host (no GPU: every check
// runs before the first CUDA call, which fails here): each case prints the
// launcher's code and message.
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#include "ranges.h"

static cake_tensor tensor(int64_t rows, int64_t cols, int dtype) {
  static char memory[1 << 20];
  cake_tensor t = {};
  t.data = memory + 256;
  t.rank = cols ? 2 : 1;
  t.shape[0] = rows;
  t.stride[0] = cols ? cols : 1;
  if (cols) {
    t.shape[1] = cols;
    t.stride[1] = 1;
  }
  t.dtype = dtype;
  return t;
}

int main() {
  struct Case {
    const char *what;
    int32_t V, M, LO, HI;
  } cases[] = {
      {"rows [0, 100) of 100", 100, 64, 0, 100},
      {"rows [10, 101) of 100", 100, 64, 10, 101},
      {"rows [-1, 50) of 100", 100, 64, -1, 50},
      {"an empty range [50, 50)", 100, 64, 50, 50},
  };
  for (const Case &c : cases) {
    cake_tensor X = tensor(c.V, 256, CAKE_DTYPE_BF16), IDX = tensor(c.M, 0, CAKE_DTYPE_I32),
                Y = tensor(c.M, 256, CAKE_DTYPE_BF16);
    int rc = ranges_launch(&X, &IDX, &Y, c.V, c.M, c.LO, c.HI, nullptr);
    std::printf("%s: %d %s\n", c.what, rc, rc == CAKE_ERROR_SHAPE ? ranges_last_error() : "(past the checks)");
  }
  for (int32_t K : {0, 5}) {  // looped: a read never reached at K = 0; rows [0, 5) of 4 at K = 5
    cake_tensor X = tensor(4, 256, CAKE_DTYPE_BF16), IDX = tensor(64, 0, CAKE_DTYPE_I32),
                Y = tensor(64, 256, CAKE_DTYPE_BF16);
    int rc = looped_launch(&X, &IDX, &Y, 4, 64, K, nullptr);
    std::printf("looped K = %d: %d %s\n", K, rc, rc == CAKE_ERROR_SHAPE ? looped_last_error() : "(past the checks)");
  }
  return 0;
}
