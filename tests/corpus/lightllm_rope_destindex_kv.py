"""LightLLM / SGLang rotary embedding fused with the KV-cache write (LightLLM's ``rotary_emb_fwd`` ``_rotary_kernel``
and ``_fwd_kernel_destindex_copy_kv``, as SGLang's and LightLLM's fused "rotary + set kv buffer" kernels write them):
one program per token of a prefill/decode batch; the token's position and its KV-cache slot loaded from memory
(``pos = tl.load(Pos + cur_token)``, ``dest_index = tl.load(DestLoc + cur_token)``); cos/sin rows gathered by position
from [max_pos, HEAD_DIM // 2] tables; the head dim split into its two halves with ``tl.arange(0, HALF)`` and
``+ HALF * stride``; a loop over the query heads in blocks of BLOCK_H (masked on the ragged last block) rotating q in
place, then a loop over the KV heads rotating k and storing it, with v copied beside it, into the paged KV cache at
row ``dest_index`` (int64 offsets); the kernel names its V halves ``v0`` and ``v1`` and loads them first in the loop
body, as the names twill's generated code once gave the unnamed ``%0`` and ``%1`` (a clash that re-typed a
loop-carried value). Math in fp32, bf16 in and out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HEAD_DIM = 128
MAX_POS = 32768
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_rotary_destindex_copy_kv",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "Cos": "*fp32", "Sin": "*fp32", "Pos": "*i64",
                  "DestLoc": "*i64", "K_Cache": "*bf16", "V_Cache": "*bf16",
                  "stride_qbs": "i32", "stride_qh": "i32", "stride_qd": "constexpr",
                  "stride_kbs": "i32", "stride_kh": "i32", "stride_kd": "constexpr",
                  "stride_vbs": "i32", "stride_vh": "i32", "stride_vd": "constexpr",
                  "stride_cosbs": "i32", "stride_cosd": "constexpr", "stride_sinbs": "i32", "stride_sind": "constexpr",
                  "stride_cache_bs": "i32", "stride_cache_h": "i32", "stride_cache_d": "constexpr",
                  "HEAD_Q": "i32", "HEAD_K": "i32"},
    "constexprs": {"stride_qd": 1, "stride_kd": 1, "stride_vd": 1, "stride_cosd": 1, "stride_sind": 1,
                   "stride_cache_d": 1, "BLOCK_H": 4, "HEAD_DIM": HEAD_DIM},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["stride_qbs", "stride_qh", "stride_kbs", "stride_kh", "stride_vbs", "stride_vh", "stride_cosbs",
                     "stride_sinbs", "stride_cache_bs", "stride_cache_h", "HEAD_Q", "HEAD_K"]}
PROBLEM: dict[str, int] = {"T": 16384, "HQ": 32, "HK": 8, "S": 65536}     # T tokens, S cache slots
SMALL: dict[str, int] = {"T": 37, "HQ": 10, "HK": 2, "S": 100}             # heads not multiples of BLOCK_H


@triton.jit
def _fwd_kernel_rotary_destindex_copy_kv(
    Q, K, V, Cos, Sin, Pos, DestLoc, K_Cache, V_Cache,
    stride_qbs, stride_qh, stride_qd,
    stride_kbs, stride_kh, stride_kd,
    stride_vbs, stride_vh, stride_vd,
    stride_cosbs, stride_cosd,
    stride_sinbs, stride_sind,
    stride_cache_bs, stride_cache_h, stride_cache_d,
    HEAD_Q, HEAD_K,
    BLOCK_H: tl.constexpr,
    HEAD_DIM: tl.constexpr,
):
    cur_token = tl.program_id(0)
    HALF: tl.constexpr = HEAD_DIM // 2

    pos = tl.load(Pos + cur_token)
    dest_index = tl.load(DestLoc + cur_token).to(tl.int64)

    offs_h = tl.arange(0, BLOCK_H)
    offs_d = tl.arange(0, HALF)

    cos = tl.load(Cos + pos * stride_cosbs + offs_d * stride_cosd)
    sin = tl.load(Sin + pos * stride_sinbs + offs_d * stride_sind)

    # rotate q in place, BLOCK_H heads at a time
    for h_start in range(0, HEAD_Q, BLOCK_H):
        cur_h = h_start + offs_h
        mask_h = cur_h[:, None] < HEAD_Q
        q_ptrs = Q + cur_token * stride_qbs + cur_h[:, None] * stride_qh + offs_d[None, :] * stride_qd
        q0 = tl.load(q_ptrs, mask=mask_h, other=0.0).to(tl.float32)
        q1 = tl.load(q_ptrs + HALF * stride_qd, mask=mask_h, other=0.0).to(tl.float32)
        out0 = q0 * cos[None, :] - q1 * sin[None, :]
        out1 = q1 * cos[None, :] + q0 * sin[None, :]
        tl.store(q_ptrs, out0.to(Q.dtype.element_ty), mask=mask_h)
        tl.store(q_ptrs + HALF * stride_qd, out1.to(Q.dtype.element_ty), mask=mask_h)

    # rotate k and write k, v into the cache at the token's slot
    for h_start in range(0, HEAD_K, BLOCK_H):
        cur_h = h_start + offs_h
        mask_h = cur_h[:, None] < HEAD_K
        v_ptrs = V + cur_token * stride_vbs + cur_h[:, None] * stride_vh + offs_d[None, :] * stride_vd
        v0 = tl.load(v_ptrs, mask=mask_h, other=0.0)
        v1 = tl.load(v_ptrs + HALF * stride_vd, mask=mask_h, other=0.0)
        k_ptrs = K + cur_token * stride_kbs + cur_h[:, None] * stride_kh + offs_d[None, :] * stride_kd
        k0 = tl.load(k_ptrs, mask=mask_h, other=0.0).to(tl.float32)
        k1 = tl.load(k_ptrs + HALF * stride_kd, mask=mask_h, other=0.0).to(tl.float32)
        out0 = k0 * cos[None, :] - k1 * sin[None, :]
        out1 = k1 * cos[None, :] + k0 * sin[None, :]
        kc_ptrs = K_Cache + dest_index * stride_cache_bs + cur_h[:, None] * stride_cache_h \
            + offs_d[None, :] * stride_cache_d
        tl.store(kc_ptrs, out0.to(K_Cache.dtype.element_ty), mask=mask_h)
        tl.store(kc_ptrs + HALF * stride_cache_d, out1.to(K_Cache.dtype.element_ty), mask=mask_h)

        vc_ptrs = V_Cache + dest_index * stride_cache_bs + cur_h[:, None] * stride_cache_h \
            + offs_d[None, :] * stride_cache_d
        tl.store(vc_ptrs, v0, mask=mask_h)
        tl.store(vc_ptrs + HALF * stride_cache_d, v1, mask=mask_h)


def make_inputs(T: int, HQ: int, HK: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    bf = torch.bfloat16
    q = torch.randn((T, HQ, HEAD_DIM), device=device, generator=g).to(bf)
    k = torch.randn((T, HK, HEAD_DIM), device=device, generator=g).to(bf)
    v = torch.randn((T, HK, HEAD_DIM), device=device, generator=g).to(bf)
    inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, device=device, dtype=torch.float32) / HEAD_DIM))
    freqs = torch.outer(torch.arange(MAX_POS, device=device, dtype=torch.float32), inv_freq)
    pos = torch.randint(0, MAX_POS, (T,), device=device, generator=g, dtype=torch.int64)
    dest = torch.randperm(S, device=device, generator=g)[:T].to(torch.int64)
    return {"q": q, "k": k, "v": v, "cos": freqs.cos().contiguous(), "sin": freqs.sin().contiguous(),
            "pos": pos, "dest": dest, "cache_slots": S}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(q rotated, K cache, V cache): q a rotated copy of inputs' q, the caches [S, HK, HEAD_DIM] zero but for the
    batch's slots."""
    import torch
    q = inputs["q"].clone()
    k, v, cos, sin = inputs["k"], inputs["v"], inputs["cos"], inputs["sin"]
    T, HQ, _ = q.shape
    HK = k.shape[1]
    S = inputs["cache_slots"]
    k_cache = torch.zeros((S, HK, HEAD_DIM), device=q.device, dtype=k.dtype)
    v_cache = torch.zeros_like(k_cache)
    _fwd_kernel_rotary_destindex_copy_kv[(T,)](
        q, k, v, cos, sin, inputs["pos"], inputs["dest"], k_cache, v_cache,
        q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2), cos.stride(0), cos.stride(1), sin.stride(0), sin.stride(1),
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2), HQ, HK,
        BLOCK_H=4, HEAD_DIM=HEAD_DIM, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return q, k_cache, v_cache


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    pos = inputs["pos"]
    cos, sin = inputs["cos"][pos].double()[:, None, :], inputs["sin"][pos].double()[:, None, :]

    def rot(x: Any) -> Any:
        x0, x1 = x.double().chunk(2, dim=-1)
        return torch.cat([x0 * cos - x1 * sin, x1 * cos + x0 * sin], dim=-1)

    k, v = inputs["k"], inputs["v"]
    S = inputs["cache_slots"]
    k_cache = torch.zeros((S,) + tuple(k.shape[1:]), device=k.device, dtype=torch.float64)
    v_cache = torch.zeros_like(k_cache)
    k_cache[inputs["dest"]] = rot(k)
    v_cache[inputs["dest"]] = v.double()
    return rot(inputs["q"]), k_cache, v_cache


def bytes_moved(T: int, HQ: int, HK: int, S: int) -> float:
    """bf16 q read and written, k and v read and written into the cache, the cos/sin rows (fp32)."""
    return 2.0 * T * HEAD_DIM * (2 * HQ + 4 * HK) + 4.0 * T * HEAD_DIM
