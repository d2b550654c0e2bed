# A tensor's declared shape: as many dimensions as its rank, each an integer
# scalar parameter (declared before or after it) or a positive constant.
# RUN: %cakec -verify -fsyntax-only %s
@cake.schedule()
def k(lm, A: LM.tma2d[M, K, 4], B: LM.tma2d[M * 2, K], C: LM.tma2d[M, 0], D: LM.tma2d[s, K], E: LM.i32[M], M: LM.i32, K: LM.i32, s: LM.f32):  # expected-error {{tensor 'A' has rank 2 but its shape lists 3 dimension(s)}} expected-error {{dimension 0 of tensor 'B' must be an integer scalar parameter of the kernel or a positive constant, not}} expected-error {{dimension 1 of tensor 'C' must be an integer scalar parameter of the kernel or a positive constant, not the integer 0}} expected-error {{dimension 0 of tensor 'D' must be an integer scalar parameter}} expected-error {{parameter 'E' needs a type}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
@cake.schedule()
def k2(lm, A: LM.tma2d[M, K], M: LM.i32, K: LM.e4m3):  # expected-error {{scalar parameter 'K' cannot be 'LM.e4m3': a scalar is an integer type or f32, f16 or bf16 (e4m3 is an element type of tensors)}}
    r = lm.role(warps=[0])
    with r:
        lm.role_sync()
