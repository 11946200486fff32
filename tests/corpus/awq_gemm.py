"""AWQ's 4-bit weight GEMM as vLLM's Triton kernel writes it (``awq_triton.py``): eight 4-bit weights packed in
each int32 in AWQ's order, unpacked in the K loop by ``tl.interleave`` three times (``tt.join`` then ``tt.reshape``)
and shifts made with ``reshape`` and ``broadcast_to`` before the loop, zero points and scales per group of K rows,
``tl.dot`` with an fp16 accumulator (the output's type), the K range split over grid axis 1 into partial outputs the
launcher sums. Its default tiles, 32 x 32 x 32 on 4 warps, are below a warpgroup's 64 rows: Triton lowers the dot to
mma.sync (``#ttg.nvidia_mma`` version 2), not wgmma. C = A @ dequant(W); nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "awq_gemm_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*i32", "c_ptr": "*fp16", "zeros_ptr": "*i32", "scales_ptr": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32", "group_size": "i32"},
    "constexprs": {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "SPLIT_K": 8},
    "num_warps": 4, "num_stages": 3, "divisibility": ["M", "N", "K", "group_size"]}
PROBLEM: dict[str, int] = {"M": 128, "N": 4096, "K": 4096, "group_size": 128}
SMALL: dict[str, int] = {"M": 40, "N": 256, "K": 1024, "group_size": 128}   # M not a multiple of the tile's rows
BLOCKS = {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "SPLIT_K": 8}
AWQ_ORDER = (0, 4, 1, 5, 2, 6, 3, 7)     # the shift (in nibbles) of the weight at each of 8 packed positions


@triton.jit
def awq_gemm_kernel(a_ptr, b_ptr, c_ptr, zeros_ptr, scales_ptr, M, N, K, group_size,
                    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                    SPLIT_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    pid_z = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    accumulator_dtype = c_ptr.type.element_ty
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=accumulator_dtype)
    reverse_awq_order_tensor = ((tl.arange(0, 2) * 4)[None, :] + tl.arange(0, 4)[:, None]).reshape(8)
    shifts = reverse_awq_order_tensor * 4
    shifts = tl.broadcast_to(shifts[None, :], (BLOCK_SIZE_K * (BLOCK_SIZE_N // 8), 8))
    shifts = tl.reshape(shifts, (BLOCK_SIZE_K, BLOCK_SIZE_N))
    offsets_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    masks_am = offsets_am < M
    offsets_bn = pid_n * (BLOCK_SIZE_N // 8) + tl.arange(0, BLOCK_SIZE_N // 8)
    masks_bn = offsets_bn < N // 8
    offsets_zn = pid_n * (BLOCK_SIZE_N // 8) + tl.arange(0, BLOCK_SIZE_N // 8)
    masks_zn = offsets_zn < N // 8
    offsets_sn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    masks_sn = offsets_sn < N
    offsets_k = pid_z * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
    offsets_a = K * offsets_am[:, None] + offsets_k[None, :]
    offsets_b = (N // 8) * offsets_k[:, None] + offsets_bn[None, :]
    a_ptrs = a_ptr + offsets_a
    b_ptrs = b_ptr + offsets_b
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K * SPLIT_K)):
        masks_k = offsets_k < K
        masks_a = masks_am[:, None] & masks_k[None, :]
        a = tl.load(a_ptrs, mask=masks_a, other=0.0)
        masks_b = masks_k[:, None] & masks_bn[None, :]
        b = tl.load(b_ptrs, mask=masks_b, other=0.0)
        b = tl.interleave(b, b)
        b = tl.interleave(b, b)
        b = tl.interleave(b, b)
        offsets_szk = ((BLOCK_SIZE_K * SPLIT_K * k + pid_z * BLOCK_SIZE_K) // group_size + tl.arange(0, 1))
        offsets_z = (N // 8) * offsets_szk[:, None] + offsets_zn[None, :]
        masks_zk = offsets_szk < K // group_size
        masks_z = masks_zk[:, None] & masks_zn[None, :]
        zeros_ptrs = zeros_ptr + offsets_z
        zeros = tl.load(zeros_ptrs, mask=masks_z, other=0.0)
        zeros = tl.interleave(zeros, zeros)
        zeros = tl.interleave(zeros, zeros)
        zeros = tl.interleave(zeros, zeros)
        zeros = tl.broadcast_to(zeros, (BLOCK_SIZE_K, BLOCK_SIZE_N))
        offsets_s = N * offsets_szk[:, None] + offsets_sn[None, :]
        masks_sk = offsets_szk < K // group_size
        masks_s = masks_sk[:, None] & masks_sn[None, :]
        scales_ptrs = scales_ptr + offsets_s
        scales = tl.load(scales_ptrs, mask=masks_s, other=0.0)
        scales = tl.broadcast_to(scales, (BLOCK_SIZE_K, BLOCK_SIZE_N))
        b = (b >> shifts) & 0xF
        zeros = (zeros >> shifts) & 0xF
        b = (b - zeros) * scales
        b = b.to(c_ptr.type.element_ty)
        accumulator = tl.dot(a, b, accumulator, out_dtype=accumulator_dtype)
        offsets_k += BLOCK_SIZE_K * SPLIT_K
        a_ptrs += BLOCK_SIZE_K * SPLIT_K
        b_ptrs += BLOCK_SIZE_K * SPLIT_K * (N // 8)
    c = accumulator.to(c_ptr.type.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + pid_z * N * M + N * offs_cm[:, None] + offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def _pack(w: Any) -> Any:
    """[R, N] 4-bit values -> [R, N // 8] int32, AWQ's order."""
    import torch
    w = w.to(torch.int64).reshape(w.shape[0], -1, 8)
    packed = torch.zeros(w.shape[:2], dtype=torch.int64, device=w.device)
    for p, s in enumerate(AWQ_ORDER):
        packed |= w[:, :, p] << (4 * s)
    return packed.to(torch.int32)


def make_inputs(M: int, N: int, K: int, group_size: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    w = torch.randint(0, 16, (K, N), device=device, generator=g)
    z = torch.randint(0, 16, (K // group_size, N), device=device, generator=g)
    scales = (torch.rand((K // group_size, N), device=device, generator=g) * 0.02 / K ** 0.5 * 16).half()
    return {"a": a, "qweight": _pack(w), "qzeros": _pack(z), "scales": scales, "w": w, "z": z,
            "group_size": group_size}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, fp16 [M, N]: vLLM's launcher, one program per (tile, K slice), the slices' partial outputs summed."""
    import torch
    a, q = inputs["a"], inputs["qweight"]
    M, K = a.shape
    N = q.shape[1] * 8
    bm, bn, bk, split = (BLOCKS[k] for k in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "SPLIT_K"))
    result = torch.zeros((split, M, N), dtype=inputs["scales"].dtype, device=a.device)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), split)
    awq_gemm_kernel[grid](a, q, result, inputs["qzeros"], inputs["scales"], M, N, K, inputs["group_size"],
                          BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, SPLIT_K=split,
                          num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return result.sum(0)


def reference(inputs: dict[str, Any]) -> Any:
    G = inputs["group_size"]
    w = (inputs["w"] - inputs["z"].repeat_interleave(G, 0)).half() * inputs["scales"].repeat_interleave(G, 0)
    return inputs["a"].float() @ w.float()


def flops(M: int, N: int, K: int, group_size: int) -> float:
    return 2.0 * M * N * K
