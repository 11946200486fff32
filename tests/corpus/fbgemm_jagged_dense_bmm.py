"""FBGEMM-style jagged x dense batched matmul (fbgemm_gpu/triton jagged ops: ``jagged_dense_bmm_kernel`` launched by
``triton_jagged_dense_bmm``, as the jagged ``torch.ops.fbgemm.jagged_dense_bmm`` of recommendation models computes
it): a batch of variable-length sequences packed one after another, A jagged [sum_b L_b, K] with an int64 offsets
table [B + 1], B dense [B, K, N]; C jagged [sum_b L_b, N] with ``C[offsets[b] : offsets[b+1]] = A_b @ B[b]``.

The constructs, as FBGEMM writes them: program id 0 is the batch, program id 1 the flattened (m, n) tile; the
batch's ``begin``/``end`` loaded from the offsets table and the length clamped with ``tl.minimum(M, max_seq_len)``;
three early ``return``s (an empty sequence, a row tile past the sequence's length, a column tile past N); the jagged
base ``begin * stride_am`` folded into the pointer tile; a K loop ``for k in range(0, K, BLOCK_SIZE_K)`` with masks
on the K tail (``k + offs_k < K``) and on the jagged rows (``offs_am < M``), ``c += tl.dot(a, b,
allow_tf32=allow_tf32)`` with an fp32 accumulator; the store masked by the jagged length. Rows of a sequence past
``max_seq_len`` are not written (the output is ``torch.zeros``, as FBGEMM allocates it).

Specialisation: fp16 A and B, fp16 C, 128 x 128 x 32 tiles, 4 warps, 3 stages, unit inner strides. SMALL keeps N
and K multiples of 16 (the spec's divisibility) but leaves ragged row tiles and an empty sequence. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "jagged_dense_bmm_kernel",
    "signature": {"a_ptr": "*fp16", "a_offset_ptr": "*i64", "b_ptr": "*fp16", "c_ptr": "*fp16",
                  "N": "i32", "K": "i32", "stride_am": "i32", "stride_ak": "constexpr", "stride_bl": "i32",
                  "stride_bk": "i32", "stride_bn": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr",
                  "max_seq_len": "i32"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "allow_tf32": False,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["N", "K", "stride_am", "stride_bl", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"B": 256, "max_seq_len": 512, "N": 512, "K": 512}
SMALL: dict[str, int] = {"B": 4, "max_seq_len": 200, "N": 160, "K": 96}


@triton.jit
def jagged_dense_bmm_kernel(
    a_ptr,
    a_offset_ptr,
    b_ptr,
    c_ptr,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bl,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    max_seq_len,
    allow_tf32: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
):
    """
    Kernel for computing C = A x B.
    A has shape (sum_B(Mi), K), B has shape (B, K, N) and C has shape (sum_B(Mi), N)
    """
    pid_batch = tl.program_id(0)
    pid = tl.program_id(1)

    begin = tl.load(a_offset_ptr + pid_batch)
    end = tl.load(a_offset_ptr + pid_batch + 1)
    M = (end - begin).to(tl.int32)
    M = tl.minimum(M, max_seq_len)
    if M == 0:
        return

    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n

    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    if pid_m * BLOCK_SIZE_M >= M:
        return

    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    if pid_n * BLOCK_SIZE_N >= N:
        return

    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + begin * stride_am + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + pid_batch * stride_bl + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn

    c = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        updated_offset = k + offs_k
        a = tl.load(a_ptrs, mask=((updated_offset[None, :] < K) & (offs_am[:, None] < M)), other=0.0)
        b = tl.load(b_ptrs, mask=((updated_offset[:, None] < K) & (offs_bn[None, :] < N)), other=0.0)
        c += tl.dot(a, b, allow_tf32=allow_tf32)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * begin + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c.to(c_ptr.dtype.element_ty), mask=c_mask)


def triton_jagged_dense_bmm(max_seq_len: int, A: Any, a_offsets: Any, B: Any, allow_tf32: bool = False,
                            num_warps: int = 4, num_stages: int = 3) -> Any:
    """FBGEMM's host wrapper: A jagged [sum_B(Mi), K], a_offsets int64 [B + 1], B dense [B, K, N]."""
    import torch
    assert A.size(1) == B.size(1), "incompatible dimensions"
    assert a_offsets.size(0) == B.size(0) + 1

    sum_B, k = A.shape
    batch_size, _k, n = B.shape

    c = torch.zeros((sum_B, n), dtype=A.dtype, device=A.device)

    BLOCK_SIZE_M = 128
    BLOCK_SIZE_N = 128
    BLOCK_SIZE_K = 32

    grid = (batch_size, triton.cdiv(max_seq_len, BLOCK_SIZE_M) * triton.cdiv(n, BLOCK_SIZE_N))

    jagged_dense_bmm_kernel[grid](
        A,
        a_offsets,
        B,
        c,
        n,
        k,
        A.stride(0),
        A.stride(1),
        B.stride(0),
        B.stride(1),
        B.stride(2),
        c.stride(0),
        c.stride(1),
        max_seq_len,
        allow_tf32,
        BLOCK_SIZE_M=BLOCK_SIZE_M,
        BLOCK_SIZE_N=BLOCK_SIZE_N,
        BLOCK_SIZE_K=BLOCK_SIZE_K,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return c


def make_inputs(B: int, max_seq_len: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """B sequence lengths in [0, max_seq_len] (the second one empty, the last one max_seq_len), packed: a fp16
    [sum L, K], offsets int64 [B + 1], b fp16 [B, K, N] scaled so that C has entries of order 1."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(0, max_seq_len + 1, (B,), device=device, generator=g)
    lens[-1] = max_seq_len
    if B > 1:
        lens[1] = 0
    offsets = torch.zeros((B + 1,), device=device, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lens, 0)
    total = int(offsets[-1].item())
    a = torch.randn((total, K), device=device, generator=g).half()
    b = (torch.randn((B, K, N), device=device, generator=g) / K ** 0.5).half()
    return {"a": a, "offsets": offsets, "b": b, "max_seq_len": max_seq_len}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C jagged fp16 [sum L, N], as ``triton_jagged_dense_bmm(max_seq_len, a, offsets, b)`` computes it."""
    return triton_jagged_dense_bmm(inputs["max_seq_len"], inputs["a"], inputs["offsets"], inputs["b"],
                                   num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence A_b @ B[b] in float64 (rows past max_seq_len left zero)."""
    import torch
    a, offsets, b, msl = inputs["a"], inputs["offsets"].tolist(), inputs["b"], inputs["max_seq_len"]
    out = torch.zeros((a.shape[0], b.shape[2]), device=a.device, dtype=torch.float64)
    for i in range(b.shape[0]):
        s, e = offsets[i], min(offsets[i + 1], offsets[i] + msl)
        if e > s:
            out[s:e] = a[s:e].double() @ b[i].double()
    return out


def flops(B: int, max_seq_len: int, N: int, K: int) -> float:
    """About half of max_seq_len rows per sequence on average."""
    return 2.0 * B * (max_seq_len / 2) * N * K
