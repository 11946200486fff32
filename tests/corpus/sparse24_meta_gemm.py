"""A 2:4 semi-structured sparse GEMM with the sparse operand decompressed in the K loop, as the Triton fallbacks for
``torch.sparse.to_sparse_semi_structured`` write it (PyTorch's ``torch/sparse/_semi_structured_conversions.py``
decodes the same compressed values + 2-bit metadata; torchao's sparsity kernels keep the layout): A [M, K] stored as
its two kept values of every group of four along K (``A_vals`` [M, K / 2] fp16) and **16-bit metadata words**
(``A_meta`` [M, K / 16] int16), each holding four groups' nibbles, a nibble being the two kept positions ``i0 | i1 <<
2`` (row-major, not CUTLASS's interleaved reordering).

The constructs: per K step (BLOCK_K = 64 dense columns = 16 groups) the dense column ``k`` of the tile rebuilt from
**two duplicated gathers** of the compressed row (``A_vals + m * stride + 2 * (k // 4)`` and ``+ 1``: each value read
by four columns), the metadata word gathered at ``k // 16`` and decoded with **bit shifts on int16** (``(meta >>
((k % 16) // 4 * 4)) & 0xF``, then ``& 3`` and ``>> 2``), the column's position ``k % 4`` compared against both kept
positions and the tile formed by a **nested ``tl.where``** (zero where neither matches); then a plain ``tl.dot`` of
that [BLOCK_M, BLOCK_K] fp16 register tile with a dense B tile [BLOCK_K, BLOCK_N] read by pointer, the pointers
advanced each step (the compressed row by BLOCK_K / 2, the metadata by BLOCK_K / 16). M and N masked, K a multiple of
BLOCK_K; 128 x 128 x 64 tiles, 8 warps, 3 stages, fp32 accumulator, fp16 output. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M = 128, 128, 64, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "sparse24_dense_mm_kernel",
    "signature": {"a_vals": "*fp16", "a_meta": "*i16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
                  "K": "i32", "stride_vm": "i32", "stride_mm": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N, "BLOCK_K": BLOCK_K, "GROUP_M": GROUP_M},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["a_vals", "a_meta", "b_ptr", "c_ptr", "N", "K", "stride_vm", "stride_mm", "stride_bk",
                     "stride_cm"]}
# a 2:4-pruned linear layer (weights as the sparse operand, activations transposed as B), 4096 tokens
PROBLEM: dict[str, int] = {"M": 8192, "N": 4096, "K": 8192}
SMALL: dict[str, int] = {"M": 150, "N": 144, "K": 256}


@triton.jit
def sparse24_dense_mm_kernel(a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m[:, None] < M
    mask_n = offs_n[None, :] < N

    grp = offs_k // 4
    pos = (offs_k % 4)[None, :]
    nib_shift = ((offs_k % 16) // 4 * 4)[None, :].to(tl.int16)
    v0_ptrs = a_vals + offs_m[:, None].to(tl.int64) * stride_vm + (2 * grp)[None, :]
    meta_ptrs = a_meta + offs_m[:, None].to(tl.int64) * stride_mm + (offs_k // 16)[None, :]
    b_ptrs = b_ptr + offs_k[:, None].to(tl.int64) * stride_bk + offs_n[None, :]

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        v0 = tl.load(v0_ptrs, mask=mask_m, other=0.0)
        v1 = tl.load(v0_ptrs + 1, mask=mask_m, other=0.0)
        meta = tl.load(meta_ptrs, mask=mask_m, other=0)
        nib = (meta >> nib_shift) & 0xF
        i0 = nib & 3
        i1 = (nib >> 2) & 3
        a = tl.where(i0 == pos, v0, tl.where(i1 == pos, v1, tl.zeros_like(v0)))
        b = tl.load(b_ptrs, mask=mask_n, other=0.0)
        acc += tl.dot(a, b)
        v0_ptrs += BLOCK_K // 2
        meta_ptrs += BLOCK_K // 16
        b_ptrs += BLOCK_K * stride_bk

    c_ptrs = c_ptr + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=mask_m & mask_n)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A dense fp16 A pruned 2:4 (two positions of every four along K kept at random, i0 < i1), compressed to its
    kept values [M, K / 2] and int16 metadata [M, K / 16]; B [K, N] fp16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K // 4, 4), device=device, generator=g).half()
    # the six pairs i0 < i1 of {0, 1, 2, 3}
    pairs = torch.tensor([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]], device=device)
    choice = torch.randint(0, 6, (M, K // 4), device=device, generator=g)
    idx = pairs[choice]                                                  # [M, K/4, 2]
    vals = torch.gather(a, 2, idx).reshape(M, K // 2).contiguous()
    nib = (idx[..., 0] | (idx[..., 1] << 2)).view(M, K // 16, 4)          # four groups per word
    word = (nib << (torch.arange(4, device=device) * 4)).sum(-1)         # 0 .. 65535
    meta = torch.where(word >= 2 ** 15, word - 2 ** 16, word).to(torch.int16).contiguous()
    dense = torch.zeros_like(a).scatter_(2, idx, vals.view(M, K // 4, 2)).reshape(M, K)
    b = (torch.randn((K, N), device=device, generator=g) / 4).half()
    return {"vals": vals, "meta": meta, "dense": dense, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    vals, meta, b = inputs["vals"], inputs["meta"], inputs["b"]
    M, K = vals.shape[0], vals.shape[1] * 2
    N = b.shape[1]
    c = torch.empty((M, N), device=b.device, dtype=torch.float16)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    sparse24_dense_mm_kernel[grid](vals, meta, b, c, M, N, K, vals.stride(0), meta.stride(0), b.stride(0),
                                   c.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=GROUP_M,
                                   num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """The pruned dense A times B in fp32."""
    return inputs["dense"].float() @ inputs["b"].float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K     # the dense count, as the 2:4 kernels report it
