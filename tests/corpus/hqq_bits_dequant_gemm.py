"""A dequantising GEMM that builds fp16 weights from their bits, as Marlin/HQQ-style kernels do: each int32 holds two
fp16 bit patterns (``(w >> 16) & 0xFFFF`` and ``w & 0xFFFF``, ``.to(tl.uint16).to(tl.float16, bitcast=True)``),
joined with tl.join and reshaped into the B tile, scaled per output column, then one tl.dot a K step. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"a_ptr": "*fp16", "w_ptr": "*i32", "s_ptr": "*fp16", "c_ptr": "*fp16",
                                            "M": "i32", "N": "i32", "K": "i32"},
                              "constexprs": {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 4,
                              "num_stages": 3, "divisibility": ["M", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 128, "N": 256, "K": 256}


@triton.jit
def bits_dequant_gemm(a_ptr, w_ptr, s_ptr, c_ptr, M, N, K,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    rk2 = tl.arange(0, BLOCK_K // 2)
    scale = tl.load(s_ptr + rn)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        packed = tl.load(w_ptr + (k // 2 + rk2)[:, None] * N + rn[None, :])
        hi = ((packed >> 16) & 0xFFFF).to(tl.uint16).to(tl.float16, bitcast=True)
        lo = (packed & 0xFFFF).to(tl.uint16).to(tl.float16, bitcast=True)
        w = tl.join(lo, hi).permute(0, 2, 1).reshape(BLOCK_K, BLOCK_N)
        acc = tl.dot(a, w * scale[None, :], acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    w = (torch.randn((K, N), device=device, dtype=torch.float16, generator=g) / 16)
    bits = w.view(torch.int16).to(torch.int32) & 0xFFFF
    packed = bits[0::2] | (bits[1::2] << 16)          # rows 2i (low half) and 2i + 1 (high half) of each pair
    return {"a": torch.randn((M, K), device=device, dtype=torch.float16, generator=g) / 8, "w": w,
            "packed": packed.contiguous(), "s": torch.rand((N,), device=device, dtype=torch.float16, generator=g) + 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ (W * s), fp16 [M, N]."""
    import torch
    a, packed, s = inputs["a"], inputs["packed"], inputs["s"]
    M, K = a.shape
    N = packed.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    bits_dequant_gemm[(M // 64, N // 128)](a, packed, s, c, M, N, K, BLOCK_M=64, BLOCK_N=128, BLOCK_K=64,
                                           num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    a, w, s = inputs["a"].double(), inputs["w"].double(), inputs["s"].double()
    return a @ (w * s[None, :])
