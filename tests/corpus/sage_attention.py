"""SageAttention-style attention (the Triton tutorial fork's `_attn_fwd`): Q and K quantised to int8 per block,
their scales loaded beside them (K's once per iteration, a scalar through a pointer the loop advances), QK^T an int8
dot to int32 converted and rescaled, exp2 on scores already in the log2 domain, and the PV product accumulated in
fp16 (``tl.dot(p, v, out_dtype=tl.float16)``) then added to the fp32 accumulator. Pointer loads with strides passed
as arguments. Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_sage_fwd",
    "signature": {"Q": "*i8", "K": "*i8", "V": "*fp16", "Qs": "*fp32", "Ks": "*fp32", "O": "*fp16",
                  "stride_qn": "i32", "stride_kn": "i32", "stride_vn": "i32", "stride_on": "i32", "N": "i32"},
    "constexprs": {"D": 128, "BLOCK_M": 128, "BLOCK_N": 64}, "num_warps": 8, "num_stages": 4,
    "divisibility": ["N", "stride_qn", "stride_kn", "stride_vn", "stride_on"]}
PROBLEM: dict[str, int] = {"BH": 128, "N": 4096}
SMALL: dict[str, int] = {"BH": 2, "N": 320}
VALIDATE_TOL = 3e-2      # int8 Q and K (the reference dequantises the same int8 values), P and PV's sum in fp16


@triton.jit
def _sage_fwd(Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N,
              D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, D)
    q_ptrs = Q + bh * N * stride_qn + offs_m[:, None] * stride_qn + offs_k[None, :]
    k_ptrs = K + bh * N * stride_kn + offs_n[None, :] * stride_kn + offs_k[:, None]
    v_ptrs = V + bh * N * stride_vn + offs_n[:, None] * stride_vn + offs_k[None, :]
    ks_ptr = Ks + bh * tl.cdiv(N, BLOCK_N)
    q_scale = tl.load(Qs + bh * tl.cdiv(N, BLOCK_M) + start_m)
    q = tl.load(q_ptrs, mask=offs_m[:, None] < N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start_n in range(0, N, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(k_ptrs, mask=offs_n[None, :] < (N - start_n))
        k_scale = tl.load(ks_ptr)
        qk = tl.dot(q, k).to(tl.float32) * q_scale * k_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk = qk - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs, mask=offs_n[:, None] < (N - start_n))
        p = p.to(tl.float16)
        acc += tl.dot(p, v, out_dtype=tl.float16)
        m_i = m_ij
        k_ptrs += BLOCK_N * stride_kn
        ks_ptr += 1
        v_ptrs += BLOCK_N * stride_vn
    acc = acc / l_i[:, None]
    o_ptrs = O + bh * N * stride_on + offs_m[:, None] * stride_on + offs_k[None, :]
    tl.store(o_ptrs, acc.to(O.type.element_ty), mask=offs_m[:, None] < N)


def _quantise(x: Any, block: int, scale: float) -> tuple[Any, Any]:
    """x [BH, N, D] -> int8 [BH, N, D] and one fp32 scale per ``block`` rows [BH, cdiv(N, block)]."""
    import torch
    BH, N, D = x.shape
    nb = (N + block - 1) // block
    xp = torch.zeros((BH, nb * block, D), device=x.device, dtype=torch.float32)
    xp[:, :N] = x.float() * scale
    blocks = xp.view(BH, nb, block, D)
    s = blocks.abs().amax(dim=(2, 3)).clamp_min(1e-8) / 127.0
    qx = torch.round(blocks / s[:, :, None, None]).clamp(-127, 127).to(torch.int8).view(BH, nb * block, D)[:, :N]
    return qx.contiguous(), s.contiguous()


def make_inputs(BH: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [BH, N, 128] fp16 (std 0.5); q and k quantised as SageAttention does (q's scale carrying
    sm_scale * log2 e)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = ((torch.randn((BH, N, 128), device=device, generator=g) * 0.5).half() for _ in range(3))
    qi, qs = _quantise(q, 128, 1.0 / math.sqrt(128) * 1.44269504)
    ki, ks = _quantise(k, 64, 1.0)
    return {"q": qi, "qs": qs, "k": ki, "ks": ks, "v": v}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    BH, N, D = q.shape
    o = torch.empty((BH, N, D), device=q.device, dtype=torch.float16)
    _sage_fwd[(triton.cdiv(N, 128), BH)](q, k, v, inputs["qs"], inputs["ks"], o, q.stride(1), k.stride(1),
                                         v.stride(1), o.stride(1), N, D=D, BLOCK_M=128, BLOCK_N=64,
                                         num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 4))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """The int8 values dequantised, scores in the log2 domain, softmax, fp32; one (batch, head) at a time."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    BH, N, _ = q.shape
    qd = q.float() * inputs["qs"].repeat_interleave(128, dim=1)[:, :N, None]
    kd = k.float() * inputs["ks"].repeat_interleave(64, dim=1)[:, :N, None]
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    for bh in range(BH):
        s = qd[bh] @ kd[bh].T * math.log(2.0)
        out[bh] = torch.softmax(s, dim=-1) @ v[bh].float()
    return out


def flops(BH: int, N: int) -> float:
    return 4.0 * BH * N * N * 128
