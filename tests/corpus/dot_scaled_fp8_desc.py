"""A block-scaled FP8 GEMM mixing the two FP8 formats, as recent MX recipes run the backward pass (gradients e5m2,
weights e4m3): ``tl.dot_scaled(a, sa, "e5m2", b.T, sb, "e4m3", acc)`` with both operands read through device-side
TMA descriptors (``tl.make_tensor_descriptor``, B stored N x K and transposed in the dot), the e8m0 scales (one uint8
exponent per 32 K elements) by masked pointer loads, and the K loop a ``tl.range(..., num_stages=NUM_STAGES)`` as
library kernels pass their stage count; the bf16 result stored through a descriptor. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "dot_scaled_fp8_desc",
    "signature": {"a_ptr": "*fp8e5", "b_ptr": "*fp8e4nv", "a_scale": "*u8", "b_scale": "*u8", "c_ptr": "*bf16",
                  "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "VEC": 32, "NUM_STAGES": 3}, "num_warps": 8,
    "num_stages": 3, "divisibility": ["a_ptr", "b_ptr", "a_scale", "b_scale", "c_ptr", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 200, "N": 384, "K": 512}     # M ragged: the descriptor's zero fill, the scales masked


@triton.jit
def dot_scaled_fp8_desc(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, VEC: tl.constexpr, NUM_STAGES: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_s = tl.arange(0, BLOCK_K // VEC)
    as_ptrs = a_scale + offs_m[:, None] * (K // VEC) + offs_s[None, :]
    bs_ptrs = b_scale + offs_n[:, None] * (K // VEC) + offs_s[None, :]
    m_mask = offs_m < M
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K])
        sa = tl.load(as_ptrs, mask=m_mask[:, None], other=127)
        sb = tl.load(bs_ptrs)
        acc = tl.dot_scaled(a, sa, "e5m2", b.T, sb, "e4m3", acc)
        as_ptrs += BLOCK_K // VEC
        bs_ptrs += BLOCK_K // VEC
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.bfloat16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K] e5m2, b [N, K] e4m3 (normal, std 1); scales e8m0 in [124, 130] (2^-3 .. 2^3)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).to(torch.float8_e5m2)
    b = torch.randn((N, K), device=device, generator=g).to(torch.float8_e4m3fn)
    sa = torch.randint(124, 131, (M, K // 32), device=device, generator=g, dtype=torch.int32).to(torch.uint8)
    sb = torch.randint(124, 131, (N, K // 32), device=device, generator=g, dtype=torch.int32).to(torch.uint8)
    return {"a": a, "b": b, "sa": sa, "sb": sb}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = (A * 2^(sa - 127)) @ (B * 2^(sb - 127))^T in bf16 (Triton needs a global scratch allocator for the
    descriptors a kernel makes)."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[0]
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=a.device, dtype=torch.int8))
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.bfloat16)
    dot_scaled_fp8_desc[(triton.cdiv(M, 128), triton.cdiv(N, 128))](
        a, b, inputs["sa"], inputs["sb"], c, M, N, K, BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, VEC=32, NUM_STAGES=3,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """Each operand times 2^(scale - 127) along its 32-element groups of K, multiplied in fp32."""
    sa = (inputs["sa"].float() - 127.0).exp2().repeat_interleave(32, dim=1)
    sb = (inputs["sb"].float() - 127.0).exp2().repeat_interleave(32, dim=1)
    return (inputs["a"].float() * sa) @ (inputs["b"].float() * sb).T


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
