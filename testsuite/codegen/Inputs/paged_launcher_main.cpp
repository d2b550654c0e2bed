// The paged decode example's launcher on the host (no GPU here: every check
// runs before the first CUDA call, which fails here): at lengths of several
// tiles, uneven against the splits, the extents the launcher bounds (K's
// rows within a page, BT's columns, the pool's pages) pass, so the launch
// gets past its checks; a block table one page short is refused.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "paged.h"

static cake_tensor tensor(int rank, const int64_t *shape, int dtype) {
  static char *memory = static_cast<char *>(aligned_alloc(1024, 1 << 20));
  cake_tensor t = {};
  t.data = memory;
  t.rank = rank;
  t.dtype = dtype;
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    t.shape[d] = shape[d];
    t.stride[d] = stride;
    stride *= shape[d];
  }
  return t;
}

int main(int argc, char **argv) {
  const int64_t page = argc > 1 ? atoi(argv[1]) : 128;
  const int64_t lengths[] = {640, 4096, 1152};
  for (int64_t L : lengths)
    for (int64_t shortBy : {0, 1}) {
      const int64_t B = 3, G = B * 8, maxp = (L + page - 1) / page - shortBy, np = B * maxp + 2;
      const int64_t q[] = {G, 8, 128}, kv[] = {np * 8, page, 128}, bt[] = {B, maxp}, lse[] = {G, 8};
      cake_tensor Q = tensor(3, q, CAKE_DTYPE_BF16), K = tensor(3, kv, CAKE_DTYPE_BF16),
                  V = tensor(3, kv, CAKE_DTYPE_BF16), BT = tensor(2, bt, CAKE_DTYPE_I32),
                  O = tensor(3, q, CAKE_DTYPE_BF16), LSE = tensor(2, lse, CAKE_DTYPE_F32);
      size_t bytes = 0;
      attention_decode_gqa_paged_workspace_size(L, G, B, maxp, np, &bytes);
      static char *ws = static_cast<char *>(aligned_alloc(256, 1 << 24));
      int rc = attention_decode_gqa_paged_launch(&Q, &K, &V, &BT, &O, &LSE, L, G, B, maxp, np, ws, bytes, nullptr);
      printf("L = %lld, %lld page(s) of %lld a row of BT: %s\n", (long long)L, (long long)maxp, (long long)page,
             rc == CAKE_ERROR_SHAPE ? attention_decode_gqa_paged_last_error()
             : rc == CAKE_ERROR_LAUNCH || rc == CAKE_ERROR_DRIVER ? "past the checks"
                                                                    : attention_decode_gqa_paged_last_error());
    }
  return 0;
}
