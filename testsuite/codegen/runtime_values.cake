# Run-time values: names bound by assignment become variables of the kernel
# (kernel scope) or of the role body; lm.min and lm.max fold when constant;
# lm.range takes a run-time step; lm.sm_count() sizes a persistent grid.
# RUN: %cakec --target=sm_90a --emit=ir %s | FileCheck --check-prefix=IR %s
# RUN: %cakec --target=sm_90a --emit=cuda --no-line-directives %s | FileCheck --check-prefix=CU %s
# RUN: %cakec --target=sm_90a -o %t.cu %s
# RUN: %nvcc -c %t.cu -o %t.o
# REQUIRES: nvcc
@cake.schedule(grid=(lm.min(lm.sm_count(), n // 4),))
def walk(lm, n: LM.i32):
    r = lm.role(warps=[0])
    quarter = n // 4
    small = lm.min(3, 7)
    big = lm.max(quarter, small)
    with r:
        for t in lm.range(lm.block_id(0), big, lm.num_blocks(0)):
            last = t + lm.num_blocks(0) >= big
            if last:
                lm.fence_proxy()
# IR: launch: block 32 threads (1 warps), grid (lm.min(lm.sm_count(), n // 4))
# IR: values:
# IR-NEXT: let quarter = n // 4
# IR-NEXT: let big = lm.max(quarter, small)
# IR: for t in range(lm.block_id(0), big, lm.num_blocks(0)):
# IR-NEXT: let last = t + lm.num_blocks(0) >= big
# CU: const int32_t quarter = cake_floordiv(n, 4);
# CU-NEXT: const int32_t big = cake_max(quarter, 3);
# CU: for (int32_t t = static_cast<int32_t>(blockIdx.x); t < big; t += static_cast<int32_t>(gridDim.x)) {
# CU-NEXT: const bool last = ((t + static_cast<int32_t>(gridDim.x)) >= big);
# CU-NEXT: if (last) {
# CU-NEXT: cake_fence_proxy_async();
# CU: cudaDeviceGetAttribute(&cake_sm_count, cudaDevAttrMultiProcessorCount, cake_device)
# CU: cake_grid[0] = {{.*}};  // cake_min(cake_sm_count, cake_floordiv(n, 4))
