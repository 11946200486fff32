"""A matrix product as torch.compile (Inductor) writes its ``mm`` template: the problem's sizes and strides baked into
the kernel as constants, its block sizes as ``tl.constexpr`` locals, the row offsets hinted (``tl.max_contiguous(
tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)``) under an ``if`` on those constants, an early return for an empty
product, a loop counting K down, and the result stored through ``tl.broadcast_to`` of its flat index. Inductor
decorates it with ``@triton_heuristics.template``; here it is launched as the plain JIT function it wraps. Nothing
here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"kernel": "triton_tem_fused_mm_0",
                              "signature": {"arg_A": "*fp16", "arg_B": "*fp16", "out_ptr0": "*fp16"},
                              "constexprs": {}, "num_warps": 8, "num_stages": 3}
PROBLEM: dict[str, int] = {"M": 4096}
SMALL: dict[str, int] = {"M": 4096}      # the sizes are the kernel's constants


@triton.jit
def triton_tem_fused_mm_0(arg_A, arg_B, out_ptr0):
    GROUP_M : tl.constexpr = 8
    EVEN_K : tl.constexpr = True
    ALLOW_TF32 : tl.constexpr = False
    ACC_TYPE : tl.constexpr = tl.float32
    BLOCK_M : tl.constexpr = 128
    BLOCK_N : tl.constexpr = 128
    BLOCK_K : tl.constexpr = 64
    A = arg_A
    B = arg_B
    M = 4096
    N = 4096
    K = 4096
    if M * N == 0:
        return
    stride_am = 4096
    stride_ak = 1
    stride_bk = 4096
    stride_bn = 1
    pid = tl.program_id(0)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        ram = rm % M
    if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
        rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        rbn = rn % N
    rk = tl.arange(0, BLOCK_K)
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.)
            b = tl.load(B, mask=rk[:, None] < k, other=0.)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    xindex = idx_n + (4096*idx_m)
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, acc.shape)), acc, mask)


def make_inputs(M: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {n: (torch.randn((M, M), device=device, generator=g) / 8).half() for n in ("a", "b")}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    a, b = inputs["a"], inputs["b"]
    c = torch.empty_like(a)
    triton_tem_fused_mm_0[(32 * 32,)](a, b, c, num_warps=config.get("num_warps", 8),
                                      num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].double() @ inputs["b"].double()


def flops(M: int) -> float:
    return 2.0 * M ** 3
