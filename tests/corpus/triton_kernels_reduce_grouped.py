"""triton_kernels' grouped row reduction that ends a MoE ``matmul_ogs`` (triton-lang/triton
python/triton_kernels/triton_kernels/matmul_ogs_details/_reduce_grouped.py, ``_reduce_grouped``, launched by
``reduce_grouped`` in matmul_ogs.py with BLOCK_N = 512, one warp, one program per output row): out[t] = sum over
the K top-k slots i of token t, and over the B split-K partials b, of X[b, InIndx[t, i], :], a slot whose index is
-1 skipped; here with the input in **mxfp8** (fp8e4nv values, one uint8 E8M0 exponent per 32 columns,
HAS_IN_MX_SCALE) and a bf16 output.

The constructs: the K indices **loaded into a tuple** before the loops (``indxs = indxs + (tl.load(...),)`` in a
``tl.static_range``) and a static_range picking the first valid one (unused here); a persistent loop over N tiles
``for n_curr in tl.range(0, N, BLOCK_N, num_stages=4)`` whose body holds a static_range over the K slots, each with
an inner runtime loop ``for b in tl.range(0, B)`` (depth-2 nest, K = 4 inner loops per tile) whose **load address
depends on an earlier load** (``indxs[i] * stride_xm``) and whose mask includes ``indxs[i] != -1``; per partial an
E8M0 scale load, ``(scale.to(tl.uint32) << 23).to(tl.float32, bitcast=True)``, a reshape to [BLOCK_N / 32, 32], a
broadcast multiply and a reshape back; **None arguments** and ``is None`` / ``is not None`` constexpr branches
(``load_scale(XScale)`` returns 1.0, ``float_to_flex`` with all its scale pointers None, ACTIVATION_FN None);
two pointer carries advanced at the end of the tile loop and two more under constexpr ``if``s; int64 strides
(``stride_xm.to(tl.int64)``). Simplified: the flexpoint helpers are copied from numerics_details/flexpoint.py with
``nan_propagating_absmax_reduce`` keeping only its integer path (its sm86 branch calls
``triton_kernels.target_info.cuda_capability_geq``); they are dead code at this specialisation. ACTIVATION_FN,
EPILOGUE_FN and their argument tuples, which triton_kernels binds by ``specialize``, are passed as None.
gpt-oss-120b shapes: 4096 tokens, top-4, hidden 2880, one split. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_N, K_TOPK = 512, 4
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_reduce_grouped",
    "signature": {"X": "*fp8e4nv", "stride_xb": "i32", "stride_xm": "i32", "stride_xn": "constexpr",
                  "Out": "*bf16", "stride_om": "i32", "stride_on": "constexpr", "InIndx": "*i32", "B": "i32", "N": "i32",
                  "XMxScale": "*u8", "stride_mxb": "i32", "stride_mxs": "i32", "stride_omxs": "i32"},
    "constexprs": {"stride_xn": 1, "stride_on": 1, "XScale": None, "OutExpectedScale": None, "OutActualScale": None, "OutChecksumScale": None,
                   "OutMxScale": None, "ACTIVATION_FN": None, "activation_fn_args": None,
                   "ACTIVATION_REDUCTION_N": 1, "EPILOGUE_FN": None, "epilogue_fn_args": None,
                   "HAS_IN_MX_SCALE": True, "HAS_OUT_MX_SCALE": False, "FLEXPOINT_SATURATE_INF": False,
                   "K": K_TOPK, "BLOCK_N": BLOCK_N},
    "num_warps": 1, "num_stages": 3,
    # what a launch at PROBLEM specialises (unit strides as constants; stride_mxs = 2880 / 32 = 90 is not 16-divisible)
    "divisibility": ["stride_xb", "stride_xm", "stride_om", "N", "stride_mxb"]}
PROBLEM: dict[str, int] = {"n_tokens": 4096, "N": 2880, "B": 1}
SMALL: dict[str, int] = {"n_tokens": 24, "N": 1056, "B": 2}

TL_MAX_FINITE_FLOAT8E5 = tl.constexpr(57344.0)
TL_MAX_FINITE_FLOAT8E4NV = tl.constexpr(448.0)
TL_MAX_FINITE_FLOAT8E4B8 = tl.constexpr(240.0)
TL_MAX_FINITE_FLOAT8E4B15 = tl.constexpr(1.750)
TL_MAX_FINITE_FLOAT16 = tl.constexpr(65472.0)

TL_RCP_MAX_FINITE_FLOAT8E5 = tl.constexpr(0x37924925)  # 0x1.24924Ap-16
TL_RCP_MAX_FINITE_FLOAT8E4NV = tl.constexpr(0x3B124925)  # 0x1.24924Ap-9
TL_RCP_MAX_FINITE_FLOAT8E4B8 = tl.constexpr(0x3B888889)  # 0x1.111112p-8
TL_RCP_MAX_FINITE_FLOAT8E4B15 = tl.constexpr(0x3F124925)  # 0x1.24924Ap-1
TL_RCP_MAX_FINITE_FLOAT16 = tl.constexpr(0x37802008)  # 0x1.004010p-16


@triton.jit
def max_finite(dtype):
    if dtype == tl.constexpr(tl.float8e5):
        return TL_MAX_FINITE_FLOAT8E5
    elif dtype == tl.constexpr(tl.float8e4nv):
        return TL_MAX_FINITE_FLOAT8E4NV
    elif dtype == tl.constexpr(tl.float8e4b8):
        return TL_MAX_FINITE_FLOAT8E4B8
    elif dtype == tl.constexpr(tl.float8e4b15):
        return TL_MAX_FINITE_FLOAT8E4B15
    elif dtype == tl.constexpr(tl.float16):
        return TL_MAX_FINITE_FLOAT16
    else:
        tl.static_assert(tl.constexpr(False), f"{dtype} not supported in flexpoint")


@triton.jit
def rcp_max_finite(dtype):
    if dtype == tl.constexpr(tl.float8e5):
        return TL_RCP_MAX_FINITE_FLOAT8E5
    elif dtype == tl.constexpr(tl.float8e4nv):
        return TL_RCP_MAX_FINITE_FLOAT8E4NV
    elif dtype == tl.constexpr(tl.float8e4b8):
        return TL_RCP_MAX_FINITE_FLOAT8E4B8
    elif dtype == tl.constexpr(tl.float8e4b15):
        return TL_RCP_MAX_FINITE_FLOAT8E4B15
    elif dtype == tl.constexpr(tl.float16):
        return TL_RCP_MAX_FINITE_FLOAT16
    else:
        tl.static_assert(tl.constexpr(False), f"{dtype} not supported in flexpoint")


@triton.jit
def load_scale(scale_ptr):
    return 1.0 if scale_ptr is None else tl.load(scale_ptr)


@triton.jit
def clip(x, limit):
    return tl.clamp(x, -limit, limit)


@triton.jit
def nan_propagating_absmax_reduce(x, axis=None):
    # (the library's sm86 max.NaN.xorsign.abs branch dropped, see the module docstring)
    # Clear the sign bit, max-reduce as integer (same as NaN-propagating max-reduce as float)
    masked_abs_x = x.to(tl.uint32, bitcast=True) & 0x7FFFFFFF
    x_absmax = tl.max(masked_abs_x, axis)
    return x_absmax


@triton.jit
def compute_scale(x, Out):
    x_absmax = nan_propagating_absmax_reduce(tl.ravel(x, can_reorder=True))

    # atomic_max does not propagate NaNs, so we replace them with +inf (0x7f800000).
    # We use integer minimum because NaNs are above +inf in integer representation.
    x_absmax = tl.minimum(x_absmax, 0x7F800000).to(tl.float32, bitcast=True)
    RCP_MAX_VALUE = rcp_max_finite(Out.dtype.element_ty)
    return tl.fma(x_absmax, RCP_MAX_VALUE.to(tl.float32, bitcast=True), 1.0e-30)


@triton.jit
def update_scale(x, scale_ptr, Out) -> None:
    if scale_ptr is not None:
        scale = compute_scale(x, Out)
        tl.atomic_max(scale_ptr, scale, sem="relaxed")


@triton.jit
def float_to_flex(
    x,
    expected_scale_ptr_or_val,
    actual_scale_ptr,
    checksum_scale_ptr,
    mask,
    Out,
    saturate_infs: tl.constexpr,
):
    if expected_scale_ptr_or_val is not None:
        if expected_scale_ptr_or_val.dtype.is_ptr():
            invscale = 1.0 / tl.load(expected_scale_ptr_or_val)
        else:
            invscale = 1.0 / expected_scale_ptr_or_val
    else:
        invscale = 1.0
    if checksum_scale_ptr is not None:
        x_int32 = x.to(tl.int32, bitcast=True)
        zero = tl.cast(0.0, tl.int32)
        if mask is not None:
            x_int32 = tl.where(mask, x_int32, zero)
        checksum_local = tl.xor_sum(tl.ravel(x_int32, can_reorder=True), 0)
        tl.atomic_add(checksum_scale_ptr, checksum_local)
    if mask is not None:
        if actual_scale_ptr is not None:
            x = tl.where(mask, x, 0.0)
    update_scale(x, actual_scale_ptr, Out)
    x = x * invscale
    # if expected_scale_ptr is not None, we applied flexpoint scale. We only want to clip in this case.
    if expected_scale_ptr_or_val is not None:
        if saturate_infs:
            CLIP_VALUE = max_finite(Out.dtype.element_ty)
            x = clip(x, CLIP_VALUE)
    return x


@triton.jit
def _reduce_grouped(X, stride_xb, stride_xm, stride_xn,  #
                    XScale,  # input scalar flex scale
                    Out, stride_om, stride_on,  # output tensor
                    OutExpectedScale, OutActualScale, OutChecksumScale,  # output scalar flex scales
                    InIndx, B, N,  #
                    XMxScale, stride_mxb, stride_mxs,  # optional per-32-col output MXFP scales (uint8)
                    OutMxScale, stride_omxs,  # optional per-32-col output MXFP scales (uint8)
                    # fused activation function
                    ACTIVATION_FN: tl.constexpr, activation_fn_args, ACTIVATION_REDUCTION_N: tl.constexpr,
                    # epilogue transform
                    EPILOGUE_FN: tl.constexpr, epilogue_fn_args,
                    #
                    HAS_IN_MX_SCALE: tl.constexpr, HAS_OUT_MX_SCALE: tl.constexpr, FLEXPOINT_SATURATE_INF: tl.constexpr,
                    K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_t = tl.program_id(0)
    stride_xm = stride_xm.to(tl.int64)
    stride_xb = stride_xb.to(tl.int64)
    BLOCK_N_OUT: tl.constexpr = BLOCK_N // ACTIVATION_REDUCTION_N
    # persistent along N: single program on N, iterate tiles of size BLOCK_N
    start = pid_t * K
    # load indices into a tuple
    if InIndx is None:
        indxs = (pid_t, )
    else:
        indxs = ()
        for i in tl.static_range(0, K):
            indxs = indxs + (tl.load(InIndx + start + i), )
    # determine first valid topk row
    fi = indxs[(K - 1)]
    for i in tl.static_range(K - 2, -1, -1):
        fi = tl.where(indxs[i] != -1, indxs[i], fi)
    # record overwritten row index (may be -1 if none)
    XPtrs = X + tl.arange(0, BLOCK_N) * stride_xn
    OutPtrs = Out + tl.arange(0, BLOCK_N_OUT) * stride_on
    if HAS_IN_MX_SCALE:
        XScalePtrs = XMxScale + tl.arange(0, BLOCK_N // 32) * stride_xn
    if HAS_OUT_MX_SCALE:
        OutScalePtrs = OutMxScale + tl.arange(0, BLOCK_N_OUT // 32) * stride_on
    x_scale = load_scale(XScale)
    for n_curr in tl.range(0, N, BLOCK_N, num_stages=4):
        acc = tl.zeros([BLOCK_N_OUT], dtype=tl.float32)
        x_n_mask = tl.arange(0, BLOCK_N) < N - n_curr
        x_n_mask_scale = tl.arange(0, BLOCK_N // 32) < tl.cdiv(N - n_curr, 32)
        # accumulate contributions for this tile
        for i in tl.static_range(0, K):
            curr = tl.zeros([BLOCK_N], dtype=tl.float32)
            # iterate over split_k partial values
            for b in tl.range(0, B):
                is_valid = indxs[i] != -1
                x_row_ptr = XPtrs + indxs[i] * stride_xm + b * stride_xb
                vals = tl.load(x_row_ptr, mask=x_n_mask & is_valid, other=0.0)
                vals = vals.to(tl.float32)
                if HAS_IN_MX_SCALE:
                    scale_row_ptr = XScalePtrs + indxs[i] * stride_mxs + b * stride_mxb
                    scale = tl.load(scale_row_ptr, mask=x_n_mask_scale & is_valid, other=0.)
                    scale = (scale.to(tl.uint32) << 23).to(tl.float32, bitcast=True)
                    vals = vals.reshape([BLOCK_N // 32, 32])
                    vals = (scale[:, None] * vals).reshape([BLOCK_N])
                curr += vals
            # apply nonlinearity to split-k output
            if ACTIVATION_FN is not None:
                curr = ACTIVATION_FN(curr[None, :], *activation_fn_args)
            curr = tl.reshape(curr, [curr.shape[-1]])
            # update final accumulator
            acc += curr
        acc *= x_scale
        # Compute per-32-col MXFP scales for this tile if requested
        Nrem = (N - n_curr) // ACTIVATION_REDUCTION_N
        out_n_mask = tl.arange(0, BLOCK_N_OUT) < Nrem
        out_n_mask_scale = tl.arange(0, BLOCK_N_OUT // 32) < tl.cdiv(Nrem, 32)
        if HAS_OUT_MX_SCALE:
            acc, acc_scale = dequantize_mxfp8_fn(acc[None, :], out_n_mask[None, :])  # noqa: F821 (dead here)
            acc = tl.reshape(acc, [acc.shape[-1]])
            acc_scale = tl.reshape(acc_scale, [acc_scale.shape[-1]])
        # Convert to flexpoint output if configured (scalar scales)
        acc = float_to_flex(acc, OutExpectedScale, OutActualScale, OutChecksumScale, None, Out, FLEXPOINT_SATURATE_INF)
        # write-back for this tile
        out_ptr = OutPtrs + pid_t * stride_om
        tl.store(out_ptr, acc, mask=out_n_mask)
        if HAS_OUT_MX_SCALE:
            out_scale_ptr = OutScalePtrs + pid_t * stride_omxs
            tl.store(out_scale_ptr, acc_scale, mask=out_n_mask_scale)
        XPtrs += BLOCK_N * stride_xn
        OutPtrs += BLOCK_N_OUT * stride_on
        if HAS_IN_MX_SCALE:
            XScalePtrs += BLOCK_N // 32 * stride_xn
        if HAS_OUT_MX_SCALE:
            OutScalePtrs += BLOCK_N_OUT // 32 * stride_xn


def make_inputs(n_tokens: int, N: int, B: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """X [B, n_tokens * K, N] fp8e4nv with E8M0 scales [B, n_tokens * K, N / 32] (exponents 120..133), and
    InIndx [n_tokens, K]: a permutation of the rows, every 7th slot -1 (a dropped expert)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    rows = n_tokens * K_TOPK
    x = torch.randn((B, rows, N), device=device, generator=g).clamp(-400, 400).to(torch.float8_e4m3fn)
    sc = torch.randint(120, 134, (B, rows, N // 32), device=device, generator=g).to(torch.uint8)
    perm = torch.randperm(rows, device=device, generator=g).to(torch.int32)
    perm[::7] = -1
    return {"x": x, "x_mx_scale": sc, "indx": perm.view(n_tokens, K_TOPK).contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Out [n_tokens, N] bf16, one program per token (``reduce_grouped``'s launch)."""
    import torch
    x, sc, indx = inputs["x"], inputs["x_mx_scale"], inputs["indx"]
    B, rows, N = x.shape
    n_tokens = indx.shape[0]
    out = torch.empty((n_tokens, N), device=x.device, dtype=torch.bfloat16)
    _reduce_grouped[(n_tokens, )](
        x, x.stride(0), x.stride(1), x.stride(2),  #
        None,  # scalar input scale
        out, out.stride(0), out.stride(1),  #
        None, None, None, indx,  #
        B, N,  #
        sc, sc.stride(0), sc.stride(1),  #
        None, 0,  #
        None, None, 1,
        None, None,
        HAS_IN_MX_SCALE=True, HAS_OUT_MX_SCALE=False,
        FLEXPOINT_SATURATE_INF=False,  #
        BLOCK_N=BLOCK_N, K=K_TOPK,  #
        num_warps=config.get("num_warps", 1),  #
    )
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """sum over valid slots and partials of fp32(x) * 2^(scale - 127), then bf16."""
    import torch
    x, sc, indx = inputs["x"].float(), inputs["x_mx_scale"], inputs["indx"].long()
    B, rows, N = x.shape
    deq = (x.view(B, rows, N // 32, 32) * torch.exp2(sc.float() - 127)[..., None]).view(B, rows, N).sum(0)
    valid = (indx != -1)
    g = deq[indx.clamp_min(0)] * valid[..., None]
    return g.sum(1).to(torch.bfloat16).float()


def flops(n_tokens: int, N: int, B: int) -> float:
    """A multiply and an add per element read: 2 * n_tokens * K * B * N."""
    return 2.0 * n_tokens * K_TOPK * B * N
