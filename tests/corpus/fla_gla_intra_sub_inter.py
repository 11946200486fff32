"""flash-linear-attention ``chunk_gla_fwd_A_kernel_intra_sub_inter`` (fla/ops/gla/chunk.py, the off-diagonal
sub-chunk scores of chunked Gated Linear Attention, rewritten here): each chunk of BT = 64 positions is cut into NC
= 4 sub-chunks of BC = 16; per (chunk, sub-chunk pair, batch-head) program, ``i_i, i_j = i_c // NC, i_c % NC``, two
early returns before the loop (the sub-chunk past the sequence's end, ``if i_t * BT + i_i * BC >= T``, and the
pairs on or above the diagonal, ``if i_i <= i_j``), then a loop over K blocks, ``for i_k in range(tl.cdiv(K,
BK))``: a [BK] vector of the gate at the sub-chunk's first row (``b_gn``, a masked pointer load, ``o_k < K``), q and
g [BC, BK] through block pointers, k and its gate [BK, BC] through *transposed* block pointers (shape (K, T),
strides (1, H*K), order (0, 1)); both operands gated in registers relative to b_gn (``b_q * exp2(b_g - b_gn[None,
:]) * scale``, ``b_k * exp2(b_gn[:, None] - b_gk)``), fp32, so the [16, 16] ``tl.dot`` runs in TF32 ("using tf32 to
improve precision here"), accumulated in a carried fp32 [BC, BC] tile stored after the loop (``b_A.to(A.dtype
.element_ty)``, boundary-checked). g is the chunk-local cumulative log gate in base 2 (FLA scales it by 1/ln 2,
``RCP_LN2``, and uses ``exp2``). ``@triton.heuristics`` for IS_VARLEN (False), ``@triton.autotune`` over BK in (32,
64) x num_warps (1, 2, 4, 8) x num_stages (2, 3, 4) keyed on BC, ``@triton.jit(do_not_specialize=['T'])``; the
launch is the library's (grid (NT, NC * NC, B * H), no BK). fp16 q and k where FLA runs bf16 (the interpreter
mishandles bf16). The blocks this kernel does not write (the diagonal ones, another kernel's, and those above) are
zero here: A is allocated with ``torch.zeros`` where FLA's ``new_empty`` leaves them unread."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BT, BC = 64, 16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_gla_fwd_A_kernel_intra_sub_inter",
    "signature": {"q": "*fp16", "k": "*fp16", "g": "*fp32", "A": "*fp32", "cu_seqlens": "constexpr",
                  "chunk_indices": "constexpr", "scale": "fp32", "T": "i32"},
    "constexprs": {"cu_seqlens": None, "chunk_indices": None, "H": 4, "K": 128, "BT": BT, "BC": BC, "BK": 64,
                   "NC": BT // BC, "IS_VARLEN": False},
    "num_warps": 2, "num_stages": 3,
    "divisibility": ["q", "k", "g", "A"]}
PROBLEM: dict[str, int] = {"B": 8, "H": 4, "T": 4096}
SMALL: dict[str, int] = {"B": 2, "H": 4, "T": 150}     # H is a constexpr; 150 = 2 * 64 + 22: a ragged last chunk
RCP_LN2 = 1.4426950216


@triton.jit
def exp2(x):
    return tl.math.exp2(x)


@triton.heuristics({
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.autotune(
    configs=[triton.Config({'BK': BK}, num_warps=num_warps, num_stages=num_stages)
             for BK in [32, 64] for num_warps in [1, 2, 4, 8] for num_stages in [2, 3, 4]],
    key=['BC'],
)
@triton.jit(do_not_specialize=['T'])
def chunk_gla_fwd_A_kernel_intra_sub_inter(q, k, g, A, cu_seqlens, chunk_indices, scale, T, H: tl.constexpr,
                                           K: tl.constexpr, BT: tl.constexpr, BC: tl.constexpr, BK: tl.constexpr,
                                           NC: tl.constexpr, IS_VARLEN: tl.constexpr):
    # twill corpus rendition: one [BC, BC] block of the chunk's scores, gated per key channel, over K blocks
    i_t, i_c, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    i_i, i_j = i_c // NC, i_c % NC
    if IS_VARLEN:
        i_n, i_t = tl.load(chunk_indices + i_t * 2).to(tl.int32), tl.load(chunk_indices + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        T = eos - bos
    else:
        bos, eos = i_b * T, i_b * T + T

    if i_t * BT + i_i * BC >= T:
        return
    if i_i <= i_j:
        return

    b_A = tl.zeros([BC, BC], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        o_k = i_k * BK + tl.arange(0, BK)
        m_k = o_k < K

        p_q = tl.make_block_ptr(q + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT + i_i * BC, i_k * BK),
                                (BC, BK), (1, 0))
        p_g = tl.make_block_ptr(g + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT + i_i * BC, i_k * BK),
                                (BC, BK), (1, 0))
        p_k = tl.make_block_ptr(k + (bos * H + i_h) * K, (K, T), (1, H * K), (i_k * BK, i_t * BT + i_j * BC),
                                (BK, BC), (0, 1))
        p_gk = tl.make_block_ptr(g + (bos * H + i_h) * K, (K, T), (1, H * K), (i_k * BK, i_t * BT + i_j * BC),
                                 (BK, BC), (0, 1))
        p_gn = g + (bos + i_t * BT + i_i * BC) * H * K + i_h * K + o_k

        # [BK,]
        b_gn = tl.load(p_gn, mask=m_k, other=0)
        # [BC, BK]
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_g = tl.load(p_g, boundary_check=(0, 1))
        b_qg = b_q * exp2(b_g - b_gn[None, :]) * scale
        # [BK, BC]
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_gk = tl.load(p_gk, boundary_check=(0, 1))
        b_kg = b_k * exp2(b_gn[:, None] - b_gk)
        # [BC, BC] using tf32 to improve precision here.
        b_A += tl.dot(b_qg, b_kg)

    p_A = tl.make_block_ptr(A + (bos * H + i_h) * BT, (T, BT), (H * BT, 1), (i_t * BT + i_i * BC, i_j * BC),
                            (BC, BC), (1, 0))
    tl.store(p_A, b_A.to(A.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k [B, T, H, 128] fp16; g [B, T, H, 128] fp32, the within-chunk cumulative sum of log-sigmoid gates scaled
    to base 2 (as chunk_local_cumsum(g, BT, scale=RCP_LN2) leaves it)."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    NT = triton.cdiv(T, BT)
    q = torch.randn((B, T, H, 128), device=device, generator=gen).half()
    k = torch.randn((B, T, H, 128), device=device, generator=gen).half()
    gl = torch.nn.functional.logsigmoid(torch.randn((B, T, H, 128), device=device, generator=gen) + 3.0) / 4
    gp = torch.nn.functional.pad(gl, (0, 0, 0, 0, 0, NT * BT - T)).view(B, NT, BT, H, 128).cumsum(2) * RCP_LN2
    return {"q": q, "k": k, "g": gp.view(B, NT * BT, H, 128)[:, :T].contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """A [B, T, H, BT] fp32, the off-diagonal lower sub-chunk blocks of each chunk's scores, as
    chunk_gla_fwd_intra_gk launches the kernel (scale K ** -0.5; config ignored: autotuned)."""
    import torch
    q, k, g = inputs["q"], inputs["k"], inputs["g"]
    B, T, H, K = k.shape
    NC = triton.cdiv(BT, BC)
    A = torch.zeros((B, T, H, BT), device=q.device, dtype=torch.float)
    grid = (triton.cdiv(T, BT), NC * NC, B * H)
    chunk_gla_fwd_A_kernel_intra_sub_inter[grid](q, k, g, A, None, None, K ** -0.5, T=T, H=H, K=K, BT=BT, BC=BC,
                                                 NC=NC)
    return A


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, g = (inputs[n].double() for n in ("q", "k", "g"))
    B, T, H, K = k.shape
    A = torch.zeros((B, T, H, BT), dtype=torch.float64, device=q.device)
    for c in range(triton.cdiv(T, BT)):
        s, e = c * BT, min(c * BT + BT, T)
        gc = g[:, s:e]
        qg, kg = q[:, s:e] * torch.exp2(gc), k[:, s:e] * torch.exp2(-gc)
        a = torch.einsum("bihk,bjhk->bihj", qg, kg) * K ** -0.5               # [B, n, H, n]
        i = torch.arange(e - s, device=q.device)
        below = (i[:, None] // BC) > (i[None, :] // BC)                          # strictly lower sub-chunk blocks
        A[:, s:e, :, : e - s] = torch.where(below[None, :, None, :], a, 0.0)
    return A
