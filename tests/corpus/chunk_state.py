"""The state pass of a chunked linear-attention kernel, in the style of flash-linear-attention's ``chunk_fwd_kernel_h``:
block pointers with boundary checks, the state ``b_h`` [BK, BV] stored at the top of each chunk's iteration (a store
inside the scheduled loop of the wgmma accumulator the loop carries) and then advanced by ``tl.dot(b_k, b_v)`` with
K read transposed (a [BK, BT] block of a T-major tensor). h[:, t] = sum over chunks s < t of k_s^T v_s; fp16 in and
out, fp32 state. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NT, BT = 64, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_fwd_kernel_h",
    "signature": {"k": "*fp16", "v": "*fp16", "h": "*fp16", "T": "i32"},
    "constexprs": {"K": 128, "V": 128, "BT": BT, "BK": 64, "BV": 64, "NT": NT},
    "num_warps": 4, "num_stages": 2, "divisibility": ["T"]}
PROBLEM: dict[str, int] = {"BH": 64, "T": NT * BT}
SMALL: dict[str, int] = {"BH": 3, "T": NT * BT - 48}       # the last chunk ragged: the boundary checks fill zeros


@triton.jit
def chunk_fwd_kernel_h(k, v, h, T, K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr,
                       BV: tl.constexpr, NT: tl.constexpr):
    i_k, i_v, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    for i_t in range(NT):
        p_h = tl.make_block_ptr(h + i_bh * NT * K * V + i_t * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV),
                                (1, 0))
        tl.store(p_h, b_h.to(p_h.dtype.element_ty), boundary_check=(0, 1))
        p_k = tl.make_block_ptr(k + i_bh * T * K, (K, T), (1, K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_v = tl.make_block_ptr(v + i_bh * T * V, (T, V), (V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        b_h += tl.dot(b_k, b_v)


def make_inputs(BH: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    k = (torch.randn((BH, T, 128), device=device, generator=g) / 16).half()
    v = (torch.randn((BH, T, 128), device=device, generator=g) / 16).half()
    return {"k": k, "v": v}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """h, fp16 [BH, NT, K, V]: the state before each chunk; one program per (K block, V block, sequence-head)."""
    import torch
    k, v = inputs["k"], inputs["v"]
    BH, T, K = k.shape
    h = torch.empty((BH, NT, K, 128), device=k.device, dtype=torch.float16)
    chunk_fwd_kernel_h[(K // 64, 128 // 64, BH)](k, v, h, T, K=K, V=128, BT=BT, BK=64, BV=64, NT=NT,
                                                 num_warps=config.get("num_warps", 4),
                                                 num_stages=config.get("num_stages", 2))
    return h


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    k, v = inputs["k"].float(), inputs["v"].float()
    BH, T, K = k.shape
    pad = NT * BT - T
    k = torch.nn.functional.pad(k, (0, 0, 0, pad)).view(BH, NT, BT, K)
    v = torch.nn.functional.pad(v, (0, 0, 0, pad)).view(BH, NT, BT, 128)
    step = torch.einsum("bntk,bntv->bnkv", k, v)
    return torch.cumsum(step, dim=1) - step        # the state before chunk t: the chunks before it


def flops(BH: int, T: int) -> float:
    return 2.0 * BH * T * 128 * 128
