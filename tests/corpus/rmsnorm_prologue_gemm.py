"""Fused RMSNorm + linear as the fused-prologue Triton kernels write it (the norm-then-matmul kernels of kernl's and
FlagGems' fused ops, the quantize-then-GEMM kernels of the fp8 / int8 ports): one program per (row block, column
block) of y = rmsnorm(x) @ W; a **first loop** over K reads the row block's x tiles and sums their squares (pointer
loads in registers, no dot: a loop that streams no tile for a dot), ``rstd = 1 / sqrt(mean + eps)``; a **second
loop** over K reads x again, scales it by the norm's weight ``g`` (a vector load) and feeds ``tl.dot`` with W's tile;
the accumulator is scaled by ``rstd`` after the loop. fp16, BLOCK_M = 128, BLOCK_N = 128, BLOCK_K = 64, 8 warps,
3 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BM, BN, BK = 128, 128, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "rmsnorm_matmul_kernel",
    "signature": {"x": "*fp16", "g": "*fp16", "w": "*fp16", "y": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "eps": "fp32"},
    "constexprs": {"BLOCK_M": BM, "BLOCK_N": BN, "BLOCK_K": BK},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["x", "g", "w", "y", "M", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 8192, "N": 8192, "K": 4096}
SMALL: dict[str, int] = {"M": 200, "N": 136, "K": 192}


@triton.jit
def rmsnorm_matmul_kernel(x, g, w, y, M, N, K, eps,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    row_ok = offs_m < M
    sq = tl.zeros([BLOCK_M], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + offs_k
        xt = tl.load(x + offs_m[:, None] * K + kk[None, :], mask=row_ok[:, None] & (kk[None, :] < K), other=0.0)
        xf = xt.to(tl.float32)
        sq += tl.sum(xf * xf, axis=1)
    rstd = 1.0 / tl.sqrt(sq / K + eps)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + offs_k
        xt = tl.load(x + offs_m[:, None] * K + kk[None, :], mask=row_ok[:, None] & (kk[None, :] < K), other=0.0)
        gk = tl.load(g + kk, mask=kk < K, other=0.0)
        xn = (xt.to(tl.float32) * gk.to(tl.float32)[None, :]).to(tl.float16)
        wt = tl.load(w + kk[:, None] * N + offs_n[None, :], mask=(kk[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(xn, wt, acc)
    acc = acc * rstd[:, None]
    tl.store(y + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16),
             mask=row_ok[:, None] & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K], g [K], w [K, N] fp16 (w scaled so y stays near 1)."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=gen).half()
    g = (1 + 0.1 * torch.randn((K,), device=device, generator=gen)).half()
    w = (torch.randn((K, N), device=device, generator=gen) / K ** 0.5).half()
    return {"x": x, "g": g, "w": w}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y flattened, fp32."""
    import torch
    x, g, w = inputs["x"], inputs["g"], inputs["w"]
    M, K = x.shape
    N = w.shape[1]
    y = torch.empty((M, N), dtype=torch.float16, device=x.device)
    rmsnorm_matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        x, g, w, y, M, N, K, 1e-6, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return y.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, g, w = (inputs[n].double() for n in ("x", "g", "w"))
    rstd = torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6)
    xn = (x * g[None, :]).half().double()
    return ((xn @ w) * rstd).half().double().flatten()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K + 3.0 * M * K * triton.cdiv(N, BN)
