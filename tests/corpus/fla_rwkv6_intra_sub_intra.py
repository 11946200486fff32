"""flash-linear-attention's ``chunk_rwkv6_fwd_A_kernel_intra_sub_intra`` (fla/ops/rwkv6/chunk.py: RWKV-6's chunked
forward, the attention scores inside each BC-row diagonal sub-block of a BT-row chunk), rewritten here: per (chunk,
sub-block, batch-head) the sub-block's q and its in-chunk cumulative log decay ``ge`` are loaded once ([BC, BK] block
pointers), then a loop over the sub-block's key rows ``for j in range(0, min(BC, T - i_t * BT - i_i * BC))`` (a trip
count from Python's ``min`` of a constexpr and a loaded length) loads row j's query, key and decay ``gi`` ([BK] vectors
through ``tl.max_contiguous(tl.multiple_of(...))`` pointers stepped by ``H * K``), forms the column
``tl.sum(b_q * b_k[None, :] * exp(b_g - b_gk[None, :]), 1)``, masks it below the diagonal with ``tl.where(o_i > j,
...)``, puts RWKV's bonus on the diagonal as a FULL reduction to a scalar ``tl.sum(b_qj * b_k * b_u * scale)`` (no
axis) selected by ``tl.where(o_i != j, b_A, ...)``, and stores that column of A at
``o_A + j`` (a strided column store every iteration, nothing carried). Constructs kept: varlen through
``indices`` (chunk -> (sequence, chunk) pairs) and ``offsets`` with ``T`` reassigned; the early ``return`` of
sub-blocks past the sequence's end; ``HEAD_FIRST`` False (row stride ``H * K``); the bonus ``u`` [H, K] read by a
1-D block pointer. TWILL_SPEC: BT 64, BC 16, K = BK 64 (RWKV-6's head size), 32 heads, 4 warps as FLA's autotune
keeps for it. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BT, BC = 64, 16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_rwkv6_fwd_A_kernel_intra_sub_intra",
    "signature": {"q": "*bf16", "k": "*bf16", "gi": "*fp32", "ge": "*fp32", "u": "*bf16", "A": "*fp32",
                  "offsets": "*i32", "indices": "*i32", "scale": "fp32", "T": "i32"},
    "constexprs": {"H": 32, "K": 64, "BT": BT, "BC": BC, "BK": 64, "NC": BT // BC, "USE_OFFSETS": True,
                   "HEAD_FIRST": False},
    "num_warps": 4, "num_stages": 1,
    "divisibility": ["q", "k", "gi", "ge", "u", "A", "offsets", "indices"]}
PROBLEM: dict[str, int] = {"N": 8, "T": 2048}
SMALL: dict[str, int] = {"N": 3, "T": 75}          # partial chunks and sub-blocks


@triton.heuristics({"USE_OFFSETS": lambda args: args["offsets"] is not None})
@triton.jit(do_not_specialize=["T"])
def chunk_rwkv6_fwd_A_kernel_intra_sub_intra(
        q, k, gi, ge, u, A, offsets, indices, scale, T, H: tl.constexpr, K: tl.constexpr, BT: tl.constexpr,
        BC: tl.constexpr, BK: tl.constexpr, NC: tl.constexpr, USE_OFFSETS: tl.constexpr, HEAD_FIRST: tl.constexpr):
    # twill corpus rendition: A[i, j] = sum_k q_ik k_jk exp(ge_ik - gi_jk) (i > j), sum_k q_ik k_ik u_k (i == j)
    i_t, i_i, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    i_j = i_i
    if USE_OFFSETS:
        i_n, i_t = tl.load(indices + i_t * 2).to(tl.int32), tl.load(indices + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(offsets + i_n).to(tl.int32), tl.load(offsets + i_n + 1).to(tl.int32)
        T = eos - bos
    else:
        bos, eos = i_b * T, i_b * T + T
    if i_t * BT + i_i * BC >= T:
        return

    o_i = tl.arange(0, BC)
    o_k = tl.arange(0, BK)
    m_k = o_k < K
    m_A = (i_t * BT + i_i * BC + tl.arange(0, BC)) < T
    if HEAD_FIRST:
        o_A = i_bh * T * BT + (i_t * BT + i_i * BC + tl.arange(0, BC)) * BT + i_j * BC
        p_q = tl.make_block_ptr(q + i_bh * T * K, (T, K), (K, 1), (i_t * BT + i_i * BC, 0), (BC, BK), (1, 0))
        p_g = tl.make_block_ptr(ge + i_bh * T * K, (T, K), (K, 1), (i_t * BT + i_i * BC, 0), (BC, BK), (1, 0))
        p_qj = tl.max_contiguous(tl.multiple_of(q + i_bh * T * K + (i_t * BT + i_j * BC) * K + o_k, BK), BK)
        p_k = tl.max_contiguous(tl.multiple_of(k + i_bh * T * K + (i_t * BT + i_j * BC) * K + o_k, BK), BK)
        p_gk = tl.max_contiguous(tl.multiple_of(gi + i_bh * T * K + (i_t * BT + i_j * BC) * K + o_k, BK), BK)
    else:
        o_A = (bos + i_t * BT + i_i * BC + tl.arange(0, BC)) * H * BT + i_h * BT + i_j * BC
        p_q = tl.make_block_ptr(q + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT + i_i * BC, 0), (BC, BK),
                                (1, 0))
        p_g = tl.make_block_ptr(ge + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT + i_i * BC, 0), (BC, BK),
                                (1, 0))
        p_qj = tl.max_contiguous(tl.multiple_of(q + (bos + i_t * BT + i_j * BC) * H * K + i_h * K + o_k, BK), BK)
        p_k = tl.max_contiguous(tl.multiple_of(k + (bos + i_t * BT + i_j * BC) * H * K + i_h * K + o_k, BK), BK)
        p_gk = tl.max_contiguous(tl.multiple_of(gi + (bos + i_t * BT + i_j * BC) * H * K + i_h * K + o_k, BK), BK)
    p_u = tl.make_block_ptr(u + i_h * K, (K,), (1,), (0,), (BK,), (0,))
    b_q = tl.load(p_q, boundary_check=(0, 1))
    b_g = tl.load(p_g, boundary_check=(0, 1))
    b_u = tl.load(p_u, boundary_check=(0,))
    for j in range(0, min(BC, T - i_t * BT - i_i * BC)):
        b_qj = tl.load(p_qj, mask=m_k, other=0).to(tl.float32)
        b_k = tl.load(p_k, mask=m_k, other=0).to(tl.float32)
        b_gk = tl.load(p_gk, mask=m_k, other=0).to(tl.float32)
        # [BC]
        b_A = tl.sum(b_q * b_k[None, :] * tl.exp(b_g - b_gk[None, :]), 1)
        b_A = tl.where(o_i > j, b_A * scale, 0.)
        b_A = tl.where(o_i != j, b_A, tl.sum(b_qj * b_k * b_u * scale))
        tl.store(A + o_A + j, b_A, mask=m_A)
        p_qj += K if HEAD_FIRST else H * K
        p_k += K if HEAD_FIRST else H * K
        p_gk += K if HEAD_FIRST else H * K


def _chunk_indices(offsets, chunk_size: int):
    """FLA's prepare_chunk_indices: one (sequence, chunk) pair per chunk of every sequence, flattened [NT * 2]."""
    import torch
    lens = (offsets[1:] - offsets[:-1]).tolist()
    pairs = [(n, c) for n, L in enumerate(lens) for c in range(triton.cdiv(L, chunk_size))]
    return torch.tensor(pairs, dtype=torch.int32, device=offsets.device).flatten()


