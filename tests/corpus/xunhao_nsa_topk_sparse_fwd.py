"""Native Sparse Attention's selected-block ("top-k sparse") attention forward, ``forward_kernel`` (XunhaoLai/
native-sparse-attention-triton native_sparse_attention/ops/triton/topk_sparse_attention.py, commit 9bea856c, launched
by ``_topk_sparse_attention_fwd`` from ``topk_sparse_attention``), at the geometry of the library's own test
(test/test_topk_sparse_attention.py: 64 query heads over 8 KV heads, head dim 96, block 64) with NSA's top-16.

The constructs: varlen sequences (``cu_seqlens_q`` / ``cu_seqlens_k`` loaded per program), grid (batch, KV head,
cdiv(max_seqlen, num_q_loop)); an **early ``return``** for programs past the sequence; an **outer runtime loop over
query tokens** ``for j in range(real_q_loop)`` with ``real_q_loop = min(num_q_loop, q_len - pid_q * num_q_loop)``
(a Python ``min`` of tensors; one trip at these lengths); per token the token's top-k row loaded as a [BLOCK_SIZE_T]
vector (``other=-1``) and the **inner trip count computed by a reduction** ``real_topk = tl.sum(tl.where((topk_idx
>= 0) & (topk_idx <= pid_q_j // BLOCK_SIZE_K), 1, 0))``; the **inner loop ``for i in range(real_topk)``** walks the
index row with a **scalar load through a pointer carried and bumped each trip** (``c = tl.load(t_ptr_j) * BLOCK;
t_ptr_j = t_ptr_j + stride_tk``), then **``tl.advance`` of loop-invariant block pointers by that data-dependent
offset** (K read transposed through a (HEAD_DIM, k_len) block pointer with order (0, 1), ``boundary_check=(1, 0)``
with ``padding_option="zero"``; V likewise), the GQA group of G = 8 query heads padded to BLOCK_SIZE_H = 16 rows
(half the dot's M zero), head dim 96 padded to 128 by the block pointers' boundary checks, the causal mask built
as an **additive -inf bias before the dot** (``qk = zeros; qk += where(...); qk += tl.dot(q, k) * qk_scale``), a
base-2 online softmax that carries an **LSE** ``lse_i = m_ij + log2(exp2(lse_i - m_ij) + l_ij)`` (not a running
sum), ``p.to(v.dtype)`` and the PV dot. After the inner loop the [16, 128] output stored through a block pointer
with boundary checks and the base-2 lse with a mask.

Port notes: the kernel as written; the launch as ``_topk_sparse_attention_fwd`` (``get_num_warps_stages`` of the
library's utils inlined: Hopper, head dim 96 > 64, block 64 -> 4 warps, 3 stages). ``num_q_loop`` = 1 and the unit
strides are what Triton's launcher specialises as constexpr 1, so TWILL_SPEC says so. The top-k rows are generated
as the library's test does (random top-k among the sequence's blocks, sorted ascending, block 0 forced, blocks past
the token set to -1, so the valid entries come first). fp16 as in the test."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HQ, HKV, HEAD_D, BLOCK, TOPK = 64, 8, 96, 64, 16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "forward_kernel",
    "signature": {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "t_ptr": "*i32", "o_ptr": "*fp16",
                  "lse_ptr": "*fp32", "cu_seqlens_q": "*i32", "cu_seqlens_k": "*i32",
                  "NUM_KV_HEADS": "i32", "NUM_SHARE_Q_HEADS": "i32", "HEAD_DIM": "i32", "TOPK": "i32",
                  "num_q_loop": "constexpr", "sm_scale": "fp32",
                  "stride_qn": "i32", "stride_qh": "i32", "stride_qd": "constexpr",
                  "stride_kn": "i32", "stride_kh": "i32", "stride_kd": "constexpr",
                  "stride_vn": "i32", "stride_vh": "i32", "stride_vd": "constexpr",
                  "stride_th": "i32", "stride_tn": "i32", "stride_tk": "constexpr",
                  "stride_on": "i32", "stride_oh": "i32", "stride_od": "constexpr",
                  "stride_lh": "i32", "stride_ln": "constexpr"},
    "constexprs": {"num_q_loop": 1, "stride_qd": 1, "stride_kd": 1, "stride_vd": 1, "stride_tk": 1, "stride_od": 1,
                   "stride_ln": 1, "BLOCK_SIZE_K": 64, "BLOCK_SIZE_D": 128, "BLOCK_SIZE_H": 16,
                   "BLOCK_SIZE_T": 16},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["HEAD_DIM", "TOPK", "stride_qn", "stride_qh", "stride_kn", "stride_kh", "stride_vn",
                     "stride_vh", "stride_th", "stride_tn", "stride_on", "stride_oh", "stride_lh"]}
PROBLEM: dict[str, Any] = {"seqlens": (8000, 4100, 2100, 1000)}
SMALL: dict[str, Any] = {"seqlens": (300, 130)}


@triton.jit
def forward_kernel(
    q_ptr,  # Q: n x h x d
    k_ptr,  # K: n x kh x d
    v_ptr,  # V: n x kh x d
    t_ptr,  # topk_idx: kh x n x k
    o_ptr,  # O: n x h x d
    lse_ptr,  # LSE: h x n
    # seqlens
    cu_seqlens_q,
    cu_seqlens_k,
    # shape
    NUM_KV_HEADS,
    NUM_SHARE_Q_HEADS,
    HEAD_DIM,
    TOPK,
    # q loop num
    num_q_loop,
    # sm_scale
    sm_scale,
    # stride
    stride_qn,
    stride_qh,
    stride_qd,
    stride_kn,
    stride_kh,
    stride_kd,
    stride_vn,
    stride_vh,
    stride_vd,
    stride_th,
    stride_tn,
    stride_tk,
    stride_on,
    stride_oh,
    stride_od,
    stride_lh,
    stride_ln,
    # META parameters
    BLOCK_SIZE_K: tl.constexpr,  # k block size
    BLOCK_SIZE_D: tl.constexpr,
    BLOCK_SIZE_H: tl.constexpr,
    BLOCK_SIZE_T: tl.constexpr,
):
    qk_scale = sm_scale * 1.44269504
    # get batch id and head id
    pid_b = tl.program_id(0)
    pid_kh = tl.program_id(1)
    pid_h = pid_kh * NUM_SHARE_Q_HEADS
    pid_q = tl.program_id(2)
    # get q k start and len after rmpad
    q_start = tl.load(cu_seqlens_q + pid_b)
    q_len = tl.load(cu_seqlens_q + pid_b + 1) - q_start
    k_start = tl.load(cu_seqlens_k + pid_b)
    k_len = tl.load(cu_seqlens_k + pid_b + 1) - k_start
    if pid_q * num_q_loop >= q_len:
        return
    real_q_loop = min(num_q_loop, q_len - pid_q * num_q_loop)
    for j in range(real_q_loop):
        pid_q_j = pid_q * num_q_loop + j
        # init topk idx pointer
        off_t = tl.arange(0, BLOCK_SIZE_T)
        t_ptr_j = t_ptr + (q_start + pid_q_j) * stride_tn + pid_kh * stride_th
        topk_idx = tl.load(t_ptr_j + off_t * stride_tk, mask=off_t < TOPK, other=-1)
        real_topk = tl.sum(
            tl.where((topk_idx >= 0) & (topk_idx <= pid_q_j // BLOCK_SIZE_K), 1, 0),
            axis=0,
        )
        # init qkv pointer
        q_ptrs = tl.make_block_ptr(
            base=q_ptr + (q_start + pid_q_j) * stride_qn + pid_h * stride_qh,
            shape=(NUM_SHARE_Q_HEADS, HEAD_DIM),
            strides=(stride_qh, stride_qd),
            offsets=(0, 0),
            block_shape=(BLOCK_SIZE_H, BLOCK_SIZE_D),
            order=(1, 0),
        )
        k_ptrs = tl.make_block_ptr(
            base=k_ptr + k_start * stride_kn + pid_kh * stride_kh,
            shape=(HEAD_DIM, k_len),
            strides=(stride_kd, stride_kn),
            offsets=(0, 0),
            block_shape=(BLOCK_SIZE_D, BLOCK_SIZE_K),
            order=(0, 1),
        )
        v_ptrs = tl.make_block_ptr(
            base=v_ptr + k_start * stride_vn + pid_kh * stride_vh,
            shape=(k_len, HEAD_DIM),
            strides=(stride_vn, stride_vd),
            offsets=(0, 0),
            block_shape=(BLOCK_SIZE_K, BLOCK_SIZE_D),
            order=(1, 0),
        )
        # load q
        q = tl.load(q_ptrs, boundary_check=(0, 1), padding_option="zero")
        # init statistics
        off_h = tl.arange(0, BLOCK_SIZE_H)
        off_k = tl.arange(0, BLOCK_SIZE_K)
        m_i = tl.full((BLOCK_SIZE_H,), float("-inf"), dtype=tl.float32)
        lse_i = tl.full((BLOCK_SIZE_H,), float("-inf"), dtype=tl.float32)
        acc_o = tl.full((BLOCK_SIZE_H, BLOCK_SIZE_D), 0, dtype=tl.float32)
        # sparse attention
        for i in range(real_topk):
            # get current block start index
            c = tl.load(t_ptr_j).to(tl.int32) * BLOCK_SIZE_K
            t_ptr_j = t_ptr_j + stride_tk
            # load k
            k = tl.load(
                tl.advance(k_ptrs, (0, c)), boundary_check=(1, 0), padding_option="zero"
            )
            # compute qk
            qk = tl.zeros((BLOCK_SIZE_H, BLOCK_SIZE_K), dtype=tl.float32)
            qk += tl.where((pid_q_j >= c + off_k)[None, :], 0, float("-inf"))
            # [BLOCK_SIZE_H, HEAD_DIM] @ [HEAD_DIM, BLOCK_SIZE_K] -> [BLOCK_SIZE_H, BLOCK_SIZE_K]
            qk += tl.dot(q, k) * qk_scale
            # compute m_ij and l_ij
            m_ij = tl.maximum(m_i, tl.max(qk, axis=1))
            p = tl.exp2(qk - m_ij[:, None])
            l_ij = tl.sum(p, axis=1)
            # scale acc_o
            acc_o_scale = tl.exp2(m_i - m_ij)
            acc_o = acc_o * acc_o_scale[:, None]
            # load v and update acc_o
            v = tl.load(
                tl.advance(v_ptrs, (c, 0)), boundary_check=(0, 1), padding_option="zero"
            )
            p = p.to(v.dtype)
            acc_o += tl.dot(p, v)
            # update statistics
            m_i = m_ij
            lse_i = m_ij + tl.math.log2(tl.exp2(lse_i - m_ij) + l_ij)
        # final scale
        acc_o = acc_o * tl.exp2(m_i - lse_i)[:, None]
        # save output
        o_ptrs = tl.make_block_ptr(
            base=o_ptr + (q_start + pid_q_j) * stride_on + pid_h * stride_oh,
            shape=(NUM_SHARE_Q_HEADS, HEAD_DIM),
            strides=(stride_oh, stride_od),
            offsets=(0, 0),
            block_shape=(BLOCK_SIZE_H, BLOCK_SIZE_D),
            order=(1, 0),
        )
        tl.store(o_ptrs, acc_o.to(o_ptr.dtype.element_ty), boundary_check=(0, 1))
        # save lse
        lse_ptrs = (
            lse_ptr + (q_start + pid_q_j) * stride_ln + (pid_h + off_h) * stride_lh
        )
        tl.store(lse_ptrs, lse_i, mask=off_h < NUM_SHARE_Q_HEADS)


def _get_num_warps_stages(head_dim: int, block_size: int, is_hopper_gpu: bool) -> tuple[int, int]:
    """The library's ``get_num_warps_stages`` (ops/triton/utils.py)."""
    head_large = head_dim > 64
    block_large = block_size > 64
    if is_hopper_gpu:
        if head_large and block_large:
            num_warps, num_stages = 8, 3
        elif head_large or block_large:
            num_warps, num_stages = 4, 3
        else:
            num_warps, num_stages = 2, 2
    else:
        if head_large and block_large:
            num_warps, num_stages = 8, 3
        elif head_large or block_large:
            num_warps, num_stages = 8, 3
        else:
            num_warps, num_stages = 2, 2
    if head_dim > 128:
        num_stages = 2
    return num_warps, num_stages


