/* Includes the header cakec_generate put on the library's include path and
   calls the launcher (a null tensor: it fails its argument check). */
#include <stdio.h>

#include "gemm.h"

int main(void) {
  int rc = gemm_bf16_launch(NULL, NULL, NULL, 128, 256, 64, NULL);
  printf("gemm_bf16_launch: %d (%s)\n", rc, gemm_bf16_last_error());
  return rc == CAKE_ERROR_INVALID_ARGUMENT ? 0 : 1;
}
