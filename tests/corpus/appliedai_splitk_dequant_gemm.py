"""PyTorch applied-ai's split-K GPTQ w4a16 GEMM, ``matmul_split_k_kernel`` (pytorch-labs/applied-ai
kernels/triton/inference/gptq/splitk_dequant_gemm.py, with its ``swizzle_tile`` helper inlined; launched by its
``matmul_split_k`` with block_m 16, block_n 32, block_k 128, group_m 8, split_k 4, 3 stages, 4 warps on a grid of
(tiles, split_k), C zero-initialised fp16): the decode-shaped (m = 16) int4 GEMM of the PyTorch blog "Accelerating
Triton Dequantization Kernels for GPTQ".

The constructs: a 2-D grid whose axis 1 is the K split; **interleaved split-K** (program ``pid_k`` takes K blocks
``pid_k, pid_k + split_k, ...``: the pointers advance by ``block_k * split_k`` each iteration) over a runtime trip
count ``tl.cdiv(k, block_k * split_k)``; GPTQ's eight 4-bit weights per int32 along K (``b_ptrs`` row ``offs_k //
8``, the per-row shift ``(offs_k % 8) * 4``) and four-bit zero points packed along N (``(offs_bn // 8)``, shift
``(offs_bn % 8) * 4``); **a per-iteration group index computed from the loop index and the split index**
(``g_id = (k * split_k + pid_k) // (groupsize // block_k)``: ``groupsize`` a runtime i32) gathering one row of
fp16 scales and one row of packed zeros per iteration; the dequantisation ``(b >> shifter[:, None]) & 0xF`` then
``b * scales[None, :] - zeros[None, :]`` (int32 times fp16: an fp16 tile) feeding ``tl.dot`` with the fp16
activations; the loop variable ``k`` **shadowing the argument ``k``** (the K size, read only before the loop); no
masks anywhere (M a multiple of 16, N of 32, K of 512); a dead ``acc.to(tl.float16)`` statement after the loop;
and the epilogue **``tl.atomic_add(c_ptrs, acc, sem='release')``**: an fp32 tile added into the fp16 C (converted
to C's element type), four programs per tile. Llama-7B-ish decode: m 16, n 4096, k 4096, group size 128.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

GROUPSIZE = 128
SPLIT_K = 4
BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M = 16, 32, 128, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_split_k_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*i32", "c_ptr": "*fp16", "scales_ptr": "*fp16", "zeros_ptr": "*i32",
                  "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32", "stride_cm": "i32",
                  "stride_cn": "i32", "stride_scales_g": "i32", "stride_scales_n": "i32", "stride_zeros_g": "i32",
                  "stride_zeros_n": "i32", "groupsize": "i32", "m": "i32", "n": "i32", "k": "i32"},
    # the unit strides are constants (Triton's launcher specialises an integer argument equal to 1)
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "stride_scales_n": 1, "stride_zeros_n": 1,
                   "block_m": BLOCK_M, "block_n": BLOCK_N, "block_k": BLOCK_K, "group_m": GROUP_M,
                   "split_k": SPLIT_K},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "scales_ptr", "zeros_ptr", "stride_am", "stride_bk", "stride_cm",
                     "stride_scales_g", "stride_zeros_g", "groupsize", "m", "n", "k"]}
PROBLEM: dict[str, int] = {"M": 16, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 32, "N": 64, "K": 1024}


@triton.jit()
def matmul_split_k_kernel(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr,
            stride_am, stride_ak,
            stride_bk, stride_bn,
            stride_cm, stride_cn,
            stride_scales_g, stride_scales_n,
            stride_zeros_g, stride_zeros_n,
            groupsize,
            m, n, k,
            block_m: tl.constexpr, block_n: tl.constexpr, block_k: tl.constexpr,
            group_m: tl.constexpr, split_k: tl.constexpr):

    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    total_blocks_k = tl.cdiv(k, block_k*split_k)

    # pid_m, pid_n = swizzle_tile(pid, m, n, block_m, block_n, group_m), inlined
    grid_m = tl.cdiv(m, block_m)
    grid_n = tl.cdiv(n, block_n)

    width = group_m * grid_n
    group_id = pid // width
    group_size = tl.minimum(grid_m - group_id * group_m, group_m)

    pid_m = group_id * group_m + (pid % group_size)
    pid_n = (pid % width) // group_size

    offs_m = pid_m*block_m + tl.arange(0, block_m)
    offs_n = pid_n*block_n + tl.arange(0, block_n)
    offs_k = pid_k*block_k + tl.arange(0, block_k)

    offs_am = tl.max_contiguous(tl.multiple_of(offs_m, block_m), block_m)
    offs_bn = tl.max_contiguous(tl.multiple_of(offs_n, block_n), block_n)

    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + ((offs_k[:, None] // 8) * stride_bk + offs_bn[None, :] * stride_bn)

    scales_ptrs = scales_ptr + offs_bn * stride_scales_n
    zeros_ptrs = zeros_ptr + ((offs_bn // 8) * stride_zeros_n)

    shifter = (offs_k % 8) * 4
    zeros_shifter = (offs_bn % 8) * 4

    acc = tl.zeros((block_m, block_n), dtype=tl.float32)
    for k in range(0, total_blocks_k):

        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)

        g_id = (k * split_k + pid_k) // (groupsize // block_k)

        ptr = scales_ptrs + g_id * stride_scales_g
        scales = tl.load(ptr)

        ptr = zeros_ptrs + g_id * stride_zeros_g
        zeros = tl.load(ptr)

        zeros = (zeros >> zeros_shifter) & 0xF
        zeros = (zeros + 1) * scales

        b = (b >> shifter[:, None]) & 0xF
        b = b * scales[None, :] - zeros[None, :]

        acc += tl.dot(a, b)
        a_ptrs += block_k * split_k * stride_ak
        b_ptrs += (block_k // 8) * split_k * stride_bk

    acc.to(tl.float16)

    offs_m = pid_m*block_m + tl.arange(0, block_m)
    offs_n = pid_n*block_n + tl.arange(0, block_n)

    c_ptrs = c_ptr + (offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn)
    tl.atomic_add(c_ptrs, acc, sem='release')


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K] fp16 (randn * 0.5); GPTQ weights: 4-bit values q [K, N] packed eight along K into b [K / 8, N]
    int32 (nibble i of word r is row 8 r + i), zero points z [K / 128, N] packed eight along N into zeros
    [K / 128, N / 8] int32 (stored minus one, as GPTQ does), scales [K / 128, N] fp16 (0.01 to 0.03)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    G = K // GROUPSIZE
    a = (torch.randn((M, K), device=device, generator=g) * 0.5).half()
    q = torch.randint(0, 16, (K, N), device=device, generator=g, dtype=torch.int64)
    z = torch.randint(1, 16, (G, N), device=device, generator=g, dtype=torch.int64)   # the real zero point
    scales = (torch.rand((G, N), device=device, generator=g) * 0.02 + 0.01).half()
    shifts = (torch.arange(8, device=device, dtype=torch.int64) * 4)
    b = (q.view(K // 8, 8, N) << shifts[None, :, None]).sum(1)
    zp = ((z - 1).view(G, N // 8, 8) << shifts[None, None, :]).sum(2)
    to_i32 = lambda x: torch.where(x >= 2 ** 31, x - 2 ** 32, x).to(torch.int32)   # noqa: E731
    return {"a": a, "b": to_i32(b), "scales": scales, "zeros": to_i32(zp), "q": q, "z": z}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [M, N] fp16 = A @ dequant(B), as matmul_split_k launches it (C zeroed, the splits added atomically)."""
    import torch
    a, b, scales, zeros = inputs["a"], inputs["b"], inputs["scales"], inputs["zeros"]
    m, k = a.shape
    _, n = b.shape
    total_blocks_m = triton.cdiv(m, BLOCK_M)
    total_blocks_n = triton.cdiv(n, BLOCK_N)
    grid = (total_blocks_m * total_blocks_n, SPLIT_K)
    c = torch.zeros((m, n), device=a.device, dtype=torch.float16)
    matmul_split_k_kernel[grid](a, b, c, scales, zeros,
                                a.stride(0), a.stride(1),
                                b.stride(0), b.stride(1),
                                c.stride(0), c.stride(1),
                                scales.stride(0), scales.stride(1),
                                zeros.stride(0), zeros.stride(1),
                                GROUPSIZE,
                                m, n, k,
                                BLOCK_M, BLOCK_N, BLOCK_K,
                                GROUP_M, SPLIT_K,
                                num_stages=config.get("num_stages", 3), num_warps=config.get("num_warps", 4))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """A @ W in fp32, W[k, n] = (q[k, n] - z[g, n]) * scales[g, n] with g = k // 128."""
    a, q, z, scales = inputs["a"].float(), inputs["q"], inputs["z"], inputs["scales"].float()
    w = (q.float() - z.float().repeat_interleave(GROUPSIZE, 0)) * scales.repeat_interleave(GROUPSIZE, 0)
    return (a @ w).half()


def flops(M: int, N: int, K: int) -> float:
    """2 * M * N * K."""
    return 2.0 * M * N * K
