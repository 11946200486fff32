"""flash-linear-attention's Based (``parallel_based_fwd_kernel`` in fla/ops/based/parallel.py): linear attention
through the 2nd-order Taylor feature map, written as attention: scores s = q k^T then ``1 + s + 0.5 * s * s`` in
place of exp, no max and no rescaling, the normaliser z = rowsum(s) stored beside o and divided out on the host.
One program per (K block * V block, query chunk of BTL = 128, batch*head); block pointers advanced with
``tl.advance``; **two loops in sequence**: the chunks strictly before the query chunk, unmasked (``for _ in
range(0, i_c * BTL, BTS)``), then after a ``tl.debug_barrier()`` the chunk itself in BTS = 32 steps with a causal
``tl.where`` on a loop-carried ``o_k += BTS`` and fresh block pointers; ``allow_tf32=False`` dots;
``@triton.jit(do_not_specialize=['T'])``; the feature dim K = 16 (a [128, 16] x [16, 32] score dot); o and z
written per K block (``i_bh + B * H * i_k``) and summed by the wrapper. fp16 in, fp32 o and z. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

FEAT_K = 16
HEAD_V = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "parallel_based_fwd_kernel",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp32", "z": "*fp32", "scale": "fp32",
                  "T": "i32"},
    "constexprs": {"B": 8, "H": 16, "K": FEAT_K, "V": HEAD_V, "BTL": 128, "BTS": 32, "BK": 16, "BV": 128},
    "num_warps": 4, "num_stages": 2}
PROBLEM: dict[str, int] = {"B": 8, "H": 16, "T": 4096}
SMALL: dict[str, int] = {"B": 8, "H": 16, "T": 300}       # B and H are constexprs


@triton.jit(do_not_specialize=['T'])
def parallel_based_fwd_kernel(
    q,
    k,
    v,
    o,
    z,
    scale,
    T,
    B: tl.constexpr,
    H: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    BTL: tl.constexpr,
    BTS: tl.constexpr,
    BK: tl.constexpr,
    BV: tl.constexpr,
):
    # i_c: chunk index. used for sequence parallelism
    i_kv, i_c, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    NV = tl.cdiv(V, BV)
    i_k = i_kv // (NV)
    i_v = i_kv % (NV)

    p_q = tl.make_block_ptr(q + i_bh * T*K, (T, K), (K, 1), (i_c * BTL, i_k * BK), (BTL, BK), (1, 0))
    p_k = tl.make_block_ptr(k + i_bh * T*K, (K, T), (1, K), (i_k * BK, 0), (BK, BTS), (0, 1))
    p_v = tl.make_block_ptr(v + i_bh * T*V, (T, V), (V, 1), (0, i_v * BV), (BTS, BV), (1, 0))

    # [BQ, BD] block Q, in the shared memory throughout the whole kernel
    b_q = tl.load(p_q, boundary_check=(0, 1))
    b_q = (b_q * scale).to(b_q.dtype)
    b_o = tl.zeros([BTL, BV], dtype=tl.float32)
    b_z = tl.zeros([BTL], dtype=tl.float32)

    # Q block and K block have no overlap
    # no need for mask, thereby saving flops
    for _ in range(0, i_c * BTL, BTS):
        # [BK, BTS]
        b_k = tl.load(p_k, boundary_check=(0, 1))

        # [BTS, BV]
        b_v = tl.load(p_v, boundary_check=(0, 1))
        # [BTL, BTS]
        b_s = tl.dot(b_q, (b_k), allow_tf32=False)
        b_s = 1 + b_s + 0.5 * b_s * b_s
        b_z += tl.sum(b_s, axis=1)

        # [BQ, BD]
        b_o = b_o + tl.dot(b_s.to(b_v.dtype), b_v, allow_tf32=False)
        p_k = tl.advance(p_k, (0, BTS))
        p_v = tl.advance(p_v, (BTS, 0))

    # # rescale interchunk output
    tl.debug_barrier()
    o_q = tl.arange(0, BTL)
    # # sync threads, easy for compiler to optimize
    # tl.debug_barrier()

    o_k = tl.arange(0, BTS)
    p_k = tl.make_block_ptr(k + i_bh * T*K, (K, T), (1, K), (i_k * BK, i_c * BTL), (BK, BTS), (0, 1))
    p_v = tl.make_block_ptr(v + i_bh * T*V, (T, V), (V, 1), (i_c * BTL, i_v * BV), (BTS, BV), (1, 0))
    # Q block and K block have overlap. masks required
    for _ in range(i_c * BTL, (i_c + 1) * BTL, BTS):
        # [BK, BTS]
        b_k = tl.load(p_k, boundary_check=(0, 1))
        # [BTS, BV]
        b_v = tl.load(p_v, boundary_check=(0, 1))
        # [BTL, BTS]
        m_s = o_q[:, None] >= o_k[None, :]
        b_s = tl.dot(b_q, b_k, allow_tf32=False)
        b_s = 1 + b_s + 0.5 * b_s * b_s
        b_s = tl.where(m_s, b_s, 0)
        b_z += tl.sum(b_s, axis=1)
        # [BTL, BV]
        b_o += tl.dot(b_s.to(b_q.dtype), b_v, allow_tf32=False)

        p_k = tl.advance(p_k, (0, BTS))
        p_v = tl.advance(p_v, (BTS, 0))
        o_k += BTS

    p_o = tl.make_block_ptr(o + (i_bh + B * H * i_k) * T*V, (T, V), (V, 1), (i_c*BTL, i_v*BV), (BTL, BV), (1, 0))
    p_z = z + (i_bh + B * H * i_k) * T + i_c * BTL + tl.arange(0, BTL)
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))
    tl.store(p_z, b_z.to(p_z.dtype.element_ty), mask=((i_c * BTL + tl.arange(0, BTL)) < T))


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k [B, H, T, 16] and v [B, H, T, 128] fp16 (head-first, as the library's kernel indexes them); o and z
    [NK, B, H, T, ...] fp32 allocated here."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, T, FEAT_K), device=device, generator=g).half()
    k = torch.randn((B, H, T, FEAT_K), device=device, generator=g).half()
    v = torch.randn((B, H, T, HEAD_V), device=device, generator=g).half()
    NK = triton.cdiv(FEAT_K, max(16, min(128, triton.next_power_of_2(FEAT_K))))
    o = torch.empty((NK, B, H, T, HEAD_V), device=device, dtype=torch.float32)
    z = torch.empty((NK, B, H, T), device=device, dtype=torch.float32)
    return {"q": q, "k": k, "v": v, "o": o, "z": z, "scale": FEAT_K ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o / (z + 1e-6): [B, H, T, V] fp32, as ``parallel_based`` (``use_norm=True``) returns it."""
    q, k, v, o, z = inputs["q"], inputs["k"], inputs["v"], inputs["o"], inputs["z"]
    B, H, T, K, V = *k.shape, v.shape[-1]
    BTL, BTS = 128, 32
    BK = min(128, triton.next_power_of_2(k.shape[-1]))
    BV = min(128, triton.next_power_of_2(v.shape[-1]))
    BK, BV = max(BK, 16), max(BV, 16)
    NK = triton.cdiv(K, BK)
    NV = triton.cdiv(V, BV)
    num_stages = 2
    num_warps = 4
    grid = (NK * NV, triton.cdiv(T, BTL), B * H)
    parallel_based_fwd_kernel[grid](
        q, k, v, o, z, inputs["scale"], T=T, B=B, H=H, K=K, V=V, BTL=BTL, BTS=BTS, BK=BK, BV=BV,
        num_warps=config.get("num_warps", num_warps), num_stages=config.get("num_stages", num_stages))
    return o.sum(0) / (z.sum(0)[..., None] + 1e-6)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = inputs["q"].double() * inputs["scale"], inputs["k"].double(), inputs["v"].double()
    T = q.shape[2]
    s = q @ k.transpose(-1, -2)
    s = 1 + s + 0.5 * s * s
    s = s.masked_fill(torch.triu(torch.ones((T, T), dtype=torch.bool, device=q.device), diagonal=1), 0)
    return (s @ v) / (s.sum(-1, keepdim=True) + 1e-6)


def flops(B: int, H: int, T: int) -> float:
    return 2.0 * B * H * T * T * (FEAT_K + HEAD_V)      # causal: half of the full 4 T^2 (K + V) / 2
