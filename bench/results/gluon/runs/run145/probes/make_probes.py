"""Write the top-k probes of run 145: the pieces of triton_kernels' streaming top-k, each alone in a loop."""
from pathlib import Path

HEAD = '''"""Run 145 probe {mode}: {what}. Keys as tk_topk_forward makes them (fp16 bits, order-preserving xor, widened,
the column's index in the low 16 bits); the reference is the Triton kernel itself (a second JIT of the same function)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {{
    "kernel": "topk_probe",
    "signature": {{"X": "*fp16", "Y": "*i32", "stride_xm": "i32", "n_rows": "i32"}},
    "constexprs": {{"MODE": {mode}, "BLOCK_M": 32, "BLOCK_N": 32, "N_PAD": 256, "K": 8}},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["X", "Y", "stride_xm"]}}
PROBLEM: dict[str, int] = {{"n_rows": 16384}}
SMALL: dict[str, int] = {{"n_rows": 70}}


@triton.jit
def _key(x, offs_n, N_PAD: tl.constexpr):
    u = x.to(tl.uint16, bitcast=True)
    tm = tl.full(u.shape, 1 << 15, tl.uint16)
    fm = tl.full(u.shape, (1 << 16) - 1, tl.uint16)
    k = u ^ tl.where((u & tm) != 0, fm, tm)
    return (k.to(tl.uint32) << 16) | (N_PAD - offs_n)[None, :]


@triton.jit
def topk_probe(X, Y, stride_xm, n_rows, MODE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               N_PAD: tl.constexpr, K: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    mask_m = offs_m[:, None] < n_rows
    offs_n = tl.arange(0, BLOCK_N)
    X_ptrs = X + offs_m[:, None] * stride_xm + offs_n[None, :]
    x = _key(tl.load(X_ptrs, mask=mask_m, other=0.0), offs_n, N_PAD)
    if MODE == 0:       # the keys alone: each block's keys stored
        tl.store(Y + offs_m[:, None] * N_PAD + offs_n[None, :], x.to(tl.int32, bitcast=True), mask=mask_m)
        for i in range(1, N_PAD // BLOCK_N):
            X_ptrs += BLOCK_N
            x = _key(tl.load(X_ptrs, mask=mask_m, other=0.0), offs_n + i * BLOCK_N, N_PAD)
            tl.store(Y + offs_m[:, None] * N_PAD + i * BLOCK_N + offs_n[None, :], x.to(tl.int32, bitcast=True),
                     mask=mask_m)
    else:
        acc = tl.topk(x, K, dim=1)
        for i in range(1, N_PAD // BLOCK_N):
            acc = tl.bitonic_merge(acc)
            X_ptrs += BLOCK_N
            x = _key(tl.load(X_ptrs, mask=mask_m, other=0.0), offs_n + i * BLOCK_N, N_PAD)
            acc = tl.maximum(acc, tl.topk(x, K, dim=1))
        if MODE == 2:
            acc = tl.sort(acc, dim=1, descending=True)
        tl.store(Y + offs_m[:, None] * K + tl.arange(0, K)[None, :], acc.to(tl.int32, bitcast=True), mask=mask_m)


_reference = triton.jit(topk_probe.fn)


def make_inputs(n_rows: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    base = torch.randperm(1024, generator=g, device=device)[:256].float()
    perm = torch.stack([torch.randperm(256, generator=g, device=device) for _ in range(n_rows)])
    return {{"x": ((base[perm] - 512) / 256.0).half()}}


def _run(kernel, inputs):
    import torch
    x = inputs["x"]
    n = x.shape[0]
    y = torch.full((n, {width}), -1, device=x.device, dtype=torch.int32)
    kernel[(triton.cdiv(n, 32),)](x, y, x.stride(0), n, MODE={mode}, BLOCK_M=32, BLOCK_N=32, N_PAD=256, K=8,
                                  num_warps=4, num_stages=3)
    return y


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The probe's int32 output as float (keys below 2^31 differ from their float by at most 64 units: compared
    as the float of hi and lo halves)."""
    y = _run(topk_probe, inputs)
    return (y >> 16).float(), (y & 0xFFFF).float()


def reference(inputs: dict[str, Any]) -> Any:
    y = _run(_reference, inputs)
    return (y >> 16).float(), (y & 0xFFFF).float()
'''
WHAT = {0: "the keys of every block stored (no top-k)", 1: "tl.topk, tl.bitonic_merge and tl.maximum carried over "
        "the blocks", 2: "probe 1 with tl.sort(descending=True) after the loop"}
for mode in (0, 1, 2):
    width = 256 if mode == 0 else 8
    Path(f"topk_probe{mode}.py").write_text(HEAD.format(mode=mode, what=WHAT[mode], width=width))
