"""The intra-chunk half of Mamba-2's SSD chunk scan (``_chunk_scan_fwd_kernel``'s second loop): for each output
block, a loop over the chunk's earlier positions up to the block's diagonal (a bound that depends on the program id,
``tl.minimum``), the C·B scores loaded, scaled in registers by the decay between positions (``exp`` of a difference of
two per-iteration vectors) and by dt, masked causally, cast to fp16 and multiplied with x. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_scan_fwd",
    "signature": {"cb_ptr": "*fp16", "x_ptr": "*fp16", "dA_ptr": "*fp32", "dt_ptr": "*fp32", "out_ptr": "*fp32",
                  "L": "i32", "D": "i32"},
    "constexprs": {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["L", "D"]}
PROBLEM: dict[str, int] = {"BH": 2048, "L": 256, "D": 64}
SMALL: dict[str, int] = {"BH": 3, "L": 208, "D": 64}


@triton.jit
def _chunk_scan_fwd(cb_ptr, x_ptr, dA_ptr, dt_ptr, out_ptr, L, D,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bh = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    cb_ptr += bh * L * L
    x_ptr += bh * L * D
    dA_ptr += bh * L
    dt_ptr += bh * L
    dA_m = tl.load(dA_ptr + offs_m, mask=offs_m < L, other=0.0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    K_MAX = tl.minimum((pid_m + 1) * BLOCK_M, L)
    for k in range(0, K_MAX, BLOCK_K):
        cb = tl.load(cb_ptr + offs_m[:, None] * L + (k + offs_k)[None, :],
                     mask=(offs_m[:, None] < L) & ((k + offs_k)[None, :] < K_MAX), other=0.0).to(tl.float32)
        dA_k = tl.load(dA_ptr + k + offs_k, mask=k + offs_k < K_MAX, other=0.0)
        cb *= tl.exp(dA_m[:, None] - dA_k[None, :])
        dt_k = tl.load(dt_ptr + k + offs_k, mask=k + offs_k < K_MAX, other=0.0)
        cb *= dt_k[None, :]
        cb = tl.where(offs_m[:, None] >= k + offs_k[None, :], cb, 0.0)
        x = tl.load(x_ptr + (k + offs_k)[:, None] * D + offs_n[None, :],
                    mask=((k + offs_k)[:, None] < K_MAX) & (offs_n[None, :] < D), other=0.0)
        acc += tl.dot(cb.to(x_ptr.dtype.element_ty), x)
    tl.store(out_ptr + bh * L * D + offs_m[:, None] * D + offs_n[None, :], acc,
             mask=(offs_m[:, None] < L) & (offs_n[None, :] < D))


def make_inputs(BH: int, L: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """cb [BH, L, L] fp16, x [BH, L, D] fp16, dA [BH, L] a decreasing cumulative sum, dt [BH, L] positive."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    cb = torch.randn((BH, L, L), device=device, generator=g).half()
    x = torch.randn((BH, L, D), device=device, generator=g).half()
    dA = -torch.cumsum(torch.rand((BH, L), device=device, generator=g) * 0.05, dim=1)
    dt = torch.rand((BH, L), device=device, generator=g) * 0.5 + 0.1
    return {"cb": cb, "x": x, "dA": dA.contiguous(), "dt": dt}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    cb, x = inputs["cb"], inputs["x"]
    BH, L, D = x.shape
    out = torch.empty((BH, L, D), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(L, 64), triton.cdiv(D, 64), BH)
    _chunk_scan_fwd[grid](cb, x, inputs["dA"], inputs["dt"], out, L, D, BLOCK_M=64, BLOCK_N=64, BLOCK_K=64,
                          num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    cb, x, dA, dt = inputs["cb"].float(), inputs["x"].float(), inputs["dA"], inputs["dt"]
    L = x.shape[1]
    decay = torch.exp(dA[:, :, None] - dA[:, None, :]) * dt[:, None, :]
    causal = torch.ones((L, L), device=x.device, dtype=torch.bool).tril()
    w = torch.where(causal, cb * decay, torch.zeros((), device=x.device))
    return torch.bmm(w.half().float(), x)
