"""generative-recommenders' ``_ragged_hstu_attn_fwd`` (generative_recommenders/ops/triton/triton_hstu_attention.py)
with its fused relative attention bias: HSTU's pointwise SiLU attention over jagged sequences, one program per
BLOCK_M query rows of one sequence and head.

The constructs: **jagged offsets** (``seq_offsets`` int64, the sequence's length a loaded difference, an early return
past it) and a loaded ``num_targets`` per sequence (the target tokens clamped to the last history position with
``tl.where`` on the row and column indices); **block pointers** for Q / K / V (``tl.make_block_ptr`` with
``boundary_check`` and ``padding_option="zero"``, K's block pointer ``order=(0, 1)``, both advanced by BLOCK_N a
step); the loop body a ``@triton.jit`` helper (``_ragged_hstu_attn_fwd_one_block``) returning the step's
``tl.dot(silu, v)`` that the loop adds into ``acc``; in it a **relative time bias** -- the loaded int64 timestamps'
difference ``ts_0[:, None] - ts_1[None, :]`` plus a delta, clamped, scaled, ``tl.log``-bucketized, cast to int32
and clamped again, then **gathered** from the [num_buckets + 1] fp32 table ``TW`` by that [BLOCK_M, BLOCK_N] index
tile -- and a **relative position bias** gathered from the [2 * MAX_SEQ_LEN - 1] table ``PW`` at ``n - m +
MAX_SEQ_LEN - 1``; the SiLU written as libdevice's ``fast_dividef(qk, 1 + exp(-qk))`` over MAX_SEQ_LEN; the causal
``invalid_mask`` (``m == n or n - m < 0``) applied with ``tl.where``. The loop runs from 0 to the causal bound
``min(seq_len, start_m + BLOCK_M)``. Options as the library's forward sets them for HSTU's ranking model
(CAUSAL, lower-triangular, fused bias, log buckets). bf16 as the library runs. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_ragged_hstu_attn_fwd",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "seq_offsets": "*i64", "TS": "*i64", "TW": "*fp32",
                  "PW": "*fp32", "num_targets": "*i32", "Out": "*bf16", "stride_qm": "i32", "stride_qh": "i32",
                  "stride_kn": "i32", "stride_kh": "i32", "stride_vn": "i32", "stride_vh": "i32", "stride_ts": "i32",
                  "stride_om": "i32", "stride_oh": "i32", "alpha": "fp32", "num_buckets": "i32",
                  "time_bucket_incr": "fp32", "time_bucket_div": "fp32", "time_delta": "fp32", "Z": "i32", "H": "i32"},
    "constexprs": {"MAX_SEQ_LEN": 2048, "DimQ": 128, "DimV": 128, "HAS_MULTIPLE_TARGETS": True,
                   "USE_TIME_BIAS": True, "USE_POS_BIAS": True, "ALLOW_TF32": False, "BLOCK_M": 128,
                   "BLOCK_N": 64},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["stride_qm", "stride_kn", "stride_vn", "stride_om", "stride_ts"]}
# HSTU's ranking configuration: 4 heads of 128, user histories up to 2048 events, 16 sequences
PROBLEM: dict[str, int] = {"B": 16, "MAX_LEN": 2048}
SMALL: dict[str, int] = {"B": 3, "MAX_LEN": 300}
H_, D_ = 4, 128
NUM_BUCKETS = 128


@triton.jit
def fast_dividef(x, y):
    return libdevice.fast_dividef(x, y)


@triton.jit
def _ragged_hstu_attn_fwd_one_block(start_n, seq_len, offs_m, offs_n, mask_m, mask_n, q, K_block_ptr, V_block_ptr,
                                    n_targets, ts_1_ptrs, ts_0, TW, PW, alpha, MAX_SEQ_LEN, num_buckets,
                                    time_bucket_incr, time_bucket_div, time_delta,
                                    HAS_MULTIPLE_TARGETS: tl.constexpr, USE_TIME_BIAS: tl.constexpr,
                                    USE_POS_BIAS: tl.constexpr, ALLOW_TF32: tl.constexpr, BLOCK_M: tl.constexpr,
                                    BLOCK_N: tl.constexpr):
    start_n = tl.multiple_of(start_n, BLOCK_N)
    k = tl.load(K_block_ptr, boundary_check=(1,), padding_option="zero")
    qk = tl.dot(q, k, allow_tf32=ALLOW_TF32) * alpha
    invalid_mask = offs_m[:, None] == offs_n[None, :]
    if HAS_MULTIPLE_TARGETS:
        offs_m = tl.where(offs_m < seq_len - n_targets, offs_m, seq_len - n_targets)
        offs_n = tl.where(offs_n < seq_len - n_targets, offs_n, seq_len - n_targets)
    offs_n_minus_m = offs_n[None, :] - offs_m[:, None]
    invalid_mask = invalid_mask | (offs_n_minus_m < 0)
    attn_bias = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    if USE_TIME_BIAS:
        ts_1 = tl.load(ts_1_ptrs + start_n, mask=mask_n)
        ts = ts_0[:, None] - ts_1[None, :]
        ts = ts + time_delta
        ts = tl.where(ts > 1e-6, ts, 1e-6)
        ts = ts * (1.0 / time_bucket_incr)
        ts = tl.log(ts)
        ts = ts * (1.0 / time_bucket_div)
        ts = ts.to(tl.int32)
        ts = tl.where(ts > 0, ts, 0)
        ts = tl.where(ts < num_buckets, ts, num_buckets)
        ts_w = tl.load(TW + ts, mask=mask_m[:, None] & mask_n[None, :])
        attn_bias = attn_bias + ts_w
    if USE_POS_BIAS:
        offs_pos_w = offs_n_minus_m + MAX_SEQ_LEN - 1
        pos_w = tl.load(PW + offs_pos_w, mask=mask_m[:, None] & mask_n[None, :])
        attn_bias = attn_bias + pos_w
    qk = qk + attn_bias
    silu = fast_dividef(qk, 1.0 + tl.exp(-qk)) * (1.0 / MAX_SEQ_LEN)
    silu = tl.where(invalid_mask, silu, 0)
    v = tl.load(V_block_ptr, boundary_check=(0,), padding_option="zero")
    return tl.dot(silu.to(v.dtype), v, allow_tf32=ALLOW_TF32)


@triton.jit
def _ragged_hstu_attn_fwd(Q, K, V, seq_offsets, TS, TW, PW, num_targets, Out, stride_qm, stride_qh, stride_kn,
                          stride_kh, stride_vn, stride_vh, stride_ts, stride_om, stride_oh, alpha, num_buckets,
                          time_bucket_incr, time_bucket_div, time_delta, Z, H, MAX_SEQ_LEN: tl.constexpr,
                          DimQ: tl.constexpr, DimV: tl.constexpr, HAS_MULTIPLE_TARGETS: tl.constexpr,
                          USE_TIME_BIAS: tl.constexpr, USE_POS_BIAS: tl.constexpr, ALLOW_TF32: tl.constexpr,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    pid = tl.program_id(0)
    seq_start = tl.load(seq_offsets + off_z)
    seq_end = tl.load(seq_offsets + off_z + 1)
    seq_len = (seq_end - seq_start).to(tl.int32)
    if HAS_MULTIPLE_TARGETS:
        n_targets = tl.load(num_targets + off_z).to(tl.int32)
    else:
        n_targets = None
    start_m = pid * BLOCK_M
    if start_m < seq_len:
        offs_m = start_m + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        mask_m = offs_m < seq_len
        Q_block_ptr = tl.make_block_ptr(base=Q + off_h * stride_qh + seq_start * stride_qm, shape=(seq_len, DimQ),
                                        strides=(stride_qm, 1), offsets=(start_m, 0), block_shape=(BLOCK_M, DimQ),
                                        order=(1, 0))
        K_block_ptr = tl.make_block_ptr(base=K + off_h * stride_kh + seq_start * stride_kn, shape=(DimQ, seq_len),
                                        strides=(1, stride_kn), offsets=(0, 0), block_shape=(DimQ, BLOCK_N),
                                        order=(0, 1))
        V_block_ptr = tl.make_block_ptr(base=V + off_h * stride_vh + seq_start * stride_vn, shape=(seq_len, DimV),
                                        strides=(stride_vn, 1), offsets=(0, 0), block_shape=(BLOCK_N, DimV),
                                        order=(1, 0))
        q = tl.load(Q_block_ptr, boundary_check=(0,), padding_option="zero")
        acc = tl.zeros([BLOCK_M, DimV], dtype=tl.float32)
        ts_0 = None
        ts_1_ptrs = None
        if USE_TIME_BIAS:
            ts_0_ptrs = TS + off_z * stride_ts + offs_m
            ts_1_ptrs = TS + off_z * stride_ts + offs_n
            ts_0 = tl.load(ts_0_ptrs + 1, mask=mask_m)
        # causal: the keys up to this block's last row
        high = tl.minimum(seq_len, start_m + BLOCK_M)
        for start_n in range(0, high, BLOCK_N):
            cur_offs_n = offs_n + start_n
            mask_n = cur_offs_n < seq_len
            acc += _ragged_hstu_attn_fwd_one_block(
                start_n=start_n, seq_len=seq_len, offs_m=offs_m, offs_n=cur_offs_n, mask_m=mask_m, mask_n=mask_n,
                q=q, K_block_ptr=K_block_ptr, V_block_ptr=V_block_ptr, n_targets=n_targets, ts_1_ptrs=ts_1_ptrs,
                ts_0=ts_0, TW=TW, PW=PW, alpha=alpha, MAX_SEQ_LEN=MAX_SEQ_LEN, num_buckets=num_buckets,
                time_bucket_incr=time_bucket_incr, time_bucket_div=time_bucket_div, time_delta=time_delta,
                HAS_MULTIPLE_TARGETS=HAS_MULTIPLE_TARGETS, USE_TIME_BIAS=USE_TIME_BIAS, USE_POS_BIAS=USE_POS_BIAS,
                ALLOW_TF32=ALLOW_TF32, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
            K_block_ptr = tl.advance(K_block_ptr, (0, BLOCK_N))
            V_block_ptr = tl.advance(V_block_ptr, (BLOCK_N, 0))
        offs_v_d = tl.arange(0, DimV)
        off_o = Out + seq_start * stride_om + off_h * stride_oh
        out_ptrs = off_o + offs_m[:, None] * stride_om + offs_v_d[None, :]
        tl.store(out_ptrs, acc.to(Out.dtype.element_ty), mask=mask_m[:, None])


def make_inputs(B: int, MAX_LEN: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """B user histories of lengths between MAX_LEN / 4 and MAX_LEN (the last MAX_LEN) packed: q, k, v [tokens, 4, 128]
    bf16 (scaled so the SiLU sees scores of order one); seq_offsets int64 [B + 1]; timestamps int64 [B, MAX_LEN + 1]
    (seconds, increasing); num_targets int32 [B] (1 to 8 candidates at each history's end); the bias tables fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(MAX_LEN // 4, MAX_LEN + 1, (B,), device=device, generator=g)
    lens[-1] = MAX_LEN
    offsets = torch.zeros(B + 1, device=device, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lens, 0)
    total = int(offsets[-1])
    q, k, v = (torch.randn((total, H_, D_), device=device, generator=g).bfloat16() for _ in range(3))
    gaps = torch.randint(1, 3600, (B, MAX_LEN + 1), device=device, generator=g)
    ts = torch.cumsum(gaps, 1).to(torch.int64)
    targets = torch.randint(1, 9, (B,), device=device, generator=g).to(torch.int32)
    tw = torch.randn((NUM_BUCKETS + 1,), device=device, generator=g) / 2
    pw = torch.randn((2 * 2048 - 1,), device=device, generator=g) / 2
    return {"q": q, "k": k, "v": v, "offsets": offsets, "ts": ts, "targets": targets, "tw": tw, "pw": pw,
            "max_len": MAX_LEN, "alpha": 1.0 / D_ ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """HSTU's forward: o [tokens, 4, 128] bf16 (MAX_SEQ_LEN fixed at the tables' 2048: the SiLU's divisor)."""
    import torch
    q, k, v, ts = inputs["q"], inputs["k"], inputs["v"], inputs["ts"]
    o = torch.empty_like(v)
    B = inputs["offsets"].numel() - 1
    grid = (triton.cdiv(inputs["max_len"], 128), B * H_)
    _ragged_hstu_attn_fwd[grid](
        q, k, v, inputs["offsets"], ts, inputs["tw"], inputs["pw"], inputs["targets"], o, q.stride(0), q.stride(1),
        k.stride(0), k.stride(1), v.stride(0), v.stride(1), ts.stride(0), o.stride(0), o.stride(1), inputs["alpha"],
        NUM_BUCKETS, 60.0, 1.0, 0.01, B, H_, MAX_SEQ_LEN=2048, DimQ=D_, DimV=D_, HAS_MULTIPLE_TARGETS=True,
        USE_TIME_BIAS=True, USE_POS_BIAS=True, ALLOW_TF32=False, BLOCK_M=128, BLOCK_N=64,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence and head in fp32: scores plus the time bucket's and relative position's weights (targets clamped
    to the last history position), SiLU over 2048, kept where the clamped n - m < 0 or n == m, times V."""
    import torch
    q, k, v, off = inputs["q"], inputs["k"], inputs["v"], inputs["offsets"].tolist()
    out = torch.empty(v.shape, device=v.device, dtype=torch.float32)
    for b in range(len(off) - 1):
        s, e = off[b], off[b + 1]
        n = e - s
        last = n - int(inputs["targets"][b])
        idx = torch.arange(n, device=q.device)
        c = torch.clamp(idx, max=last)
        rel = c[None, :] - c[:, None]
        keep = (rel < 0) | (idx[None, :] == idx[:, None])
        tsb = inputs["ts"][b]
        d = (tsb[1:n + 1][:, None] - tsb[:n][None, :]).float() + 0.01
        d = torch.log(torch.clamp(d, min=1e-6) * (1.0 / 60.0))
        bucket = torch.clamp(d.to(torch.int32), 0, NUM_BUCKETS).long()
        bias = inputs["tw"][bucket] + inputs["pw"][rel + 2047]
        for h in range(H_):
            x = q[s:e, h].float() @ k[s:e, h].float().T * inputs["alpha"] + bias
            p = torch.where(keep, torch.nn.functional.silu(x) / 2048, 0.0)
            out[s:e, h] = p @ v[s:e, h].float()
    return out


def flops(B: int, MAX_LEN: int) -> float:
    """The causal half of the longest sequence's work, times B (the lengths vary: an estimate)."""
    return 2.0 * B * H_ * MAX_LEN * MAX_LEN * D_
