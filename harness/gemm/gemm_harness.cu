// gemm_harness.cu - runs a cakec-generated bf16 GEMM (C = A . B^T) on the GPU:
// checks it against cuBLAS on random inputs and times it beside cuBLAS.
//
// Build (on the GPU machine; harness/gemm/run.sh does this):
//   nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++17 \
//        -DKERNEL_CU='"path/to/gemm_bf16_sm90a.cu"' [-DKERNEL_NAME=gemm_bf16] harness/gemm/gemm_harness.cu \
//        -lcublas -lcupti -o gemm_harness
//
// Usage:
//   gemm_harness                     correctness and timing at the standard shapes
//   gemm_harness --check M N K ...   correctness only
//   gemm_harness --ours-only M N K ... our kernel alone, C fully written (for compute-sanitizer)
//   SHAPES="MxNxK MxNxK ..." gemm_harness   correctness and timing at those shapes
//   SHAPES=@FILE gemm_harness              ... at the shapes listed in FILE (one MxNxK
//                                          per line, '#' comments)
//
// Correctness: A, B uniform in [-1, 1) (fresh seed per shape), C poisoned
// with NaN first, every element compared with cuBLAS computing the same
// product with f32 output: |c - ref| <= 2^-7 |ref| + 2^-10 rms(ref). Rounding
// the f32 result to bf16 moves it by at most 2^-8 |ref|; the rest is room
// for a different f32 summation order.
//
// Timing: CUPTI kernel activity records (device timestamps), one sample =
// one launch after a kernel that overwrites a buffer larger than L2, ours
// and cuBLAS interleaved; median of the samples. FLUSH=read flushes by
// reading (L2 left clean) instead of writing. FLOOR=1 also times, in the same
// loop, a kernel that only reads B once: the floor for a GEMM bound by
// streaming B (a decode GEMM's weight).
#include KERNEL_CU

// The generated kernel's name (-DKERNEL_NAME=gemm_bf16_sm80): its launcher is
// KERNEL_NAME_launch and its message KERNEL_NAME_last_error.
#ifndef KERNEL_NAME
#define KERNEL_NAME gemm_bf16
#endif
#define CAKE_CAT2(a, b) a##b
#define CAKE_CAT(a, b) CAKE_CAT2(a, b)
#define CAKE_STR2(a) #a
#define CAKE_STR(a) CAKE_STR2(a)
#ifndef WORKSPACE
#define gemm_launch CAKE_CAT(KERNEL_NAME, _launch)
#endif
#define gemm_last_error CAKE_CAT(KERNEL_NAME, _last_error)
// -DFAMILY: KERNEL_NAME is a family's dispatcher; the kernel a shape runs is
// the route KERNEL_NAME_route names (its kernel has the route's name).
#ifdef FAMILY
#define gemm_route CAKE_CAT(KERNEL_NAME, _route)
#endif

#include <cublas_v2.h>
#include <cupti.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>
#ifndef CAKE_ERROR_HANG
#define CAKE_ERROR_HANG 6  // a -fcheck-waits launcher's code (its kernel may still be running)
#endif
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../common/check_cuda.h"

// -DWORKSPACE: the schedule takes a workspace (lm.workspace). The harness
// sizes it with KERNEL_NAME_workspace_size, allocates it (again when a shape
// needs more) and zero-fills it before the first launch at each shape; the
// kernel leaves its counters zero, so launches at one shape (the timing
// loops) reuse it as it is.
#ifdef WORKSPACE
static void *g_workspace = nullptr;
static size_t g_workspace_bytes = 0;
static int gemm_launch(const cake_tensor *A, const cake_tensor *B, const cake_tensor *C, int M, int N, int K,
                       cudaStream_t stream) {
  static int lastM = -1, lastN = -1, lastK = -1;
  size_t need = 0;
  if (CAKE_CAT(KERNEL_NAME, _workspace_size)(M, N, K, &need) == CAKE_SUCCESS &&
      (need > g_workspace_bytes || M != lastM || N != lastN || K != lastK)) {
    if (need > g_workspace_bytes) {
      if (g_workspace) CHECK_CUDA(cudaFree(g_workspace));
      CHECK_CUDA(cudaMalloc(&g_workspace, need));
      g_workspace_bytes = need;
    }
    CHECK_CUDA(cudaMemsetAsync(g_workspace, 0, g_workspace_bytes, stream));
    lastM = M, lastN = N, lastK = K;
  }
  return CAKE_CAT(KERNEL_NAME, _launch)(A, B, C, M, N, K, g_workspace, g_workspace_bytes, stream);
}
#endif
#define CHECK_CUBLAS(x)                                                                                \
  do {                                                                                                 \
    cublasStatus_t s_ = (x);                                                                           \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #x, (int)s_);          \
      std::exit(2);                                                                                    \
    }                                                                                                  \
  } while (0)
