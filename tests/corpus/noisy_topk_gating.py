"""Noisy top-k gating's logits, as MoE routers write them (Shazeer-style): per row, logits = x @ W_gate over the
model dimension in a K loop, then a noise scale softplus(x @ W_noise) = log1p(exp(.)) (libdevice) and tl.randn Gaussian noise
added in the epilogue. Two dots share the A tile each iteration; randn after the loop (Philox). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp16", "wg_ptr": "*fp16", "wn_ptr": "*fp16", "out_ptr": "*fp32",
                                            "M": "i32", "E": "i32", "D": "i32", "seed": "i32"},
                              "constexprs": {"BLOCK_M": 64, "BLOCK_E": 64, "BLOCK_D": 64}, "num_warps": 4,
                              "num_stages": 3, "divisibility": ["M", "E", "D"]}
PROBLEM: dict[str, int] = {"M": 8192, "E": 64, "D": 4096}
SMALL: dict[str, int] = {"M": 128, "E": 64, "D": 256}


@triton.jit
def noisy_gating(x_ptr, wg_ptr, wn_ptr, out_ptr, M, E, D, seed,
                 BLOCK_M: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    re = tl.arange(0, BLOCK_E)
    rd = tl.arange(0, BLOCK_D)
    acc_g = tl.zeros([BLOCK_M, BLOCK_E], dtype=tl.float32)
    acc_n = tl.zeros([BLOCK_M, BLOCK_E], dtype=tl.float32)
    for k in range(0, D, BLOCK_D):
        a = tl.load(x_ptr + rm[:, None] * D + (k + rd)[None, :], mask=rm[:, None] < M, other=0.0)
        bg = tl.load(wg_ptr + (k + rd)[:, None] * E + re[None, :])
        bn = tl.load(wn_ptr + (k + rd)[:, None] * E + re[None, :])
        acc_g = tl.dot(a, bg, acc_g)
        acc_n = tl.dot(a, bn, acc_n)
    noise_std = tl.where(acc_n > 20.0, acc_n, libdevice.log1p(tl.exp(acc_n)))
    offs = rm[:, None] * E + re[None, :]
    z = tl.randn(seed, offs)
    tl.store(out_ptr + offs, acc_g + z * noise_std, mask=rm[:, None] < M)


def make_inputs(M: int, E: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((M, D), device=device, dtype=torch.float16, generator=g) / 8,
            "wg": torch.randn((D, E), device=device, dtype=torch.float16, generator=g) / 8,
            "wn": torch.randn((D, E), device=device, dtype=torch.float16, generator=g) / 8}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The clean logits and the noise scale are what the reference checks: the kernel run with its noise, then with
    seed-independent parts recovered by running twice with the same seed (deterministic: Philox)."""
    import torch
    x, wg, wn = inputs["x"], inputs["wg"], inputs["wn"]
    M, D = x.shape
    E = wg.shape[1]
    out = torch.empty((M, E), device=x.device, dtype=torch.float32)
    noisy_gating[(triton.cdiv(M, 64),)](x, wg, wn, out, M, E, D, 1234, BLOCK_M=64, BLOCK_E=64, BLOCK_D=64,
                                        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """The logits with the kernel's own Philox noise: randn(seed, offsets) is what tl.randn draws, reproduced by a
    kernel of one tl.randn (no twill code): the reference checks the GEMMs and the softplus around it."""
    import torch
    x, wg, wn = (inputs[k].double() for k in ("x", "wg", "wn"))
    M, E = x.shape[0], wg.shape[1]
    z = torch.empty((M, E), device=inputs["x"].device, dtype=torch.float32)
    _randn[(triton.cdiv(M * E, 1024),)](z, M * E, 1234, BLOCK=1024)
    n = x @ wn
    return x @ wg + z.double() * torch.where(n > 20.0, n, torch.log1p(torch.exp(n)))


@triton.jit
def _randn(z_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(z_ptr + offs, tl.randn(seed, offs), mask=offs < n)
