"""FBGEMM's array x jagged batched matmul with a jagged output (fbgemm_gpu/sll/triton_sll.py
``array_jagged_bmm_kernel``, launched by ``triton_array_jagged_bmm_jagged_out`` from ``ArrayJaggedBmmNopadding``, the
attention-weights-times-values step of the sequence-learning library's jagged attention; rewritten here): for each
sequence b of length N_b, a flat array holding an N_b x N_b matrix A_b (row-major at its offset, or transposed) times
the jagged [N_b, D] rows of B gives the jagged [N_b, D] rows of C; lengths past ``max_seq_len`` are truncated.

The constructs, as the library writes them: program ids (n, m, batch) on axes (0, 1, 2); three offsets tables loaded
(int64) and the batch's K and M as differences of loaded values; A's strides COMPUTED from a loaded length and the
runtime ``transpose`` flag (``stride_am = batch_M * (1 - transpose) + 1 * transpose``, the uncapped length, before
``tl.minimum(..., max_seq_len)``); ``if batch_K == 0: return`` and ``if pid_m * BLOCK_SIZE_M >= batch_M or pid_n *
BLOCK_SIZE_N >= batch_N: return`` (an ``or`` of two conditions); row and column offsets wrapped ``% batch_M`` and
``% batch_N`` (a modulo by a loaded value and by D); ``for k in range(0, tl.cdiv(batch_K, BLOCK_SIZE_K))`` (a trip
count from a loaded value), the K tail masked as ``offs_k < batch_K - k * BLOCK_SIZE_K``, no other mask;
``tl.dot(a, b, allow_tf32=allow_tf32)`` of fp32 tiles; the store masked by the jagged rows and D. The launcher's
32 x 32 x 32 blocks, Triton's default 4 warps and 3 stages, the output ``torch.zeros``.

Specialisation: fp32, allow_tf32 True, D = 256, transpose 0 (passed as an integer, as the launcher does). Nothing here
is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "array_jagged_bmm_kernel",
    "signature": {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "a_offsets_ptr": "*i64",
                  "b_offsets_ptr": "*i64", "c_offsets_ptr": "*i64", "D": "i32", "stride_bk": "i32",
                  "stride_bn": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr", "transpose": "i32",
                  "max_seq_len": "i32"},
    "constexprs": {"stride_bn": 1, "stride_cn": 1, "BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32,
                   "allow_tf32": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["D", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"B": 512, "max_seq_len": 256, "D": 256}
SMALL: dict[str, int] = {"B": 5, "max_seq_len": 70, "D": 96}


@triton.jit
def array_jagged_bmm_kernel(
    a_ptr,  # 1D array
    b_ptr,  # jagged matrix
    c_ptr,  # output, jagged matrix
    a_offsets_ptr,
    b_offsets_ptr,
    c_offsets_ptr,
    D,  # emb dimension
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    transpose,  # one if a is transpose, otherwise zero
    max_seq_len,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    allow_tf32: tl.constexpr,
):
    pid_batch = tl.program_id(2)
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(0)

    batch_offset_am = tl.load(a_offsets_ptr + pid_batch)
    batch_offset_bk = tl.load(b_offsets_ptr + pid_batch)
    batch_offset_cm = tl.load(c_offsets_ptr + pid_batch)

    # M, N, K of this batch
    batch_K = tl.load(b_offsets_ptr + pid_batch + 1) - batch_offset_bk  # b [batch_K, D]
    batch_M = tl.load(c_offsets_ptr + pid_batch + 1) - batch_offset_cm

    # the uncapped length gives a's strides
    stride_am = batch_M * (1 - transpose) + 1 * transpose
    stride_ak = batch_M * transpose + 1 * (1 - transpose)

    batch_K = tl.minimum(batch_K, max_seq_len)
    batch_M = tl.minimum(batch_M, max_seq_len)

    if batch_K == 0:
        return

    batch_N = D

    # c [batch_M, D] boundary check
    if pid_m * BLOCK_SIZE_M >= batch_M or pid_n * BLOCK_SIZE_N >= batch_N:
        return

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % batch_M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % batch_N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + batch_offset_am + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + batch_offset_bk * stride_bk + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    c = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(batch_K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < batch_K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < batch_K - k * BLOCK_SIZE_K, other=0.0)
        c += tl.dot(a, b, allow_tf32=allow_tf32)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * batch_offset_cm + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < batch_M) & (offs_cn[None, :] < batch_N)
    tl.store(c_ptrs, c, mask=c_mask)


def make_inputs(B: int, max_seq_len: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Lengths in [0, max_seq_len + 20] (one empty, some truncated); the flat array of each sequence's N x N
    attention weights (offsets: cumsum of N^2) and the jagged [sum N, D] values; int64 offsets."""
    import torch
    gen = torch.Generator(device="cpu").manual_seed(seed)
    lengths = torch.randint(1, max_seq_len + 21, (B,), generator=gen)
    lengths[min(1, B - 1)] = 0
    offsets = torch.zeros(B + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    offsets_a = torch.zeros(B + 1, dtype=torch.int64)
    offsets_a[1:] = torch.cumsum(lengths * lengths, 0)
    x = torch.rand((int(offsets_a[-1]),), generator=gen) / 16
    y = torch.randn((int(offsets[-1]), D), generator=gen)
    return {"x": x.to(device), "y": y.to(device), "lengths": lengths.to(device), "offsets": offsets.to(device),
            "offsets_a": offsets_a.to(device), "max_seq_len": max_seq_len}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``triton_array_jagged_bmm_jagged_out(x, y, ..., max_seq_len, allow_tf32=True, transpose=0)``."""
    import torch
    array_A, jagged_B, lengths = inputs["x"], inputs["y"], inputs["lengths"]
    B = lengths.size(0)
    D = jagged_B.size(1)
    L = jagged_B.size(0)
    jagged_C = torch.zeros((L, D), device=jagged_B.device, dtype=jagged_B.dtype)
    BLOCK_SIZE_M = BLOCK_SIZE_N = BLOCK_SIZE_K = 32
    max_seq_len = inputs["max_seq_len"]
    grid = (triton.cdiv(D, BLOCK_SIZE_N), triton.cdiv(max_seq_len, BLOCK_SIZE_M), B)
    array_jagged_bmm_kernel[grid](
        array_A, jagged_B, jagged_C, inputs["offsets_a"], inputs["offsets"], inputs["offsets"], D,
        jagged_B.stride(0), jagged_B.stride(1), jagged_C.stride(0), jagged_C.stride(1), 0, max_seq_len,
        BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, True)
    return jagged_C


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, y, cap = inputs["x"].double(), inputs["y"].double(), inputs["max_seq_len"]
    offs, offs_a = inputs["offsets"].tolist(), inputs["offsets_a"].tolist()
    out = torch.zeros_like(y)
    for b in range(len(offs) - 1):
        n = offs[b + 1] - offs[b]
        m = min(n, cap)
        a = x[offs_a[b]:offs_a[b] + n * n].reshape(n, n)
        out[offs[b]:offs[b] + m] = a[:m, :m] @ y[offs[b]:offs[b] + m]
    return out


def flops(B: int, max_seq_len: int, D: int) -> float:
    return 2.0 * B * (max_seq_len / 2) ** 2 * D
