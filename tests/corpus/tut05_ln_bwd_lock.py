"""Triton's tutorial 05 layer-norm backward (triton-lang/triton python/tutorials/05-layer-norm.py,
``_layer_norm_bwd_dx_fused`` and ``_layer_norm_bwd_dwdb`` as ``LayerNorm.backward`` launches them): one program a
row computes dx from the row's saved mean and rstd, then adds the row's dW / dB to one of GROUP_SIZE_M partial rows
(``lock_id = row % GROUP_SIZE_M``) under a spin lock: ``while tl.atomic_cas(Lock, 0, 1) == 1: pass`` (the kernel's
only loop, a ``scf.while`` on an atomic's result with an empty body), a counter beside the locks (``Count = Lock +
GROUP_SIZE_M``) read with a plain load, ``if count == 0: tl.atomic_xchg(Count, 1) else: partial_dw +=
tl.load(DW, mask=mask)`` (the first writer stores without accumulating), the two stores, ``tl.debug_barrier()``
so that every thread has stored before ``tl.atomic_xchg(Lock, 0)`` releases it. The second kernel sums the
GROUP_SIZE_M partial rows in [BLOCK_SIZE_M, BLOCK_SIZE_N] tiles, a row loop with a 2-D accumulator and a
``tl.sum(axis=0)`` after it. TWILL_SPEC takes the first (the lock), as the tutorial's heuristics specialise it
for its benchmark's fp16 N = 8192: BLOCK_SIZE_N = next_power_of_2(N), num_warps = min(max(BLOCK_SIZE // 256, 1),
8) = 8, GROUP_SIZE_M = 96."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_layer_norm_bwd_dx_fused",
    "signature": {"DX": "*fp16", "DY": "*fp16", "DW": "*fp16", "DB": "*fp16", "X": "*fp16", "W": "*fp16",
                  "Mean": "*fp32", "Rstd": "*fp32", "Lock": "*i32", "stride": "i32", "N": "i32"},
    "constexprs": {"GROUP_SIZE_M": 96, "BLOCK_SIZE_N": 8192},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["DX", "DY", "DW", "DB", "X", "W", "Mean", "Rstd", "Lock", "stride", "N"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 8192}
SMALL: dict[str, int] = {"M": 200, "N": 5000}   # N in (4096, 8192]: the same BLOCK_SIZE_N and GROUP_SIZE_M


@triton.jit
def _layer_norm_bwd_dx_fused(DX,  # pointer to the input gradient
                             DY,  # pointer to the output gradient
                             DW,  # pointer to the partial sum of weights gradient
                             DB,  # pointer to the partial sum of biases gradient
                             X,  # pointer to the input
                             W,  # pointer to the weights
                             Mean,  # pointer to the mean
                             Rstd,  # pointer to the 1/std
                             Lock,  # pointer to the lock
                             stride,  # how much to increase the pointer when moving by 1 row
                             N,  # number of columns in X
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # twill corpus rendition: dx of one row; its dW / dB added to a partial row under a spin lock
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M               # one of GROUP_SIZE_M partial rows (and its lock)
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:                             # first store doesn't accumulate
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    # need a barrier to ensure all threads finished before releasing the lock
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW,  # pointer to the partial sum of weights gradient
                         DB,  # pointer to the partial sum of biases gradient
                         FINAL_DW,  # pointer to the weights gradient
                         FINAL_DB,  # pointer to the biases gradient
                         M,  # GROUP_SIZE_M
                         N,  # number of columns
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):        # the partial rows, summed
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x, dy [M, N] fp16 and w, b [N] as the tutorial's test makes them; mean and rstd [M] fp32 as its forward
    kernel stores them."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    w = torch.rand((N,), device=device, generator=g).half()
    b = torch.rand((N,), device=device, generator=g).half()
    x = (-2.3 + 0.5 * torch.randn((M, N), device=device, generator=g)).half()
    dy = (0.1 * torch.randn((M, N), device=device, generator=g)).half()
    xf = x.float()
    mean = xf.mean(dim=1)
    rstd = 1.0 / torch.sqrt(xf.var(dim=1, unbiased=False) + 1e-5)
    return {"x": x, "dy": dy, "w": w, "b": b, "mean": mean, "rstd": rstd}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[dx flattened, dw, db] as LayerNorm.backward computes them (both kernels)."""
    import torch
    x, dy, w, mean, rstd = inputs["x"], inputs["dy"], inputs["w"], inputs["mean"], inputs["rstd"]
    M, N = x.shape
    BLOCK_SIZE = min(65536 // x.element_size(), triton.next_power_of_2(N))
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    GROUP_SIZE_M = 64
    if N <= 8192: GROUP_SIZE_M = 96     # noqa: E701
    if N <= 4096: GROUP_SIZE_M = 128    # noqa: E701
    if N <= 1024: GROUP_SIZE_M = 256    # noqa: E701
    locks = torch.zeros(2 * GROUP_SIZE_M, dtype=torch.int32, device=w.device)
    _dw = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
    _db = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=w.device)
    dw = torch.empty((N,), dtype=w.dtype, device=w.device)
    db = torch.empty((N,), dtype=w.dtype, device=w.device)
    dx = torch.empty_like(dy)
    _layer_norm_bwd_dx_fused[(M,)](dx, dy, _dw, _db, x, w, mean, rstd, locks, x.stride(0), N,
                                   BLOCK_SIZE_N=BLOCK_SIZE, GROUP_SIZE_M=GROUP_SIZE_M,
                                   num_warps=config.get("num_warps", num_warps))
    grid = lambda meta: (triton.cdiv(N, meta['BLOCK_SIZE_N']),)  # noqa: E731
    _layer_norm_bwd_dwdb[grid](_dw, _db, dw, db, GROUP_SIZE_M, N, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
    return torch.cat([dx.flatten(), dw, db])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, dy, w = inputs["x"].double(), inputs["dy"].double(), inputs["w"].double()
    mean, rstd = inputs["mean"].double()[:, None], inputs["rstd"].double()[:, None]
    N = x.shape[1]
    xhat = (x - mean) * rstd
    wdy = w * dy
    c1 = (xhat * wdy).sum(dim=1, keepdim=True) / N
    c2 = wdy.sum(dim=1, keepdim=True) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    return torch.cat([dx.flatten(), (dy * xhat).sum(dim=0), dy.sum(dim=0)])
