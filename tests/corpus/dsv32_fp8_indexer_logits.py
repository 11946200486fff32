"""DeepSeek-V3.2's lightning-indexer logits (DSA token selection, I[t, s] = sum_j w[t, j] * ReLU(q[t, j] . k[s])) as
the public Triton FP8 renditions write it (prime-rl's ``_triton_fp8_indexer_kernel``, after DeepGEMM's
``fp8_mqa_logits``): one program per (query block, key block); the query tokens' sequence bounds ``ks`` / ``ke``
loaded first and an early ``return`` storing -inf for a key block outside every row's [ks, ke) (an ``or`` of two
scalar compares); fp8 (e4m3) loads without masks (indices clamped by ``tl.minimum(offs, S - 1)``, as fp8 loads take
no ``other``); the key block [BLOCK_N, D] and its per-key fp32 scale loaded once before the loop; the loop
``for h in range(H)`` over the H = 64 index heads (constexpr trip count) loading q_h [BLOCK_M, D] fp8 (q laid out
[H, S, D]) and the per-head weight column w[:, h] (fp32, q's per-token scale folded in), ``tl.dot(q_h,
tl.trans(k_block))`` (fp8 x fp8 -> fp32: wgmma with a K-major B), relu, times the key scale, times the weight,
summed into a carried fp32 [BLOCK_M, BLOCK_N] tile; after the loop the causal / varlen ``tl.where`` to -inf and an
int64-offset masked store. D = 128, BLOCK_M = 64, BLOCK_N = 128, 8 warps, 3 stages. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H, D = 64, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_triton_fp8_indexer_kernel",
    "signature": {"Q_fp8": "*fp8e4nv", "K_fp8": "*fp8e4nv", "K_scales": "*fp32", "W": "*fp32", "Out": "*fp32",
                  "KS": "*i32", "KE": "*i32", "S": "i32", "stride_qh": "i32", "stride_qs": "i32",
                  "stride_ks": "i32", "stride_ws": "i32"},
    "constexprs": {"H": H, "D": D, "BLOCK_M": 64, "BLOCK_N": 128},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["Q_fp8", "K_fp8", "K_scales", "W", "Out", "KS", "KE", "S", "stride_qh", "stride_qs",
                     "stride_ks", "stride_ws"]}
PROBLEM: dict[str, int] = {"S": 8192}
SMALL: dict[str, int] = {"S": 200}


@triton.jit
def _triton_fp8_indexer_kernel(
    Q_fp8,
    K_fp8,
    K_scales,
    W,
    Out,
    KS,
    KE,
    S,
    stride_qh,
    stride_qs,
    stride_ks,
    stride_ws,
    H: tl.constexpr,
    D: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)

    mask_m = offs_m < S
    mask_n = offs_n < S

    ks_vals = tl.load(KS + offs_m, mask=mask_m, other=S)
    ke_vals = tl.load(KE + offs_m, mask=mask_m, other=0)

    offs_m_64 = offs_m.to(tl.int64)
    offs_n_64 = offs_n.to(tl.int64)
    out_ptrs = Out + offs_m_64[:, None] * S + offs_n_64[None, :]
    out_mask = mask_m[:, None] & mask_n[None, :]

    ks_min = tl.min(ks_vals)
    ke_max = tl.max(ke_vals)
    n_lo = pid_n * BLOCK_N

    if n_lo >= ke_max or n_lo + BLOCK_N <= ks_min:
        tl.store(out_ptrs, tl.full([BLOCK_M, BLOCK_N], float("-inf"), tl.float32), mask=out_mask)
        return

    # fp8 loads take no `other`: clamp the indices instead of masking
    offs_n_safe = tl.minimum(offs_n, S - 1)
    offs_m_safe = tl.minimum(offs_m, S - 1)

    k_block = tl.load(K_fp8 + offs_n_safe[:, None] * stride_ks + offs_d[None, :])
    k_sc = tl.load(K_scales + offs_n_safe, mask=mask_n, other=0.0).to(tl.float32)

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)

    for h in range(H):
        q_h = tl.load(Q_fp8 + h * stride_qh + offs_m_safe[:, None] * stride_qs + offs_d[None, :])
        w_h = tl.load(W + offs_m * stride_ws + h, mask=mask_m, other=0.0).to(tl.float32)

        scores = tl.dot(q_h, tl.trans(k_block)).to(tl.float32)
        scores = tl.maximum(scores, 0.0) * k_sc[None, :]
        acc += scores * w_h[:, None]

    valid = (offs_n[None, :] >= ks_vals[:, None]) & (offs_n[None, :] < ke_vals[:, None])
    acc = tl.where(valid, acc, float("-inf"))

    tl.store(out_ptrs, acc, mask=out_mask)


def make_inputs(S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """S packed tokens of two sequences (split at S // 3): q [H, S, D] and k [S, D] e4m3 (unit-scale randn), per-key
    fp32 scales, per-(token, head) fp32 weights; ks = the token's sequence start, ke = its position + 1 (causal)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((H, S, D), device=device, generator=g).to(torch.float8_e4m3fn)
    k = torch.randn((S, D), device=device, generator=g).to(torch.float8_e4m3fn)
    k_scales = torch.rand((S,), device=device, generator=g) * 0.02 + 0.005
    w = torch.randn((S, H), device=device, generator=g) * 0.1
    cut = S // 3
    pos = torch.arange(S, device=device)
    ks = torch.where(pos < cut, 0, cut).to(torch.int32)
    ke = (pos + 1).to(torch.int32)
    return {"q": q, "k": k, "k_scales": k_scales, "w": w, "ks": ks, "ke": ke}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[logits with -inf set to 0, the -inf flags], fp32 [2, S, S]."""
    import torch
    q, k, w = inputs["q"], inputs["k"], inputs["w"]
    S = k.shape[0]
    logits = torch.empty((S, S), dtype=torch.float32, device=k.device)
    grid = (triton.cdiv(S, 64), triton.cdiv(S, 128))
    _triton_fp8_indexer_kernel[grid](q, k, inputs["k_scales"], w, logits, inputs["ks"], inputs["ke"], S,
                                     q.stride(0), q.stride(1), k.stride(0), w.stride(0), H=H, D=D, BLOCK_M=64,
                                     BLOCK_N=128, num_warps=config.get("num_warps", 8),
                                     num_stages=config.get("num_stages", 3))
    neg = torch.isneginf(logits)
    return torch.stack([torch.where(neg, 0.0, logits), neg.float()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q = inputs["q"].double()                      # [H, S, D]
    k = inputs["k"].double()                      # [S, D]
    S = k.shape[0]
    scores = torch.relu(torch.einsum("hsd,td->hst", q, k)) * inputs["k_scales"].double()[None, None, :]
    logits = (scores * inputs["w"].double().t()[:, :, None]).sum(0)
    pos = torch.arange(S, device=k.device)
    valid = (pos[None, :] >= inputs["ks"].long()[:, None]) & (pos[None, :] < inputs["ke"].long()[:, None])
    return torch.stack([torch.where(valid, logits, 0.0), (~valid).double()])


def flops(S: int) -> float:
    return 2.0 * S * S * H * D
