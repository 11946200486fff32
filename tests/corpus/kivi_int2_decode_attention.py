"""KIVI (jy-yuan/KIVI, "KIVI: A Tuning-Free Asymmetric 2bit Quantization for KV Cache") decode attention over the
2-bit quantized part of the cache, as a fused Triton decode kernel over KIVI's packed layout would write it (KIVI's
own Triton code dequantizes in ``triton_quantize_and_pack_along_last_dim`` / the ``qbmm`` GEMV kernels; here the
dequantization, q.k, the online softmax and p.v are one loop): one program per (batch, head), one query row.

KIVI's asymmetric layout: **K quantized per channel** (its outliers are channels), groups of GROUP_K = 32 tokens
sharing one (scale, mn) per channel, the 2-bit codes **packed 16 to an int32 along the token axis** (``k_code`` [B,
H, T / 16, D]); **V quantized per token**, groups of GROUP_V = 32 channels sharing one (scale, mn) per token, packed
**16 to an int32 along the channel axis** (``v_code`` [B, H, T, D / 16]); scales and mins fp16; x = code * scale +
mn. The constructs, per step of BLOCK_N = 64 tokens: the K words loaded **broadcast along the token axis** (the
word index ``n // FEAT_PER_INT`` repeats 16 times, AWQ/GPTQ-style), unpacked with a per-row **variable shift and
mask** ``(w >> ((n % 16) * 2)) & 3``, the per-channel (scale, mn) tile loaded through ``n // GROUP_K``; q.k for the
single query row as ``tl.sum(q[None, :] * k, 1)`` (no tl.dot: decode is a GEMV); the token tail masked to -inf;
an exp2 online softmax on **scalar** (m, l) carries; the V words loaded broadcast along the channel axis, unpacked
with the per-column shift ``(offs_d % 16) * 2``, the per-token (scale, mn) through ``offs_d // GROUP_V``; p.v as
``tl.sum(p[:, None] * v, 0)`` into a fp32 [D] accumulator rescaled by alpha. fp16 q / o, D = 128. KIVI keeps the
newest tokens (the residual, < one group) in fp16 beside this; that part is a plain decode and is left out.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

D, BLOCK_N, GROUP_K, GROUP_V, BITS = 128, 64, 32, 32, 2
FEAT_PER_INT = 32 // BITS
TWILL_SPEC: dict[str, Any] = {
    "kernel": "kivi_decode_attn_kernel",
    "signature": {"q_ptr": "*fp16", "k_code_ptr": "*i32", "k_scale_ptr": "*fp16", "k_mn_ptr": "*fp16",
                  "v_code_ptr": "*i32", "v_scale_ptr": "*fp16", "v_mn_ptr": "*fp16", "o_ptr": "*fp16",
                  "sm_scale": "fp32", "T": "i32", "stride_kc_bh": "i32", "stride_ks_bh": "i32",
                  "stride_vc_bh": "i32", "stride_vs_bh": "i32"},
    "constexprs": {"D": D, "BLOCK_N": BLOCK_N, "GROUP_K": GROUP_K, "GROUP_V": GROUP_V, "BITS": BITS,
                   "FEAT_PER_INT": FEAT_PER_INT},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["q_ptr", "k_code_ptr", "k_scale_ptr", "k_mn_ptr", "v_code_ptr", "v_scale_ptr", "v_mn_ptr",
                     "o_ptr", "stride_kc_bh", "stride_ks_bh", "stride_vc_bh", "stride_vs_bh"]}
# Llama-2-7B shapes: 32 heads, an 8k quantized context, batch 16
PROBLEM: dict[str, int] = {"B": 16, "H": 32, "T": 8192}
SMALL: dict[str, int] = {"B": 2, "H": 2, "T": 160}      # 2.5 blocks of 64: the token tail is masked


@triton.jit
def kivi_decode_attn_kernel(
    q_ptr, k_code_ptr, k_scale_ptr, k_mn_ptr, v_code_ptr, v_scale_ptr, v_mn_ptr, o_ptr,
    sm_scale, T,
    stride_kc_bh, stride_ks_bh, stride_vc_bh, stride_vs_bh,
    D: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_K: tl.constexpr, GROUP_V: tl.constexpr,
    BITS: tl.constexpr, FEAT_PER_INT: tl.constexpr,
):
    pid_bh = tl.program_id(0)
    offs_d = tl.arange(0, D)
    offs_n = tl.arange(0, BLOCK_N)
    bit_mask = (1 << BITS) - 1

    q = tl.load(q_ptr + pid_bh * D + offs_d).to(tl.float32)
    q = q * (sm_scale * 1.44269504)

    k_code_base = k_code_ptr + pid_bh.to(tl.int64) * stride_kc_bh
    k_scale_base = k_scale_ptr + pid_bh.to(tl.int64) * stride_ks_bh
    k_mn_base = k_mn_ptr + pid_bh.to(tl.int64) * stride_ks_bh
    v_code_base = v_code_ptr + pid_bh.to(tl.int64) * stride_vc_bh
    v_scale_base = v_scale_ptr + pid_bh.to(tl.int64) * stride_vs_bh
    v_mn_base = v_mn_ptr + pid_bh.to(tl.int64) * stride_vs_bh

    # per-column shift of the V codes (packed along the channel axis) and their group: loop invariants
    v_shift = ((offs_d % FEAT_PER_INT) * BITS)[None, :]
    v_word = (offs_d // FEAT_PER_INT)[None, :]
    v_group = (offs_d // GROUP_V)[None, :]

    m_i = float("-inf")
    l_i = 0.0
    acc = tl.zeros([D], dtype=tl.float32)
    for start_n in range(0, T, BLOCK_N):
        offs_t = start_n + offs_n
        t_mask = offs_t < T
        # -- K: per-channel 2-bit, 16 tokens to a word --
        k_words = tl.load(k_code_base + (offs_t // FEAT_PER_INT)[:, None] * D + offs_d[None, :],
                          mask=t_mask[:, None], other=0)
        k_codes = (k_words >> ((offs_t % FEAT_PER_INT) * BITS)[:, None]) & bit_mask
        k_sc = tl.load(k_scale_base + (offs_t // GROUP_K)[:, None] * D + offs_d[None, :],
                       mask=t_mask[:, None], other=0.0)
        k_mn = tl.load(k_mn_base + (offs_t // GROUP_K)[:, None] * D + offs_d[None, :],
                       mask=t_mask[:, None], other=0.0)
        k = k_codes.to(tl.float32) * k_sc.to(tl.float32) + k_mn.to(tl.float32)

        qk = tl.sum(q[None, :] * k, 1)
        qk = tl.where(t_mask, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 0))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(qk - m_new)
        l_i = l_i * alpha + tl.sum(p, 0)

        # -- V: per-token 2-bit, 16 channels to a word --
        v_words = tl.load(v_code_base + offs_t[:, None] * (D // FEAT_PER_INT) + v_word,
                          mask=t_mask[:, None], other=0)
        v_codes = (v_words >> v_shift) & bit_mask
        v_sc = tl.load(v_scale_base + offs_t[:, None] * (D // GROUP_V) + v_group, mask=t_mask[:, None], other=0.0)
        v_mn = tl.load(v_mn_base + offs_t[:, None] * (D // GROUP_V) + v_group, mask=t_mask[:, None], other=0.0)
        v = v_codes.to(tl.float32) * v_sc.to(tl.float32) + v_mn.to(tl.float32)

        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        m_i = m_new

    o = acc / l_i
    tl.store(o_ptr + pid_bh * D + offs_d, o.to(o_ptr.dtype.element_ty))


def _quantize(x: Any, dim: int, group: int) -> tuple[Any, Any, Any]:
    """Asymmetric 2-bit quantization of ``x`` in groups of ``group`` along ``dim`` (KIVI's
    ``triton_quantize_and_pack_along_last_dim``): codes in 0..3 (int64, x's shape), fp16 scale and mn (``dim`` cut to
    its groups); x ~ code * scale + mn."""
    import torch
    xs = x.float().movedim(dim, -1)
    shp = xs.shape
    g = xs.reshape(*shp[:-1], shp[-1] // group, group)
    mn, mx = g.amin(-1, keepdim=True), g.amax(-1, keepdim=True)
    scale = (mx - mn) / (2 ** BITS - 1)
    scale_h, mn_h = scale.half(), mn.half()
    codes = torch.round((g - mn_h.float()) / scale_h.float()).clamp(0, 2 ** BITS - 1).long()
    codes = codes.reshape(shp).movedim(-1, dim)
    return codes, scale_h.squeeze(-1).movedim(-1, dim), mn_h.squeeze(-1).movedim(-1, dim)


def _pack(codes: Any, dim: int) -> Any:
    """16 codes to an int32 along ``dim`` (code j of a word at bits 2j..2j+1)."""
    import torch
    c = codes.movedim(dim, -1)
    shp = c.shape
    c = c.reshape(*shp[:-1], shp[-1] // FEAT_PER_INT, FEAT_PER_INT)
    shifts = torch.arange(FEAT_PER_INT, device=c.device) * BITS
    words = (c << shifts).sum(-1)
    words = torch.where(words >= 2 ** 31, words - 2 ** 32, words).to(torch.int32)
    return words.movedim(-1, dim).contiguous()


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q [B, H, D] fp16; K, V [B, H, T, D] drawn fp16 (K with a few outlier channels, as KIVI observes) and
    quantized: k_code [B, H, T/16, D] int32, k_scale / k_mn [B, H, T/GROUP_K, D]; v_code [B, H, T, D/16] int32,
    v_scale / v_mn [B, H, T, D/GROUP_V]. T a multiple of GROUP_K (the fp16 residual is not part of this kernel)."""
    import torch
    assert T % GROUP_K == 0 and T % FEAT_PER_INT == 0
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, D), device=device, generator=g).half()
    k = torch.randn((B, H, T, D), device=device, generator=g)
    k[..., ::17] *= 4.0                                    # outlier channels
    v = torch.randn((B, H, T, D), device=device, generator=g)
    k_codes, k_scale, k_mn = _quantize(k.half(), 2, GROUP_K)
    v_codes, v_scale, v_mn = _quantize(v.half(), 3, GROUP_V)
    return {"q": q, "k_code": _pack(k_codes, 2), "k_scale": k_scale.contiguous(), "k_mn": k_mn.contiguous(),
            "v_code": _pack(v_codes, 3), "v_scale": v_scale.contiguous(), "v_mn": v_mn.contiguous(), "T": T}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, H, D] fp16, flattened, as fp32."""
    import torch
    q, T = inputs["q"], inputs["T"]
    kc, ks, km, vc, vs, vm = (inputs[n] for n in ("k_code", "k_scale", "k_mn", "v_code", "v_scale", "v_mn"))
    B, H, _ = q.shape
    o = torch.empty_like(q)
    kivi_decode_attn_kernel[(B * H,)](q, kc, ks, km, vc, vs, vm, o, D ** -0.5, T,
                                      kc.stride(1), ks.stride(1), vc.stride(1), vs.stride(1),
                                      D=D, BLOCK_N=BLOCK_N, GROUP_K=GROUP_K, GROUP_V=GROUP_V, BITS=BITS,
                                      FEAT_PER_INT=FEAT_PER_INT, num_warps=config.get("num_warps", 4),
                                      num_stages=config.get("num_stages", 3))
    return o.float().flatten()


def _unpack(words: Any, dim: int) -> Any:
    import torch
    w = words.long().movedim(dim, -1)
    shifts = torch.arange(FEAT_PER_INT, device=w.device) * BITS
    c = (w[..., None] >> shifts) & (2 ** BITS - 1)
    return c.reshape(*w.shape[:-1], -1).movedim(-1, dim)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q = inputs["q"].double()
    k = _unpack(inputs["k_code"], 2).double() * inputs["k_scale"].double().repeat_interleave(GROUP_K, 2) \
        + inputs["k_mn"].double().repeat_interleave(GROUP_K, 2)
    v = _unpack(inputs["v_code"], 3).double() * inputs["v_scale"].double().repeat_interleave(GROUP_V, 3) \
        + inputs["v_mn"].double().repeat_interleave(GROUP_V, 3)
    s = torch.einsum("bhd,bhtd->bht", q, k) * D ** -0.5
    o = torch.einsum("bht,bhtd->bhd", torch.softmax(s, -1), v)
    return o.half().double().flatten()


def flops(B: int, H: int, T: int) -> float:
    return 4.0 * B * H * T * D
