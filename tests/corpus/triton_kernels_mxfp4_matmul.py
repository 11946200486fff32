"""A bf16 x MXFP4 weight GEMM as triton_kernels' ``_matmul_ogs`` writes it for gpt-oss (triton-lang/triton
python/triton_kernels/triton_kernels/matmul_ogs_details/_matmul_ogs.py, one expert, no gather / scatter, the plain
(unswizzled) scale layout): activations X [M, K] bf16 without scales (``x_scales`` None, format "bf16"), weights W
[K, N] stored transposed as [N, K // 2] bytes of two e2m1 values each packed ALONG K (``W_TRANSPOSE``: the packed K is
the contiguous dimension, so the tile is addressed [BLOCK_K // 2, BLOCK_N] with ``stride_w_k`` 1), one e8m0 scale a 32
K values per column ([N, K // 32] uint8, read as a [BLOCK_N, BLOCK_K // 32] tile). The construct: ``tl.dot_scaled(x,
None, "bf16", w, w_scales, "e2m1", acc=acc, fast_math=True)`` -- a scaled dot with only its right operand scaled and
that operand fp4, which Triton on Hopper decomposes (``ttg.fp4_to_fp`` upcasting the packed bytes to bf16 along K,
the scales shifted into bf16 exponents and multiplied in, then a bf16 wgmma); the loop walks K with masked tails
(``EVEN_K`` false at launch: X's rows and the K remainder masked, W's packed rows by ``offs_k_w < (K - start) // 2``);
the bias added after the loop; the program's tile from a GROUP_M swizzle; the output cast to bf16. Config
{BLOCK_M 64, BLOCK_N 128, BLOCK_K 128, 4 warps, 3 stages}. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

MX_PACK, MX_BLOCK = 2, 32              # two e2m1 a byte; one e8m0 scale per 32 K values
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_matmul_mxfp4",
    "signature": {"Y": "*bf16", "X": "*bf16", "W": "*u8", "WMxScale": "*u8", "B": "*fp32", "M": "i32", "N": "i32",
                  "K": "i32", "stride_x_m": "i32", "stride_x_k": "constexpr", "stride_w_n": "i32",
                  "stride_w_k": "constexpr", "stride_w_mx_n": "i32", "stride_w_mx_k": "constexpr",
                  "stride_y_m": "i32", "stride_y_n": "constexpr"},
    "constexprs": {"stride_x_k": 1, "stride_w_k": 1, "stride_w_mx_k": 1, "stride_y_n": 1, "BLOCK_M": 64,
                   "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8, "EVEN_K": False, "HAS_BIAS": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["Y", "X", "W", "WMxScale", "B", "N", "K", "stride_x_m", "stride_w_n", "stride_w_mx_n",
                     "stride_y_m"]}
PROBLEM: dict[str, int] = {"M": 2048, "N": 2880, "K": 2880}      # gpt-oss-120b's hidden size
SMALL: dict[str, int] = {"M": 77, "N": 256, "K": 320}            # a partial M tile and a partial K block


@triton.jit
def _matmul_mxfp4(Y, X, W, WMxScale, B, M, N, K,
                  stride_x_m, stride_x_k, stride_w_n, stride_w_k, stride_w_mx_n, stride_w_mx_k,
                  stride_y_m, stride_y_n,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                  EVEN_K: tl.constexpr, HAS_BIAS: tl.constexpr):
    # twill corpus rendition: Y = X @ dequant_mxfp4(W)^T + B, W [N, K // 2] e2m1 bytes, scales [N, K // 32] e8m0
    W_PACK_DIVISOR: tl.constexpr = 2
    MX_SCALE_BLOCK_K: tl.constexpr = BLOCK_K // 32
    PACKED_BLOCK_K_W: tl.constexpr = BLOCK_K // W_PACK_DIVISOR
    tl.static_assert(BLOCK_K % 32 == 0, "BLOCK_K must be a multiple of the MX block")
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size

    offs_x_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_x_m = tl.max_contiguous(tl.multiple_of(offs_x_m % M, BLOCK_M), BLOCK_M)
    offs_w_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_w_n = tl.max_contiguous(tl.multiple_of(offs_w_n % N, BLOCK_N), BLOCK_N)
    offs_x_k = tl.arange(0, BLOCK_K)
    offs_w_k = tl.arange(0, PACKED_BLOCK_K_W)
    offs_w_k_scale = tl.arange(0, MX_SCALE_BLOCK_K)
    XPtrs = X + offs_x_m.to(tl.int64)[:, None] * stride_x_m + offs_x_k[None, :] * stride_x_k
    WPtrs = W + offs_w_k[:, None] * stride_w_k + offs_w_n.to(tl.int64)[None, :] * stride_w_n
    WMxScalePtrs = WMxScale + offs_w_n.to(tl.int64)[:, None] * stride_w_mx_n + offs_w_k_scale[None, :] * stride_w_mx_k

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(K, 0, -BLOCK_K):       # triton_kernels counts K down: k is what is left
        if EVEN_K:
            x = tl.load(XPtrs)
            w = tl.load(WPtrs)
            w_scales = tl.load(WMxScalePtrs)
        else:
            x = tl.load(XPtrs, mask=offs_x_k[None, :] < k, other=0.0)
            w = tl.load(WPtrs, mask=offs_w_k[:, None] < k // W_PACK_DIVISOR, other=0)
            w_scales = tl.load(WMxScalePtrs, mask=offs_w_k_scale[None, :] < tl.cdiv(k, 32), other=0)
        acc = tl.dot_scaled(x, None, "bf16", w, w_scales, "e2m1", acc=acc, fast_math=True)
        XPtrs += BLOCK_K * stride_x_k
        WPtrs += PACKED_BLOCK_K_W * stride_w_k
        WMxScalePtrs += MX_SCALE_BLOCK_K * stride_w_mx_k

    offs_y_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_y_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if HAS_BIAS:
        bias = tl.load(B + offs_y_n, mask=offs_y_n < N, other=0.0)
        acc = acc + bias[None, :]
    mask = (offs_y_m[:, None] < M) & (offs_y_n[None, :] < N)
    tl.store(Y + offs_y_m.to(tl.int64)[:, None] * stride_y_m + offs_y_n[None, :] * stride_y_n,
             acc.to(Y.dtype.element_ty), mask=mask)


E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K] bf16; w_q [N, K] e2m1 codes 0..15 packed two a byte along K (the even K value in the low nibble, as
    triton_kernels' downcast_to_mxfp packs them), e8m0 scales [N, K // 32] in [120, 126] (2^-7 .. 2^-1); a bias."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).to(torch.bfloat16)
    w_q = torch.randint(0, 16, (N, K), device=device, generator=g, dtype=torch.uint8)
    w = (w_q[:, 0::2] | (w_q[:, 1::2] << 4)).contiguous()
    scales = torch.randint(120, 127, (N, K // MX_BLOCK), device=device, generator=g, dtype=torch.int32)
    bias = torch.randn((N,), device=device, generator=g)
    return {"x": x, "w": w, "w_q": w_q, "scales": scales.to(torch.uint8), "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Y [M, N] bf16 = x @ dequant(w)^T + bias; W passed as its [K // 2, N] view (strides (1, K // 2))."""
    import torch
    x, w, s = inputs["x"], inputs["w"], inputs["scales"]
    M, K = x.shape
    N = w.shape[0]
    y = torch.empty((M, N), device=x.device, dtype=torch.bfloat16)
    bm, bn = config.get("BLOCK_M", 64), config.get("BLOCK_N", 128)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    _matmul_mxfp4[grid](y, x, w, s, inputs["bias"], M, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                        s.stride(0), s.stride(1), y.stride(0), y.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                        BLOCK_K=config.get("BLOCK_K", 128), GROUP_M=8, EVEN_K=K % config.get("BLOCK_K", 128) == 0,
                        HAS_BIAS=True, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    lut = torch.tensor(E2M1, dtype=torch.float64, device=inputs["w_q"].device)
    s = (inputs["scales"].double() - 127.0).exp2().repeat_interleave(MX_BLOCK, dim=1)
    w = lut[inputs["w_q"].long()] * s
    return (inputs["x"].double() @ w.T + inputs["bias"].double()).to(torch.bfloat16)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
