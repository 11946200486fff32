"""One step of ring (context-parallel) attention with the merge fused in, as the Triton ring/striped-attention
kernels of ring-flash-attention / EasyContext / xDiT write the step after ``send_recv`` has delivered a peer's KV
chunk: ring-flash-attention's ``_update_out_and_lse`` (``out = out - sigmoid(block_lse - lse) * (out - block_out)``,
``lse = lse - logsigmoid(lse - block_lse)``), done in torch there, fused into the flash-attention forward's
epilogue here. One program per (query block of the local chunk, batch * head); q [B, H, N_Q, D] and the received
k / v [B, H, N_KV, D] in bf16; an off-diagonal step (the peer's keys all precede the local queries: **no mask**
but the KV chunk's tail), the loop ``for start_n in range(0, N_KV, BLOCK_N)`` a plain flash-attention forward in
base 2 (``tl.math.exp2``, ``qk_scale = sm_scale * log2(e)``); **after the loop** the block's natural-log lse
(``(m_i + log2(l_i)) * ln2``), the running fp32 partial ``Out`` [B, H, N_Q, D] and ``Lse`` [B, H, N_Q] of the
steps before **loaded and merged in place**: the sigmoid form, a stable ``logsigmoid`` (``min(x, 0) -
log(1 + exp(-|x|))``), a first step's ``Lse = -inf`` giving the block's own result; the merged out (fp32, as ring
attention keeps it between steps) and lse stored back to the same addresses. D = 128, BLOCK_M = 128, BLOCK_N = 64,
8 warps, 3 stages (the tutorial's Hopper config). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

D, BLOCK_M, BLOCK_N = 128, 128, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_ring_attn_fwd_step_kernel",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "Out": "*fp32", "Lse": "*fp32", "sm_scale": "fp32",
                  "N_Q": "i32", "N_KV": "i32", "stride_qh": "i32", "stride_qn": "i32", "stride_kh": "i32",
                  "stride_kn": "i32", "stride_oh": "i32", "stride_on": "i32",
                  "HEAD_DIM": "constexpr", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"},
    "constexprs": {"HEAD_DIM": D, "BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["Q", "K", "V", "Out", "Lse", "N_Q", "N_KV", "stride_qh", "stride_qn", "stride_kh", "stride_kn",
                     "stride_oh", "stride_on"]}
PROBLEM: dict[str, int] = {"B": 1, "H": 32, "N_Q": 16384, "N_KV": 16384}   # 128k context over 8 ranks
SMALL: dict[str, int] = {"B": 1, "H": 3, "N_Q": 200, "N_KV": 150}


@triton.jit
def _ring_attn_fwd_step_kernel(Q, K, V, Out, Lse, sm_scale, N_Q, N_KV,
                               stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on,
                               HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_bh = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    mask_m = offs_m < N_Q

    q_ptrs = Q + off_bh.to(tl.int64) * stride_qh + offs_m[:, None] * stride_qn + offs_d[None, :]
    k_ptrs = K + off_bh.to(tl.int64) * stride_kh + offs_n[None, :] * stride_kn + offs_d[:, None]
    v_ptrs = V + off_bh.to(tl.int64) * stride_kh + offs_n[:, None] * stride_kn + offs_d[None, :]
    q = tl.load(q_ptrs, mask=mask_m[:, None], other=0.0)

    qk_scale = sm_scale * 1.44269504089
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    for start_n in range(0, N_KV, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        mask_n = (start_n + offs_n) < N_KV
        k = tl.load(k_ptrs + start_n * stride_kn, mask=mask_n[None, :], other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(mask_n[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * stride_kn, mask=mask_n[:, None], other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij

    # this step's partial result
    block_out = acc / l_i[:, None]
    block_lse = (m_i + tl.math.log2(l_i)) * 0.69314718056

    # ring-flash-attention's _update_out_and_lse, in place
    lse_ptrs = Lse + off_bh.to(tl.int64) * N_Q + offs_m
    o_ptrs = Out + off_bh.to(tl.int64) * stride_oh + offs_m[:, None] * stride_on + offs_d[None, :]
    lse = tl.load(lse_ptrs, mask=mask_m, other=0.0)
    out = tl.load(o_ptrs, mask=mask_m[:, None], other=0.0)
    x = lse - block_lse
    sig = 1.0 / (1.0 + tl.exp(x))                                  # sigmoid(block_lse - lse)
    out = out - sig[:, None] * (out - block_out)
    logsig = tl.minimum(x, 0.0) - tl.log(1.0 + tl.exp(-tl.abs(x)))   # logsigmoid(lse - block_lse)
    new_lse = tl.where(lse == float("-inf"), block_lse, lse - logsig)
    tl.store(o_ptrs, out, mask=mask_m[:, None])
    tl.store(lse_ptrs, new_lse, mask=mask_m)


def make_inputs(B: int, H: int, N_Q: int, N_KV: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q [B, H, N_Q, 128], k / v [B, H, N_KV, 128] bf16, sm_scale = 1 / sqrt(128); the previous steps' partial out
    [B, H, N_Q, 128] fp32 and lse [B, H, N_Q] fp32 (lse spread around log(N_KV) as earlier chunks give), with the
    first head at -inf (its first step: the merge must yield the block's own result)."""
    import math

    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, N_Q, D), device=device, dtype=torch.float32, generator=g).bfloat16()
    k = torch.randn((B, H, N_KV, D), device=device, dtype=torch.float32, generator=g).bfloat16()
    v = torch.randn((B, H, N_KV, D), device=device, dtype=torch.float32, generator=g).bfloat16()
    out = 0.1 * torch.randn((B, H, N_Q, D), device=device, dtype=torch.float32, generator=g)
    lse = math.log(N_KV) + torch.randn((B, H, N_Q), device=device, dtype=torch.float32, generator=g)
    lse[:, 0] = float("-inf")
    out[:, 0] = 0.0
    return {"q": q, "k": k, "v": v, "out": out, "lse": lse, "sm_scale": D ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[merged out flattened, merged lse flattened] fp32 (on copies of the partials: a run leaves inputs as made)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N_Q, _ = q.shape
    N_KV = k.shape[2]
    out, lse = inputs["out"].clone(), inputs["lse"].clone()
    grid = (triton.cdiv(N_Q, BLOCK_M), B * H)
    _ring_attn_fwd_step_kernel[grid](q, k, v, out, lse, inputs["sm_scale"], N_Q, N_KV, q.stride(1), q.stride(2),
                                     k.stride(1), k.stride(2), out.stride(1), out.stride(2), HEAD_DIM=D,
                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=config.get("num_warps", 8),
                                     num_stages=config.get("num_stages", 3))
    return torch.cat([out.flatten(), lse.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    """The block's attention in float64 (one head at a time), merged by logaddexp with the previous partials."""
    import torch
    q, k, v, out, lse = (inputs[n] for n in ("q", "k", "v", "out", "lse"))
    B, H = q.shape[:2]
    o_new = torch.empty(out.shape, dtype=torch.float64, device=q.device)
    lse_new = torch.empty(lse.shape, dtype=torch.float64, device=q.device)
    for b in range(B):
        for h in range(H):
            s = q[b, h].double() @ k[b, h].double().T * inputs["sm_scale"]
            blse = torch.logsumexp(s, -1)
            bout = torch.softmax(s, -1) @ v[b, h].double()
            merged = torch.logaddexp(lse[b, h].double(), blse)
            o_new[b, h] = (torch.exp(lse[b, h].double() - merged)[:, None] * out[b, h].double()
                           + torch.exp(blse - merged)[:, None] * bout)
            lse_new[b, h] = merged
    return torch.cat([o_new.flatten(), lse_new.flatten()])


def flops(B: int, H: int, N_Q: int, N_KV: int) -> float:
    return 4.0 * B * H * N_Q * N_KV * D
