"""FastVideo's Video Sparse Attention (VSA) Triton backward, ``_attn_bwd`` with its ``_attn_bwd_dkdv`` and
``_attn_bwd_dq`` helper loops (hao-ai-lab/FastVideo
fastvideo-kernel/python/fastvideo_kernel/triton_kernels/block_sparse_attn_triton.py, launched by
``triton_block_sparse_attn_backward`` after ``_attn_bwd_preprocess``; the Triton fallback of VSA's
block-sparse attention over 64-token cubes, built from tutorial 06's backward).

The constructs: two kernels launched in sequence (the preprocess writes ``delta = rowsum(o * do)``; the main one is
TWILL_SPEC's); one program per 64-token KV block *and* per 64-token Q block, so the kernel runs **two loops in
sequence, each in a @triton.jit helper**: the dK/dV loop walks this KV block's Q blocks from the **k2q index
list** and the dQ loop this Q block's KV blocks from the **q2k list**; both trip counts are **loaded**
(``q_blocks = tl.load(k2q_num + meta_base)``) and doubled, ``for blk_idx in range(q_blocks * 2)``, each 64-block
split into two 32-row halves by ``blk_idx // 2`` / ``blk_idx % 2``; **every load's address depends on an index
loaded in the same iteration** (``tl.load(q_ptr + blk_idx // 2)``), and in the dQ loop a second dependent load
(``variable_block_sizes + kv_idx``) gives the per-block count of real tokens that masks the scores
(``offs_in_block < block_size``); four dots an iteration in the dK/dV loop (q k^T, p^T do, v do^T, ds^T q, with
``tl.trans`` operands) and three in the dQ loop; exp2 with K pre-scaled by sm_scale / ln 2 on the host;
LSE ``M`` and ``delta`` loaded per row block; ``tl.static_assert`` on the block shapes. Wan2.1-1.3B shapes:
12 heads of 128, 32768 tokens (512 cubes), top-k 64 KV blocks per Q block (87.5% sparsity), bf16. Port notes:
the library's wrapper is kept as ``launch`` (with ``M`` / ``o`` from a torch forward in ``make_inputs``);
``stride_d`` (1) is a constexpr as Triton's launcher specialises it."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_bwd",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "sm_scale": "fp32", "DO": "*bf16", "DQ": "*bf16",
                  "DK": "*bf16", "DV": "*bf16", "M": "*fp32", "D": "*fp32", "q2k_index": "*i32",
                  "q2k_num": "*i32", "max_kv_blks": "i32", "k2q_index": "*i32", "k2q_num": "*i32",
                  "max_q_blks": "i32", "variable_block_sizes": "*i32", "stride_z": "i32", "stride_h": "i32",
                  "stride_tok": "i32", "stride_d": "constexpr", "H": "i32", "N_CTX": "i32"},
    "constexprs": {"stride_d": 1, "BLOCK_M1": 32, "BLOCK_N1": 64, "BLOCK_M2": 64, "BLOCK_N2": 32, "HEAD_DIM": 128},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["stride_z", "stride_h", "stride_tok", "N_CTX", "max_kv_blks", "max_q_blks"]}
PROBLEM: dict[str, int] = {"B": 1, "H": 12, "T": 32768, "D": 128, "topk": 64}
SMALL: dict[str, int] = {"B": 1, "H": 2, "T": 384, "D": 128, "topk": 3}


@triton.jit
def _attn_bwd_preprocess(
        O,
        DO,  #
        Delta,  #
        Z,
        H,
        N_CTX,  #
        BLOCK_M: tl.constexpr,
        HEAD_DIM: tl.constexpr  #
):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_n = tl.arange(0, HEAD_DIM)
    # load
    o = tl.load(O + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM +
                off_n[None, :])
    do = tl.load(DO + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM +
                 off_n[None, :]).to(tl.float32)
    delta = tl.sum(o * do, axis=1)
    # write-back
    tl.store(Delta + off_hz * N_CTX + off_m, delta)


# The main inner-loop logic for computing dK and dV.
@triton.jit
def _attn_bwd_dkdv(
        dk,
        dv,  #
        Q,
        k,
        v,
        sm_scale,  #
        DO,  #
        M,
        D,  #
        k2q_index,
        k2q_num,
        max_q_blks,
        variable_block_sizes,
        # shared by Q/K/V/DO.
        stride_tok,
        stride_d,  #
        H,
        N_CTX,
        BLOCK_M1: tl.constexpr,  #
        BLOCK_N1: tl.constexpr,  #
        HEAD_DIM: tl.constexpr,  #
        # Filled in by the wrapper.
    start_n,
        start_m,
        num_steps):
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None] * stride_d
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    # BLOCK_N1 must be a multiple of BLOCK_M1, otherwise the code wouldn't work.
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    step_m = BLOCK_M1
    kv_blk = tl.program_id(0)  # Q-tile index
    off_hz = tl.program_id(2)  # fused (batch, head)
    b = off_hz // H
    h = off_hz % H
    q_tiles = N_CTX // BLOCK_N1
    meta_base = ((b * H + h) * q_tiles + kv_blk)

    q_blocks = tl.load(k2q_num + meta_base)  # int32
    q_ptr = k2q_index + meta_base * max_q_blks  # ptr to list
    block_size = tl.load(variable_block_sizes + kv_blk)

    for blk_idx in range(q_blocks * 2):
        block_sparse_offset = (tl.load(q_ptr + blk_idx // 2).to(tl.int32) * 2 +
                               blk_idx % 2) * step_m
        qT = tl.load(qT_ptrs + block_sparse_offset * stride_tok)
        # Load m before computing qk to reduce pipeline stall.
        offs_m = start_m + block_sparse_offset + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        mask = tl.arange(0, BLOCK_N1) < block_size
        pT = tl.where(mask[:, None], pT, 0.0)

        do = tl.load(do_ptrs + block_sparse_offset * stride_tok)
        # Compute dV.
        ppT = pT
        ppT = ppT.to(tl.bfloat16)
        dv += tl.dot(ppT, do)
        # D (= delta) is pre-divided by ds_scale.
        Di = tl.load(D + offs_m)
        # Compute dP and dS.
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.bfloat16)
        dk += tl.dot(dsT, tl.trans(qT))
        # Increment pointers.
    return dk, dv


# the main inner-loop logic for computing dQ
@triton.jit
def _attn_bwd_dq(
        dq,
        q,
        K,
        V,  #
        do,
        m,
        D,
        # shared by Q/K/V/DO.
        q2k_index,
        q2k_num,
        max_kv_blks,
        variable_block_sizes,
        stride_tok,
        stride_d,  #
        H,
        N_CTX,  #
        BLOCK_M2: tl.constexpr,  #
        BLOCK_N2: tl.constexpr,  #
        HEAD_DIM: tl.constexpr,
        # Filled in by the wrapper.
        start_m,
        start_n,
        num_steps):
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_n = start_n + tl.arange(0, BLOCK_N2)
    offs_k = tl.arange(0, HEAD_DIM)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    # D (= delta) is pre-divided by ds_scale.
    Di = tl.load(D + offs_m)
    # BLOCK_M2 must be a multiple of BLOCK_N2, otherwise the code wouldn't work.
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    step_n = BLOCK_N2

    q_blk = tl.program_id(0)  # Q-tile index
    off_hz = tl.program_id(2)  # fused (batch, head)
    b = off_hz // H
    h = off_hz % H
    q_tiles = N_CTX // BLOCK_M2
    meta_base = ((b * H + h) * q_tiles + q_blk)

    kv_blocks = tl.load(q2k_num + meta_base)  # int32
    kv_ptr = q2k_index + meta_base * max_kv_blks  # ptr to list

    for blk_idx in range(kv_blocks * 2):
        kv_idx = tl.load(kv_ptr + blk_idx // 2).to(tl.int32)
        # variable_block_sizes is defined per KV block (tile). Mask must therefore
        # use kv_idx (not q_blk). Also, because we split each 64-token block into
        # two 32-token halves, the mask must account for the half-block offset.
        block_size = tl.load(variable_block_sizes + kv_idx).to(tl.int32)
        half = (blk_idx % 2).to(tl.int32)
        block_sparse_offset = (kv_idx * 2 + half) * step_n * stride_tok
        kT = tl.load(kT_ptrs + block_sparse_offset)
        vT = tl.load(vT_ptrs + block_sparse_offset)
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk - m)
        offs_in_block = half * step_n + tl.arange(0, BLOCK_N2)
        mask = offs_in_block < block_size
        p = tl.where(mask[None, :], p, 0.0)
        # Compute dP and dS.
        dp = tl.dot(do, vT).to(tl.float32)
        ds = p * (dp - Di[:, None])
        ds = ds.to(tl.bfloat16)
        # Compute dQ.
        # NOTE: We need to de-scale dq in the end, because kT was pre-scaled.
        dq += tl.dot(ds, tl.trans(kT))
        # Increment pointers.
    return dq


@triton.jit
def _attn_bwd(
        Q,
        K,
        V,
        sm_scale,  #
        DO,  #
        DQ,
        DK,
        DV,  #
        M,
        D,
        q2k_index,
        q2k_num,
        max_kv_blks,
        k2q_index,
        k2q_num,
        max_q_blks,
        variable_block_sizes,
        # shared by Q/K/V/DO.
        stride_z,
        stride_h,
        stride_tok,
        stride_d,  #
        H,
        N_CTX,  #
        BLOCK_M1: tl.constexpr,  #
        BLOCK_N1: tl.constexpr,  #
        BLOCK_M2: tl.constexpr,  #
        BLOCK_N2: tl.constexpr,  #
        HEAD_DIM: tl.constexpr):
    LN2 = 0.6931471824645996  # = ln(2)

    bhid = tl.program_id(2)
    off_chz = (bhid * N_CTX).to(tl.int64)
    adj = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)

    # offset pointers for batch/head
    Q += adj
    K += adj
    V += adj
    DO += adj
    DQ += adj
    DK += adj
    DV += adj
    M += off_chz
    D += off_chz

    # load scales
    offs_k = tl.arange(0, HEAD_DIM)

    start_n = pid * BLOCK_N1
    start_m = 0

    offs_n = start_n + tl.arange(0, BLOCK_N1)

    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)

    # load K and V: they stay in SRAM throughout the inner loop.
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)

    num_steps = N_CTX // BLOCK_M1

    dk, dv = _attn_bwd_dkdv(  #
        dk,
        dv,  #
        Q,
        k,
        v,
        sm_scale,  #
        DO,  #
        M,
        D,  #
        k2q_index,
        k2q_num,
        max_q_blks,
        variable_block_sizes,
        stride_tok,
        stride_d,  #
        H,
        N_CTX,  #
        BLOCK_M1,
        BLOCK_N1,
        HEAD_DIM,  #
        start_n,
        start_m,
        num_steps  #
    )

    dv_ptrs = DV + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dv_ptrs, dv)

    # Write back dK.
    dk *= sm_scale
    dk_ptrs = DK + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dk_ptrs, dk)

    # THIS BLOCK DOES DQ:
    start_m = pid * BLOCK_M2
    end_n = 0

    offs_m = start_m + tl.arange(0, BLOCK_M2)

    q = tl.load(Q + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    do = tl.load(DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)

    m = tl.load(M + offs_m)
    m = m[:, None]

    num_steps = N_CTX // BLOCK_N2
    dq = _attn_bwd_dq(
        dq,
        q,
        K,
        V,  #
        do,
        m,
        D,  #
        q2k_index,
        q2k_num,
        max_kv_blks,
        variable_block_sizes,
        stride_tok,
        stride_d,  #
        H,
        N_CTX,  #
        BLOCK_M2,
        BLOCK_N2,
        HEAD_DIM,  #
        start_m,
        end_n,
        num_steps  #
    )
    # Write back dQ.
    dq_ptrs = DQ + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    dq *= LN2
    tl.store(dq_ptrs, dq)


def _block_attention(q, k, v, q2k_index, q2k_num, vbs):
    """Masked softmax attention (scale 1 / sqrt(D)) over each query cube's selected KV cubes, one head at a time:
    (o [B, H, T, D], LSE [B, H, T]) in the inputs' dtype (fp32 for the reference). The keys of the selected cubes
    are gathered, [T / 64, topk * 64] scores a head (a dense [T, T] mask was 48 GiB at T = 32768, run 223)."""
    import math

    import torch
    B, H, T, D = q.shape
    nb, topk = T // 64, q2k_index.shape[-1]
    real = torch.arange(64, device=vbs.device)[None, :] < vbs[:, None]                  # [nb, 64]
    os, lses = [], []
    for b in range(B):
        for h in range(H):
            idx = q2k_index[b, h].long()                                              # [nb, topk]
            keep = (torch.arange(topk, device=idx.device)[None, :] < q2k_num[b, h][:, None].long())
            keep = (keep[:, :, None] & real[idx]).reshape(nb, 1, topk * 64)
            kg = k[b, h].reshape(nb, 64, D)[idx].reshape(nb, topk * 64, D)
            vg = v[b, h].reshape(nb, 64, D)[idx].reshape(nb, topk * 64, D)
            s = torch.einsum("nqd,nkd->nqk", q[b, h].reshape(nb, 64, D), kg) / math.sqrt(D)
            s = s.masked_fill(~keep, float("-inf"))
            os.append(torch.einsum("nqk,nkd->nqd", torch.softmax(s, dim=-1), vg).reshape(T, D))
            lses.append(torch.logsumexp(s, dim=-1).reshape(T))
    return torch.stack(os).reshape(B, H, T, D), torch.stack(lses).reshape(B, H, T)


def make_inputs(B: int, H: int, T: int, D: int, topk: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v, do [B, H, T, D] bf16; per (b, h, q cube) ``topk`` distinct KV cubes (q2k, padded to topk) and the
    transposed lists (k2q, padded to T / 64); real tokens per cube (``variable_block_sizes``: 64, some cubes
    partial); o and the log2-domain LSE ``M`` from a torch forward over the same mask, as the VSA forward writes them."""
    import math

    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    nb = T // 64
    q, k, v, do = (torch.randn((B, H, T, D), device=device, generator=g).to(torch.bfloat16) for _ in range(4))
    scores = torch.rand((B, H, nb, nb), device=device, generator=g)
    q2k_index = torch.topk(scores, topk, dim=-1).indices.to(torch.int32).contiguous()
    q2k_num = torch.full((B, H, nb), topk, dtype=torch.int32, device=device)
    sel = torch.zeros((B, H, nb, nb), dtype=torch.bool, device=device)
    sel.scatter_(-1, q2k_index.long(), True)
    selT = sel.transpose(-1, -2)                                              # [B, H, kv cube, q cube]
    k2q_num = selT.sum(-1).to(torch.int32).contiguous()
    order = torch.argsort((~selT).to(torch.int8), dim=-1, stable=True)        # selected q cubes first
    k2q_index = order.to(torch.int32).contiguous()
    vbs = torch.full((nb,), 64, dtype=torch.int32, device=device)
    vbs[1::3] = torch.randint(8, 64, (vbs[1::3].numel(),), device=device, generator=g).to(torch.int32)
    o, lse = _block_attention(q.float(), k.float(), v.float(), q2k_index, q2k_num, vbs)
    o = o.to(torch.bfloat16)
    M = (lse / math.log(2)).float().contiguous()
    return {"q": q, "k": k, "v": v, "do": do, "o": o, "M": M, "q2k_index": q2k_index, "q2k_num": q2k_num,
            "k2q_index": k2q_index, "k2q_num": k2q_num, "variable_block_sizes": vbs}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dq, dk, dv) [B, H, T, D] bf16, as ``triton_block_sparse_attn_backward``."""
    import math

    import torch
    q, k, v, do, o, M = (inputs[n] for n in ("q", "k", "v", "do", "o", "M"))
    q2k_index, q2k_num = inputs["q2k_index"], inputs["q2k_num"]
    k2q_index, k2q_num = inputs["k2q_index"], inputs["k2q_num"]
    variable_block_sizes = inputs["variable_block_sizes"]
    B, H, T, D = q.shape
    sm_scale = 1.0 / math.sqrt(D)
    dq = torch.empty_like(q)
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    BATCH, N_HEAD, N_CTX = q.shape[:3]
    BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2 = 32, 64, 64, 32
    RCP_LN2 = 1.4426950408889634  # = 1.0 / ln(2)
    arg_k = k
    arg_k = arg_k * (sm_scale * RCP_LN2)
    PRE_BLOCK = 64
    assert N_CTX % PRE_BLOCK == 0
    pre_grid = (N_CTX // PRE_BLOCK, BATCH * N_HEAD)
    delta = torch.empty_like(M)
    _attn_bwd_preprocess[pre_grid](o, do, delta, BATCH, N_HEAD, N_CTX, BLOCK_M=PRE_BLOCK, HEAD_DIM=D)
    max_q_blks = k2q_index.shape[-1]
    max_kv_blks = q2k_index.shape[-1]
    grid = (N_CTX // BLOCK_N1, 1, BATCH * N_HEAD)
    _attn_bwd[grid](
        q, arg_k, v, sm_scale, do, dq, dk, dv, M, delta, q2k_index, q2k_num, max_kv_blks, k2q_index, k2q_num,
        max_q_blks, variable_block_sizes, q.stride(0), q.stride(1), q.stride(2), q.stride(3), N_HEAD, N_CTX,
        BLOCK_M1=BLOCK_M1, BLOCK_N1=BLOCK_N1, BLOCK_M2=BLOCK_M2, BLOCK_N2=BLOCK_N2, HEAD_DIM=D)
    return dq, dk, dv


def reference(inputs: dict[str, Any]) -> Any:
    """Autograd of masked softmax attention (scale 1 / sqrt(D)) over the selected cubes' real tokens, in fp32."""
    import torch
    q, k, v = (inputs[n].float().requires_grad_(True) for n in ("q", "k", "v"))
    with torch.enable_grad():
        o, _ = _block_attention(q, k, v, inputs["q2k_index"], inputs["q2k_num"], inputs["variable_block_sizes"])
        dq, dk, dv = torch.autograd.grad(o, (q, k, v), inputs["do"].float())
    return dq, dk, dv


def flops(B: int, H: int, T: int, D: int, topk: int) -> float:
    """Seven [64 x D x 64]-sized matmuls per selected (q cube, kv cube) pair: 2.5 * 4 * 64 * 64 * D each way."""
    return 2.0 * 3.5 * B * H * (T // 64) * topk * 64 * 64 * D
