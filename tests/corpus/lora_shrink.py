"""A LoRA shrink as punica / vLLM write it: each program takes one adapter's tokens (their count and the adapter's
index loaded from memory, an early ``return`` past the count), gathers their rows of X through an index list, and
multiplies them by the adapter's [R, K] down-projection read transposed; K split across programs (SPLIT_K), so the
loop steps by ``BLOCK_K * SPLIT_K`` with a mask on K's remainder, and the partial results are added with
``tl.atomic_add`` into fp32 rows scattered by the same indices. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "lora_shrink",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*fp16", "out_ptr": "*fp32", "token_idx": "*i32", "lora_ids": "*i32",
                  "num_tokens": "*i32", "idx_stride": "i32", "K": "i32", "R": "i32", "scaling": "fp32"},
    "constexprs": {"BLOCK_M": 64, "BLOCK_N": 16, "BLOCK_K": 128, "SPLIT_K": 4}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["K", "R", "idx_stride"]}
PROBLEM: dict[str, int] = {"T": 8192, "K": 8192, "R": 16, "L": 4}
SMALL: dict[str, int] = {"T": 300, "K": 1536, "R": 16, "L": 3}


@triton.jit
def lora_shrink(x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_sk = tl.program_id(0)
    pid_m = tl.program_id(1)
    lora = tl.program_id(2)
    M = tl.load(num_tokens + lora)
    if pid_m * BLOCK_M >= M:
        return
    lora_id = tl.load(lora_ids + lora)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rows = tl.load(token_idx + lora * idx_stride + offs_m, mask=offs_m < M, other=0)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = pid_sk * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = x_ptr + rows[:, None] * K + offs_k[None, :]
    b_ptrs = w_ptr + lora_id * R * K + offs_n[None, :] * K + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_rem = K - k * (BLOCK_K * SPLIT_K)
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_rem, other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_rem) & (offs_n[None, :] < R), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K
    acc *= scaling
    c = out_ptr + rows[:, None] * R + offs_n[None, :]
    tl.atomic_add(c, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < R))


def make_inputs(T: int, K: int, R: int, L: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [T, K] fp16; L adapters' weights [L, R, K] fp16; every token given one adapter at random (the tokens of
    adapter l listed in token_idx[l], shuffled), adapter l's weights at lora_ids[l] = L - 1 - l."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((T, K), device=device, generator=g).half()
    w = (torch.randn((L, R, K), device=device, generator=g) / K ** 0.5).half()
    which = torch.randint(0, L, (T,), device=device, generator=g)
    perm = torch.randperm(T, device=device, generator=g)
    idx = torch.zeros((L, T), device=device, dtype=torch.int32)
    counts = torch.zeros(L, device=device, dtype=torch.int32)
    for lo in range(L):
        toks = perm[which[perm] == lo]
        idx[lo, :toks.numel()] = toks.to(torch.int32)
        counts[lo] = toks.numel()
    ids = torch.arange(L - 1, -1, -1, device=device, dtype=torch.int32)
    return {"x": x, "w": w, "idx": idx, "counts": counts, "ids": ids, "scaling": 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    x, w, idx = inputs["x"], inputs["w"], inputs["idx"]
    T, K = x.shape
    L, R, _ = w.shape
    out = torch.zeros((T, R), device=x.device, dtype=torch.float32)
    grid = (4, triton.cdiv(T, 64), L)
    lora_shrink[grid](x, w, out, idx, inputs["ids"], inputs["counts"], idx.stride(0), K, R, inputs["scaling"],
                      BLOCK_M=64, BLOCK_N=16, BLOCK_K=128, SPLIT_K=4, num_warps=config.get("num_warps", 4),
                      num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """Each token's row times its adapter's weights transposed, scaled, fp32."""
    import torch
    x, w, idx, counts, ids = inputs["x"], inputs["w"], inputs["idx"], inputs["counts"], inputs["ids"]
    out = torch.zeros((x.shape[0], w.shape[1]), device=x.device, dtype=torch.float32)
    for lo in range(w.shape[0]):
        toks = idx[lo, :int(counts[lo])].long()
        out[toks] = inputs["scaling"] * (x[toks].float() @ w[int(ids[lo])].float().T)
    return out


def flops(T: int, K: int, R: int, L: int) -> float:
    return 2.0 * T * K * R
