"""A fused SwiGLU MLP up-projection in the style of public fused-MLP kernels (Liger's and unsloth's gate/up
projections fused into one GEMM): two accumulators, each iteration's A tile shared by the gate's dot and the up
projection's dot, three pointer tiles advanced each iteration, ``silu(gate) * up`` in the epilogue.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "wg_ptr": "*fp16", "wu_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
                  "K": "i32", "stride_am": "i32", "stride_wk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_wk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 512}


@triton.jit
def swiglu_mm(a_ptr, wg_ptr, wu_ptr, c_ptr, M, N, K, stride_am, stride_wk, stride_cm,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    g_ptrs = wg_ptr + rk[:, None] * stride_wk + rn[None, :]
    u_ptrs = wu_ptr + rk[:, None] * stride_wk + rn[None, :]
    acc_g = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc_u = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        acc_g = tl.dot(a, tl.load(g_ptrs), acc_g)
        acc_u = tl.dot(a, tl.load(u_ptrs), acc_u)
        a_ptrs += BLOCK_K
        g_ptrs += BLOCK_K * stride_wk
        u_ptrs += BLOCK_K * stride_wk
    out = acc_g * tl.sigmoid(acc_g) * acc_u
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], out.to(tl.float16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    w = [(torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
         for _ in range(2)]
    return {"a": torch.randn((M, K), device=device, dtype=torch.float16, generator=g), "wg": w[0], "wu": w[1]}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """silu(A @ Wg) * (A @ Wu), fp16 [M, N], one program per 128 x 128 tile."""
    import torch
    a, wg, wu = inputs["a"], inputs["wg"], inputs["wu"]
    M, K = a.shape
    N = wg.shape[1]
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float16)
    swiglu_mm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](a, wg, wu, c, M, N, K, a.stride(0), wg.stride(0),
                                                          c.stride(0), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                                                          num_warps=config.get("num_warps", 8),
                                                          num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a = inputs["a"].float()
    gate, up = a @ inputs["wg"].float(), a @ inputs["wu"].float()
    return torch.nn.functional.silu(gate) * up


def library(inputs: dict[str, Any]) -> Any:
    import torch
    return torch.nn.functional.silu(inputs["a"] @ inputs["wg"]) * (inputs["a"] @ inputs["wu"])


def flops(M: int, N: int, K: int) -> float:
    return 4.0 * M * N * K
