"""FA-backward style: the dK/dV loop lives in a helper the kernel calls twice (masked, then unmasked), so
the kernel has two sibling loops with the same SSA names after inlining."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "DO": "*fp16", "DQ": "*fp32", "DK": "*fp16",
                            "DV": "*fp16", "M": "*fp32", "D": "*fp32", "stride_tok": "i32", "N_CTX": "i32"},
              "constexprs": {"BLOCK_M": 64, "BLOCK_N": 128, "HEAD_DIM": 64}, "num_warps": 4, "num_stages": 2,
              "divisibility": ["stride_tok", "N_CTX"]}


@triton.jit
def _bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, start_n, start_m, num_steps,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None]
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :]
    curr_m = start_m
    for blk_idx in range(num_steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        if MASK:
            mask = offs_m[None, :] >= offs_n[:, None]
            pT = tl.where(mask, pT, 0.0)
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(tl.float16), do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dk += tl.dot(dsT.to(tl.float16), tl.trans(qT))
        curr_m += BLOCK_M
        qT_ptrs += BLOCK_M * stride_tok
        do_ptrs += BLOCK_M * stride_tok
    return dk, dv


@triton.jit
def attn_bwd(Q, K, V, DO, DQ, DK, DV, M, D, stride_tok, N_CTX,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    pid = tl.program_id(0)
    offs_k = tl.arange(0, HEAD_DIM)
    start_n = pid * BLOCK_N
    start_m = start_n
    offs_n = start_n + tl.arange(0, BLOCK_N)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :])
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :])
    num_steps = BLOCK_N // BLOCK_M
    dk, dv = _bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, start_n, start_m, num_steps,
                       BLOCK_M, BLOCK_N, HEAD_DIM, MASK=True)
    start_m += num_steps * BLOCK_M
    num_steps = (N_CTX - start_m) // BLOCK_M
    dk, dv = _bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, start_n, start_m, num_steps,
                       BLOCK_M, BLOCK_N, HEAD_DIM, MASK=False)
    tl.store(DV + offs_n[:, None] * stride_tok + offs_k[None, :], dv.to(tl.float16))
    tl.store(DK + offs_n[:, None] * stride_tok + offs_k[None, :], dk.to(tl.float16))
