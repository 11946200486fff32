"""Fused bias + dropout + residual over long rows, in the style of xFormers' ``k_dropout`` and Apex / Megatron's
``bias_dropout_add`` (rewritten here): one program per row walks its columns in blocks of 4 x QUARTER; **one
``tl.randint4x(seed, offsets)`` call a block** gives four uint32 streams, one for each quarter of the block (the
unroll-by-4 of the CUDA fused dropouts: four Philox outputs used per offset), and each quarter keeps its element
where the **low 24 bits** of its stream (``r & 0xFFFFFF``, an integer compare against ``p * 2^24`` converted once
before the loop: no float conversion of the random numbers) reach the threshold. The four quarters are a
``@triton.jit`` helper called four times: ``(x + bias) * 1 / (1 - p)`` where kept, plus the residual, stored fp16;
the keep mask **bit-packed for the backward** (``tl.reshape`` to [QUARTER / 32, 32], each bit shifted to its lane,
``tl.xor_sum`` along the word: disjoint bits, so the xor is the or) and stored as int32 words; the row's kept
count carried over the loop from **``tl.cat`` of the four quarters' masks** (``can_reorder=True``: only summed).
fp16 x / bias / residual, fp32 arithmetic. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bias_dropout_add_fw",
    "signature": {"X": "*fp16", "BIAS": "*fp16", "RES": "*fp16", "Y": "*fp16", "BITS": "*i32", "KEPT": "*i32",
                  "n_cols": "i32", "stride": "i32", "n_words": "i32", "p": "fp32", "seed": "i32"},
    "constexprs": {"QUARTER": 512}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["X", "BIAS", "RES", "Y", "BITS", "n_cols", "stride", "n_words"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 8192}
SMALL: dict[str, int] = {"R": 3, "N": 5000}      # 5000 = 2 * 2048 + 904: a ragged last block and a partial word
P_DROP = 0.3


@triton.jit
def _drop_quarter(X, BIAS, RES, Y, BITS, row, stride, n_cols, n_words, col0, r, thresh, scale,
                  QUARTER: tl.constexpr):
    """One quarter of a block: its dropout, its residual and its packed mask bits; returns its keep mask."""
    cols = col0 + tl.arange(0, QUARTER)
    inb = cols < n_cols
    x = tl.load(X + row * stride + cols, mask=inb, other=0.0).to(tl.float32)
    b = tl.load(BIAS + cols, mask=inb, other=0.0).to(tl.float32)
    res = tl.load(RES + row * stride + cols, mask=inb, other=0.0).to(tl.float32)
    keep = ((r & 0xFFFFFF) >= thresh) & inb
    y = tl.where(keep, (x + b) * scale, 0.0) + res
    tl.store(Y + row * stride + cols, y.to(tl.float16), mask=inb)
    lanes = tl.reshape(keep.to(tl.int32), [QUARTER // 32, 32]) << tl.arange(0, 32)[None, :]
    words = tl.xor_sum(lanes, axis=1)
    w_idx = col0 // 32 + tl.arange(0, QUARTER // 32)
    tl.store(BITS + row * n_words + w_idx, words, mask=w_idx < n_words)
    return keep


@triton.jit
def _bias_dropout_add_fw(X, BIAS, RES, Y, BITS, KEPT, n_cols, stride, n_words, p, seed, QUARTER: tl.constexpr):
    row = tl.program_id(0)
    thresh = tl.cast(p * 16777216.0, tl.uint32)
    scale = 1.0 / (1.0 - p)
    kept = tl.zeros([], dtype=tl.int32)
    for start in range(0, n_cols, 4 * QUARTER):
        # one Philox call a block: each offset's four words feed the four quarters
        rng = row * n_cols + start // 4 + tl.arange(0, QUARTER)
        r0, r1, r2, r3 = tl.randint4x(seed, rng)
        k0 = _drop_quarter(X, BIAS, RES, Y, BITS, row, stride, n_cols, n_words, start, r0, thresh, scale, QUARTER)
        k1 = _drop_quarter(X, BIAS, RES, Y, BITS, row, stride, n_cols, n_words, start + QUARTER, r1, thresh, scale,
                           QUARTER)
        k2 = _drop_quarter(X, BIAS, RES, Y, BITS, row, stride, n_cols, n_words, start + 2 * QUARTER, r2, thresh,
                           scale, QUARTER)
        k3 = _drop_quarter(X, BIAS, RES, Y, BITS, row, stride, n_cols, n_words, start + 3 * QUARTER, r3, thresh,
                           scale, QUARTER)
        both = tl.cat(tl.cat(k0, k1, can_reorder=True), tl.cat(k2, k3, can_reorder=True), can_reorder=True)
        kept += tl.sum(both.to(tl.int32), axis=0)
    tl.store(KEPT + row, kept)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, generator=g).half(),
            "bias": torch.randn((N,), device=device, generator=g).half(),
            "res": torch.randn((R, N), device=device, generator=g).half(), "seed": 4321 + seed}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(y fp16 [R, N], the keep mask packed 32 columns a word int32 [R, ceil(N / 32)], the kept count int32 [R]),
    p = 0.3; one program per row."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    n_words = triton.cdiv(N, 32)
    y = torch.full_like(x, float("nan"))
    bits = torch.full((R, n_words), -7, device=x.device, dtype=torch.int32)
    kept = torch.full((R,), -1, device=x.device, dtype=torch.int32)
    _bias_dropout_add_fw[(R,)](x, inputs["bias"], inputs["res"], y, bits, kept, N, x.stride(0), n_words, P_DROP,
                               inputs["seed"], QUARTER=512, num_warps=config.get("num_warps", 4),
                               num_stages=config.get("num_stages", 3))
    return y, bits, kept


@triton.jit
def _philox_words(OUT, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    m = offs < n
    tl.store(OUT + offs, r0.to(tl.int32, bitcast=True), mask=m)
    tl.store(OUT + n + offs, r1.to(tl.int32, bitcast=True), mask=m)
    tl.store(OUT + 2 * n + offs, r2.to(tl.int32, bitcast=True), mask=m)
    tl.store(OUT + 3 * n + offs, r3.to(tl.int32, bitcast=True), mask=m)


def _keep_mask(R: int, N: int, seed: int, device: Any) -> Any:
    """The keep mask from Triton's own ``tl.randint4x`` at the kernel's offsets (a separate unpipelined kernel)."""
    import torch
    q, block = 512, 2048
    n = R * N + N // 4 + q
    words = torch.empty((4, n), device=device, dtype=torch.int32)
    _philox_words[(triton.cdiv(n, 1024),)](words, n, seed, BLOCK=1024)
    low = (words.long() & 0xFFFFFF) >= int(P_DROP * 16777216.0)
    col = torch.arange(N, device=device)
    start, quarter, lane = col // block * block, col % block // q, col % q
    offs = torch.arange(R, device=device)[:, None] * N + (start // 4 + lane)[None, :]
    return low[quarter[None, :].expand(R, N), offs]


def reference(inputs: dict[str, Any]) -> Any:
    """The same outputs from the keep mask in double; the words packed from it in int64, then wrapped to int32."""
    import torch
    x, b, res = inputs["x"].double(), inputs["bias"].double(), inputs["res"].double()
    R, N = x.shape
    keep = _keep_mask(R, N, inputs["seed"], x.device)
    y = torch.where(keep, (x + b) / (1.0 - P_DROP), 0.0) + res
    n_words = triton.cdiv(N, 32)
    padded = torch.zeros((R, n_words * 32), device=x.device, dtype=torch.int64)
    padded[:, :N] = keep.long()
    words = (padded.view(R, n_words, 32) << torch.arange(32, device=x.device)).sum(-1)
    words = torch.where(words >= 2 ** 31, words - 2 ** 32, words)
    return y, words.to(torch.int32), keep.sum(1).to(torch.int32)
