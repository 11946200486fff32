"""vLLM's fused MoE GEMM at a decode configuration (16 x 64 x 128 tiles on 4 warps, as its tuned configs pick for a few
tokens): each program's rows are tokens gathered through ``sorted_token_ids`` (A's rows ``token // top_k``), its
expert's weights chosen by ``expert_ids``, an early return past the padded token count, masked loads, ``tl.dot`` on
16-row tiles (mma.sync), the output rows scattered back by token. Weights [E, N, K] K-contiguous (the unit strides
constant, as a launch specialises them). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TOP_K, BLOCK_M = 2, 16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "fused_moe_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "topk_weights_ptr": "*fp32",
                  "sorted_token_ids_ptr": "*i32", "expert_ids_ptr": "*i32", "num_tokens_post_padded_ptr": "*i32",
                  "N": "i32", "K": "i32", "EM": "i32", "num_valid_tokens": "i32", "stride_am": "i32",
                  "stride_ak": "constexpr", "stride_be": "i32", "stride_bk": "constexpr", "stride_bn": "i32",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "BLOCK_SIZE_M": BLOCK_M, "BLOCK_SIZE_N": 64,
                   "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1, "MUL_ROUTED_WEIGHT": 0, "top_k": TOP_K},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["N", "K", "EM", "stride_am", "stride_be", "stride_bn", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 64, "E": 8, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 5, "E": 4, "N": 256, "K": 512}


@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr,
                     num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_ak, stride_be,
                     stride_bk, stride_bn, stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                     BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr,
                     top_k: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(EM, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_SIZE_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens
    off_experts = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_token[:, None] // top_k * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + off_experts * stride_be + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_SIZE_K), other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        accumulator = accumulator * moe_weight[:, None]
    accumulator = accumulator.to(tl.float16)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


def make_inputs(M: int, E: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Tokens routed to TOP_K experts each, sorted by expert and padded per expert to BLOCK_M (moe_align_block_size)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((E, N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5).half()
    topk_ids = torch.stack([torch.randperm(E, device=device, generator=g)[:TOP_K] for _ in range(M)])
    flat = topk_ids.flatten().tolist()
    ids, experts = [], []
    for e in range(E):
        rows = [i for i, x in enumerate(flat) if x == e]
        rows += [M * TOP_K] * (-len(rows) % BLOCK_M)                 # padding: an id past the valid ones
        ids += rows
        experts += [e] * (len(rows) // BLOCK_M)
    return {"a": a, "w": b, "topk_ids": topk_ids,
            "sorted_ids": torch.tensor(ids, device=device, dtype=torch.int32),
            "expert_ids": torch.tensor(experts, device=device, dtype=torch.int32),
            "padded": torch.tensor([len(ids)], device=device, dtype=torch.int32),
            "weights": torch.ones((M * TOP_K,), device=device, dtype=torch.float32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, fp16 [M * top_k, N]: one row per (token, expert) pair; one program per (block of 16 sorted rows, N tile)."""
    import torch
    a, w = inputs["a"], inputs["w"]
    M, K = a.shape
    E, N, _ = w.shape
    EM = inputs["sorted_ids"].numel()
    c = torch.zeros((M * TOP_K, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(EM, BLOCK_M) * triton.cdiv(N, 64),)
    fused_moe_kernel[grid](a, w, c, inputs["weights"], inputs["sorted_ids"], inputs["expert_ids"], inputs["padded"],
                           N, K, EM, M * TOP_K, a.stride(0), a.stride(1), w.stride(0), w.stride(2), w.stride(1),
                           c.stride(0), c.stride(1), BLOCK_SIZE_M=BLOCK_M, BLOCK_SIZE_N=64, BLOCK_SIZE_K=128,
                           GROUP_SIZE_M=1, MUL_ROUTED_WEIGHT=0, top_k=TOP_K,
                           num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 4))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, w = inputs["a"].float(), inputs["w"].float()
    ids = inputs["topk_ids"].flatten()
    return torch.einsum("rk,rnk->rn", a.repeat_interleave(TOP_K, 0), w[ids])


def flops(M: int, E: int, N: int, K: int) -> float:
    return 2.0 * M * TOP_K * N * K
