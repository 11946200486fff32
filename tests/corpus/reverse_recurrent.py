"""flash-linear-attention's fused recurrent backward (``fused_recurrent_bwd`` style, the dk/dv pass): per (batch,
head), time walked backwards (``for i_t in range(T - 1, -1, -1)``, a negative step), the state gradient dh
accumulated from the step's q and dO, dk and dv reduced from it and stored each step, then decayed by the step's gate.
Pointers computed from the reversed index. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "g": "*fp32", "do": "*fp16", "dk": "*fp16",
                  "dv": "*fp16", "T": "i32", "scale": "fp32"},
    "constexprs": {"K": 64, "V": 64}, "num_warps": 4, "num_stages": 2}
PROBLEM: dict[str, int] = {"BH": 1024, "T": 2048}
SMALL: dict[str, int] = {"BH": 8, "T": 33}
MORE_CHECKS = ({"BH": 4, "T": 1},)     # shorter than the pipeline's prologue: the unpipelined copy


@triton.jit
def fused_recurrent_bwd_dkv(q, k, v, g, do, dk, dv, T, scale, K: tl.constexpr, V: tl.constexpr):
    i_bh = tl.program_id(0)
    o_k = tl.arange(0, K)
    o_v = tl.arange(0, V)
    b_dh = tl.zeros([K, V], dtype=tl.float32)
    for i_t in range(T - 1, -1, -1):
        row = i_bh * T + i_t
        b_q = tl.load(q + row * K + o_k).to(tl.float32) * scale
        b_do = tl.load(do + row * V + o_v).to(tl.float32)
        b_dh += b_q[:, None] * b_do[None, :]
        b_k = tl.load(k + row * K + o_k).to(tl.float32)
        b_v = tl.load(v + row * V + o_v).to(tl.float32)
        b_dk = tl.sum(b_dh * b_v[None, :], 1)
        b_dv = tl.sum(b_dh * b_k[:, None], 0)
        tl.store(dk + row * K + o_k, b_dk.to(tl.float16))
        tl.store(dv + row * V + o_v, b_dv.to(tl.float16))
        b_dh *= tl.exp(tl.load(g + row * K + o_k))[:, None]


def make_inputs(BH: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    q, k, v, do = (torch.randn((BH, T, 64), device=device, dtype=torch.float32, generator=gen).to(torch.float16)
                   for _ in range(4))
    gate = torch.nn.functional.logsigmoid(torch.randn((BH, T, 64), device=device, dtype=torch.float32,
                                                      generator=gen)) / 16
    return {"q": q, "k": k, "v": v, "g": gate, "do": do}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """dk[t] = dh[t] v[t], dv[t] = dh[t]^T k[t], dh[t] = diag(exp(g[t+1])) dh[t+1] + (scale q[t])^T do[t]; fp16
    [BH, T, 64], returned as one [2, BH, T, 64] tensor."""
    import torch
    q, k, v, g, do = (inputs[n] for n in ("q", "k", "v", "g", "do"))
    BH, T, _ = q.shape
    out = torch.full((2, BH, T, 64), float("nan"), device=q.device, dtype=torch.float16)
    fused_recurrent_bwd_dkv[(BH,)](q, k, v, g, do, out[0], out[1], T, 64 ** -0.5, K=64, V=64,
                                   num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, g, do = (inputs[n].double() for n in ("q", "k", "v", "g", "do"))
    BH, T, _ = q.shape
    dh = torch.zeros((BH, 64, 64), device=q.device, dtype=torch.float64)
    dk, dv = torch.empty_like(k), torch.empty_like(v)
    for t in range(T - 1, -1, -1):
        dh = dh + (q[:, t] * 64 ** -0.5)[:, :, None] * do[:, t, None, :]
        dk[:, t] = torch.einsum("bkv,bv->bk", dh, v[:, t])
        dv[:, t] = torch.einsum("bkv,bk->bv", dh, k[:, t])
        dh = dh * g[:, t].exp()[:, :, None]
    return torch.stack([dk, dv])
