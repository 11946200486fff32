"""Tokens per expert of a MoE router's top-k choice, as MoE load-balancing and routing-statistics kernels count them:
each program strides over blocks of tokens (``tl.range(pid * BLOCK_T, T, num_programs * BLOCK_T)``), loads a
[BLOCK_T, TOPK] tile of expert ids, flattens it with ``tl.reshape(..., can_reorder=True)`` (a histogram does not care
about the order) and adds ``tl.histogram(flat, NUM_BINS)`` to a register histogram; rows past T are sent to a spare
bin past the experts (NUM_BINS a power of two above NUM_EXPERTS). After the loop one
``tl.atomic_add(..., sem="release", scope="gpu")`` per bin publishes the program's counts. Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_PROGRAMS = 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "moe_expert_histogram",
    "signature": {"topk_ids_ptr": "*i32", "counts_ptr": "*i32", "T": "i32"},
    "constexprs": {"TOPK": 8, "NUM_EXPERTS": 64, "NUM_BINS": 128, "BLOCK_T": 64}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["topk_ids_ptr", "counts_ptr"]}
PROBLEM: dict[str, int] = {"T": 65536}
SMALL: dict[str, int] = {"T": 9001}      # ragged: the last block's rows go to the spare bin


@triton.jit
def moe_expert_histogram(topk_ids_ptr, counts_ptr, T, TOPK: tl.constexpr, NUM_EXPERTS: tl.constexpr,
                         NUM_BINS: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs_k = tl.arange(0, TOPK)
    hist = tl.zeros((NUM_BINS,), dtype=tl.int32)
    for start in tl.range(pid * BLOCK_T, T, nprog * BLOCK_T):
        offs_t = start + tl.arange(0, BLOCK_T)
        valid = offs_t < T
        ids = tl.load(topk_ids_ptr + offs_t[:, None] * TOPK + offs_k[None, :], mask=valid[:, None],
                      other=NUM_EXPERTS)
        flat = tl.reshape(ids, (BLOCK_T * TOPK,), can_reorder=True)
        hist += tl.histogram(flat, NUM_BINS)
    offs_b = tl.arange(0, NUM_BINS)
    tl.atomic_add(counts_ptr + offs_b, hist, mask=offs_b < NUM_EXPERTS, sem="release", scope="gpu")


def make_inputs(T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Top-8 of 64 experts per token, skewed towards the low experts (distinct within a row, as top-k gives)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn((T, 64), device=device, generator=g) + torch.linspace(1.0, 0.0, 64, device=device)
    return {"topk_ids": logits.topk(8, dim=1).indices.to(torch.int32).contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    ids = inputs["topk_ids"]
    T = ids.shape[0]
    counts = torch.zeros((64,), device=ids.device, dtype=torch.int32)
    grid = (min(NUM_PROGRAMS, triton.cdiv(T, 64)),)
    moe_expert_histogram[grid](ids, counts, T, TOPK=8, NUM_EXPERTS=64, NUM_BINS=128, BLOCK_T=64,
                               num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return counts


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    return torch.bincount(inputs["topk_ids"].flatten().long(), minlength=64).to(torch.int32)


def bytes_moved(T: int) -> float:
    return 4.0 * T * 8