def make_inputs(N: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k [1, total, 32, 64] bf16; the chunk-local cumulative log decay ge (inclusive) and gi = ge - w (exclusive
    of the row's own decay), fp32, as chunk_rwkv6_fwd_cumsum leaves them; the bonus u [32, 64]; offsets [N + 1]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(max(1, T // 2), T + 1, (N,), generator=g, device=device)
    lens[0] = T
    offsets = torch.zeros((N + 1,), dtype=torch.int32, device=device)
    offsets[1:] = torch.cumsum(lens, 0)
    total = int(offsets[-1])
    q = torch.randn((1, total, 32, 64), device=device, generator=g).bfloat16()
    k = torch.randn((1, total, 32, 64), device=device, generator=g).bfloat16()
    w = -torch.exp(torch.randn((1, total, 32, 64), device=device, generator=g) * 0.5 - 2.0)
    ge = torch.empty_like(w)
    for s, e in zip(offsets[:-1].tolist(), offsets[1:].tolist()):
        for c in range(s, e, BT):
            ge[:, c:min(c + BT, e)] = w[:, c:min(c + BT, e)].cumsum(1)
    u = (torch.randn((32, 64), device=device, generator=g) * 0.5).bfloat16()
    # the chunk indices as FLA's wrapper prepares them before the launch (reading the offsets back on the host): made
    # in launch, they broke a CUDA graph's capture of it (run 134)
    return {"q": q, "k": k, "gi": ge - w, "ge": ge, "u": u, "offsets": offsets,
            "indices": _chunk_indices(offsets, BT)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """A [1, total, H, BT] fp32 with each chunk's diagonal BC x BC blocks filled (the rest of A is the inter-block
    kernel's: zeroed here)."""
    import torch
    q, k, offsets = inputs["q"], inputs["k"], inputs["offsets"]
    _, total, H, K = q.shape
    indices = inputs["indices"]
    NT = indices.numel() // 2
    A = torch.zeros((1, total, H, BT), device=q.device, dtype=torch.float32)
    chunk_rwkv6_fwd_A_kernel_intra_sub_intra[(NT, BT // BC, H)](
        q, k, inputs["gi"], inputs["ge"], inputs["u"], A, offsets, indices, K ** -0.5, total, H=H, K=K, BT=BT,
        BC=BC, BK=triton.next_power_of_2(K), NC=BT // BC, HEAD_FIRST=False,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 1))
    return A


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, gi, ge, u = (inputs[n].double() for n in ("q", "k", "gi", "ge", "u"))
    K = q.shape[-1]
    A = torch.zeros((*q.shape[:3], BT), dtype=torch.float64, device=q.device)
    offsets = inputs["offsets"].tolist()
    for s, e in zip(offsets[:-1], offsets[1:]):
        for c in range(s, e, BT):
            for b0 in range(c, min(c + BT, e), BC):
                rows = range(b0, min(b0 + BC, e))
                for i in rows:
                    for j in rows:
                        if i > j:
                            a = (q[0, i] * k[0, j] * (ge[0, i] - gi[0, j]).exp()).sum(-1)
                        elif i == j:
                            a = (q[0, i] * k[0, i] * u).sum(-1)
                        else:
                            continue
                        A[0, i, :, j - c] = a * K ** -0.5
    return A.float()
