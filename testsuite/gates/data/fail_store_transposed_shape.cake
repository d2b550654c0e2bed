# view.store(x, transpose=True) stores an M x N tile into an N x M view of
# its dtype. Refused: a view of the tile's own shape, a view of another
# dtype, a row vector, and a part (col=). The last store, into the 64 x 128
# view, is the near miss; it lowers (element (r, c) at (c, r)).
# RUN: %cakec -verify -fsyntax-only --target=sm_90a %s
# RUN: %cakec --target=sm_90a -DGOOD=True -Wno-unused %s -o %t.cu
# RUN: FileCheck %s < %t.cu
# CHECK: // the wgmma accumulator layout, transposed: 32 elements per thread, each (r, c) stored at (c, r)
# CHECK: uint32_t cake_off = (cake_col * 128u + cake_row) * 4u;
# CHECK: uint32_t cake_off = ((cake_col + 1u) * 128u + cake_row) * 4u;
# CHECK-NEXT: *reinterpret_cast<float *>(cake_smem_raw + (cake_base - cake_smem) + cake_off) = v[cake_i + 1];
GOOD = False

@cake.schedule()
def k(lm, Y: LM.tensor2d[64, 128]):
    pool = lm.smem(65536)
    t_s = pool.view(offset=0, shape=(64, 128), dtype=lm.f32)
    same = pool.view(offset=0, shape=(128, 64), dtype=lm.f32, alias=True)
    h_s = pool.view(offset=0, shape=(64, 128), dtype=lm.bf16, alias=True)
    r_s = pool.view(offset=0, shape=(1, 128), dtype=lm.f32, alias=True)
    math = lm.role(warps=[0, 1, 2, 3, 4, 5, 6, 7])
    v = lm.regs(shape=(128, 64), dtype=lm.f32, role=math)
    with math:
        v = lm.fill(v, 1.0)
        if not GOOD:
            same.store(v, transpose=True)  # expected-error {{'same.store' copies 'v' (128x64 f32) transposed into 'same' (128x64 f32)}}
            lm.role_sync()  # the views alias: each store after the last
            h_s.store(v, transpose=True)  # expected-error {{'h_s.store' copies 'v' (128x64 f32) transposed into 'h_s' (64x128 bf16)}}
            lm.role_sync()  # the views alias: each store after the last
            r_s.store(lm.rowmax(v), transpose=True)  # expected-error {{'r_s.store' copies '%}}
            lm.role_sync()  # the views alias: each store after the last
            t_s.store(v, transpose=True, col=0)  # expected-error {{'t_s.store' copies 'v' (128x64 f32) transposed from a column into 't_s' (64x128 f32)}}
            lm.role_sync()
        t_s.store(v, transpose=True)
        lm.role_sync()
        t_s.copy_to(Y, coords=(0, 0))
