"""W8A8 block-quantised int8 GEMM, in the style of SGLang's / vLLM's ``_w8a8_block_int8_matmul`` (rewritten
here): A int8 [M, K] with a per-token, per-128-column fp32 scale As [M, K / 128]; B int8 [N, K] with a per-128 x 128
block scale Bs [N / 128, K / 128]; each K step of BLOCK_K = 128 (one quantisation group) is **its own**
``tl.dot(a, b, out_dtype=tl.int32)`` (int8 x int8 -> int32, not accumulated across groups), **dequantised in the
loop**: ``.to(tl.float32) * a_s[:, None] * b_s[None, :]`` added to an fp32 accumulator; the scales loaded each step
from pointers advanced by one column (``As_ptrs + k * stride_As_k``, ``Bs_ptrs + k * stride_Bs_k``), the B scale
row picked by ``offs_bsn = offs_bn // group_n``; GROUP_SIZE_M swizzle; M and K masked, N a multiple of the block.
fp16 out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_w8a8_block_int8_matmul",
    "signature": {"A": "*i8", "B": "*i8", "C": "*fp16", "As": "*fp32", "Bs": "*fp32", "M": "i32", "N": "i32",
                  "K": "i32", "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32", "stride_As_m": "i32",
                  "stride_Bs_n": "i32"},
    "constexprs": {"group_n": 128, "group_k": 128, "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128,
                   "GROUP_SIZE_M": 8},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["A", "B", "C", "N", "K", "stride_am", "stride_bn", "stride_cm", "stride_As_m", "stride_Bs_n"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 7168, "K": 4096}
SMALL: dict[str, int] = {"M": 200, "N": 256, "K": 384}


@triton.jit
def _w8a8_block_int8_matmul(A, B, C, As, Bs, M, N, K, stride_am, stride_bn, stride_cm, stride_As_m, stride_Bs_n,
                            group_n: tl.constexpr, group_k: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
                            BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = A + (offs_am[:, None] * stride_am + offs_k[None, :])
    b_ptrs = B + (offs_k[:, None] + offs_bn[None, :] * stride_bn)
    As_ptrs = As + offs_am * stride_As_m
    offs_bsn = offs_bn // group_n
    Bs_ptrs = Bs + offs_bsn * stride_Bs_n

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=(offs_am[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_SIZE_K), other=0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0)
        k_start = k * BLOCK_SIZE_K
        offs_ks = k_start // group_k
        a_s = tl.load(As_ptrs + offs_ks, mask=offs_am < M, other=0.0)
        b_s = tl.load(Bs_ptrs + offs_ks)
        accumulator += tl.dot(a, b, out_dtype=tl.int32).to(tl.float32) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K

    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = C + stride_cm * offs_cm[:, None] + offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """int8 A [M, K] and B [N, K] in [-127, 127]; positive fp32 scales As [M, K / 128], Bs [N / 128, K / 128]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    kb = triton.cdiv(K, 128)
    return {"a": torch.randint(-127, 128, (M, K), device=device, generator=g, dtype=torch.int8),
            "b": torch.randint(-127, 128, (N, K), device=device, generator=g, dtype=torch.int8),
            "as": torch.rand((M, kb), device=device, generator=g) * 1e-3 + 1e-4,
            "bs": torch.rand((triton.cdiv(N, 128), kb), device=device, generator=g) * 1e-3 + 1e-4}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C fp16 [M, N]."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[0]
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
    _w8a8_block_int8_matmul[grid](a, b, c, inputs["as"], inputs["bs"], M, N, K, a.stride(0), b.stride(0),
                                  c.stride(0), inputs["as"].stride(0), inputs["bs"].stride(0), group_n=128,
                                  group_k=128, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=128, GROUP_SIZE_M=8,
                                  num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """Each 128-column group's exact integer product scaled by its two scales, summed in double."""
    import torch
    a, b, a_s, b_s = inputs["a"].double(), inputs["b"].double(), inputs["as"].double(), inputs["bs"].double()
    M, K = a.shape
    N = b.shape[0]
    out = torch.zeros((M, N), device=a.device, dtype=torch.float64)
    for j in range(triton.cdiv(K, 128)):
        part = a[:, j * 128:(j + 1) * 128] @ b[:, j * 128:(j + 1) * 128].t()
        out += part * a_s[:, j][:, None] * b_s[:, j].repeat_interleave(128)[:N][None, :]
    return out


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
