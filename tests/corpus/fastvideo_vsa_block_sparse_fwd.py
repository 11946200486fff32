"""FastVideo's Video Sparse Attention (VSA) Triton forward, ``_attn_fwd_sparse`` (hao-ai-lab/FastVideo
fastvideo-kernel/python/fastvideo_kernel/triton_kernels/block_sparse_attn_triton.py, launched by
``triton_block_sparse_attn_forward`` on a grid of (T / 64, B * H); the Triton fallback of VSA's 64-token-cube
block-sparse attention, tutorial 06's forward with a "SPARSE ADDITION").

The constructs: ``@triton.autotune`` over a config list built by a **comprehension** at module level (BLOCK 64 x 64,
num_stages 3 / 4 / 7, num_warps 4 / 8; TWILL_SPEC takes the first: 3 stages, 4 warps); a **loaded trip count**
(``kv_blocks = tl.load(q2k_num + meta_base)``, ``for i in range(0, kv_blocks)``); **block pointers** for Q / K / V / O
(K's transposed, ``order=(0, 1)``; V's order a **constexpr chosen by comparing V's element type** with
``tl.float8e5``), K / V **advanced from loop-invariant bases by an offset loaded in the same iteration**
(``kv_idx = tl.load(kv_ptr + i)``, ``tl.advance(K_base, (0, kv_idx * BLOCK_N))``), and a **second dependent load**
``tl.load(variable_block_sizes + kv_idx)``, the cube's count of real tokens, masking the score columns; an exp2
online softmax (``l_i`` starts at 1.0, harmless since the first alpha is 0) with the P V dot accumulating in place;
the log2-domain LSE ``M`` and O stored after the loop. Wan2.1-1.3B shapes: 12 heads of 128, 32768 tokens (512
cubes), top-k 64 KV cubes per Q cube, bf16. Nothing changed in the kernel; the wrapper is ``launch``."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_fwd_sparse",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "sm_scale": "fp32", "q2k_index": "*i32",
                  "q2k_num": "*i32", "max_kv_blks": "i32", "variable_block_sizes": "*i32", "M": "*fp32",
                  "Out": "*bf16",
                  "stride_qz": "i32", "stride_qh": "i32", "stride_qm": "i32", "stride_qk": "constexpr",
                  "stride_kz": "i32", "stride_kh": "i32", "stride_kn": "i32", "stride_kk": "constexpr",
                  "stride_vz": "i32", "stride_vh": "i32", "stride_vk": "i32", "stride_vn": "constexpr",
                  "stride_oz": "i32", "stride_oh": "i32", "stride_om": "i32", "stride_on": "constexpr",
                  "Z": "i32", "H": "i32", "N_CTX": "i32"},
    "constexprs": {"stride_qk": 1, "stride_kk": 1, "stride_vn": 1, "stride_on": 1, "HEAD_DIM": 128, "BLOCK_M": 64,
                   "BLOCK_N": 64, "STAGE": 3},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["stride_qz", "stride_qh", "stride_qm", "stride_kz", "stride_kh", "stride_kn", "stride_vz",
                     "stride_vh", "stride_vk", "stride_oz", "stride_oh", "stride_om", "N_CTX", "max_kv_blks"]}
PROBLEM: dict[str, int] = {"B": 1, "H": 12, "T": 32768, "D": 128, "topk": 64}
SMALL: dict[str, int] = {"B": 1, "H": 2, "T": 384, "D": 128, "topk": 3}


configs = [
    triton.Config({'BLOCK_M': BM, 'BLOCK_N': BN}, num_stages=s, num_warps=w) \
    for BM in [64]\
    for BN in [64]\
    for s in [3, 4, 7]\
    for w in [4, 8]\
]


# ──────────────────────────── SPARSE ADDITION BEGIN ───────────────────────────
@triton.autotune(configs, key=["N_CTX", "HEAD_DIM"])
@triton.jit
def _attn_fwd_sparse(
        Q,
        K,
        V,
        sm_scale,  #
        q2k_index,
        q2k_num,
        max_kv_blks,  #
        variable_block_sizes,
        M,
        Out,  #
        stride_qz,
        stride_qh,
        stride_qm,
        stride_qk,
        stride_kz,
        stride_kh,
        stride_kn,
        stride_kk,
        stride_vz,
        stride_vh,
        stride_vk,
        stride_vn,
        stride_oz,
        stride_oh,
        stride_om,
        stride_on,
        Z,
        H,
        N_CTX,  #
        HEAD_DIM: tl.constexpr,  #
        BLOCK_M: tl.constexpr,
        BLOCK_N: tl.constexpr,
        STAGE: tl.constexpr):
    """
    64×64 **block-sparse** forward kernel. Back-prop kernels remain dense
    (32×64 and 64×32) – memory footprint unchanged.
    """

    # ----- program-id mapping -----
    q_blk = tl.program_id(0)  # Q-tile index
    off_hz = tl.program_id(1)  # fused (batch, head)
    b = off_hz // H
    h = off_hz % H
    q_tiles = N_CTX // BLOCK_M
    meta_base = ((b * H + h) * q_tiles + q_blk)

    kv_blocks = tl.load(q2k_num + meta_base)  # int32
    kv_ptr = q2k_index + meta_base * max_kv_blks  # ptr to list

    # ----- base pointers -----
    qvk_off = (b.to(tl.int64) * stride_qz + h.to(tl.int64) * stride_qh)

    Q_ptr = tl.make_block_ptr(base=Q + qvk_off,
                              shape=(N_CTX, HEAD_DIM),
                              strides=(stride_qm, stride_qk),
                              offsets=(q_blk * BLOCK_M, 0),
                              block_shape=(BLOCK_M, HEAD_DIM),
                              order=(1, 0))

    K_base = tl.make_block_ptr(base=K + qvk_off,
                               shape=(HEAD_DIM, N_CTX),
                               strides=(stride_kk, stride_kn),
                               offsets=(0, 0),
                               block_shape=(HEAD_DIM, BLOCK_N),
                               order=(0, 1))

    v_order: tl.constexpr = (0, 1) if V.dtype.element_ty == tl.float8e5 else (1,
                                                                              0)
    V_base = tl.make_block_ptr(base=V + qvk_off,
                               shape=(N_CTX, HEAD_DIM),
                               strides=(stride_vk, stride_vn),
                               offsets=(0, 0),
                               block_shape=(BLOCK_N, HEAD_DIM),
                               order=v_order)

    O_ptr = tl.make_block_ptr(base=Out + qvk_off,
                              shape=(N_CTX, HEAD_DIM),
                              strides=(stride_om, stride_on),
                              offsets=(q_blk * BLOCK_M, 0),
                              block_shape=(BLOCK_M, HEAD_DIM),
                              order=(1, 0))

    # ----- accumulators -----
    offs_m = q_blk * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/ln2
    q = tl.load(Q_ptr)

    # ----- sparse loop over valid K/V tiles -----
    for i in range(0, kv_blocks):
        kv_idx = tl.load(kv_ptr + i).to(tl.int32)
        block_size = tl.load(variable_block_sizes + kv_idx)
        K_ptr = tl.advance(K_base, (0, kv_idx * BLOCK_N))
        V_ptr = tl.advance(V_base, (kv_idx * BLOCK_N, 0))

        k = tl.load(K_ptr)
        qk = tl.dot(q, k)
        # mask out invalid columns
        mask = tl.arange(0, BLOCK_N) < block_size
        qk = tl.where(mask[None, :], qk, -float("inf"))

        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        l_ij = tl.sum(p, 1)

        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]

        v = tl.load(V_ptr)
        acc = tl.dot(p.to(tl.bfloat16), v, acc)
        m_i = m_ij

    # ----- epilogue -----
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    tl.store(O_ptr, acc.to(Out.type.element_ty))


# ──────────────────────────── SPARSE ADDITION END ─────────────────────────────


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
    """q, k, v (and do, unused here) [B, H, T, D] bf16; per (b, h, q cube) ``topk`` distinct KV cubes (q2k, padded to topk) and the
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
    """(o [B, H, T, D] bf16, M [B, H, T] fp32 log2-domain LSE), as ``triton_block_sparse_attn_forward``."""
    import math

    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    q2k_index, q2k_num, variable_block_sizes = inputs["q2k_index"], inputs["q2k_num"], inputs["variable_block_sizes"]
    B, H, T, D = q.shape
    sm_scale = 1.0 / math.sqrt(D)
    max_kv_blks = q2k_index.shape[-1]
    assert T % 64 == 0, f"T must be a multiple of 64, but got {T}"
    o = torch.empty_like(q)
    M = torch.empty((B, H, T), dtype=torch.float32, device=q.device)
    grid = lambda _: (triton.cdiv(T, 64), B * H, 1)
    _attn_fwd_sparse[grid](
        q, k, v, sm_scale, q2k_index, q2k_num, max_kv_blks, variable_block_sizes, M, o,
        q.stride(0), q.stride(1), q.stride(2), q.stride(3), k.stride(0), k.stride(1), k.stride(2), k.stride(3),
        v.stride(0), v.stride(1), v.stride(2), v.stride(3), o.stride(0), o.stride(1), o.stride(2), o.stride(3),
        B, H, T, HEAD_DIM=D, STAGE=3)
    return o, M


def reference(inputs: dict[str, Any]) -> Any:
    """Masked softmax attention (scale 1 / sqrt(D)) over the selected cubes' real tokens in fp32: o and LSE / ln 2."""
    import math

    q, k, v = (inputs[n].float() for n in ("q", "k", "v"))
    o, lse = _block_attention(q, k, v, inputs["q2k_index"], inputs["q2k_num"], inputs["variable_block_sizes"])
    return o, lse / math.log(2)


def flops(B: int, H: int, T: int, D: int, topk: int) -> float:
    """QK^T and PV over topk 64-cubes per 64-row Q cube: 4 * 64 * 64 * D per (q cube, kv cube)."""
    return 4.0 * B * H * (T // 64) * topk * 64 * 64 * D