#define CHECK_CUPTI(x)                                                                                 \
  do {                                                                                                 \
    CUptiResult r_ = (x);                                                                              \
    if (r_ != CUPTI_SUCCESS) {                                                                         \
      const char *s_ = nullptr;                                                                        \
      cuptiGetResultString(r_, &s_);                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?");                  \
      std::exit(2);                                                                                    \
    }                                                                                                  \
  } while (0)

// ---- device helpers ----------------------------------------------------------

__device__ __forceinline__ uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

__global__ void fill_uniform(__nv_bfloat16 *p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    double u = (double)(mix(seed ^ (i * 0x9e3779b97f4a7c15ull)) >> 11) * (1.0 / 9007199254740992.0);
    p[i] = __float2bfloat16((float)(2.0 * u - 1.0));
  }
}

__global__ void fill_nan(__nv_bfloat16 *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = __ushort_as_bfloat16((unsigned short)0x7fff);
}

__global__ void sum_squares(const float *ref, size_t n, double *out) {
  double s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    s += (double)ref[i] * ref[i];
  atomicAdd(out, s);
}

struct CompareResult {
  unsigned long long bad;       // elements outside the bound (NaN included)
  unsigned long long first_bad; // smallest index of one
  double err2, ref2;            // sums of squares: error, reference
  float max_scaled;             // max |c - ref| / (|ref| + rms)
};

__global__ void compare(const __nv_bfloat16 *c, const float *ref, size_t n, float rms, CompareResult *r) {
  double e2 = 0;
  float worst = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float x = __bfloat162float(c[i]), y = ref[i];
    float d = fabsf(x - y);
    bool ok = d <= 0.0078125f * fabsf(y) + 0.0009765625f * rms;  // 2^-7 |ref| + 2^-10 rms
    if (!ok) {  // NaN fails too
      atomicAdd(&r->bad, 1ull);
      atomicMin(&r->first_bad, (unsigned long long)i);
    }
    if (isnan(d)) d = INFINITY;
    e2 += (double)d * d;
    worst = fmaxf(worst, d / (fabsf(y) + rms));
  }
  atomicAdd(&r->err2, e2);
  atomicMax(reinterpret_cast<unsigned int *>(&r->max_scaled), __float_as_uint(worst));  // non-negative floats
}

// Evicts L2 before each sample by touching 4x its size: by writing (the
// default; L2 is then full of dirty lines the timed kernel must write back
// as it reads) or, with FLUSH=read, by reading (L2 is left clean).
extern "C" __global__ void cake_l2_flush(int4 *buf, size_t n, int read) {
  int acc = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    if (read)
      acc ^= __ldcg(&buf[i]).x;
    else
      buf[i] = make_int4((int)i, 1, 2, 3);
  }
  if (read && acc == 0x7fffffff) buf[0].y = acc;  // keeps the reads
}

// FLOOR=1: the time to read B's N x K bf16 once (the weight a decode GEMM must
// stream), timed in the same loop after its own flush: the floor under which
// no GEMM at that shape can run on this GPU with this flush.
extern "C" __global__ void cake_read_floor(const int4 *buf, size_t n, int4 *sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {  // four loads in flight per thread
    int4 v0 = __ldcs(&buf[i]), v1 = __ldcs(&buf[i + stride]), v2 = __ldcs(&buf[i + 2 * stride]),
         v3 = __ldcs(&buf[i + 3 * stride]);
    acc.x ^= v0.x ^ v1.x ^ v2.x ^ v3.x;
    acc.y ^= v0.y ^ v1.y ^ v2.y ^ v3.y;
    acc.z ^= v0.z ^ v1.z ^ v2.z ^ v3.z;
    acc.w ^= v0.w ^ v1.w ^ v2.w ^ v3.w;
  }
  for (; i < n; i += stride) {
    int4 v = __ldcs(&buf[i]);
    acc.x ^= v.x;
    acc.y ^= v.y;
    acc.z ^= v.z;
    acc.w ^= v.w;
  }
  if ((acc.x & acc.y & acc.z & acc.w) == -1) *sink = acc;  // keeps the reads
}

