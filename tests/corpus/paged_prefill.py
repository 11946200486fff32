"""Prefix-prefill attention over a paged KV cache, in the style of vLLM's ``prefix_prefill`` kernel: each key block's
cache block numbers loaded from the block table inside the loop (``bn = tl.load(B_Loc + ...)``) and the keys and
values gathered through them."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"Q": "*fp16", "K_cache": "*fp16", "V_cache": "*fp16", "B_Loc": "*i32", "O": "*fp16",
                  "ctx_len": "i32", "sm_scale": "fp32", "stride_qt": "i32", "stride_kb": "i32",
                  "stride_bloc": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 64, "D": 128, "PAGE": 16}, "num_warps": 8, "num_stages": 2,
    "divisibility": ["stride_qt", "stride_kb", "stride_bloc", "ctx_len"]}
PROBLEM: dict[str, int] = {"B": 8, "Q": 1024, "C": 4096}
SMALL: dict[str, int] = {"B": 2, "Q": 128, "C": 256}


@triton.jit
def paged_prefill(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr, PAGE: tl.constexpr):
    start_m = tl.program_id(0)
    b = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + (b * tl.num_programs(0) * BLOCK_M + offs_m[:, None]) * stride_qt + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    for start_n in range(0, ctx_len, BLOCK_N):
        bn = tl.load(B_Loc + b * stride_bloc + (start_n + offs_n) // PAGE)
        slot = bn * PAGE + (start_n + offs_n) % PAGE
        k = tl.load(K_cache + slot[None, :] * stride_kb + offs_d[:, None])
        qk = tl.dot(q, k) * sm_scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V_cache + slot[:, None] * stride_kb + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(O + (b * tl.num_programs(0) * BLOCK_M + offs_m[:, None]) * stride_qt + offs_d[None, :],
             (acc / l_i[:, None]).to(tl.float16))


def make_inputs(B: int, Q: int, C: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    pages = B * C // 16
    return {"q": torch.randn((B, Q, 128), device=device, dtype=torch.float16, generator=g),
            "k_cache": torch.randn((pages * 16, 128), device=device, dtype=torch.float16, generator=g),
            "v_cache": torch.randn((pages * 16, 128), device=device, dtype=torch.float16, generator=g),
            "block_table": torch.randperm(pages, device=device, generator=g).to(torch.int32).view(B, C // 16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Each sequence's queries over its context in the paged cache: softmax(Q K^T / sqrt(D)) V, fp16 [B, Q, 128]."""
    import torch
    q, bt = inputs["q"], inputs["block_table"]
    B, Qn, D = q.shape
    o = torch.full_like(q, float("nan"))
    paged_prefill[(Qn // 128, B)](q, inputs["k_cache"], inputs["v_cache"], bt, o, bt.shape[1] * 16, D ** -0.5,
                                  q.stride(1), inputs["k_cache"].stride(0), bt.stride(0),
                                  BLOCK_M=128, BLOCK_N=64, D=128, PAGE=16, num_warps=config.get("num_warps", 8),
                                  num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, bt = inputs["q"].double(), inputs["block_table"].long()
    slots = (bt[:, :, None] * 16 + torch.arange(16, device=bt.device)).flatten(1)     # [B, C]
    k, v = inputs["k_cache"].double()[slots], inputs["v_cache"].double()[slots]          # [B, C, D]
    p = torch.softmax(q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5, dim=-1)
    return p @ v


def flops(B: int, Q: int, C: int) -> float:
    return 4.0 * B * Q * C * 128
