"""A first-order gated linear recurrence h_t = g_t * h_{t-1} + x_t over long sequences (minGRU / LRU / HGRN
layers), in the style of the chunked Triton scans of accelerated-scan and flash-linear-attention (rewritten here):
one program per (D block, batch) carries its [BD] state across a ``for`` over chunks of BT steps. Within a chunk the
recurrence is closed-form: the decays' running product **``tl.cumprod(g, axis=0)``** (A_t = g_1 ... g_t: a
``tt.scan`` of ``arith.mulf``), the inputs scaled by it with **``tl.math.div_rn``** (the IEEE round-to-nearest
division, ``tt.precise_divf``; A shrinks along the chunk, so the error stays that of x) and summed by ``tl.cumsum``,
then h_t = A_t * (h_0 + U_t) as **``tl.math.fma(A, U, A * h0)``** (``math.fma``). The chunk's last row becomes the
next chunk's h_0 (a ``tl.where`` on the row index summed along the chunk: the select of one row as a reduction);
padded steps past T have g = 1 and x = 0, so the last row of a ragged chunk repeats the last real state, which is
stored as the final state after the loop. fp16 x and g (the gates sigmoid-bounded, in (0.8, 1)), fp32 state and
arithmetic, fp16 h. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_gated_scan_chunked_fwd",
    "signature": {"X": "*fp16", "G": "*fp16", "H": "*fp16", "H0": "*fp32", "HT": "*fp32", "T": "i32", "D": "i32",
                  "stride_b": "i32", "stride_t": "i32"},
    "constexprs": {"BT": 64, "BD": 64}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["X", "G", "H", "H0", "HT", "D", "stride_b", "stride_t"]}
PROBLEM: dict[str, int] = {"B": 8, "T": 8192, "D": 2048}
SMALL: dict[str, int] = {"B": 2, "T": 300, "D": 160}     # a ragged last chunk (300 = 4 * 64 + 44) and D block


@triton.jit
def _gated_scan_chunked_fwd(X, G, H, H0, HT, T, D, stride_b, stride_t, BT: tl.constexpr, BD: tl.constexpr):
    i_d, i_b = tl.program_id(0), tl.program_id(1)
    o_d = i_d * BD + tl.arange(0, BD)
    m_d = o_d < D
    o_t = tl.arange(0, BT)
    base = tl.cast(i_b, tl.int64) * stride_b
    b_h = tl.load(H0 + i_b * D + o_d, mask=m_d, other=0.0)
    for t0 in range(0, T, BT):
        rows = t0 + o_t
        m = (rows < T)[:, None] & m_d[None, :]
        offs = base + rows[:, None] * stride_t + o_d[None, :]
        b_x = tl.load(X + offs, mask=m, other=0.0).to(tl.float32)
        b_g = tl.load(G + offs, mask=m, other=1.0).to(tl.float32)
        b_a = tl.cumprod(b_g, axis=0)
        b_u = tl.cumsum(tl.math.div_rn(b_x, b_a), axis=0)
        b_hs = tl.math.fma(b_a, b_u, b_a * b_h[None, :])
        tl.store(H + offs, b_hs.to(H.dtype.element_ty), mask=m)
        b_h = tl.sum(tl.where(o_t[:, None] == BT - 1, b_hs, 0.0), axis=0)
    tl.store(HT + i_b * D + o_d, b_h, mask=m_d)


def make_inputs(B: int, T: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((B, T, D), device=device, generator=gen).half()
    g = torch.sigmoid(0.5 * torch.randn((B, T, D), device=device, generator=gen) + 3.0).half()
    h0 = torch.randn((B, D), device=device, generator=gen)
    return {"x": x, "g": g, "h0": h0}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(every state h fp16 [B, T, D], the final state fp32 [B, D])."""
    import torch
    x, g = inputs["x"], inputs["g"]
    B, T, D = x.shape
    h = torch.full_like(x, float("nan"))
    ht = torch.full((B, D), float("nan"), device=x.device, dtype=torch.float32)
    _gated_scan_chunked_fwd[(triton.cdiv(D, 64), B)](x, g, h, inputs["h0"], ht, T, D, x.stride(0), x.stride(1),
                                                     BT=64, BD=64, num_warps=config.get("num_warps", 4),
                                                     num_stages=config.get("num_stages", 3))
    return h, ht


def reference(inputs: dict[str, Any]) -> Any:
    """The recurrence step by step in double."""
    import torch
    x, g, h = inputs["x"].double(), inputs["g"].double(), inputs["h0"].double()
    out = torch.empty_like(x)
    for t in range(x.shape[1]):
        h = g[:, t] * h + x[:, t]
        out[:, t] = h
    return out, h


def flops(B: int, T: int, D: int) -> float:
    """The recurrence's multiply-add per element."""
    return 2.0 * B * T * D