// ---- CUPTI ------------------------------------------------------------------

struct KernelRecord {
  std::string name;
  uint64_t start, end;
};
static std::vector<KernelRecord> g_records;

static void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords) {
  *size = 16 << 20;
  *buffer = static_cast<uint8_t *>(aligned_alloc(8, *size));
  *maxNumRecords = 0;
}

static void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t validSize) {
  CUpti_Activity *record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      auto *k = reinterpret_cast<CUpti_ActivityKernel10 *>(record);
      g_records.push_back({k->name ? k->name : "?", k->start, k->end});
    }
  }
  free(buffer);
}

// ---- one shape -----------------------------------------------------------------

struct Shape {
  int M, N, K;
};

struct Buffers {
  __nv_bfloat16 *A = nullptr, *B = nullptr, *C = nullptr, *Cb = nullptr;
  float *ref = nullptr;
};

// -DB_KN: the schedule takes B as a K x N row-major tensor (an MN-major B
// operand) instead of N x K.
#ifdef B_KN
static cake_tensor tensor_b(const Buffers &b, const Shape &s) { return {b.B, {s.K, s.N}, {s.N, 1}, 2, CAKE_DTYPE_BF16}; }
#else
static cake_tensor tensor_b(const Buffers &b, const Shape &s) { return {b.B, {s.N, s.K}, {s.K, 1}, 2, CAKE_DTYPE_BF16}; }
#endif

static int launch_ours(const Buffers &b, const Shape &s, cudaStream_t stream) {
  cake_tensor tA = {b.A, {s.M, s.K}, {s.K, 1}, 2, CAKE_DTYPE_BF16};
  cake_tensor tB = tensor_b(b, s);
  cake_tensor tC = {b.C, {s.M, s.N}, {s.N, 1}, 2, CAKE_DTYPE_BF16};
  return gemm_launch(&tA, &tB, &tC, s.M, s.N, s.K, stream);
}

// C (M x N, row-major) = A (M x K, row-major) . B (N x K, row-major)^T, in
// cuBLAS's column-major terms: C^T (N x M) = B (op T of a K x N) . A^T (K x M).
// With B_KN, B (K x N, row-major) is an N x K column-major matrix: op N.
static void cublas_gemm(cublasHandle_t h, const Buffers &b, const Shape &s, void *out, cudaDataType outType) {
  const float alpha = 1.0f, beta = 0.0f;
#ifdef B_KN
  CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, s.N, s.M, s.K, &alpha, b.B, CUDA_R_16BF, s.N, b.A,
                            CUDA_R_16BF, s.K, &beta, out, outType, s.N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
#else
  CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, s.N, s.M, s.K, &alpha, b.B, CUDA_R_16BF, s.K, b.A,
                            CUDA_R_16BF, s.K, &beta, out, outType, s.N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
#endif
}

struct CheckOutcome {
  bool ok;
  double rel;       // ||c - ref|| / ||ref||
  double cublasRel; // the same for cuBLAS's own bf16 output
  float maxScaled;
};

static CompareResult compare_to_ref(const __nv_bfloat16 *c, const float *ref, size_t n, float rms) {
  CompareResult *d;
  CHECK_CUDA(cudaMalloc(&d, sizeof(CompareResult)));
  CompareResult init = {0, ~0ull, 0, 0, 0};
  CHECK_CUDA(cudaMemcpy(d, &init, sizeof init, cudaMemcpyHostToDevice));
  compare<<<1024, 256>>>(c, ref, n, rms, d);
  CHECK_CUDA(cudaGetLastError());
  CompareResult r;
  CHECK_CUDA(cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d));
  return r;
}

