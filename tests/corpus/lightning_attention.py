"""Lightning Attention's forward (linear attention with a per-head exponential decay, as MiniMax's and OpenNLPLab's
Triton kernels write it): a loop over blocks of the sequence whose intra-block part is two dots through a decay
mask and whose inter-block part reads the running [d, e] state ``kv`` (a loop-carried fp32 tile cast to bf16 as a
dot operand), stores the block's output, and updates the state with a third dot. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_lightning_fwd",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "Out": "*bf16", "S": "*fp32", "n": "i32"},
    "constexprs": {"d": 64, "e": 64, "BLOCK": 64}, "num_warps": 4, "num_stages": 2, "divisibility": ["n"]}
PROBLEM: dict[str, int] = {"B": 16, "n": 8192}
SMALL: dict[str, int] = {"B": 2, "n": 208}
H = 8


@triton.jit
def _lightning_fwd(Q, K, V, Out, S, n, d: tl.constexpr, e: tl.constexpr, BLOCK: tl.constexpr):
    off_bh = tl.program_id(0)
    off_h = off_bh % 8
    qk_offset = off_bh * n * d
    v_offset = off_bh * n * e
    slope = tl.load(S + off_h).to(tl.float32)
    Q_block_ptr = Q + qk_offset + tl.arange(0, d)[None, :]
    K_trans_block_ptr = K + qk_offset + tl.arange(0, d)[:, None]
    V_block_ptr = V + v_offset + tl.arange(0, e)[None, :]
    O_block_ptr = Out + v_offset + tl.arange(0, e)[None, :]
    off_block = tl.arange(0, BLOCK)
    q_decay = tl.exp(-slope * off_block[:, None])
    k_trans_decay = tl.exp(-slope * (BLOCK - off_block[None, :]))
    block_decay = tl.exp(-slope * BLOCK)
    index = off_block[:, None] - off_block[None, :]
    diag_decay = tl.where(index >= 0, tl.exp(-slope * index), 0.0)
    kv = tl.zeros([d, e], dtype=tl.float32)
    for i in range(0, n, BLOCK):
        q = tl.load(Q_block_ptr + (i + off_block)[:, None] * d, mask=(i + off_block)[:, None] < n, other=0.0)
        k_trans = tl.load(K_trans_block_ptr + (i + off_block)[None, :] * d, mask=(i + off_block)[None, :] < n,
                          other=0.0)
        v = tl.load(V_block_ptr + (i + off_block)[:, None] * e, mask=(i + off_block)[:, None] < n, other=0.0)
        qk = tl.dot(q, k_trans) * diag_decay
        o_intra = tl.dot(qk.to(v.dtype), v)
        o_inter = tl.dot(q, kv.to(q.dtype)) * q_decay
        o = o_intra + o_inter
        tl.store(O_block_ptr + (i + off_block)[:, None] * e, o.to(O_block_ptr.dtype.element_ty),
                 mask=(i + off_block)[:, None] < n)
        kv = block_decay * kv + tl.dot((k_trans * k_trans_decay).to(v.dtype), v)


def make_inputs(B: int, n: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B * 8, n, 64] bf16 (scaled so the sums stay near one), the heads' slopes [8] fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = ((torch.randn((B * H, n, 64), device=device, generator=g) * 0.3).bfloat16() for _ in range(3))
    slopes = torch.tensor([2.0 ** (-8 * (h + 1) / H) for h in range(H)], device=device, dtype=torch.float32)
    return {"q": q, "k": k, "v": v, "s": slopes}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    BH, n, d = q.shape
    o = torch.empty_like(v)
    _lightning_fwd[(BH,)](q, k, v, o, inputs["s"], n, d=d, e=v.shape[2], BLOCK=64,
                          num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """o_t = sum over s <= t of exp(-slope (t - s)) (q_t . k_s) v_s, fp32, one head at a time."""
    import torch
    q, k, v, slopes = inputs["q"].float(), inputs["k"].float(), inputs["v"].float(), inputs["s"]
    BH, n, _ = q.shape
    t = torch.arange(n, device=q.device, dtype=torch.float32)
    diff = t[:, None] - t[None, :]
    out = torch.empty_like(v)
    for bh in range(BH):
        decay = torch.where(diff >= 0, torch.exp(-slopes[bh % H] * diff.clamp(min=0)), torch.zeros((), device=q.device))
        out[bh] = ((q[bh] @ k[bh].T) * decay) @ v[bh]
    return out
