"""The intra-chunk ``beta * K K^T`` of flash-linear-attention's delta-rule kernels (``chunk_scaled_dot_kkt_fwd``):
one loaded K tile is both operands of the loop's dot, scaled by beta in registers as A and put in shared memory by
the loop itself as B, read transposed (``tl.trans`` of a register tile: a ``ttg.local_alloc`` and a
``memdesc_trans`` inside the loop); the strictly lower triangle stored. bf16 in, fp32 out. Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

K, BT = 128, 64
TWILL_SPEC: dict[str, Any] = {"kernel": "chunk_scaled_dot_kkt",
                              "signature": {"k": "*bf16", "beta": "*bf16", "A": "*fp32", "T": "i32"},
                              "constexprs": {"K": K, "BT": BT, "BK": 64}, "num_warps": 4, "num_stages": 2,
                              "divisibility": ["T"]}
PROBLEM: dict[str, int] = {"BH": 64, "T": 8192}
SMALL: dict[str, int] = {"BH": 3, "T": 200}       # the last chunk ragged


@triton.jit
def chunk_scaled_dot_kkt(k, beta, A, T, K: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    o_t = i_t * BT + tl.arange(0, BT)
    p_beta = tl.make_block_ptr(beta + i_bh * T, (T,), (1,), (i_t * BT,), (BT,), (0,))
    b_beta = tl.load(p_beta, boundary_check=(0,))
    b_A = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        p_k = tl.make_block_ptr(k + i_bh * T * K, (T, K), (K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_kb = b_k * b_beta[:, None]
        b_A += tl.dot(b_kb.to(b_k.dtype), tl.trans(b_k))
    b_A = tl.where(o_t[:, None] > o_t[None, :], b_A, 0)
    p_A = tl.make_block_ptr(A + i_bh * T * BT, (T, BT), (BT, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    tl.store(p_A, b_A.to(p_A.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(BH: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    k = (torch.randn((BH, T, K), device=device, generator=g) / 8).bfloat16()
    beta = torch.rand((BH, T), device=device, generator=g).bfloat16()
    return {"k": k, "beta": beta}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """A, fp32 [BH, T, BT]: each chunk's strictly lower triangle of beta_i k_i . k_j."""
    import torch
    k, beta = inputs["k"], inputs["beta"]
    BH, T, _ = k.shape
    a = torch.empty((BH, T, BT), device=k.device, dtype=torch.float32)
    chunk_scaled_dot_kkt[(triton.cdiv(T, BT), BH)](k, beta, a, T, K=K, BT=BT, BK=64,
                                                   num_warps=config.get("num_warps", 4),
                                                   num_stages=config.get("num_stages", 2))
    return a


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    k, beta = inputs["k"].float(), inputs["beta"].float()
    BH, T, _ = k.shape
    nt = (T + BT - 1) // BT
    pad = nt * BT - T
    kc = torch.nn.functional.pad(k, (0, 0, 0, pad)).view(BH, nt, BT, K)
    bc = torch.nn.functional.pad(beta, (0, pad)).view(BH, nt, BT)
    kb = (kc * bc[..., None]).bfloat16().float()
    a = torch.einsum("bnik,bnjk->bnij", kb, kc) * torch.ones(BT, BT, device=k.device).tril(-1)
    return a.reshape(BH, nt * BT, BT)[:, :T].double()
