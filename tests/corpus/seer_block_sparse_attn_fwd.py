"""SeerAttention's block-sparse prefill attention forward, ``_fwd_kernel`` with its ``@triton.jit`` helper
``_fwd_kernel_inner`` (microsoft/SeerAttention seer_attn/kernels/block_sparse_attn.py, commit aba03e3f, launched by
``block_sparse_triton_fn`` in the same file; derived from Phi-3-small's triton_flash_blocksparse_attn.py), at a
Llama-3-8B-like geometry (32 heads, head dim 128, bf16) over an 8K prompt with the AttnGate's binary block mask.

The constructs: grid (cdiv(N, BLOCK_M), B * H); a causal loop ``for col_idx in range(0, k_block_end - 1)`` whose
body is the whole helper call, and **inside the helper the entire iteration guarded by a data-dependent scalar
``if mask_val == True:``** (``mask_val`` a bool loaded from the [B, H, nq, nk] block mask per iteration; a skipped
block carries acc / l_i / m_i through unchanged: the ``if`` yields the loop-carried values), the K tile read
transposed through ``offs_n[None, :] * stride_kn + offs_d[:, None]`` and moved by **``start_n * stride_kt`` computed
from the induction variable** (pointers not carried); a natural-exp online softmax (``qk -= m_ij; p = exp(qk)``),
``p.to(v.type.element_ty)`` and the PV dot. Then the **last (diagonal) block peeled after the loop as a second call
of the same helper with ``LAST_K_BLOCK=True``** (masked K / V loads against ``seqlen_k`` and an additive -inf causal
bias, still under the same ``if mask_val``), and the epilogue normalising by ``1 / l_i``.

Port notes: the kernel and helper verbatim; the launch as ``block_sparse_triton_fn`` with its defaults (layout
'bhsd', BLOCK_M = BLOCK_N = 64, non-HIP: 4 warps, 2 stages). The unit strides along the head dim are what Triton's
launcher specialises as constexpr 1, so TWILL_SPEC says so. The block mask is drawn at ~30% density with the
diagonal block always kept (SeerAttention keeps it dense; a query row whose diagonal block is dropped has no key
at all and divides 0 by 0 in the library too), lower-triangular as the gate's causal output. bf16 as the model."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLK, HEAD_D = 64, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "sm_scale": "fp32", "block_mask_ptr": "*i1",
                  "Out": "*bf16",
                  "stride_qz": "i32", "stride_qh": "i32", "stride_qm": "i32", "stride_qd": "constexpr",
                  "stride_kz": "i32", "stride_kh": "i32", "stride_kn": "i32", "stride_kd": "constexpr",
                  "stride_vz": "i32", "stride_vh": "i32", "stride_vn": "i32", "stride_vd": "constexpr",
                  "stride_bmz": "i32", "stride_bmh": "i32", "stride_bmm": "i32", "stride_bmn": "constexpr",
                  "stride_oz": "i32", "stride_oh": "i32", "stride_om": "i32", "stride_od": "constexpr",
                  "H": "i32", "N_CTX": "i32"},
    "constexprs": {"stride_qd": 1, "stride_kd": 1, "stride_vd": 1, "stride_bmn": 1, "stride_od": 1,
                   "BLOCK_M": BLK, "BLOCK_N": BLK, "BLOCK_DMODEL": HEAD_D},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["stride_qz", "stride_qh", "stride_qm", "stride_kz", "stride_kh", "stride_kn", "stride_vz",
                     "stride_vh", "stride_vn", "stride_bmz", "stride_bmh", "stride_bmm", "stride_oz", "stride_oh",
                     "stride_om", "N_CTX"]}
PROBLEM: dict[str, Any] = {"B": 1, "H": 32, "N": 8192, "density": 0.3}
SMALL: dict[str, Any] = {"B": 1, "H": 2, "N": 200, "density": 0.5}


@triton.jit
def _fwd_kernel_inner(
    acc, l_i, m_i,
    q,
    k_block_col_idx,
    block_mask_ptr,
    k_ptrs, v_ptrs,
    offs_m, offs_n,
    stride_kt, stride_vt, stride_bmask_n,
    sm_scale,
    seqlen_k,
    LAST_K_BLOCK: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):

    mask_val = tl.load(block_mask_ptr + k_block_col_idx * stride_bmask_n)
    if mask_val == True:
        start_n = k_block_col_idx * BLOCK_N
        # -- compute qk ----

        if LAST_K_BLOCK:
            k = tl.load(k_ptrs + start_n * stride_kt,
                        mask=offs_n[None, :] + start_n < seqlen_k)

        else:
            k = tl.load(k_ptrs + start_n * stride_kt)

        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk += tl.dot(q, k)

        qk *= sm_scale

        # the following is needed only when LAST_K_BLOCK or BLOCK_M < BLOCK_N
        if LAST_K_BLOCK :
            qk += tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), 0, float('-inf'))


        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk -= m_ij[:, None]
        p = tl.exp(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        
        # update acc
        if LAST_K_BLOCK:
            v = tl.load(v_ptrs + start_n * stride_vt,
                        mask=offs_n[:, None] + start_n < seqlen_k)
        else:
            v = tl.load(v_ptrs + start_n * stride_vt)

        p = p.to(v.type.element_ty)

        acc += tl.dot(p, v)
        # update m_i and l_i
        m_i = m_ij
    return acc, l_i, m_i



@triton.jit
def _fwd_kernel(
    Q, K, V, sm_scale,
    block_mask_ptr,
    Out,
    stride_qz, stride_qh, stride_qm, stride_qd,
    stride_kz, stride_kh, stride_kn, stride_kd,
    stride_vz, stride_vh, stride_vn, stride_vd,
    stride_bmz, stride_bmh, stride_bmm, stride_bmn,
    stride_oz, stride_oh, stride_om, stride_od,
    H, N_CTX,
    BLOCK_M: tl.constexpr, 
    BLOCK_N: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,
):
    Q_LEN = N_CTX
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_h = off_hz % H
    off_z = off_hz // H
    Q += off_z * stride_qz + off_h * stride_qh
    K += off_z * stride_kz + off_h * stride_kh
    V += off_z * stride_vz + off_h * stride_vh
    block_mask_ptr += off_z * stride_bmz + off_h * stride_bmh

    # initialize offsets
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    off_q = offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd
    # off_k = offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kd
    off_k = offs_n[None, :] * stride_kn + offs_d[:, None] * stride_kd
    off_v = offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd
    # Initialize pointers to Q, K, V
    q_ptrs = Q + off_q
    k_ptrs = K + off_k
    v_ptrs = V + off_v
    mask_ptrs = block_mask_ptr + start_m * stride_bmm

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float('inf')
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)

    q = tl.load(q_ptrs, mask=offs_m[:, None] < Q_LEN)

    k_block_start = 0
    k_block_end = tl.cdiv((start_m + 1) * BLOCK_M, BLOCK_N)

    # loop over k, v and update accumulator
    for col_idx in range(k_block_start, k_block_end-1):
        acc, l_i, m_i = _fwd_kernel_inner(
            acc, l_i, m_i,
            q,
            col_idx,
            mask_ptrs,
            k_ptrs, v_ptrs,
            offs_m, offs_n,
            stride_kn, stride_vn, stride_bmn,
            sm_scale,
            N_CTX,
            False,
            BLOCK_M,
            BLOCK_N,
        )

    # last block
    acc, l_i, m_i = _fwd_kernel_inner(
        acc, l_i, m_i,
        q,
        k_block_end-1,
        mask_ptrs,
        k_ptrs, v_ptrs,
        offs_m, offs_n,
        stride_kn, stride_vn, stride_bmn,
        sm_scale,
        N_CTX,
        True,
        BLOCK_M,
        BLOCK_N,
    )

    m_i += tl.math.log(l_i)
    l_recip = 1 / l_i[:, None]
    acc = acc * l_recip
    acc = acc.to(Out.dtype.element_ty) 


    off_o = off_z * stride_oz + off_h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od
    out_ptrs = Out + off_o
    tl.store(out_ptrs, acc, mask=offs_m[:, None] < N_CTX)


def make_inputs(B: int, H: int, N: int, density: float, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q / k / v [B, H, N, 128] bf16 (randn); block_mask [B, H, nb, nb] bool: lower triangle kept with probability
    ``density``, the diagonal always; sm_scale 1/sqrt(128)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, N, HEAD_D), device=device, generator=g).to(torch.bfloat16)
    k = torch.randn((B, H, N, HEAD_D), device=device, generator=g).to(torch.bfloat16)
    v = torch.randn((B, H, N, HEAD_D), device=device, generator=g).to(torch.bfloat16)
    nb = triton.cdiv(N, BLK)
    keep = torch.rand((B, H, nb, nb), device=device, generator=g) < density
    tri = torch.ones((nb, nb), dtype=torch.bool, device=device).tril()
    eye = torch.eye(nb, dtype=torch.bool, device=device)
    mask = ((keep & tri) | eye).contiguous()
    return {"q": q, "k": k, "v": v, "block_mask": mask, "sm_scale": HEAD_D ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, H, N, 128] bf16, as ``block_sparse_triton_fn`` (layout 'bhsd', BLOCK_M = BLOCK_N = 64) launches it."""
    import torch
    q, k, v, block_sparse_mask = inputs["q"], inputs["k"], inputs["v"], inputs["block_mask"]
    BLOCK_M = BLOCK_N = BLK
    o = torch.empty_like(q).contiguous()
    BLOCK_DMODEL = q.shape[-1]
    num_warps, num_stages = config.get("num_warps", 4), config.get("num_stages", 2)
    N_CTX = k.shape[2]
    grid = (triton.cdiv(q.shape[2], BLOCK_M), q.shape[0] * q.shape[1])
    H = q.shape[1]
    _fwd_kernel[grid](
        q, k, v, inputs["sm_scale"],
        block_sparse_mask,
        o,
        *q.stride(), *k.stride(), *v.stride(), *block_sparse_mask.stride(), *o.stride(),
        H, N_CTX,
        BLOCK_M, BLOCK_N, BLOCK_DMODEL,
        num_warps=num_warps, num_stages=num_stages,
    )
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(q k^T * scale) over the keys that are both causal and in a kept block, times v (fp64)."""
    import torch
    q, k, v, mask = inputs["q"].double(), inputs["k"].double(), inputs["v"].double(), inputs["block_mask"]
    N = q.shape[2]
    tok = mask.repeat_interleave(BLK, dim=2).repeat_interleave(BLK, dim=3)[:, :, :N, :N]
    causal = torch.ones((N, N), dtype=torch.bool, device=q.device).tril()
    s = torch.einsum("bhmd,bhnd->bhmn", q, k) * inputs["sm_scale"]
    s = s.masked_fill(~(tok & causal), float("-inf"))
    return torch.einsum("bhmn,bhnd->bhmd", torch.softmax(s, dim=-1), v)


def flops(B: int, H: int, N: int, density: float) -> float:
    nb = triton.cdiv(N, BLK)
    blocks = nb + density * nb * (nb - 1) / 2
    return 4.0 * B * H * blocks * BLK * BLK * HEAD_D