def make_inputs(seqlens: tuple[int, ...], device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Packed q [total, 64, 96], k / v [total, 8, 96] fp16 (uniform(-1, 1), as the test), cu_seqlens int32, topk_idx
    [8, total, 16] int32 as the test's ``generate_topk_idx_example``."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.tensor(seqlens, dtype=torch.int32)
    cu = torch.zeros(len(seqlens) + 1, dtype=torch.int32)
    cu[1:] = torch.cumsum(lens, 0)
    total = int(cu[-1])
    q = (torch.rand((total, HQ, HEAD_D), device=device, generator=g) * 2 - 1).half()
    k = (torch.rand((total, HKV, HEAD_D), device=device, generator=g) * 2 - 1).half()
    v = (torch.rand((total, HKV, HEAD_D), device=device, generator=g) * 2 - 1).half()
    heads = []
    for _ in range(HKV):
        rows = []
        for L in seqlens:
            nb = triton.cdiv(L, BLOCK)
            idx = torch.randn((L, nb), device=device, generator=g).topk(min(TOPK, nb), dim=-1).indices
            idx = torch.nn.functional.pad(idx.to(torch.int32), (0, TOPK - idx.shape[-1]), value=TOPK)
            idx = torch.sort(idx, dim=1).values
            idx[:, 0] = 0
            qi = torch.arange(L, device=device)
            idx[idx > (qi // BLOCK)[:, None]] = -1
            rows.append(idx)
        heads.append(torch.cat(rows, 0))
    topk_idx = torch.stack(heads, 0).contiguous()
    return {"q": q, "k": k, "v": v, "topk_idx": topk_idx, "cu_seqlens": cu.to(device),
            "max_seqlen": int(lens.max()), "sm_scale": HEAD_D ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(o [total, 64, 96] fp16, lse [64, total] fp32 in base 2), as ``_topk_sparse_attention_fwd`` launches it."""
    import torch
    q, k, v, topk_idx = inputs["q"], inputs["k"], inputs["v"], inputs["topk_idx"]
    cu_seqlens_q = cu_seqlens_k = inputs["cu_seqlens"]
    max_seqlen_q = inputs["max_seqlen"]
    block_size, sm_scale = BLOCK, inputs["sm_scale"]
    q_len, num_q_heads, head_dim = q.shape
    k_len, num_k_heads, head_dim = k.shape
    batch_size = cu_seqlens_q.shape[0] - 1
    topk = topk_idx.shape[-1]
    num_share_q_heads = num_q_heads // num_k_heads
    o = torch.zeros_like(q)
    lse = torch.zeros(num_q_heads, q_len, dtype=torch.float32, device=q.device)
    num_q_loop = max_seqlen_q // 32768 + 1
    grid = (batch_size, num_k_heads, triton.cdiv(max_seqlen_q, num_q_loop))
    BLOCK_SIZE_K = triton.next_power_of_2(block_size)
    BLOCK_SIZE_D = triton.next_power_of_2(head_dim)
    BLOCK_SIZE_H = max(16, triton.next_power_of_2(num_share_q_heads))
    BLOCK_SIZE_T = triton.next_power_of_2(topk)
    num_warps, num_stages = _get_num_warps_stages(head_dim, BLOCK_SIZE_K, True)
    forward_kernel[grid](
        q, k, v, topk_idx, o, lse, cu_seqlens_q, cu_seqlens_k,
        num_k_heads, num_share_q_heads, head_dim, topk, num_q_loop, sm_scale,
        q.stride(0), q.stride(1), q.stride(2),
        k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2),
        topk_idx.stride(0), topk_idx.stride(1), topk_idx.stride(2),
        o.stride(0), o.stride(1), o.stride(2),
        lse.stride(0), lse.stride(1),
        BLOCK_SIZE_K=BLOCK_SIZE_K, BLOCK_SIZE_D=BLOCK_SIZE_D, BLOCK_SIZE_H=BLOCK_SIZE_H, BLOCK_SIZE_T=BLOCK_SIZE_T,
        num_warps=num_warps, num_stages=num_stages,
    )
    return o, lse


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence, KV head and token: softmax(q k^T * scale) over the keys of the token's valid selected blocks that
    are not after it, times v (fp64, query rows in chunks); lse = logsumexp * log2(e) (the kernel's base-2 lse)."""
    import math

    import torch
    q, k, v, topk_idx, cu = inputs["q"], inputs["k"], inputs["v"], inputs["topk_idx"], inputs["cu_seqlens"]
    total = q.shape[0]
    G = HQ // HKV
    o = torch.zeros((total, HQ, HEAD_D), dtype=torch.float64, device=q.device)
    lse = torch.zeros((HQ, total), dtype=torch.float64, device=q.device)
    cu = cu.tolist()
    CH = 256
    for b in range(len(cu) - 1):
        s0, L = cu[b], cu[b + 1] - cu[b]
        kb = k[s0:s0 + L].double().repeat_interleave(G, dim=1)          # L HQ D
        vb = v[s0:s0 + L].double().repeat_interleave(G, dim=1)
        nb = triton.cdiv(L, BLOCK)
        for r0 in range(0, L, CH):
            r1 = min(L, r0 + CH)
            qi = torch.arange(r0, r1, device=q.device)
            idx = topk_idx[:, s0 + r0:s0 + r1].long()                   # HKV R TOPK
            sel = torch.zeros((HKV, r1 - r0, nb + 1), dtype=torch.bool, device=q.device)
            ok = (idx >= 0) & (idx <= (qi // BLOCK)[None, :, None])
            sel.scatter_(2, torch.where(ok, idx, torch.full_like(idx, nb)), torch.ones_like(ok))
            sel = sel[..., :nb].repeat_interleave(BLOCK, dim=2)[..., :L]  # HKV R L
            keep = sel & (torch.arange(L, device=q.device)[None, None, :] <= qi[None, :, None])
            keep = keep.repeat_interleave(G, dim=0)                      # HQ R L
            s = torch.einsum("rhd,lhd->hrl", q[s0 + r0:s0 + r1].double(), kb) * inputs["sm_scale"]
            s = s.masked_fill(~keep, float("-inf"))
            l_ = torch.logsumexp(s, dim=-1)                                # HQ R
            p = torch.exp(s - l_[..., None])
            o[s0 + r0:s0 + r1] = torch.einsum("hrl,lhd->rhd", p, vb)
            lse[:, s0 + r0:s0 + r1] = l_ * (1.0 / math.log(2.0))
    return o, lse


def flops(seqlens: tuple[int, ...]) -> float:
    work = 0.0
    for L in seqlens:
        work += sum(min(TOPK, t // BLOCK + 1) for t in range(L)) * BLOCK
    return 4.0 * HQ * HEAD_D * work
