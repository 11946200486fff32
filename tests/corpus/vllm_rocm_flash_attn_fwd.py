"""vLLM's Triton FlashAttention-2 forward of its ROCm backend, ``attn_fwd`` with ``_attn_fwd_inner``
(vllm/attention/ops/triton_flash_attention.py, as ``triton_attention`` = ``_attention.apply`` launches it for a
varlen prefill): packed [total_tokens, heads, head_dim] q/k/v with ``cu_seqlens_q`` / ``cu_seqlens_k`` (VARLEN True,
an early ``return`` for q-blocks past the sequence's queries), GQA through ``GROUP_SIZE: tl.constexpr = HQ // HK``
and a conditional expression, causal with the bottom-right alignment (``n_blocks = min(n_blocks, n_blocks_seqlen)``,
the all-masked early exit), ``n_extra_tokens`` from runtime ``if`` / ``elif`` on seqlen_k, block pointers for Q, K
(read transposed: ``order=(0, 1)``), V and O with ``boundary_check`` / ``padding_option="zero"`` through the
``load_fn`` @triton.jit helper (four branches on its flags: ``MASK_STEPS and (n_extra_tokens != 0)`` makes one of
them a runtime ``if`` around a load in the masked loop), the scale times log2(e) folded into Q, ``tl.math.exp2``,
the inner loop inlined twice: once over the full blocks (no masks), then after ``tl.debug_barrier()`` over the
masked ones (a runtime ``if (start_n + BLOCK_N == block_max) and (n_extra_tokens != 0)`` and the causal
``tl.where`` in the loop), dropout / encoded softmax / bias / fp8 constexpr-off (their helpers present), the
epilogue's causal row zeroing under a runtime ``if``. The strides are annotated ``tl.int64`` as vLLM declares them
(the unit strides too, which Triton's launcher then does not specialise). Config {BLOCK_M 128, BLOCK_N 64,
PRE_LOAD_V False, 4 warps, 1 stage} of its CDNA autotune list (``waves_per_eu``, an AMD-only option, dropped);
MAX_SEQLENS_Q / _K passed as 0, as vLLM does on gfx1x (VARLEN reads cu_seqlens instead). fp16, 32 query heads over
8 KV heads, head size 128."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HQ, HK, HEAD = 32, 8, 128
CAUSAL = True
CONFIG = {"BLOCK_M": 128, "BLOCK_N": 64, "PRE_LOAD_V": False, "num_warps": 4, "num_stages": 1}
_STRIDES = ("stride_qz", "stride_qh", "stride_qm", "stride_qk", "stride_kz", "stride_kh", "stride_kn", "stride_kk",
            "stride_vz", "stride_vh", "stride_vk", "stride_vn", "stride_oz", "stride_oh", "stride_om", "stride_on",
            "stride_bz", "stride_bh", "stride_bm", "stride_bn")
_UNIT = ("stride_qk", "stride_kk", "stride_vn", "stride_on")     # 1 at every launch, yet not specialised (tl.int64)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "attn_fwd",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "bias": "constexpr", "sm_scale": "fp32",
                  "q_scale": "fp32", "k_scale": "fp32", "v_scale": "fp32", "p_scale": "fp32", "p_descale": "fp32",
                  "o_descale": "fp32", "L": "constexpr", "Out": "*fp16", **{s: "i64" for s in _STRIDES},
                  "cu_seqlens_q": "*i32", "cu_seqlens_k": "*i32", "dropout_p": "fp32", "philox_seed": "i32",
                  "philox_offset_base": "i32", "encoded_softmax": "constexpr"},
    "constexprs": {"bias": None, "L": None, "encoded_softmax": None, "HQ": HQ, "HK": HK,
                   "ACTUAL_BLOCK_DMODEL": HEAD, "MAX_SEQLENS_Q": 0, "MAX_SEQLENS_K": 0, "VARLEN": True,
                   "IS_CAUSAL": CAUSAL, "BLOCK_M": CONFIG["BLOCK_M"], "BLOCK_DMODEL": HEAD, "USE_FP8": False,
                   "USE_FP8_OUT": False, "BLOCK_N": CONFIG["BLOCK_N"], "PRE_LOAD_V": CONFIG["PRE_LOAD_V"],
                   "BIAS_TYPE": 0, "ENABLE_DROPOUT": False, "RETURN_ENCODED_SOFTMAX": False},
    "num_warps": CONFIG["num_warps"], "num_stages": CONFIG["num_stages"],
    # stride_*z and the bias strides are 0 (divisible); the unit strides are not
    "divisibility": ["Q", "K", "V", "Out", "cu_seqlens_q", "cu_seqlens_k"] + [s for s in _STRIDES if s not in _UNIT]}
# B sequences, the b-th with N - 97 b queries over N - 97 b + C b keys (the queries the last of the keys)
PROBLEM: dict[str, int] = {"B": 4, "N": 2048, "C": 256}
SMALL: dict[str, int] = {"B": 3, "N": 200, "C": 40}


@triton.jit
def cdiv_fn(x, y):
    return (x + y - 1) // y


@triton.jit
def max_fn(x, y):
    return tl.math.max(x, y)


@triton.jit
def dropout_offsets(philox_seed, philox_offset, dropout_p, m, n, stride):
    ms = tl.arange(0, m)
    ns = tl.arange(0, n)
    return philox_offset + ms[:, None] * stride + ns[None, :]


@triton.jit
def dropout_rng(philox_seed, philox_offset, dropout_p, m, n, stride):
    rng_offsets = dropout_offsets(philox_seed, philox_offset, dropout_p, m, n, stride).to(tl.uint32)
    return tl.rand(philox_seed, rng_offsets)


@triton.jit
def dropout_mask(philox_seed, philox_offset, dropout_p, m, n, stride):
    rng_output = dropout_rng(philox_seed, philox_offset, dropout_p, m, n, stride)
    rng_keep = rng_output > dropout_p
    return rng_keep


@triton.jit
def load_fn(block_ptr, first, second, pad):
    if first and second:
        tensor = tl.load(block_ptr, boundary_check=(0, 1), padding_option=pad)
    elif first:
        tensor = tl.load(block_ptr, boundary_check=(0, ), padding_option=pad)
    elif second:
        tensor = tl.load(block_ptr, boundary_check=(1, ), padding_option=pad)
    else:
        tensor = tl.load(block_ptr)
    return tensor


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, actual_seqlen_k, dropout_p, philox_seed,
                    batch_philox_offset, encoded_softmax_block_ptr, block_min, block_max, offs_n_causal,
                    masked_blocks, n_extra_tokens, bias_ptr, IS_CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_DMODEL: tl.constexpr, BLOCK_N: tl.constexpr, OFFS_M: tl.constexpr,
                    OFFS_N: tl.constexpr, PRE_LOAD_V: tl.constexpr, MASK_STEPS: tl.constexpr,
                    ENABLE_DROPOUT: tl.constexpr, RETURN_ENCODED_SOFTMAX: tl.constexpr, PADDED_HEAD: tl.constexpr,
                    USE_FP8: tl.constexpr, qk_scale, p_descale):
    # twill corpus rendition: the K/V loop, called once for the full blocks and once for the masked ones
    for start_n in range(block_min, block_max, BLOCK_N):
        k = load_fn(K_block_ptr, PADDED_HEAD, MASK_STEPS and (n_extra_tokens != 0), "zero")
        if PRE_LOAD_V:
            v = load_fn(V_block_ptr, MASK_STEPS and (n_extra_tokens != 0), PADDED_HEAD, "zero")
        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        # only the last block of the sequence can hold keys past its end
        if MASK_STEPS:  # noqa: SIM102
            if (start_n + BLOCK_N == block_max) and (n_extra_tokens != 0):
                boundary_m = tl.full([BLOCK_M], actual_seqlen_k, dtype=tl.int32)
                size_n = start_n + OFFS_N[None, :]
                mask = size_n < boundary_m[:, None]
                qk = tl.where(mask, qk, float("-inf"))
        if IS_CAUSAL:
            causal_boundary = start_n + offs_n_causal
            causal_mask = OFFS_M[:, None] >= causal_boundary[None, :]
            qk = tl.where(causal_mask, qk, float("-inf"))
        qk += tl.dot(q, k)
        if USE_FP8:
            qk *= qk_scale
        if bias_ptr is not None:
            bias = load_fn(bias_ptr, False, MASK_STEPS and (n_extra_tokens != 0), "zero")
            qk += bias * 1.44269504089
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk = qk - m_ij[:, None]
        p = tl.math.exp2(qk)
        # l_ij before dropout
        l_ij = tl.sum(p, 1)
        if ENABLE_DROPOUT:
            philox_offset = batch_philox_offset + start_m * BLOCK_M * actual_seqlen_k + start_n - BLOCK_N
            keep = dropout_mask(philox_seed, philox_offset, dropout_p, BLOCK_M, BLOCK_N, actual_seqlen_k)
            if RETURN_ENCODED_SOFTMAX:
                tl.store(encoded_softmax_block_ptr,
                         tl.where(keep, p, -p).to(encoded_softmax_block_ptr.type.element_ty))
            p = tl.where(keep, p, 0.0)
        elif RETURN_ENCODED_SOFTMAX:
            tl.store(encoded_softmax_block_ptr, p.to(encoded_softmax_block_ptr.type.element_ty))
        alpha = tl.math.exp2(m_i - m_ij)
        acc = acc * alpha[:, None]
        if not PRE_LOAD_V:
            v = load_fn(V_block_ptr, MASK_STEPS and (n_extra_tokens != 0), PADDED_HEAD, "zero")
        l_i = l_i * alpha + l_ij
        m_i = m_ij
        if USE_FP8:
            p *= p_descale
        acc += tl.dot(p.to(V_block_ptr.type.element_ty), v)
        V_block_ptr = tl.advance(V_block_ptr, (BLOCK_N, 0))
        K_block_ptr = tl.advance(K_block_ptr, (0, BLOCK_N))
        if bias_ptr is not None:
            bias_ptr = tl.advance(bias_ptr, (0, BLOCK_N))
        if RETURN_ENCODED_SOFTMAX:
            encoded_softmax_block_ptr = tl.advance(encoded_softmax_block_ptr, (0, BLOCK_N))
    return acc, l_i, m_i


@triton.jit
def attn_fwd(Q, K, V, bias, sm_scale, q_scale, k_scale, v_scale, p_scale, p_descale, o_descale, L, Out,
             stride_qz: tl.int64, stride_qh: tl.int64, stride_qm: tl.int64, stride_qk: tl.int64,
             stride_kz: tl.int64, stride_kh: tl.int64, stride_kn: tl.int64, stride_kk: tl.int64,
             stride_vz: tl.int64, stride_vh: tl.int64, stride_vk: tl.int64, stride_vn: tl.int64,
             stride_oz: tl.int64, stride_oh: tl.int64, stride_om: tl.int64, stride_on: tl.int64,
             stride_bz: tl.int64, stride_bh: tl.int64, stride_bm: tl.int64, stride_bn: tl.int64,
             cu_seqlens_q, cu_seqlens_k, dropout_p, philox_seed, philox_offset_base, encoded_softmax,
             HQ: tl.constexpr, HK: tl.constexpr, ACTUAL_BLOCK_DMODEL: tl.constexpr, MAX_SEQLENS_Q: tl.constexpr,
             MAX_SEQLENS_K: tl.constexpr, VARLEN: tl.constexpr, IS_CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr,
             BLOCK_DMODEL: tl.constexpr, USE_FP8: tl.constexpr, USE_FP8_OUT: tl.constexpr, BLOCK_N: tl.constexpr,
             PRE_LOAD_V: tl.constexpr, BIAS_TYPE: tl.constexpr, ENABLE_DROPOUT: tl.constexpr,
             RETURN_ENCODED_SOFTMAX: tl.constexpr, FP8_MIN: tl.constexpr = -448.0, FP8_MAX: tl.constexpr = 448.0):
    start_m = tl.program_id(0)
    off_h_q = tl.program_id(1)
    off_z = tl.program_id(2)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    if VARLEN:
        cu_seqlens_q_start = tl.load(cu_seqlens_q + off_z)
        cu_seqlens_q_end = tl.load(cu_seqlens_q + off_z + 1)
        seqlen_q = cu_seqlens_q_end - cu_seqlens_q_start
        # one grid for every sequence: q-blocks past a short one return
        if start_m * BLOCK_M > seqlen_q:
            return
        cu_seqlens_k_start = tl.load(cu_seqlens_k + off_z)
        cu_seqlens_k_end = tl.load(cu_seqlens_k + off_z + 1)
        seqlen_k = cu_seqlens_k_end - cu_seqlens_k_start
    else:
        cu_seqlens_q_start = 0
        cu_seqlens_k_start = 0
        seqlen_q = MAX_SEQLENS_Q
        seqlen_k = MAX_SEQLENS_K

    # causal, seqlen_q > seqlen_k: rows whose every key is masked have no block to visit
    n_blocks = cdiv_fn(seqlen_k, BLOCK_N)
    if IS_CAUSAL:
        n_blocks_seqlen = cdiv_fn((start_m + 1) * BLOCK_M + seqlen_k - seqlen_q, BLOCK_N)
        n_blocks = min(n_blocks, n_blocks_seqlen)
        if n_blocks <= 0:
            o_offset = off_z * stride_oz + cu_seqlens_q_start * stride_om + off_h_q * stride_oh
            O_block_ptr = tl.make_block_ptr(base=Out + o_offset, shape=(seqlen_q, BLOCK_DMODEL),
                                            strides=(stride_om, stride_on), offsets=(start_m * BLOCK_M, 0),
                                            block_shape=(BLOCK_M, BLOCK_DMODEL), order=(1, 0))
            acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=Out.type.element_ty)
            return

    GROUP_SIZE: tl.constexpr = HQ // HK
    off_h_k = off_h_q // GROUP_SIZE if GROUP_SIZE != 1 else off_h_q

    n_extra_tokens = 0
    if seqlen_k < BLOCK_N:
        n_extra_tokens = BLOCK_N - seqlen_k
    elif seqlen_k % BLOCK_N:
        n_extra_tokens = seqlen_k % BLOCK_N
    padded_head = ACTUAL_BLOCK_DMODEL != BLOCK_DMODEL

    q_offset = off_z * stride_qz + off_h_q * stride_qh + cu_seqlens_q_start * stride_qm
    Q_block_ptr = tl.make_block_ptr(base=Q + q_offset, shape=(seqlen_q, ACTUAL_BLOCK_DMODEL),
                                    strides=(stride_qm, stride_qk), offsets=(start_m * BLOCK_M, 0),
                                    block_shape=(BLOCK_M, BLOCK_DMODEL), order=(1, 0))
    k_offset = off_z * stride_kz + off_h_k * stride_kh + cu_seqlens_k_start * stride_kn
    K_block_ptr = tl.make_block_ptr(base=K + k_offset, shape=(ACTUAL_BLOCK_DMODEL, seqlen_k),
                                    strides=(stride_kk, stride_kn), offsets=(0, 0),
                                    block_shape=(BLOCK_DMODEL, BLOCK_N), order=(0, 1))
    v_offset = off_z * stride_vz + off_h_k * stride_vh + cu_seqlens_k_start * stride_vk
    V_block_ptr = tl.make_block_ptr(base=V + v_offset, shape=(seqlen_k, ACTUAL_BLOCK_DMODEL),
                                    strides=(stride_vk, stride_vn), offsets=(0, 0),
                                    block_shape=(BLOCK_N, BLOCK_DMODEL), order=(1, 0))
    if BIAS_TYPE != 0:
        bias_ptr = tl.make_block_ptr(base=bias + off_h_q * stride_bh, shape=(seqlen_q, seqlen_k),
                                     strides=(stride_bm, stride_bn), offsets=(start_m * BLOCK_M, 0),
                                     block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    else:
        bias_ptr = None
    if ENABLE_DROPOUT:
        batch_philox_offset = philox_offset_base + (off_z * HQ + off_h_q) * seqlen_q * seqlen_k
    else:
        batch_philox_offset = 0
    if RETURN_ENCODED_SOFTMAX:
        encoded_softmax_block_ptr = tl.make_block_ptr(base=encoded_softmax + off_h_q * seqlen_q * seqlen_k,
                                                      shape=(seqlen_q, seqlen_k), strides=(seqlen_k, 1),
                                                      offsets=(start_m * BLOCK_M, 0),
                                                      block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    else:
        encoded_softmax_block_ptr = 0
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.full([BLOCK_M], 1.0, dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)
    # sm_scale times log2(e): the loop uses 2^x
    qk_scale = sm_scale * 1.44269504089
    q = load_fn(Q_block_ptr, True, padded_head, "zero")
    if not USE_FP8:
        q = (q * qk_scale).to(Q_block_ptr.type.element_ty)
        acc_scale = 1.0
    else:
        qk_scale *= q_scale * k_scale
        acc_scale = p_scale * v_scale

    # full blocks first, then the masked ones (causal diagonal and the ragged end)
    padded_block_k = n_extra_tokens != 0
    is_modulo_mn = not padded_block_k and (seqlen_q % BLOCK_M == 0)
    if IS_CAUSAL:
        masked_blocks = BLOCK_M // BLOCK_N + (not is_modulo_mn)
    else:
        masked_blocks = padded_block_k
    masked_blocks = min(masked_blocks, n_blocks)
    n_full_blocks = n_blocks - masked_blocks
    block_min = 0
    block_max = n_blocks * BLOCK_N
    if n_full_blocks > 0:
        block_max = (n_blocks - masked_blocks) * BLOCK_N
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, seqlen_k, dropout_p,
                                        philox_seed, batch_philox_offset, encoded_softmax_block_ptr, block_min,
                                        block_max, 0, 0, 0, bias_ptr, False, BLOCK_M, BLOCK_DMODEL, BLOCK_N,
                                        offs_m, offs_n, PRE_LOAD_V, False, ENABLE_DROPOUT, RETURN_ENCODED_SOFTMAX,
                                        padded_head, USE_FP8, qk_scale, p_descale)
        block_min = block_max
        block_max = n_blocks * BLOCK_N

    tl.debug_barrier()
    if masked_blocks > 0:
        offs_n_causal = offs_n + (seqlen_q - seqlen_k) if IS_CAUSAL else 0
        K_block_ptr = tl.advance(K_block_ptr, (0, n_full_blocks * BLOCK_N))
        V_block_ptr = tl.advance(V_block_ptr, (n_full_blocks * BLOCK_N, 0))
        if bias_ptr is not None:
            bias_ptr = tl.advance(bias_ptr, (0, n_full_blocks * BLOCK_N))
        if RETURN_ENCODED_SOFTMAX:
            encoded_softmax_block_ptr = tl.advance(encoded_softmax_block_ptr, (0, n_full_blocks))
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, seqlen_k, dropout_p,
                                        philox_seed, batch_philox_offset, encoded_softmax_block_ptr, block_min,
                                        block_max, offs_n_causal, masked_blocks, n_extra_tokens, bias_ptr,
                                        IS_CAUSAL, BLOCK_M, BLOCK_DMODEL, BLOCK_N, offs_m, offs_n, PRE_LOAD_V, True,
                                        ENABLE_DROPOUT, RETURN_ENCODED_SOFTMAX, padded_head, USE_FP8, qk_scale,
                                        p_descale)
    if USE_FP8:
        acc *= acc_scale
    acc = acc / l_i[:, None]
    if ENABLE_DROPOUT:
        acc = acc / (1 - dropout_p)
    # seqlen_q > seqlen_k: rows above the shifted diagonal are NaN (all -inf), zeroed
    end_m_idx = (start_m + 1) * BLOCK_M
    start_m_idx = start_m * BLOCK_M
    causal_start_idx = seqlen_q - seqlen_k
    if USE_FP8_OUT:
        acc *= o_descale
        acc = tl.clamp(acc, FP8_MIN, FP8_MAX)
    acc = acc.to(Out.type.element_ty)
    if IS_CAUSAL:  # noqa: SIM102
        if causal_start_idx > start_m_idx and causal_start_idx < end_m_idx:
            out_mask_boundary = tl.full((BLOCK_DMODEL, ), causal_start_idx, dtype=tl.int32)
            mask_m_offsets = start_m_idx + tl.arange(0, BLOCK_M)
            out_ptrs_mask = mask_m_offsets[:, None] >= out_mask_boundary[None, :]
            z = tl.zeros((1, ), tl.float32)
            acc = tl.where(out_ptrs_mask, acc, z.to(acc.type.element_ty))
    o_offset = off_z * stride_oz + cu_seqlens_q_start * stride_om + off_h_q * stride_oh
    O_block_ptr = tl.make_block_ptr(base=Out + o_offset, shape=(seqlen_q, ACTUAL_BLOCK_DMODEL),
                                    strides=(stride_om, stride_on), offsets=(start_m * BLOCK_M, 0),
                                    block_shape=(BLOCK_M, BLOCK_DMODEL), order=(1, 0))
    tl.store(O_block_ptr, acc, boundary_check=(0, 1))


def make_inputs(B: int, N: int, C: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """B packed sequences: the b-th has N - 97 b new tokens after C b cached ones (seqlen_k >= seqlen_q, the queries
    the last keys: vLLM's causal alignment); ragged, none a multiple of the blocks but the first."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q_lens = [N - 97 * b for b in range(B)]
    k_lens = [q_lens[b] + C * b for b in range(B)]
    cu_q, cu_k = [0], [0]
    for a, b in zip(q_lens, k_lens):
        cu_q.append(cu_q[-1] + a)
        cu_k.append(cu_k[-1] + b)
    return {"q": torch.randn((cu_q[-1], HQ, HEAD), device=device, generator=g).half(),
            "k": torch.randn((cu_k[-1], HK, HEAD), device=device, generator=g).half(),
            "v": torch.randn((cu_k[-1], HK, HEAD), device=device, generator=g).half(),
            "cu_seqlens_q": torch.tensor(cu_q, dtype=torch.int32, device=device),
            "cu_seqlens_k": torch.tensor(cu_k, dtype=torch.int32, device=device),
            "max_seqlens_q": max(q_lens), "max_seqlens_k": max(k_lens)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``_attention.forward`` (varlen, causal, no fp8 / bias / dropout): out [total_q, HQ, HEAD] fp16."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    o = torch.empty_like(q, dtype=v.dtype)
    batch = len(inputs["cu_seqlens_q"]) - 1
    head_size = q.shape[-1]
    q_strides = (0, q.stride(1), q.stride(0), q.stride(2))
    k_strides = (0, k.stride(1), k.stride(0), k.stride(2))
    v_strides = (0, v.stride(1), v.stride(0), v.stride(2))
    o_strides = (0, o.stride(1), o.stride(0), o.stride(2))
    cfg = dict(CONFIG, **config)
    grid = (triton.cdiv(inputs["max_seqlens_q"], cfg["BLOCK_M"]), q.shape[1], batch)
    attn_fwd[grid](q, k, v, None, head_size ** -0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, None, o, *q_strides, *k_strides,
                   *v_strides, *o_strides, 0, 0, 0, 0, inputs["cu_seqlens_q"], inputs["cu_seqlens_k"],
                   dropout_p=0.0, philox_seed=0x1BF52, philox_offset_base=0x1D4B42, encoded_softmax=None, HQ=q.shape[1],
                   HK=k.shape[1], ACTUAL_BLOCK_DMODEL=head_size, MAX_SEQLENS_Q=0, MAX_SEQLENS_K=0, IS_CAUSAL=CAUSAL,
                   VARLEN=True, BLOCK_DMODEL=head_size, BIAS_TYPE=0, ENABLE_DROPOUT=False,
                   RETURN_ENCODED_SOFTMAX=False, USE_FP8=False, USE_FP8_OUT=False, **cfg)
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    cu_q, cu_k = inputs["cu_seqlens_q"].tolist(), inputs["cu_seqlens_k"].tolist()
    out = torch.zeros_like(q)
    for b in range(len(cu_q) - 1):
        qb = q[cu_q[b]:cu_q[b + 1]]
        kb = k[cu_k[b]:cu_k[b + 1]].repeat_interleave(HQ // HK, dim=1)
        vb = v[cu_k[b]:cu_k[b + 1]].repeat_interleave(HQ // HK, dim=1)
        s = torch.einsum("qhd,khd->hqk", qb, kb) * HEAD ** -0.5
        shift = kb.shape[0] - qb.shape[0]           # bottom-right aligned: query i sees keys up to i + shift
        i, j = torch.arange(qb.shape[0], device=q.device), torch.arange(kb.shape[0], device=q.device)
        s = s.masked_fill(j[None, None, :] > i[None, :, None] + shift, float("-inf"))
        out[cu_q[b]:cu_q[b + 1]] = torch.einsum("hqk,khd->qhd", torch.softmax(s, -1), vb)
    return out.to(inputs["q"].dtype)


def flops(B: int, N: int, C: int) -> float:
    return sum(4.0 * (N - 97 * b) * (N - 97 * b + C * b - (N - 97 * b) / 2) * HEAD * HQ for b in range(B))
