// check_cuda.h - CHECK_CUDA(x): a CUDA runtime call that must succeed; on an
// error, prints where and why and exits with status 2. Shared by the GPU
// harnesses (harness/gemm, harness/boxcut).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(x)                                                                                  \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));        \
      std::exit(2);                                                                                    \
    }                                                                                                  \
  } while (0)