static CheckOutcome check(cublasHandle_t h, const Buffers &b, const Shape &s, uint64_t seed) {
  size_t nA = (size_t)s.M * s.K, nB = (size_t)s.N * s.K, nC = (size_t)s.M * s.N;
  fill_uniform<<<1024, 256>>>(b.A, nA, seed);
  fill_uniform<<<1024, 256>>>(b.B, nB, seed * 7 + 1);
  fill_nan<<<1024, 256>>>(b.C, nC);
  fill_nan<<<1024, 256>>>(b.Cb, nC);
  CHECK_CUDA(cudaGetLastError());
  int rc = launch_ours(b, s, 0);
  if (rc != CAKE_SUCCESS) {
    std::fprintf(stderr, "%s_launch failed (%d): %s\n", CAKE_STR(KERNEL_NAME), rc, gemm_last_error());
    std::fflush(nullptr);
    _exit(2);  // not exit(): a kernel left running (CAKE_ERROR_HANG past the deadline) may block it
  }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  cublas_gemm(h, b, s, b.ref, CUDA_R_32F);
  cublas_gemm(h, b, s, b.Cb, CUDA_R_16BF);
  CHECK_CUDA(cudaDeviceSynchronize());
  double *ss;
  CHECK_CUDA(cudaMalloc(&ss, sizeof(double)));
  CHECK_CUDA(cudaMemset(ss, 0, sizeof(double)));
  sum_squares<<<1024, 256>>>(b.ref, nC, ss);
  double ref2 = 0;
  CHECK_CUDA(cudaMemcpy(&ref2, ss, sizeof ref2, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(ss));
  float rms = (float)std::sqrt(ref2 / (double)nC);
  CompareResult ours = compare_to_ref(b.C, b.ref, nC, rms);
  CompareResult theirs = compare_to_ref(b.Cb, b.ref, nC, rms);
  if (ours.bad) {
    unsigned long long i = ours.first_bad;
    __nv_bfloat16 cv;
    float rv;
    CHECK_CUDA(cudaMemcpy(&cv, b.C + i, sizeof cv, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&rv, b.ref + i, sizeof rv, cudaMemcpyDeviceToHost));
    std::printf("  MISMATCH %dx%dx%d: %llu of %zu elements outside the bound; first at (%llu, %llu): %g vs %g\n",
                s.M, s.N, s.K, ours.bad, nC, i / s.N, i % s.N, __bfloat162float(cv), rv);
  }
  // REPEATS=n: n more launches must give C bit for bit (a deterministic
  // reduction; the split-K schedule's fix-up adds its partials in a fixed
  // order whichever block arrives last). With NONDETERMINISTIC=1 (a
  // reduction in the order blocks arrive: split-K with TMA additions) each
  // repeat must be correct instead (a workspace left unclean by a launch
  // shows there), and how many differ in their bits is reported.
  bool same = true;
  if (const char *rep = std::getenv("REPEATS")) {
    int n = std::atoi(rep);
    bool nondet = std::getenv("NONDETERMINISTIC") != nullptr;
    std::vector<uint16_t> first(nC), again(nC);
    CHECK_CUDA(cudaMemcpy(first.data(), b.C, nC * 2, cudaMemcpyDeviceToHost));
    int differ = 0, wrong = 0;
    for (int i = 0; i < n; ++i) {
      fill_nan<<<1024, 256>>>(b.C, nC);
      if (launch_ours(b, s, 0) != CAKE_SUCCESS) {
        std::fflush(nullptr);
        _exit(2);  // not exit(): a kernel left running may block it
      }
      CHECK_CUDA(cudaMemcpy(again.data(), b.C, nC * 2, cudaMemcpyDeviceToHost));
      differ += std::memcmp(first.data(), again.data(), nC * 2) != 0;
      if (nondet) wrong += compare_to_ref(b.C, b.ref, nC, rms).bad != 0;
    }
    same = nondet ? wrong == 0 : differ == 0;
    if (nondet)
      std::printf("    %d repeats: %d correct, %d of them differ in bits from the first (not deterministic)\n", n,
                  n - wrong, differ);
    else
      std::printf("    %d repeats: %s\n", n, same ? "bitwise identical" : "DIFFERENT bits");
  }
  return {ours.bad == 0 && same, std::sqrt(ours.err2 / ref2), std::sqrt(theirs.err2 / ref2), ours.max_scaled};
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The launcher's argument checks: each bad call must fail with its code.
static bool launcher_checks(const Buffers &b) {
  bool ok = true;
  // `note`: what the call said; the launcher's last message when not given.
  auto expect = [&](const char *what, int got, int want, const char *note = nullptr) {
    std::printf("  launcher check %-32s -> %d (%s)%s\n", what, got, note ? note : gemm_last_error(),
                got == want ? "" : "  UNEXPECTED");
    ok &= got == want;
  };
  Shape s = {256, 512, 128};
  cake_tensor tA = {b.A, {s.M, s.K}, {s.K, 1}, 2, CAKE_DTYPE_BF16}, tB = tensor_b(b, s), tC = {b.C, {s.M, s.N}, {s.N, 1}, 2, CAKE_DTYPE_BF16};
  cake_tensor bad = tA;
  bad.shape[0] = 200;  // a ragged schedule: A disagrees with C and M; a tiled one: not a multiple of its tile
  expect("A has 200 rows, C 256", gemm_launch(&bad, &tB, &tC, 200, s.N, s.K, 0), CAKE_ERROR_SHAPE);
  bad = tA;
  bad.shape[1] = 100;
  bad.stride[0] = 100;  // 200-byte rows: not a multiple of 16 bytes
  cake_tensor badB = tB;
#ifdef B_KN
  badB.shape[0] = 100;
#else
  badB.shape[1] = 100;
  badB.stride[0] = 100;
#endif
#ifdef FAMILY  // K = 100 is outside the family's domain (K a multiple of 8): a shape error first
  expect("K = 100: outside the domain", gemm_launch(&bad, &badB, &tC, s.M, s.N, 100, 0), CAKE_ERROR_SHAPE);
  const char *route = gemm_route(20000, 512, 128);
  expect("route of 20000x512x128 (outside)", route == nullptr ? 0 : 1, 0, route ? route : "no route");
  bad = tA;
  bad.shape[0] = 20000;
  cake_tensor bigC = tC;
  bigC.shape[0] = 20000;
  expect("M = 20000: outside the domain", gemm_launch(&bad, &tB, &bigC, 20000, s.N, s.K, 0), CAKE_ERROR_SHAPE);
#else
  expect("K = 100: rows of 200 bytes", gemm_launch(&bad, &badB, &tC, s.M, s.N, 100, 0), CAKE_ERROR_MISALIGNED);
#endif
#ifdef WORKSPACE
  {  // the workspace: sized by the query, checked by the launcher (a shape the split-K route takes)
    Shape w = {256, 512, 4096};
    cake_tensor wA = {b.A, {w.M, w.K}, {w.K, 1}, 2, CAKE_DTYPE_BF16}, wB = tensor_b(b, w),
                wC = {b.C, {w.M, w.N}, {w.N, 1}, 2, CAKE_DTYPE_BF16};
    size_t need = 0;
    int rc = CAKE_CAT(KERNEL_NAME, _workspace_size)(w.M, w.N, w.K, &need);
    char note[64];
    std::snprintf(note, sizeof note, "%zu bytes", need);
    expect("workspace size of 256x512x4096", rc == CAKE_SUCCESS && need > 0 ? 0 : 1, 0, note);
    void *p = nullptr;
    CHECK_CUDA(cudaMalloc(&p, need + 256));
    auto raw = [&](void *ws, size_t bytes) {
      return CAKE_CAT(KERNEL_NAME, _launch)(&wA, &wB, &wC, w.M, w.N, w.K, ws, bytes, 0);
    };
    expect("null workspace", raw(nullptr, need), CAKE_ERROR_INVALID_ARGUMENT);
    expect("workspace 1 byte short", raw(p, need - 1), CAKE_ERROR_SHAPE);
    expect("workspace misaligned by 16", raw(static_cast<char *>(p) + 16, need), CAKE_ERROR_MISALIGNED);
    CHECK_CUDA(cudaFree(p));
  }
#endif
  bad = tA;
  bad.data = reinterpret_cast<char *>(b.A) + 2;
  expect("A misaligned by 2 bytes", gemm_launch(&bad, &tB, &tC, s.M, s.N, s.K, 0), CAKE_ERROR_MISALIGNED);
  expect("null tensor", gemm_launch(nullptr, &tB, &tC, s.M, s.N, s.K, 0), CAKE_ERROR_INVALID_ARGUMENT);
  bad = tA;
  bad.stride[1] = 2;
  expect("inner stride 2", gemm_launch(&bad, &tB, &tC, s.M, s.N, s.K, 0), CAKE_ERROR_INVALID_ARGUMENT);
  bad = tA;
  bad.dtype = CAKE_DTYPE_F16;  // the right size, the wrong type
  expect("A f16, not bf16", gemm_launch(&bad, &tB, &tC, s.M, s.N, s.K, 0), CAKE_ERROR_INVALID_ARGUMENT);
  bad = tA;
  bad.rank = 3;
  expect("A of rank 3", gemm_launch(&bad, &tB, &tC, s.M, s.N, s.K, 0), CAKE_ERROR_INVALID_ARGUMENT);
  bad = tB;
#ifdef B_KN
  bad.shape[0] = 40;
#else
  bad.shape[1] = 40;
#endif
  expect("B has K = 40, A 128", gemm_launch(&tA, &bad, &tC, s.M, s.N, 40, 0), CAKE_ERROR_SHAPE);
  return ok;
}

__global__ void count_nan(const __nv_bfloat16 *c, size_t n, unsigned long long *count) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    if (__bfloat162float(c[i]) != __bfloat162float(c[i])) atomicAdd(count, 1ull);
}

// --ours-only: our kernel alone (no cuBLAS in the process), for the
// sanitizers: cuBLAS's own kernels report racecheck hazards, and filtering
// them with --kernel-name has ended in an internal sanitizer error. Each
// shape's C is poisoned with NaN first and must come back fully written.
static int ours_only(int argc, char **argv) {
  bool ok = true;
  for (int i = 2; i + 2 < argc; i += 3) {
    Shape s = {std::atoi(argv[i]), std::atoi(argv[i + 1]), std::atoi(argv[i + 2])};
    Buffers b = {};
    CHECK_CUDA(cudaMalloc(&b.A, (size_t)s.M * s.K * 2));
    CHECK_CUDA(cudaMalloc(&b.B, (size_t)s.N * s.K * 2));
    CHECK_CUDA(cudaMalloc(&b.C, (size_t)s.M * s.N * 2));
    fill_uniform<<<1024, 256>>>(b.A, (size_t)s.M * s.K, 1);
    fill_uniform<<<1024, 256>>>(b.B, (size_t)s.N * s.K, 2);
    fill_nan<<<1024, 256>>>(b.C, (size_t)s.M * s.N);
    int rc = launch_ours(b, s, 0);
    if (rc == CAKE_ERROR_HANG) {  // the kernel may still be running: nothing more can use the GPU
      std::printf("  %5d x %5d x %5d: launcher %d: %s\n", s.M, s.N, s.K, rc, gemm_last_error());
      std::fflush(nullptr);
      _exit(2);
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    unsigned long long *d, nan = 0;
    CHECK_CUDA(cudaMalloc(&d, sizeof *d));
    CHECK_CUDA(cudaMemset(d, 0, sizeof *d));
    count_nan<<<1024, 256>>>(b.C, (size_t)s.M * s.N, d);
    CHECK_CUDA(cudaMemcpy(&nan, d, sizeof nan, cudaMemcpyDeviceToHost));
    std::printf("  %5d x %5d x %5d: launcher %d, %llu element(s) of C not written\n", s.M, s.N, s.K, rc, nan);
    ok &= rc == CAKE_SUCCESS && nan == 0;
    cudaFree(d);
    cudaFree(b.A);
    cudaFree(b.B);
    cudaFree(b.C);
  }
  return ok ? 0 : 1;
}

// "MxNxK MxNxK ..." (spaces, commas or newlines between), or "@FILE" with one
// per line and '#' comments.
static std::vector<Shape> parse_shapes(std::string text) {
  if (!text.empty() && text[0] == '@') {
    FILE *f = std::fopen(text.c_str() + 1, "r");
    if (!f) {
      std::fprintf(stderr, "cannot open %s\n", text.c_str() + 1);
      std::exit(2);
    }
    text.clear();
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      std::string l = line;
      l = l.substr(0, l.find('#'));
      text += l + " ";
    }
    std::fclose(f);
  }
  std::vector<Shape> out;
  for (char &c : text)
    if (c == ',' || c == '\n' || c == '\t') c = ' ';
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    std::string tok = text.substr(pos, end - pos);
    pos = end + 1;
    if (tok.empty()) continue;
    Shape s;
    if (std::sscanf(tok.c_str(), "%dx%dx%d", &s.M, &s.N, &s.K) != 3 || s.M <= 0 || s.N <= 0 || s.K <= 0) {
      std::fprintf(stderr, "bad shape '%s' (want MxNxK)\n", tok.c_str());
      std::exit(2);
    }
    out.push_back(s);
  }
  return out;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "--ours-only") == 0) return ours_only(argc, argv);
  bool checkOnly = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  std::vector<Shape> shapes;
  if (checkOnly) {
    for (int i = 2; i + 2 < argc; i += 3) shapes.push_back({std::atoi(argv[i]), std::atoi(argv[i + 1]), std::atoi(argv[i + 2])});
    if (shapes.empty()) shapes.push_back({256, 512, 128});
  } else if (const char *list = std::getenv("SHAPES")) {
    shapes = parse_shapes(list);
    if (shapes.empty()) {
      std::fprintf(stderr, "SHAPES=%s: no MxNxK shapes\n", list);
      return 2;
    }
  } else {
    shapes = {{256, 512, 128}, {1280, 1280, 320}, {4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 7168, 4096}};
  }
  int samples = 120;
  if (const char *e = std::getenv("SAMPLES")) samples = std::max(1, std::atoi(e));

  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, L2 %d MB, CUDA runtime built %d\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20, CUDART_VERSION);
  if (!checkOnly) {
    CHECK_CUPTI(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted));
    CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  }
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  size_t maxA = 0, maxB = 0, maxC = 0;
  for (const Shape &s : shapes) {
    maxA = std::max(maxA, (size_t)s.M * s.K);
    maxB = std::max(maxB, (size_t)s.N * s.K);
    maxC = std::max(maxC, (size_t)s.M * s.N);
  }
  Buffers b;
  CHECK_CUDA(cudaMalloc(&b.A, maxA * 2));
  CHECK_CUDA(cudaMalloc(&b.B, maxB * 2));
  CHECK_CUDA(cudaMalloc(&b.C, maxC * 2));
  CHECK_CUDA(cudaMalloc(&b.Cb, maxC * 2));
  CHECK_CUDA(cudaMalloc(&b.ref, maxC * 4));
  size_t flushInts = (size_t)4 * prop.l2CacheSize / sizeof(int4);  // 4x L2
  int4 *flush = nullptr;
  if (!checkOnly) CHECK_CUDA(cudaMalloc(&flush, flushInts * sizeof(int4)));
  const int flushRead = std::getenv("FLUSH") && std::strcmp(std::getenv("FLUSH"), "read") == 0;
  if (!checkOnly) {
    cake_l2_flush<<<prop.multiProcessorCount * 4, 512>>>(flush, flushInts, 0);  // initialised once
    std::printf("L2 flush before each sample: %s 4x L2\n", flushRead ? "reading" : "writing");
  }

  const bool withFloor = !checkOnly && std::getenv("FLOOR") && std::strcmp(std::getenv("FLOOR"), "1") == 0;
  int4 *floorSink = nullptr;
  if (withFloor) CHECK_CUDA(cudaMalloc(&floorSink, sizeof(int4)));
  bool allOk = launcher_checks(b);
  struct Row {
    Shape s;
    CheckOutcome c;
    double ours = 0, theirs = 0, floor = 0;
  };
  std::vector<Row> rows;
  uint64_t seed = 0x5eed;
  for (const Shape &s : shapes) {
    Row r{s, check(h, b, s, seed++)};
    allOk &= r.c.ok;
    std::printf("  %5d x %5d x %5d: %s, ||c-ref||/||ref|| = %.3e (cuBLAS bf16: %.3e), max |c-ref|/(|ref|+rms) = %.3e\n",
                s.M, s.N, s.K, r.c.ok ? "correct" : "WRONG", r.c.rel, r.c.cublasRel, r.c.maxScaled);
#ifdef FAMILY
    std::printf("    route: %s\n", gemm_route(s.M, s.N, s.K));
#endif
    // TIME_WRONG=1 times a variant even when it is wrong (experiments that
    // leave a stage out to measure it); the run still fails.
    bool timeAnyway = std::getenv("TIME_WRONG") && std::strcmp(std::getenv("TIME_WRONG"), "1") == 0;
    if (!checkOnly && (r.c.ok || timeAnyway)) {
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUPTI(cuptiActivityFlushAll(1));
      g_records.clear();
      for (int i = 0; i < 10; ++i) {  // warm-up, not recorded below
        launch_ours(b, s, 0);
        cublas_gemm(h, b, s, b.Cb, CUDA_R_16BF);
      }
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUPTI(cuptiActivityFlushAll(1));
      g_records.clear();
      for (int i = 0; i < samples; ++i) {
        cake_l2_flush<<<prop.multiProcessorCount * 4, 512>>>(flush, flushInts, flushRead);
        if (launch_ours(b, s, 0) != CAKE_SUCCESS) {
        std::fflush(nullptr);
        _exit(2);  // not exit(): a kernel left running may block it
      }
        cake_l2_flush<<<prop.multiProcessorCount * 4, 512>>>(flush, flushInts, flushRead);
        cublas_gemm(h, b, s, b.Cb, CUDA_R_16BF);
        if (withFloor) {
          cake_l2_flush<<<prop.multiProcessorCount * 4, 512>>>(flush, flushInts, flushRead);
          cake_read_floor<<<prop.multiProcessorCount * 4, 512>>>(reinterpret_cast<const int4 *>(b.B),
                                                                  (size_t)s.N * s.K * 2 / sizeof(int4), floorSink);
        }
      }
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUPTI(cuptiActivityFlushAll(1));
      std::sort(g_records.begin(), g_records.end(),
                [](const KernelRecord &x, const KernelRecord &y) { return x.start < y.start; });
      // Segments between flushes: each is one sample of ours or of cuBLAS.
      std::vector<double> ours, theirs, floorSamples;
      uint64_t first = 0, last = 0;
      bool open = false, isOurs = false, isFloor = false;
      auto close = [&] {
        if (open) (isFloor ? floorSamples : isOurs ? ours : theirs).push_back((last - first) * 1e-6);  // ns -> ms
        open = false;
      };
      for (const KernelRecord &k : g_records) {
        if (k.name == "cake_l2_flush") {
          close();
          continue;
        }
        if (!open) {
          open = true;
          first = k.start;
          isFloor = k.name == "cake_read_floor";
#ifdef FAMILY
          isOurs = k.name == gemm_route(s.M, s.N, s.K);
#else
          isOurs = k.name == CAKE_STR(KERNEL_NAME);
#endif
        }
        last = k.end;
      }
      close();
      for (const KernelRecord &k : g_records)  // the peer's kernel, for the record
        if (k.name != "cake_l2_flush" && k.name != "cake_read_floor" &&
#ifdef FAMILY
            k.name != gemm_route(s.M, s.N, s.K)) {
#else
            k.name != CAKE_STR(KERNEL_NAME)) {
#endif
          std::printf("    cuBLAS kernel: %s\n", k.name.c_str());
          break;
        }
      if ((int)ours.size() != samples || (int)theirs.size() != samples) {
        std::printf("  CUPTI: expected %d samples each, got %zu and %zu\n", samples, ours.size(), theirs.size());
        allOk = false;
      }
      if (withFloor && (int)floorSamples.size() != samples) {
        std::printf("  CUPTI: expected %d floor samples, got %zu\n", samples, floorSamples.size());
        allOk = false;
      }
      r.ours = median(ours);
      r.theirs = median(theirs);
      if (withFloor) r.floor = median(floorSamples);
    }
    rows.push_back(r);
  }
  if (!checkOnly) {
    std::printf("\n%-20s %10s %10s %8s %12s %12s\n", "shape (MxNxK)", "ours ms", "cuBLAS ms", "ratio",
                "ours TFLOP/s", "cuBLAS TF/s");
    for (const Row &r : rows) {
      double flops = 2.0 * r.s.M * r.s.N * r.s.K;
      char shape[64];
      std::snprintf(shape, sizeof shape, "%dx%dx%d", r.s.M, r.s.N, r.s.K);
      std::printf("%-20s %10.4f %10.4f %8.3f %12.1f %12.1f", shape, r.ours, r.theirs, r.theirs / r.ours,
                  flops / r.ours * 1e-9, flops / r.theirs * 1e-9);
      if (withFloor)
        std::printf("   read B: %.4f ms (%.0f GB/s)", r.floor, r.floor > 0 ? 2.0 * r.s.N * r.s.K / r.floor * 1e-6 : 0.0);
      std::printf("\n");
    }
    std::printf("(ratio = cuBLAS time / our time; median of %d CUPTI samples each, L2 flushed before each)\n",
                samples);
    double logSum = 0, worst = 1e30;
    int timed = 0;
    for (const Row &r : rows)
      if (r.ours > 0 && r.theirs > 0) {
        logSum += std::log(r.theirs / r.ours);
        worst = std::min(worst, r.theirs / r.ours);
        ++timed;
      }
    if (timed) std::printf("geometric mean ratio %.3f, worst %.3f, over %d shapes\n", std::exp(logSum / timed), worst, timed);
  }
  std::printf("%s\n", allOk ? "ALL CORRECT" : "FAILURES");
  if (floorSink) cudaFree(floorSink);
  cublasDestroy(h);
  return allOk ? 0 : 1;
}
