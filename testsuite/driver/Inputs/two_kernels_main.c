/* Calls two generated kernels' launchers through their headers (C, no CUDA
   header): header_and_names.test. */
#include <stdio.h>

#include "a.h"
#include "b.h"

int main(void) {
  int a = gemm_a_launch(NULL, NULL, NULL, 128, 256, 64, NULL);
  int b = gemm_b_launch(NULL, NULL, NULL, 256, 128, 32, NULL);
  printf("gemm_a: %d (%s)\ngemm_b: %d (%s)\n", a, gemm_a_last_error(), b, gemm_b_last_error());
  return a == CAKE_ERROR_INVALID_ARGUMENT && b == CAKE_ERROR_INVALID_ARGUMENT ? 0 : 1;
}
