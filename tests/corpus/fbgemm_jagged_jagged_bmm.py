"""FBGEMM's jagged x jagged batched matmul (fbgemm_gpu/sll/triton_sll.py ``jagged_jagged_bmm_kernel``, launched by
``triton_jagged_jagged_bmm`` from ``JaggedJaggedBmm.forward`` and from the weight gradient of ``JaggedDenseBmm``, as
the sequence-learning-library ops of recommendation models run it; rewritten here): X jagged [sum_b L_b, D] and Y
jagged [sum_b L_b, T] with one int64 offsets table [B + 1]; Z dense [B, D, T] with ``Z[b] = X_b^T @ Y_b``. The
reduction runs over the jagged dimension.

The constructs, as FBGEMM writes them: program id 0 is the batch, program id 1 the flattened (m, n) tile; the batch's
``begin``/``end`` loaded from the offsets and ``K = tl.minimum(end - begin, max_seq_len)`` (an int64 loop bound read
from memory: zero for an empty sequence, which then stores zeros: the library's ``if K == 0: return`` is commented
out); the launcher passes ``x.T``, so A's tile is contiguous along M (``stride_am`` 1, ``stride_ak`` D: a tile
transposed in memory); the jagged base ``begin * stride_ak`` / ``begin * stride_bk`` folded into both pointer tiles;
``for k in range(0, K, BLOCK_SIZE_K)`` with the jagged tail masked in both operands (``k + offs_k < K``) and the M / N
edges too; ``c += tl.dot(a, b, allow_tf32=allow_tf32)`` on fp32 tiles (TF32, as the sll tests run it); the fp32 tile
stored masked at ``stride_cl * pid_batch``.

Specialisation: fp32 X, Y and Z; the launcher's block sizes for D, T > 64 (``set_block_size``: 64 x 64, BLOCK_SIZE_K
32), Triton's default 4 warps and 3 stages; unit strides declared. SMALL leaves ragged tiles and an empty sequence.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "jagged_jagged_bmm_kernel",
    "signature": {"a_ptr": "*fp32", "a_offset_ptr": "*i64", "b_ptr": "*fp32", "c_ptr": "*fp32",
                  "M": "i32", "N": "i32", "stride_am": "constexpr", "stride_ak": "i32", "stride_bk": "i32",
                  "stride_bn": "constexpr", "stride_cl": "i32", "stride_cm": "i32", "stride_cn": "constexpr",
                  "max_seq_len": "i32"},
    "constexprs": {"stride_am": 1, "stride_bn": 1, "stride_cn": 1, "allow_tf32": True,
                   "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["M", "N", "stride_ak", "stride_bk", "stride_cl", "stride_cm"]}
PROBLEM: dict[str, int] = {"B": 512, "max_seq_len": 1024, "D": 256, "T": 256}
SMALL: dict[str, int] = {"B": 5, "max_seq_len": 150, "D": 80, "T": 112}


@triton.jit
def jagged_jagged_bmm_kernel(
    a_ptr,
    a_offset_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cl,
    stride_cm,
    stride_cn,
    max_seq_len,
    allow_tf32: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
):
    """C = A x B with A (M, sum_B(K_i)), B (sum_B(K_i), N), C (B, M, N)."""
    pid_batch = tl.program_id(0)
    pid = tl.program_id(1)

    # the offsets table has unit stride
    begin = tl.load(a_offset_ptr + pid_batch)
    end = tl.load(a_offset_ptr + pid_batch + 1)
    K = end - begin   # this batch's reduction length
    K = tl.minimum(K, max_seq_len)

    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n

    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak) + begin * stride_ak
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn) + begin * stride_bk

    c = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        updated_offset = k + offs_k
        a = tl.load(a_ptrs, mask=((updated_offset[None, :] < K) & (offs_am[:, None] < M)), other=0.0)
        b = tl.load(b_ptrs, mask=((updated_offset[:, None] < K) & (offs_bn[None, :] < N)), other=0.0)
        c += tl.dot(a, b, allow_tf32=allow_tf32)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    c_ptrs = c_ptr + stride_cm * offs_m[:, None] + stride_cn * offs_n[None, :] + stride_cl * pid_batch
    tl.store(c_ptrs, c, mask=mask)


def _set_block_size(n: int) -> int:
    return 64 if n > 64 else 32 if n > 16 else 16


def make_inputs(B: int, max_seq_len: int, D: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Random lengths in [0, max_seq_len] (sequence 1 empty, the last one longer than max_seq_len, which the kernel
    truncates); X [sum L, D], Y [sum L, T] fp32; int64 offsets as ``asynchronous_complete_cumsum`` returns them."""
    import torch
    gen = torch.Generator(device="cpu").manual_seed(seed)
    lengths = torch.randint(0, max_seq_len + 1, (B,), generator=gen)
    lengths[min(1, B - 1)] = 0
    lengths[-1] = max_seq_len + 17
    offsets = torch.zeros(B + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    total = int(offsets[-1])
    x = torch.randn((total, D), generator=gen).to(device)
    y = torch.randn((total, T), generator=gen).to(device)
    return {"x": x, "y": y, "offsets": offsets.to(device), "max_seq_len": max_seq_len}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``triton_jagged_jagged_bmm(x.T, y, x_offsets, max_seq_len, allow_tf32=True)`` (config ignored)."""
    import torch
    a, b, a_offsets = inputs["x"].T, inputs["y"], inputs["offsets"]
    M, _ = a.shape
    _, N = b.shape
    B = a_offsets.size(0) - 1
    c = torch.empty((B, M, N), device=a.device, dtype=a.dtype)
    BLOCK_SIZE_M = _set_block_size(M)
    BLOCK_SIZE_N = _set_block_size(N)
    BLOCK_SIZE_K = 32
    grid = (B, triton.cdiv(M, BLOCK_SIZE_M) * triton.cdiv(N, BLOCK_SIZE_N))
    jagged_jagged_bmm_kernel[grid](
        a, a_offsets, b, c, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
        c.stride(0), c.stride(1), c.stride(2), inputs["max_seq_len"], True,
        BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K)
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, y, offsets, cap = inputs["x"], inputs["y"], inputs["offsets"].tolist(), inputs["max_seq_len"]
    out = []
    for b in range(len(offsets) - 1):
        lo = offsets[b]
        hi = min(offsets[b + 1], lo + cap)
        out.append(x[lo:hi].double().T @ y[lo:hi].double())
    return torch.stack(out)


def flops(B: int, max_seq_len: int, D: int, T: int) -> float:
    return 2.0 * B * (max_seq_len / 2) * D * T
