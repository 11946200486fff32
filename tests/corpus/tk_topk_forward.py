"""triton_kernels' MoE router top-k (triton-lang/triton python/triton_kernels/triton_kernels/topk_details/
_topk_forward.py, ``_topk_forward`` with ``streaming_topk``; the gpt-oss routing path): each program takes BLOCK_M
token rows of the router logits X [n_rows, n_expts_tot] and keeps a running top-k over BLOCK_N-wide column chunks.
Each logit's bits become an order-preserving unsigned key (``x.to(x_utype, bitcast=True)`` then ``fpval_to_key``: a
sign-dependent xor), widened to twice the width with the expert index packed in the low 16 bits (``(x.to(x_ultype)
<< 16) | indx_to_key(...)``), and the chunks merged with ``tl.topk(x, N_EXPTS_ACT, dim=1)``, ``tl.bitonic_merge``
and ``tl.maximum``; the loop walks the chunks BACKWARDS (``X_ptrs -= BLOCK_N``) after a peeled, masked first chunk, and
is chosen by a conditional expression on a constexpr, ``for _i in (tl.static_range if loop_iterations <= 4 else
range)(loop_iterations)``. Then the index rotated to the top bits and the k survivors sorted by expert with
``tl.sort(acc, dim=1, descending=True)``, the fields unpacked, ``tl.softmax(..., dim=1, keep_dims=True)`` over the k
values, and a second loop packing the chosen experts into a bitmatrix with ``tl.reduce_or`` over a 3-D
``tl.where``. Also: ``tl.static_assert``s, ``isinstance(n_rows, tl.tensor)`` on an argument, ``tl.dtype(f"uint{...}")``
dtype constexprs computed from ``X.dtype.element_ty.primitive_bitwidth``, and a memset of a scratch histogram by
the first ``s_blocks`` programs before the early exit.

Deviation from the library: the bitmatrix is row-major [n_rows, n_expts_pad // 32] int32 (the library writes a
transposed uint32 one whose row stride, a constexpr there, follows n_rows). DeepSeek-V3's routing shape: 256 experts,
top-8, fp16 logits. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

N_EXPTS = 256
TOPK = 8
BLOCK_M, BLOCK_N, BLOCK_S = 32, 32, 128
N_EXPTS_PAD = triton.cdiv(N_EXPTS, BLOCK_N) * BLOCK_N
N_WORDS = N_EXPTS_PAD // 32

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_topk_forward",
    "signature": {"X": "*fp16", "stride_xm": "i32", "Yv": "*fp16", "Yi": "*i16", "stride_ym": "i32",
                  "USE_PROVIDED_INDX": "constexpr", "Bits": "*i32", "stride_rm": "constexpr",
                  "stride_rn": "constexpr", "n_rows": "i32", "n_expts_tot": "i32", "S": "*i32",
                  "BLOCK_S": "constexpr", "s_blocks": "i32"},
    "constexprs": {"USE_PROVIDED_INDX": False, "stride_rm": N_WORDS, "stride_rn": 1, "BLOCK_S": BLOCK_S,
                   "APPLY_SOFTMAX": True, "BLOCK_M": BLOCK_M, "N_EXPTS_PAD": N_EXPTS_PAD, "N_EXPTS_ACT": TOPK,
                   "BLOCK_N": BLOCK_N},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["X", "stride_xm", "Yv", "Yi", "stride_ym", "Bits", "S", "n_expts_tot"]}
PROBLEM: dict[str, int] = {"n_rows": 16384}
SMALL: dict[str, int] = {"n_rows": 70}          # three row blocks, the last partial


@triton.jit
def get_topmask_and_fullmask(x):
    tl.static_assert(x.dtype.is_int_unsigned(), "floating-point value must be passed as bits")
    tm: tl.constexpr = 1 << (-1 + x.dtype.primitive_bitwidth)
    fm: tl.constexpr = (1 << x.dtype.primitive_bitwidth) - 1
    tm_arr = tl.full(x.shape, tm, dtype=x.dtype)
    fm_arr = tl.full(x.shape, fm, dtype=x.dtype)
    return tm_arr, fm_arr


@triton.jit
def fpval_to_key(x):
    tm, fm = get_topmask_and_fullmask(x)
    return x ^ tl.where((x & tm) != 0, fm, tm)


@triton.jit
def key_to_fpval(x):
    tm, fm = get_topmask_and_fullmask(x)
    return x ^ tl.where((x & tm) == 0, fm, tm)


# stable top-k tie-breaking value
@triton.jit
def indx_to_key(indx, N_EXPTS_PAD: tl.constexpr):
    return N_EXPTS_PAD - indx


@triton.jit
def key_to_indx(indx, N_EXPTS_PAD: tl.constexpr):
    return N_EXPTS_PAD - indx


@triton.jit
def streaming_topk(X, stride_xm, n_expts_tot, offs_m, mask_m, N_EXPTS_PAD: tl.constexpr, N_EXPTS_ACT: tl.constexpr,
                   BLOCK_N: tl.constexpr):
    x_nbits: tl.constexpr = X.dtype.element_ty.primitive_bitwidth
    x_utype: tl.constexpr = tl.dtype(f"uint{x_nbits}")
    if x_nbits < 16:
        # this ensures that we leave at least 16 bits for expert index
        # even if the input dtype is smaller than 16 bits:
        y_nbits: tl.constexpr = 32
    else:
        y_nbits: tl.constexpr = x_nbits * 2
    x_ultype: tl.constexpr = tl.dtype(f"uint{y_nbits}")
    x_dtype: tl.constexpr = X.dtype.element_ty

    # subtract 1 from loop iterations because we peel the first (masked) iteration:
    loop_iterations: tl.constexpr = N_EXPTS_PAD // BLOCK_N - 1
    offs_x_n = loop_iterations * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_n = offs_x_n[None, :] < n_expts_tot

    # first iteration:
    X_ptrs = X + offs_m[:, None] * stride_xm + offs_x_n[None, :]
    x = tl.load(X_ptrs, mask=(mask_m & mask_n), other=float("-inf"))
    x = fpval_to_key(x.to(x_utype, bitcast=True))
    x = (x.to(x_ultype) << 16) | indx_to_key(offs_x_n, N_EXPTS_PAD)[None, :]
    acc = tl.topk(x, N_EXPTS_ACT, dim=1)

    # subsequent iterations:
    for _i in (tl.static_range if loop_iterations <= 4 else range)(loop_iterations):
        acc = tl.bitonic_merge(acc)  # ensure sorted ascending for the merge
        X_ptrs -= BLOCK_N
        offs_x_n -= BLOCK_N
        x = tl.load(X_ptrs, mask=mask_m, other=float("-inf"))
        x = fpval_to_key(x.to(x_utype, bitcast=True))
        x = (x.to(x_ultype) << 16) | indx_to_key(offs_x_n, N_EXPTS_PAD)[None, :]
        acc = tl.maximum(acc, tl.topk(x, N_EXPTS_ACT, dim=1))

    # rotate expert index into upper 16 bits:
    # 0000vvvvvvvviiii --> iiii0000vvvvvvvv
    acc = (acc << (y_nbits - 16)) | (acc >> 16)
    # sort in ascending order of expert (descending order of key)
    acc = tl.sort(acc, dim=1, descending=True)
    # iiii0000vvvvvvvv --> 0000iiii:
    y_indices_raw = (acc >> (y_nbits - 16)).to(tl.uint32)
    y_indices = key_to_indx(y_indices_raw, N_EXPTS_PAD)
    # iiii0000vvvvvvvv --> vvvvvvvv:
    y_values_raw = acc.to(x_utype)
    y_values = key_to_fpval(y_values_raw).to(x_dtype, bitcast=True)

    return y_values, y_indices


@triton.jit
def _topk_forward(X, stride_xm,  # inputs
                  Yv, Yi, stride_ym,  # topk values/indices
                  USE_PROVIDED_INDX: tl.constexpr, Bits, stride_rm: tl.constexpr, stride_rn: tl.constexpr,  # bitmatrix
                  n_rows, n_expts_tot,  # shape
                  S, BLOCK_S: tl.constexpr, s_blocks,  # thing to memset
                  APPLY_SOFTMAX: tl.constexpr,  # constant
                  BLOCK_M: tl.constexpr, N_EXPTS_PAD: tl.constexpr, N_EXPTS_ACT: tl.constexpr, BLOCK_N: tl.constexpr):

    pid = tl.program_id(0)
    if isinstance(n_rows, tl.tensor) and n_rows.dtype.is_ptr():
        n_rows = tl.load(n_rows)

    if pid < s_blocks:
        tl.store(S + BLOCK_S * pid + tl.arange(0, BLOCK_S), tl.zeros([BLOCK_S], tl.int32))

    if pid * BLOCK_M >= n_rows:
        # early exit:
        return

    tl.static_assert(BLOCK_N % 32 == 0)
    tl.static_assert(N_EXPTS_PAD % BLOCK_N == 0)
    x_dtype: tl.constexpr = X.dtype.element_ty

    # load logits
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_y_n = tl.arange(0, N_EXPTS_ACT)
    mask_m = offs_m[:, None] < n_rows
    if USE_PROVIDED_INDX:
        Yi_ptrs = Yi + offs_m[:, None] * stride_ym + offs_y_n[None, :]
        y_indices = tl.load(Yi_ptrs, mask=mask_m)
        Xv_ptrs = X + offs_m[:, None] * stride_xm + y_indices
        y_values = tl.load(Xv_ptrs, mask=mask_m)
    else:
        y_values, y_indices = streaming_topk(X, stride_xm, n_expts_tot, offs_m, mask_m,  #
                                             N_EXPTS_PAD=N_EXPTS_PAD, N_EXPTS_ACT=N_EXPTS_ACT,  #
                                             BLOCK_N=BLOCK_N)

    # normalize selected values
    if APPLY_SOFTMAX:
        y_values = tl.softmax(y_values.to(tl.float32), dim=1, keep_dims=True).to(x_dtype)

    # write back
    Yv_ptrs = Yv + offs_m[:, None] * stride_ym + offs_y_n[None, :]
    tl.store(Yv_ptrs, y_values, mask=mask_m)
    if not USE_PROVIDED_INDX:
        Yi_ptrs = Yi + offs_m[:, None] * stride_ym + offs_y_n[None, :]
        tl.store(Yi_ptrs, y_indices, mask=mask_m)

    # pack into bitmatrix
    y_div = y_indices // 32
    y_rem = y_indices % 32
    loop_iterations = N_EXPTS_PAD // BLOCK_N
    for i in range(loop_iterations):
        offs_r_n = tl.arange(0, BLOCK_N // 32) + i * (BLOCK_N // 32)
        y2 = tl.where(y_div[:, :, None] == offs_r_n[None, None, :], (1 << y_rem)[:, :, None], 0)
        r = tl.reduce_or(y2, axis=1)
        BitsPtrs = Bits + offs_m[:, None] * stride_rm + offs_r_n[None, :] * stride_rn
        tl.store(BitsPtrs, r, mask=mask_m)


def make_inputs(n_rows: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Router logits [n_rows, 256] fp16 (distinct values per row, so the top-k is unique), and the outputs'
    buffers, allocated here so a launch allocates nothing: values, int16 indices, the bitmatrix, the scratch."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    base = torch.randperm(N_EXPTS * 4, generator=g, device=device)[:N_EXPTS].float()
    perm = torch.stack([torch.randperm(N_EXPTS, generator=g, device=device) for _ in range(n_rows)])
    x = ((base[perm] - 2 * N_EXPTS) / 256.0).half()     # multiples of 1/256 in [-8, 8): exact in fp16
    s_blocks = triton.cdiv(N_EXPTS, BLOCK_S)
    return {"x": x,
            "yv": torch.empty((n_rows, TOPK), device=device, dtype=torch.float16),
            "yi": torch.empty((n_rows, TOPK), device=device, dtype=torch.int16),
            "bits": torch.empty((n_rows, N_WORDS), device=device, dtype=torch.int32),
            "scratch": torch.full((s_blocks * BLOCK_S,), 7, device=device, dtype=torch.int32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(values fp16 [n_rows, k], indices int16 [n_rows, k] ascending by expert, bitmatrix int32, zeroed scratch)."""
    x, yv, yi, bits, s = inputs["x"], inputs["yv"], inputs["yi"], inputs["bits"], inputs["scratch"]
    n_rows, n_cols = x.shape
    s_blocks = triton.cdiv(n_cols, BLOCK_S)
    pids = max(triton.cdiv(n_rows, BLOCK_M), s_blocks)
    _topk_forward[(pids, )](
        x, x.stride(0),  # inputs
        yv, yi, yv.stride(0), False,  # output [topk]
        bits, bits.stride(0), bits.stride(1),  # output [bitmatrix]
        n_rows, n_cols,  # shapes
        s, BLOCK_S, s_blocks,  # thing to memset to zero
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,  # tunable parameter
        APPLY_SOFTMAX=True, N_EXPTS_PAD=N_EXPTS_PAD, N_EXPTS_ACT=TOPK,  # constants
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return yv, yi, bits, s


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].float()
    n_rows = x.shape[0]
    _, idx = torch.topk(x, TOPK, dim=1)
    idx, _ = torch.sort(idx, dim=1)
    vals = torch.softmax(torch.gather(x, 1, idx), dim=1)
    bits = torch.zeros((n_rows, N_WORDS), dtype=torch.int64, device=x.device)
    for j in range(TOPK):
        bits.scatter_add_(1, (idx[:, j] // 32)[:, None], (1 << (idx[:, j] % 32)).long()[:, None])
    bits = torch.where(bits >= 2 ** 31, bits - 2 ** 32, bits)
    scratch = torch.zeros_like(inputs["scratch"])
    return vals.half(), idx.to(torch.int16), bits.to(torch.int32), scratch
