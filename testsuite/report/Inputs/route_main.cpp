// Reads "M N K" lines and prints "M N K route" from the generated
// dispatcher of examples/gemm_bf16_family_sm90a.cake (family_routes.test).
// Runs without a GPU: the route function is host code.
#include <cstdio>

#include "family.h"

int main() {
  int m, n, k;
  while (std::scanf("%d %d %d", &m, &n, &k) == 3) {
    const char *r = gemm_bf16_route(m, n, k);
    std::printf("%d %d %d %s\n", m, n, k, r ? r : "(none)");
  }
  return 0;
}
