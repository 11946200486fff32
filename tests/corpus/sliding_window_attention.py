"""Mistral-style causal sliding-window attention forward, the prefill kernel as the Triton attention kernels of
xformers / vLLM / LightLLM write it (pointer arithmetic, q [B, H, N, D]): one program per (query block, batch * head);
the key loop starts at the window's first block, ``lo = max(0, start_m * BLOCK_M - WINDOW)`` rounded **down** to a
multiple of BLOCK_N, and stops at the causal bound ``hi = min((start_m + 1) * BLOCK_M, N_CTX)``: **both loop bounds
are runtime values of the program id and of WINDOW** (a runtime i32 argument, Mistral's 4096); per block the mask
``(offs_m[:, None] >= offs_n[None, :]) & (offs_m[:, None] - offs_n[None, :] < WINDOW)`` and the sequence tail,
applied as the tutorial does (``qk * qk_scale + tl.where(mask, 0, -1.0e6)``, so a row whose first blocks lie wholly
outside its window carries a finite maximum that the first in-window block resets through ``alpha``); online
softmax in base 2 (``tl.math.exp2``); lse (natural log) stored beside o. fp16, D = 128, BLOCK_M = 128,
BLOCK_N = 64, 8 warps, 2 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

D, BLOCK_M, BLOCK_N = 128, 128, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_sliding_window_kernel",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "Out": "*fp16", "Lse": "*fp32", "sm_scale": "fp32",
                  "N_CTX": "i32", "WINDOW": "i32", "H": "i32",
                  "stride_z": "i32", "stride_h": "i32", "stride_n": "i32",
                  "HEAD_DIM": "constexpr", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"},
    "constexprs": {"HEAD_DIM": D, "BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["Q", "K", "V", "Out", "Lse", "N_CTX", "stride_z", "stride_h", "stride_n"]}
PROBLEM: dict[str, int] = {"B": 2, "H": 32, "N": 16384, "WINDOW": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 330, "WINDOW": 100}


@triton.jit
def _fwd_sliding_window_kernel(Q, K, V, Out, Lse, sm_scale, N_CTX, WINDOW, H, stride_z, stride_h, stride_n,
                               HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    base = off_z.to(tl.int64) * stride_z + off_h.to(tl.int64) * stride_h

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    mask_m = offs_m < N_CTX

    q = tl.load(Q + base + offs_m[:, None] * stride_n + offs_d[None, :], mask=mask_m[:, None], other=0.0)
    k_ptrs = K + base + offs_n[None, :] * stride_n + offs_d[:, None]      # k^T [HEAD_DIM, BLOCK_N]
    v_ptrs = V + base + offs_n[:, None] * stride_n + offs_d[None, :]

    qk_scale = sm_scale * 1.44269504
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    lo = tl.maximum(0, start_m * BLOCK_M - WINDOW)
    lo = (lo // BLOCK_N) * BLOCK_N
    lo = tl.multiple_of(lo, BLOCK_N)
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cur_n = start_n + offs_n
        k = tl.load(k_ptrs + start_n * stride_n, mask=(cur_n < N_CTX)[None, :], other=0.0)
        qk = tl.dot(q, k)
        mask = (offs_m[:, None] >= cur_n[None, :]) & (offs_m[:, None] - cur_n[None, :] < WINDOW) \
            & (cur_n[None, :] < N_CTX)
        qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk -= m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * stride_n, mask=(cur_n < N_CTX)[:, None], other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij

    acc = acc / l_i[:, None]
    lse = (m_i + tl.math.log2(l_i)) / 1.44269504
    tl.store(Lse + off_hz.to(tl.int64) * N_CTX + offs_m, lse, mask=mask_m)
    tl.store(Out + base + offs_m[:, None] * stride_n + offs_d[None, :], acc.to(Out.dtype.element_ty),
             mask=mask_m[:, None])


def make_inputs(B: int, H: int, N: int, WINDOW: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, H, N, 128] fp16, sm_scale = 1 / sqrt(128), the window (keys i - WINDOW < j <= i)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((B, H, N, D), device=device, dtype=torch.float32, generator=g).half() for _ in range(3))
    return {"q": q, "k": k, "v": v, "sm_scale": D ** -0.5, "window": WINDOW}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[o flattened, lse flattened] fp32."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N, _ = q.shape
    o = torch.empty_like(q)
    lse = torch.empty((B, H, N), device=q.device, dtype=torch.float32)
    grid = (triton.cdiv(N, BLOCK_M), B * H)
    _fwd_sliding_window_kernel[grid](q, k, v, o, lse, inputs["sm_scale"], N, inputs["window"], H,
                                     q.stride(0), q.stride(1), q.stride(2), HEAD_DIM=D, BLOCK_M=BLOCK_M,
                                     BLOCK_N=BLOCK_N, num_warps=config.get("num_warps", 8),
                                     num_stages=config.get("num_stages", 2))
    return torch.cat([o.float().flatten(), lse.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n] for n in ("q", "k", "v"))
    n, w = q.shape[2], inputs["window"]
    i = torch.arange(n, device=q.device)
    allowed = (i[:, None] >= i[None, :]) & (i[:, None] - i[None, :] < w)
    o = torch.empty(q.shape, dtype=torch.float64, device=q.device)
    lse = torch.empty(q.shape[:3], dtype=torch.float64, device=q.device)
    for b in range(q.shape[0]):          # one head at a time: the scores of all at N = 16k take 137 GB in fp64
        for h in range(q.shape[1]):
            s = (q[b, h].double() @ k[b, h].double().T * inputs["sm_scale"]).masked_fill(~allowed, float("-inf"))
            lse[b, h] = torch.logsumexp(s, -1)
            o[b, h] = torch.softmax(s, -1) @ v[b, h].double()
    return torch.cat([o.half().double().flatten(), lse.flatten()])


def flops(B: int, H: int, N: int, WINDOW: int) -> float:
    """4 * D per (query, key) pair the window admits."""
    pairs = sum(min(i + 1, WINDOW) for i in range(N))
    return 4.0 * B * H * pairs * D
