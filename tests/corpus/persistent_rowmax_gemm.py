"""A persistent GEMM in the style of Triton's persistent-matmul tutorial (09-persistent-matmul, ``matmul_kernel_
persistent``) with a fused output statistic, as the FP8 training recipes fuse the amax of a GEMM's output into its
epilogue (Transformer Engine's delayed scaling, torchao's float8 per-channel scales): NUM_SMS programs walk the tiles
with ``for tile_id in tl.range(tl.program_id(0), num_tiles, NUM_SMS)``, the K loop inside; besides storing each C
tile, every program keeps a running [BLOCK_N] column max of C over the tiles it ran, a tensor carried by the tile
loop (``colmax = tl.maximum(colmax, tl.max(acc, axis=0))``, rows past M masked to -inf), and stores it once after
the tile loop into its row of a [NUM_SMS, N] partials buffer; the launcher reduces the partials with a max over
programs. The tiles are numbered N-fastest and ``launch`` makes NUM_SMS a multiple of the number of N tiles (the
largest one within the SM count, or the tile count if smaller), so a program's tiles all share one column block and
its [BLOCK_N] max is a true column max of C; the other columns of its row stay -inf as allocated. So the scheduled
K loop sits in a tile loop that carries a reduction vector, stored after that loop.

C = A @ B (fp16 in, fp32 accumulate, fp16 out) and partials [NUM_SMS, N] fp32; ``reference`` computes which tiles
each program ran and each program's column max from them. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

SM_COUNT = 132      # H100 / H200; ``launch`` asks the device where it is a GPU
BM, BN, BK = 128, 128, 64
PROBLEM: dict[str, int] = {"M": 8192, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 8920, "N": 256, "K": 96}    # 140 tiles: programs 0-7 run two


def _programs(M: int, N: int, sms: int = SM_COUNT) -> int:
    """The number of persistent programs: a multiple of the N tiles, at most the SMs (or the tiles)."""
    n_tiles_n = triton.cdiv(N, BN)
    num_tiles = triton.cdiv(M, BM) * n_tiles_n
    return min(num_tiles, max(n_tiles_n, sms // n_tiles_n * n_tiles_n))


TWILL_SPEC: dict[str, Any] = {
    "kernel": "persistent_colmax_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "part_ptr": "*fp32", "M": "i32",
                  "N": "i32", "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": BM, "BLOCK_N": BN, "BLOCK_K": BK, "NUM_SMS": 128},
    # NUM_SMS = _programs(8192, 4096): 132 SMs rounded down to a multiple of the 32 N tiles
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "part_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
}


@triton.jit
def persistent_colmax_gemm(a_ptr, b_ptr, c_ptr, part_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           NUM_SMS: tl.constexpr):
    """C tiles tile_id = pid, pid + NUM_SMS, ...; and this program's column max of them, stored after the loop."""
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    offs_kk = tl.arange(0, BLOCK_K)
    colmax = tl.full((BLOCK_N,), float("-inf"), tl.float32)
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS):
        pid_m = tile_id // num_pid_n
        pid_n = tile_id % num_pid_n
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_am = tl.max_contiguous(tl.multiple_of(tl.where(offs_m < M, offs_m, 0), BLOCK_M), BLOCK_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(tl.where(offs_n < N, offs_n, 0), BLOCK_N), BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_K + offs_kk
            a = tl.load(a_ptr + offs_am[:, None] * stride_am + offs_k[None, :],
                        mask=offs_kk[None, :] < K - ki * BLOCK_K, other=0.0)
            b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :],
                        mask=offs_kk[:, None] < K - ki * BLOCK_K, other=0.0)
            acc = tl.dot(a, b, acc)
        row_ok = offs_m[:, None] < M
        colmax = tl.maximum(colmax, tl.max(tl.where(row_ok, acc, float("-inf")), axis=0))
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
        tl.store(c_ptrs, acc.to(tl.float16), mask=row_ok & (offs_n[None, :] < N))
    # every tile of this program has pid_n == start_pid % num_pid_n (NUM_SMS is a multiple of num_pid_n)
    offs_pn = (start_pid % num_pid_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(part_ptr + start_pid * N + offs_pn, colmax, mask=offs_pn < N)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C fp16 [M, N] and the partial column maxima fp32 [NUM_SMS, N] (-inf where a program has no tile); the
    column max of C is ``partials.amax(0)``."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count if a.device.type == "cuda" else SM_COUNT
    nprog = _programs(M, N, sms)
    partials = torch.full((nprog, N), float("-inf"), device=a.device, dtype=torch.float32)
    persistent_colmax_gemm[(nprog,)](a, b, c, partials, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                     BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, NUM_SMS=nprog,
                                     num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c, partials


def reference(inputs: dict[str, Any]) -> Any:
    """C, and each program's column max over the tiles tile_id = p, p + P, ... it ran (P programs as launched)."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = a.float() @ b.float()
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count if a.device.type == "cuda" else SM_COUNT
    nprog = _programs(M, N, sms)
    num_pid_n = triton.cdiv(N, BN)
    num_tiles = triton.cdiv(M, BM) * num_pid_n
    partials = torch.full((nprog, N), float("-inf"), device=a.device, dtype=torch.float32)
    for p in range(nprog):
        for t in range(p, num_tiles, nprog):
            pm, pn = divmod(t, num_pid_n)
            cols = slice(pn * BN, min(N, pn * BN + BN))
            tile_max = c[pm * BM:min(M, pm * BM + BM), cols].amax(0)
            partials[p, cols] = torch.maximum(partials[p, cols], tile_max)
    return c, partials


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
