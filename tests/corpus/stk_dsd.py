"""stk's block-sparse x dense matmul (stanford-futuredata/stk, stk/backend/triton_kernels.py ``_dsd_kernel``, as
``stk.ops.dsd`` launches it and MegaBlocks' dMoE runs its second FFN matmul): C [M, N] = A @ B with A an
``stk.Matrix`` of BLOCK_SIZE x BLOCK_SIZE fp16 blocks stored compressed as data [nnz, 128, 128] with CSR block
metadata (``offsets`` int32 [M / 128 + 1], ``column_indices`` int16 [nnz], as stk's validation requires) and B
dense [K, N].

The constructs, as the library writes them: the grid (M blocks, N blocks) reordered by ``tl.swizzle2d(pid_n, pid_m,
num_pid_n, num_pid_m, GROUP_M)`` over ``tl.num_programs``; the block row's nonzero range loaded from ``offsets``
(``start_inx``, ``end_inx``); ONE loop of ``nsub_blocks * (end_inx - start_inx)`` iterations (a bound read from
memory, zero for an empty block row) splitting its counter by ``k % nsub_blocks`` and ``k // nsub_blocks``; A's
tile addressed from the block's position in the compressed data (``(start_inx + block_inx) * BLOCK_ELEMENTS``; the
``trans_A`` constexpr branch would read ``block_offsets_t`` instead) and B's rows from an int16 column index loaded
every iteration (``tl.load(column_indices + start_inx + block_inx) * bk_block_incr``); unmasked loads,
``acc += tl.dot(a, b)`` in ``ACC_TYPE`` (fp32, a tl dtype passed by the host), ``acc.to(C.dtype.element_ty)`` and
a ``mask=True`` store, zeros for an empty row. The library's ``@triton.autotune`` (one config: BLOCK_M = BLOCK_N =
BLOCK_SIZE = 128, BLOCK_K = 32, 4 stages, 4 warps), so the launch passes no block sizes; GROUP_M = 128. Row major
A blocks and B (trans_A, trans_B False). Every seventh block row is empty here, so some programs run no iteration.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_dsd_kernel",
    "signature": {"A": "*fp16", "B": "*fp16", "C": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr", "row_indices": "*i16", "column_indices": "*i16",
                  "offsets": "*i32", "block_offsets_t": "*i32"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "trans_A": False, "trans_B": False,
                   "BLOCK_M": BLOCK, "BLOCK_N": BLOCK, "BLOCK_K": 32, "BLOCK_SIZE": BLOCK, "GROUP_M": 128,
                   "ACC_TYPE": "fp32"},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm", "row_indices",
                     "column_indices", "offsets", "block_offsets_t"]}
PROBLEM: dict[str, Any] = {"M": 8192, "N": 2048, "K": 8192, "density": 0.25}
SMALL: dict[str, Any] = {"M": 1024, "N": 384, "K": 768, "density": 0.5}


@triton.autotune(
    configs=[
        # basic configs for compute-bound matmuls
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 32, 'BLOCK_SIZE': 128}, num_stages=4, num_warps=4),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def _dsd_kernel(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                row_indices, column_indices, offsets, block_offsets_t, trans_A: tl.constexpr, trans_B: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                GROUP_M: tl.constexpr, ACC_TYPE: tl.constexpr):
    # twill corpus rendition: one K loop over a block row's nonzero blocks, split into BLOCK_K sub-blocks
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    num_pid_m = tl.num_programs(0)
    num_pid_n = tl.num_programs(1)
    pid_n, pid_m = tl.swizzle2d(pid_n, pid_m, num_pid_n, num_pid_m, GROUP_M)

    start_inx = tl.load(offsets + pid_m)
    end_inx = tl.load(offsets + pid_m + 1)

    # the sparse operand's tile within a block
    rm = tl.arange(0, BLOCK_M)
    rak = tl.arange(0, BLOCK_K)
    A += (rm[:, None] * stride_am + rak[None, :] * stride_ak)

    # the dense operand's tile
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rbk = tl.arange(0, BLOCK_K)
    B += (rbk[:, None] * stride_bk + rn[None, :] * stride_bn)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    nsub_blocks = tl.cdiv(BLOCK_SIZE, BLOCK_K)

    BLOCK_ELEMENTS = BLOCK_SIZE * BLOCK_SIZE
    ak_sub_incr = BLOCK_K * stride_ak
    bk_sub_incr = BLOCK_K * stride_bk
    bk_block_incr = BLOCK_SIZE * stride_bk

    for k in range(nsub_blocks * (end_inx - start_inx)):
        sub_block_inx = k % nsub_blocks
        block_inx = k // nsub_blocks
        if trans_A:
            ptr_A = A + tl.load(block_offsets_t + start_inx + block_inx) * BLOCK_ELEMENTS + sub_block_inx * ak_sub_incr
        else:
            ptr_A = A + (start_inx + block_inx) * BLOCK_ELEMENTS + sub_block_inx * ak_sub_incr
        ptr_B = B + tl.load(column_indices + start_inx + block_inx) * bk_block_incr + sub_block_inx * bk_sub_incr
        a = tl.load(ptr_A)
        b = tl.load(ptr_B)
        acc += tl.dot(a, b)

    acc = acc.to(C.dtype.element_ty)
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    C = C + (cm[:, None] * stride_cm + cn[None, :] * stride_cn)
    tl.store(C, acc, mask=True)


def make_inputs(M: int, N: int, K: int, density: float, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A random block-sparse A (stk's Matrix: data, offsets, row/column indices and the transposed metadata, all
    built here on the host side of the launch), every seventh block row empty; B [K, N] fp16."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    mb, kb = M // BLOCK, K // BLOCK
    mask = torch.rand((mb, kb), device=device, generator=gen) < density
    mask[3::7] = False                                       # empty block rows: programs with no iteration
    rows, cols = mask.nonzero(as_tuple=True)                 # row-major order, as stk stores the blocks
    nnz = rows.numel()
    offsets = torch.zeros(mb + 1, dtype=torch.int32, device=device)
    offsets[1:] = torch.cumsum(mask.sum(1), 0).to(torch.int32)
    order_t = torch.argsort(cols * mb + rows)                # the blocks in column-major order (stk's _transpose)
    offsets_t = torch.zeros(kb + 1, dtype=torch.int32, device=device)
    offsets_t[1:] = torch.cumsum(mask.sum(0), 0).to(torch.int32)
    data = (torch.randn((nnz, BLOCK, BLOCK), device=device, generator=gen) / 16).half()
    b = torch.randn((K, N), device=device, generator=gen).half()
    return {"data": data, "rows": rows.to(torch.int16), "cols": cols.to(torch.int16), "offsets": offsets,
            "offsets_t": offsets_t, "cols_t": rows[order_t].to(torch.int16),
            "block_offsets_t": order_t.to(torch.int32), "shape": (M, K), "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [M, N] fp16 as ``stk.ops.dsd`` computes it (``backend.triton_kernels.dsd``; config ignored: autotuned)."""
    import torch
    data, rhs, (M, K) = inputs["data"], inputs["b"], inputs["shape"]
    _, N = rhs.shape
    out = torch.empty((M, N), dtype=rhs.dtype, device=rhs.device)
    trans_A, trans_B = False, False
    if rhs.stride(0) > 1 and rhs.stride(1) > 1:
        trans_B = True
    ACC_TYPE = tl.float32 if rhs.dtype in [torch.float16, torch.bfloat16, torch.float32] else tl.int32
    stride_am, stride_ak = data.stride(1), data.stride(2)
    stride_bk, stride_bn = rhs.stride(0), rhs.stride(1)
    a_column_indices, a_offsets = inputs["cols"], inputs["offsets"]
    if trans_A:
        stride_am, stride_ak = data.stride(2), data.stride(1)
        a_column_indices, a_offsets = inputs["cols_t"], inputs["offsets_t"]
    if trans_B:
        stride_bk, stride_bn = rhs.stride(1), rhs.stride(0)
    grid = lambda META: (triton.cdiv(M, META['BLOCK_M']), triton.cdiv(N, META['BLOCK_N']))  # noqa: E731
    _dsd_kernel[grid](
        data, rhs, out, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, out.stride(0), out.stride(1),
        inputs["rows"], a_column_indices, a_offsets, inputs["block_offsets_t"], trans_A, trans_B,
        GROUP_M=128, ACC_TYPE=ACC_TYPE)
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    data, b, (M, K) = inputs["data"], inputs["b"], inputs["shape"]
    dense = torch.zeros((M // BLOCK, K // BLOCK, BLOCK, BLOCK), dtype=torch.float64, device=b.device)
    dense[inputs["rows"].long(), inputs["cols"].long()] = data.double()
    dense = dense.permute(0, 2, 1, 3).reshape(M, K)
    return dense @ b.double()


def flops(M: int, N: int, K: int, density: float) -> float:
    return 2.0 * M * N * K * density * 6 / 7
