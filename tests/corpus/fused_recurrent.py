"""flash-linear-attention's fused recurrent gated linear attention forward (``fused_recurrent_gla_fwd`` style): per
(batch, head), a K x V state decayed by the step's gate and updated by the outer product of the step's key and value,
the step's output ``sum_k q[k] h[k, :]`` stored inside the loop, the five pointers advanced every step. A loop of
vector loads, a 2-D carried state and a store per iteration, no dot. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "g": "*fp32", "o": "*fp16", "T": "i32", "scale": "fp32"},
    "constexprs": {"K": 64, "V": 64}, "num_warps": 4, "num_stages": 2, "divisibility": ["T"]}
PROBLEM: dict[str, int] = {"BH": 1024, "T": 2048}
SMALL: dict[str, int] = {"BH": 8, "T": 33}


@triton.jit
def fused_recurrent_fwd(q, k, v, g, o, T, scale, K: tl.constexpr, V: tl.constexpr):
    i_bh = tl.program_id(0)
    o_k = tl.arange(0, K)
    o_v = tl.arange(0, V)
    p_q = q + i_bh * T * K + o_k
    p_k = k + i_bh * T * K + o_k
    p_v = v + i_bh * T * V + o_v
    p_g = g + i_bh * T * K + o_k
    p_o = o + i_bh * T * V + o_v
    b_h = tl.zeros([K, V], dtype=tl.float32)
    for _ in range(0, T):
        b_q = tl.load(p_q).to(tl.float32) * scale
        b_k = tl.load(p_k).to(tl.float32)
        b_v = tl.load(p_v).to(tl.float32)
        b_g = tl.load(p_g)
        b_h = b_h * tl.exp(b_g)[:, None] + b_k[:, None] * b_v[None, :]
        b_o = tl.sum(b_h * b_q[:, None], 0)
        tl.store(p_o, b_o.to(tl.float16))
        p_q += K
        p_k += K
        p_v += V
        p_g += K
        p_o += V


def make_inputs(BH: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((BH, T, 64), device=device, dtype=torch.float32, generator=g).to(torch.float16)
               for _ in range(3))
    gate = torch.nn.functional.logsigmoid(torch.randn((BH, T, 64), device=device, dtype=torch.float32, generator=g)) / 16
    return {"q": q, "k": k, "v": v, "g": gate}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o[t] = (scale q[t]) @ h[t], h[t] = diag(exp(g[t])) h[t-1] + k[t]^T v[t]; fp16 [BH, T, 64]."""
    import torch
    q, k, v, g = inputs["q"], inputs["k"], inputs["v"], inputs["g"]
    BH, T, _ = q.shape
    o = torch.empty_like(v)
    fused_recurrent_fwd[(BH,)](q, k, v, g, o, T, 64 ** -0.5, K=64, V=64, num_warps=config.get("num_warps", 4),
                               num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, g = (inputs[n].double() for n in ("q", "k", "v", "g"))
    h = torch.zeros((q.shape[0], 64, 64), device=q.device, dtype=torch.float64)
    out = []
    for t in range(q.shape[1]):
        h = h * g[:, t].exp()[:, :, None] + k[:, t, :, None] * v[:, t, None, :]
        out.append(torch.einsum("bk,bkv->bv", q[:, t] * 64 ** -0.5, h))
    return torch.stack(out, dim=1)
