"""Block-sparse attention forward that skips key blocks by a flag, as block-sparse and MoBA-style kernels do: each
(query block, key block) pair has a byte in a block mask, and the loop's whole body (the K and V loads, both dots,
the online softmax) sits inside ``if tl.load(mask) != 0:`` (an ``scf.if`` holding the dots, which Triton does not
pipeline). Pointer loads, D = 64. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "Mask": "*i8", "N": "i32",
                  "sm_scale": "fp32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 64, "D": 64}, "num_warps": 8, "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 32, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 512}
DENSITY = 0.5                 # the fraction of key blocks each query block attends to (the diagonal always)


@triton.jit
def block_mask_attn(Q, K, V, O, Mask, N, sm_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    base = bh * N * D
    n_blocks = N // BLOCK_N
    mask_row = Mask + (bh * tl.num_programs(0) + pid) * n_blocks
    q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N, BLOCK_N):
        if tl.load(mask_row + start_n // BLOCK_N) != 0:
            k = tl.load(K + base + (start_n + offs_n)[:, None] * D + offs_d[None, :])
            v = tl.load(V + base + (start_n + offs_n)[:, None] * D + offs_d[None, :])
            s = tl.dot(q, tl.trans(k)) * qk_scale
            m_new = tl.maximum(m_i, tl.max(s, 1))
            p = tl.math.exp2(s - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
            m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * D + offs_d[None, :], acc.to(tl.float16))


def _mask(B: int, H: int, N: int, device: str, g: Any) -> Any:
    import torch
    nm, nn = N // 128, N // 64
    keep = torch.rand((B * H, nm, nn), device=device, generator=g) < DENSITY
    diag = torch.arange(nm, device=device)[:, None] == (torch.arange(nn, device=device)[None, :] // 2)
    return (keep | diag[None]).to(torch.int8)


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    shape = (B, H, N, 64)
    out = {name: torch.randn(shape, device=device, dtype=torch.float16, generator=g) for name in ("q", "k", "v")}
    out["mask"] = _mask(B, H, N, device, g)
    return out


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """softmax(Q K^T / sqrt(D)) V over the key blocks the mask keeps, fp16 [B, H, N, 64], one program per
    (128 query rows, head)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N, D = q.shape
    o = torch.full_like(q, float("nan"))
    block_mask_attn[(N // 128, B * H)](q, k, v, o, inputs["mask"], N, D ** -0.5, BLOCK_M=128, BLOCK_N=64, D=64,
                                       num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    B, H, N, D = q.shape
    keep = inputs["mask"].bool().view(B, H, N // 128, N // 64)
    keep = keep.repeat_interleave(128, dim=2).repeat_interleave(64, dim=3)
    s = (q @ k.transpose(-1, -2) * D ** -0.5).masked_fill(~keep, float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def flops(B: int, H: int, N: int) -> float:
    """The dense problem's (what a dense kernel computes): 4 B H N^2 D; the kept blocks do about DENSITY of it."""
    return 4.0 * B * H * N * N * 64
