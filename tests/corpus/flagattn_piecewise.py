"""FlagAttention's piecewise attention forward (FlagOpen/FlagAttention, src/flag_attn/piecewise.py ``_fwd_kernel``,
the attention Aquila uses to extend its context): two query/key pairs, q1 k1 for the keys within distance ``w`` of
the query and q2 k2 for the ones farther away, so each iteration computes **both score dots and selects per element**
(``s += tl.where(piecewise_mask, tl.dot(q2, tl.trans(k2)), tl.dot(q1, tl.trans(k1)))``) before the online softmax
and the P @ V dot: three dots a step. Also: the "Dot I trick" before the loop (q1 and q2 multiplied by an identity
built with ``tl.where`` when BLOCK_DMODEL < 128, to keep them in registers), pointer increments
``k1_ptrs += BLOCK_N * stride_k1n``, DIVISIBLE_M / DIVISIBLE_N constexprs choosing masked or unmasked loads, a
causal upper bound with ``P_SEQ`` (keys before the queries) and LARGER_M, ``exp2`` with the scale folded in, the
log-normaliser stored. D = 64, BLOCK_M = 128, BLOCK_N = 64, 3 stages, 4 warps (its sm80 config for D = 64). fp16.
Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

HEAD_DIM = 64
W = 128                    # the piecewise distance threshold (a constexpr of the kernel)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel",
    "signature": {"Q1": "*fp16", "K1": "*fp16", "Q2": "*fp16", "K2": "*fp16", "V": "*fp16", "sm_scale": "fp32",
                  "L": "*fp32", "O": "*fp16",
                  "stride_q1z": "i32", "stride_q1h": "i32", "stride_q1m": "i32", "stride_q1k": "constexpr",
                  "stride_k1z": "i32", "stride_k1h": "i32", "stride_k1n": "i32", "stride_k1k": "constexpr",
                  "stride_q2z": "i32", "stride_q2h": "i32", "stride_q2m": "i32", "stride_q2k": "constexpr",
                  "stride_k2z": "i32", "stride_k2h": "i32", "stride_k2n": "i32", "stride_k2k": "constexpr",
                  "stride_vz": "i32", "stride_vh": "i32", "stride_vn": "i32", "stride_vk": "constexpr",
                  "stride_oz": "i32", "stride_oh": "i32", "stride_om": "i32", "stride_ok": "constexpr",
                  "Z": "i32", "H": "i32", "M": "i32", "N": "i32", "P_SEQ": "i32"},
    "constexprs": {"stride_q1k": 1, "stride_k1k": 1, "stride_q2k": 1, "stride_k2k": 1, "stride_vk": 1,
                   "stride_ok": 1, "w": W, "BLOCK_M": 128, "BLOCK_DMODEL": HEAD_DIM, "BLOCK_N": 64,
                   "IS_CAUSAL": True, "LARGER_M": False, "DIVISIBLE_M": True, "DIVISIBLE_N": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["stride_q1z", "stride_q1h", "stride_q1m", "stride_k1z", "stride_k1h", "stride_k1n",
                     "stride_q2z", "stride_q2h", "stride_q2m", "stride_k2z", "stride_k2h", "stride_k2n",
                     "stride_vz", "stride_vh", "stride_vn", "stride_oz", "stride_oh", "stride_om", "M", "N",
                     "P_SEQ"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 32, "M": 4096, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "M": 256, "N": 384}          # P_SEQ = 128 keys before the queries
# the masked loads (DIVISIBLE_M / DIVISIBLE_N false), checked under the interpreter only: the spec takes both true
EXTRA_INTERP = ({"B": 1, "H": 2, "M": 200, "N": 250},)


@triton.jit
def _fwd_kernel(
    Q1, K1, Q2, K2, V, sm_scale,
    L,
    O,
    stride_q1z, stride_q1h, stride_q1m, stride_q1k,
    stride_k1z, stride_k1h, stride_k1n, stride_k1k,
    stride_q2z, stride_q2h, stride_q2m, stride_q2k,
    stride_k2z, stride_k2h, stride_k2n, stride_k2k,
    stride_vz, stride_vh, stride_vn, stride_vk,
    stride_oz, stride_oh, stride_om, stride_ok,
    Z, H, M, N, P_SEQ,
    w: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_DMODEL: tl.constexpr, BLOCK_N: tl.constexpr,
    IS_CAUSAL: tl.constexpr, LARGER_M: tl.constexpr,
    DIVISIBLE_M: tl.constexpr, DIVISIBLE_N: tl.constexpr,
):
    input_dtype = Q1.dtype.element_ty
    # -- grid id --
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    off_z = tl.program_id(2)

    # scale sm_scale by log_2(e) and use
    # 2^x instead of exp in the loop because CSE and LICM
    # don't work as expected with `exp` in the loop
    log2e: tl.constexpr = 1.4426950408889634
    qk_scale = sm_scale * log2e

    # offset pointers for (batch, head)
    Q1 += off_z * stride_q1z + off_h * stride_q1h
    Q2 += off_z * stride_q2z + off_h * stride_q2h
    K1 += off_z * stride_k1z + off_h * stride_k1h
    K2 += off_z * stride_k2z + off_h * stride_k2h
    V += off_z * stride_vz + off_h * stride_vh
    O += off_z * stride_oz + off_h * stride_oh
    L += (off_z * H + off_h) * M  # L: shape(B, H, N_CTX), C-contiguous

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n_base = tl.arange(0, BLOCK_N)
    offs_n_init = offs_n_base
    offs_k = tl.arange(0, BLOCK_DMODEL)

    # initialize pointers to value-like data
    q1_ptrs = Q1 + (offs_m[:, None] * stride_q1m + offs_k[None, :] * stride_q1k)  # (BLOCK_M, BLOCK_DMODEL)
    q2_ptrs = Q2 + (offs_m[:, None] * stride_q2m + offs_k[None, :] * stride_q2k)  # (BLOCK_M, BLOCK_DMODEL)
    k1_ptrs = K1 + (offs_n_init[:, None] * stride_k1n + offs_k[None, :] * stride_k1k)  # (BLOCK_N, BLOCK_DMODEL)
    k2_ptrs = K2 + (offs_n_init[:, None] * stride_k2n + offs_k[None, :] * stride_k2k)  # (BLOCK_N, BLOCK_DMODEL)
    v_ptrs = V + (offs_n_init[:, None] * stride_vn + offs_k[None, :] * stride_vk)  # (BLOCK_N, BLOCK_DMODEL)
    o_ptrs = O + (offs_m[:, None] * stride_om + offs_k[None, :] * stride_ok)  # (BLOCK_M, BLOCK_DMODEL)
    l_ptrs = L + offs_m

    # initialize pointer to m and l, fp32 for accumulators
    m_i = tl.full([BLOCK_M], value=-float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)

    # load q
    if DIVISIBLE_M:
        q1 = tl.load(q1_ptrs)
        q2 = tl.load(q2_ptrs)
    else:
        mask_m = offs_m < M
        q1 = tl.load(q1_ptrs, mask=mask_m[:, None])
        q2 = tl.load(q2_ptrs, mask=mask_m[:, None])

    # Dot I trick: to place q in registers, it saves shared memory
    if BLOCK_DMODEL < 128:
        I = tl.where(offs_k[:, None] == offs_k,
                     tl.full((BLOCK_DMODEL, BLOCK_DMODEL), 1.0, dtype=input_dtype),
                     tl.full((BLOCK_DMODEL, BLOCK_DMODEL), 0.0, dtype=input_dtype))
        q1 = tl.dot(q1, I).to(input_dtype)
        q2 = tl.dot(q2, I).to(input_dtype)

    # NOTE: Loop-Bound-For-N
    # The indices in m-dimension that this block may access is in `[start_m * BLOCK_M, (start_m + 1) * BLOCK_M)`.
    # According to the rule of causal masking, then max index in n-dimension that this block may access
    # is `P_SEQ + (start_m + 1) * BLOCK_M`.
    # However, the upper bound of index in n-dimension should never exceed the sequence length of k/v(`P_SEQ + N_CTX`).
    # `P_SEQ + (start_m + 1) * BLOCK_M` may be larger than `N`.
    # At this case, there would be illegal memory access when loading k & v tiles
    # if mask_n is not applied for loading(only when `DIVISIBLE_N`` is true).
    # See also https://github.com/FlagOpen/FlagAttention/pull/8
    if IS_CAUSAL:
        hi = tl.minimum(N, P_SEQ + (start_m + 1) * BLOCK_M)
        if LARGER_M:
            hi = tl.maximum(0, hi)
    else:
        hi = N

    # loop over k, v and update accumulators
    for start_n in range(0, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        offs_n = start_n + offs_n_base

        # -- load k, v --
        if DIVISIBLE_N:
            k1 = tl.load(k1_ptrs)
            k2 = tl.load(k2_ptrs)
            v = tl.load(v_ptrs)
        else:
            mask_n = offs_n < N
            k1 = tl.load(k1_ptrs, mask=mask_n[:, None])
            k2 = tl.load(k2_ptrs, mask=mask_n[:, None])
            v = tl.load(v_ptrs, mask=mask_n[:, None])

        # -- compute qk ---
        s = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        piecewise_mask = P_SEQ + offs_m[:, None] >= offs_n[None, :] + w  # dist >= w
        s += tl.where(piecewise_mask,
                      tl.dot(q2, tl.trans(k2)),
                      tl.dot(q1, tl.trans(k1)))
        if not DIVISIBLE_N:
            s = tl.where(mask_n, s, float("-inf"))
        if IS_CAUSAL:
            causal_mask = (P_SEQ + offs_m[:, None]) >= offs_n[None, :]
            s = tl.where(causal_mask, s, float("-inf"))

        # -- compute scaling constant ---
        m_i_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.math.exp2((m_i - m_i_new) * qk_scale)
        p = tl.math.exp2(s * qk_scale - m_i_new[:, None] * qk_scale)

        # -- scale and update acc: acc *= alpha[:, None]--
        acc *= alpha[:, None]
        acc += tl.dot(p.to(input_dtype), v)

        # -- update m_i and l_i --
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_i_new
        # update pointers
        k1_ptrs += BLOCK_N * stride_k1n
        k2_ptrs += BLOCK_N * stride_k2n
        v_ptrs += BLOCK_N * stride_vn

    # write back l & o
    if IS_CAUSAL and LARGER_M:
        is_empty_line = (offs_m + P_SEQ) < 0
        acc = tl.where(is_empty_line[:, None], 0.0, acc * (1.0 / l_i[:, None]))
        l = tl.where(is_empty_line, float("-inf"), m_i * sm_scale + tl.log(l_i))
    else:
        acc = acc * (1.0 / l_i[:, None])
        l = m_i * sm_scale + tl.log(l_i)  # log(normalizer)

    if DIVISIBLE_M:
        tl.store(l_ptrs, l)
        tl.store(o_ptrs, acc.to(input_dtype))
    else:
        tl.store(l_ptrs, l, mask=mask_m)
        tl.store(o_ptrs, acc.to(input_dtype), mask=mask_m[:, None])


def make_inputs(B: int, H: int, M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q1, q2 [B, H, M, D], k1, k2, v [B, H, N, D] fp16 (N >= M: P_SEQ = N - M cached keys before the queries);
    o and the log-normaliser L allocated here."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q1, q2 = (torch.randn((B, H, M, HEAD_DIM), device=device, generator=g).half() for _ in range(2))
    k1, k2, v = (torch.randn((B, H, N, HEAD_DIM), device=device, generator=g).half() for _ in range(3))
    o = torch.empty_like(q1)
    lse = torch.empty((B, H, M), device=device, dtype=torch.float32)
    return {"q1": q1, "k1": k1, "q2": q2, "k2": k2, "v": v, "w": W, "causal": True,
            "sm_scale": 1.0 / math.sqrt(HEAD_DIM), "o": o, "L": lse}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, H, M, D] fp16, as ``PiecewiseAttention.forward`` launches it (its sm80 config for D = 64)."""
    q1, k1, q2, k2, v, w, causal, sm_scale = (inputs[n] for n in ("q1", "k1", "q2", "k2", "v", "w", "causal",
                                                                   "sm_scale"))
    o, L = inputs["o"], inputs["L"]
    B, H, M, D = q1.shape
    N = k1.shape[2]
    P_SEQ = N - M
    larger_m = M > N
    BLOCK_M, BLOCK_N, num_stages, num_warps = 128, 64, 3, 4
    divisible_m = M % BLOCK_M == 0
    divisible_n = N % BLOCK_N == 0
    grid = (triton.cdiv(M, BLOCK_M), H, B)
    _fwd_kernel[grid](
        q1, k1, q2, k2, v, sm_scale,
        L, o,
        q1.stride(0), q1.stride(1), q1.stride(2), q1.stride(3),
        k1.stride(0), k1.stride(1), k1.stride(2), k1.stride(3),
        q2.stride(0), q2.stride(1), q2.stride(2), q2.stride(3),
        k2.stride(0), k2.stride(1), k2.stride(2), k2.stride(3),
        v.stride(0), v.stride(1), v.stride(2), v.stride(3),
        o.stride(0), o.stride(1), o.stride(2), o.stride(3),
        B, H, M, N, P_SEQ,
        w=w, BLOCK_M=BLOCK_M, BLOCK_DMODEL=D, BLOCK_N=BLOCK_N,
        IS_CAUSAL=causal, LARGER_M=larger_m,
        DIVISIBLE_M=divisible_m, DIVISIBLE_N=divisible_n,
        num_warps=config.get("num_warps", num_warps), num_stages=config.get("num_stages", num_stages),
    )
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q1, k1, q2, k2, v = (inputs[n].double() for n in ("q1", "k1", "q2", "k2", "v"))
    M, N = q1.shape[2], k1.shape[2]
    qpos = (N - M) + torch.arange(M, device=q1.device)[:, None]
    kpos = torch.arange(N, device=q1.device)[None, :]
    far = qpos >= kpos + inputs["w"]
    s = torch.where(far, q2 @ k2.transpose(-1, -2), q1 @ k1.transpose(-1, -2)) * inputs["sm_scale"]
    s = s.masked_fill(kpos > qpos, float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def flops(B: int, H: int, M: int, N: int) -> float:
    return 6.0 * B * H * M * N * HEAD_DIM / 2      # three dots a step, causal
