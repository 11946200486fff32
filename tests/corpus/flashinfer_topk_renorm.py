"""FlashInfer's ``top_k_renorm_probs`` (flashinfer/sampling.py; CUDA in include/flashinfer/sampling.cuh) as the Triton
fallbacks of LLM servers write it: one program per request's row of vocabulary probabilities, the top-k threshold
found by **bisection** over the probability range, the row renormalised over the kept entries.

The constructs: ``k`` per row loaded from ``top_k_arr`` (an int32 per request) when given, else the scalar
``top_k_val`` (a ``@triton.heuristics`` flag, ``HAS_TOP_K_ARR``); **four loops over the 152k-entry vocabulary**: the
row's maximum (``tl.max`` carried as a scalar), then a **fixed-count bisection loop** (``for _ in range(NUM_ITERS)``,
two fp32 scalars ``low`` / ``high`` carried) whose body is a vocabulary loop counting the entries above the midpoint
(``tl.sum((x > mid).to(tl.int32))``) followed by a scalar ``tl.where`` choosing the half, then a loop summing the kept
entries (``x > low``) and a loop writing ``tl.where(x > low, x / sum, 0)``; every block masked by ``offs <
vocab_size``. fp32 probabilities, Qwen2's 151,936 tokens. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "top_k_renorm_probs_kernel",
    "signature": {"probs_ptr": "*fp32", "renorm_ptr": "*fp32", "top_k_arr": "*i32", "top_k_val": "i32",
                  "stride": "i32", "vocab_size": "i32"},
    "constexprs": {"HAS_TOP_K_ARR": True, "BLOCK_SIZE": 4096, "NUM_ITERS": 32},
    "num_warps": 16, "num_stages": 2,
    "divisibility": ["probs_ptr", "renorm_ptr", "top_k_arr", "stride"]}
# a decode batch of 64 requests over Qwen2's vocabulary
PROBLEM: dict[str, int] = {"B": 64, "V": 151936}
SMALL: dict[str, int] = {"B": 5, "V": 10000}


@triton.heuristics({"HAS_TOP_K_ARR": lambda args: args["top_k_arr"] is not None})
@triton.jit
def top_k_renorm_probs_kernel(probs_ptr, renorm_ptr, top_k_arr, top_k_val, stride, vocab_size,
                              HAS_TOP_K_ARR: tl.constexpr, BLOCK_SIZE: tl.constexpr, NUM_ITERS: tl.constexpr):
    row = tl.program_id(0)
    if HAS_TOP_K_ARR:
        k = tl.load(top_k_arr + row)
    else:
        k = top_k_val
    row_ptr = probs_ptr + row.to(tl.int64) * stride
    out_ptr = renorm_ptr + row.to(tl.int64) * stride
    offs = tl.arange(0, BLOCK_SIZE)

    max_val = 0.0
    for start in range(0, vocab_size, BLOCK_SIZE):
        cols = start + offs
        x = tl.load(row_ptr + cols, mask=cols < vocab_size, other=0.0)
        max_val = tl.maximum(max_val, tl.max(x, 0))

    # the largest pivot with at least k entries above it: count(x > low) >= k > count(x > high)
    low = 0.0
    high = max_val
    for _ in range(NUM_ITERS):
        mid = (low + high) * 0.5
        count = 0
        for start in range(0, vocab_size, BLOCK_SIZE):
            cols = start + offs
            x = tl.load(row_ptr + cols, mask=cols < vocab_size, other=0.0)
            count += tl.sum((x > mid).to(tl.int32), 0)
        low = tl.where(count >= k, mid, low)
        high = tl.where(count >= k, high, mid)

    total = 0.0
    for start in range(0, vocab_size, BLOCK_SIZE):
        cols = start + offs
        x = tl.load(row_ptr + cols, mask=cols < vocab_size, other=0.0)
        total += tl.sum(tl.where(x > low, x, 0.0), 0)

    for start in range(0, vocab_size, BLOCK_SIZE):
        cols = start + offs
        x = tl.load(row_ptr + cols, mask=cols < vocab_size, other=0.0)
        tl.store(out_ptr + cols, tl.where(x > low, x / total, 0.0), mask=cols < vocab_size)


def make_inputs(B: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """probs [B, V] fp32: the softmax of logits with a heavy head (a few tokens of most of the mass); top_k [B] int32
    between 1 and 100 (the first row 1, the second 100)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn((B, V), device=device, generator=g) * 3.0
    probs = torch.softmax(logits, dim=-1)
    top_k = torch.randint(1, 101, (B,), device=device, generator=g).to(torch.int32)
    top_k[0] = 1
    if B > 1:
        top_k[1] = 100
    return {"probs": probs, "top_k": top_k}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The renormalised probabilities [B, V] fp32."""
    import torch
    probs = inputs["probs"]
    out = torch.empty_like(probs)
    B, V = probs.shape
    top_k_renorm_probs_kernel[(B,)](probs, out, inputs["top_k"], 0, probs.stride(0), V, BLOCK_SIZE=4096,
                                    NUM_ITERS=32, num_warps=config.get("num_warps", 16),
                                    num_stages=config.get("num_stages", 2))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """Each row's entries at or above its k-th largest kept, divided by their sum; the rest 0 (fp32)."""
    import torch
    probs, top_k = inputs["probs"], inputs["top_k"].long()
    kth = torch.stack([torch.topk(probs[i], int(top_k[i])).values[-1] for i in range(probs.shape[0])])
    kept = torch.where(probs >= kth[:, None], probs, 0.0)
    return kept / kept.sum(dim=-1, keepdim=True)


def flops(B: int, V: int) -> float:
    """About 40 passes over the row (one compare and one add an entry each): memory-bound; an estimate."""
    return 2.0 * B * V * 36
