"""rtp-llm's batch-invariant BF16 gate linear, ``_bf16_gate_gemm`` (alibaba/rtp-llm
rtp_llm/models_py/triton_kernels/common/bf16_gate_linear.py, launched by ``maybe_bf16_gate_linear``), the Qwen3.5
decode-phase "BA" gate (N = 128 outputs of K = 4096; geometry BM 16, BN 16, BK 256, SK 4).

The constructs: ``@triton.jit(do_not_specialize=["M"])``; split-K computed **as a batch dimension inside one CTA**:
the K loop ``for block in range(tl.cdiv(K // SK, BK))`` (constexpr trip count 4) builds **3-D pointer tiles**
([SK, BM, BK] of X with rows masked ``< M`` and [SK, BK, BN] of W read transposed through strides, columns masked
``< N``, both with other = 0 as a positional argument) and issues a **3-D batched ``tl.dot(x, w, acc)``** into a
[4, 16, 16] fp32 accumulator (**M = N = 16**); after the loop a **constexpr ``if SK == 4``** picks an ordered
partial-sum tree: ``tl.permute(acc, (1, 2, 0))``, reshape to [16, 16, 2, 2] and **three ``tl.split``s**, then
``((p0 + p1) + p2) + p3``; a constexpr ``HAS_BIAS`` branch (taken: a bf16 bias row). Compiled with
``enable_fp_fusion=False`` upstream (not expressible in TWILL_SPEC; the port launches with it). Port notes: the
``trace_triton`` wrapper replaced by a direct launch; a decode batch of 64 tokens (the kernel's "64-row router
baseline")."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

N_OUT, K_IN = 128, 4096
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bf16_gate_gemm",
    "signature": {"X": "*bf16", "W": "*bf16", "B": "*bf16", "Y": "*bf16", "M": "i32"},
    "constexprs": {"N": N_OUT, "K": K_IN, "XS": K_IN, "XK": 1, "WN": K_IN, "WK": 1, "HAS_BIAS": True, "BM": 16,
                   "BN": 16, "BK": 256, "SK": 4},
    "num_warps": 4, "num_stages": 3,
    "divisibility": []}
PROBLEM: dict[str, int] = {"M": 64, "N": N_OUT, "K": K_IN}
SMALL: dict[str, int] = {"M": 21, "N": N_OUT, "K": K_IN}


@triton.jit(do_not_specialize=["M"])
def _bf16_gate_gemm(
    X,
    W,
    B,
    Y,
    M,
    N: tl.constexpr,
    K: tl.constexpr,
    XS: tl.constexpr,
    XK: tl.constexpr,
    WN: tl.constexpr,
    WK: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
    SK: tl.constexpr,
):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    splits = tl.arange(0, SK)
    acc = tl.zeros((SK, BM, BN), tl.float32)
    for block in range(tl.cdiv(K // SK, BK)):
        k = splits[:, None] * (K // SK) + block * BK + ks[None, :]
        x = tl.load(
            X + rows[None, :, None] * XS + k[:, None, :] * XK,
            rows[None, :, None] < M,
            0,
        )
        w = tl.load(
            W + k[:, :, None] * WK + cols[None, None, :] * WN,
            cols[None, None, :] < N,
            0,
        )
        acc = tl.dot(x, w, acc)
    if SK == 4:
        # Keep the final partial-sum additions ordered, independent of M/layout.
        paired = tl.reshape(tl.permute(acc, (1, 2, 0)), (BM, BN, 2, 2))
        even, odd = tl.split(paired)
        p0, p2 = tl.split(even)
        p1, p3 = tl.split(odd)
        total = ((p0 + p1) + p2) + p3
    else:
        total = tl.sum(acc, 0)
    if HAS_BIAS:
        total += tl.load(B + cols, cols < N, 0).to(tl.float32)[None, :]
    tl.store(
        Y + rows[:, None] * N + cols[None, :],
        total,
        (rows[:, None] < M) & (cols[None, :] < N),
    )


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K], weight [N, K] (nn.Linear layout), bias [N], all bf16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).bfloat16()
    w = (torch.randn((N, K), device=device, generator=g) * K ** -0.5).bfloat16()
    b = torch.randn((N,), device=device, generator=g).bfloat16()
    return {"x": x, "weight": w, "bias": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y [M, N] bf16 = x @ weight^T + bias, as ``maybe_bf16_gate_linear`` launches it for N = 128."""
    import torch
    x, weight, bias = inputs["x"], inputs["weight"], inputs["bias"]
    m, k = x.shape
    n = weight.shape[0]
    output = torch.empty((m, n), device=x.device, dtype=x.dtype)
    bm = 16
    bn, bk, sk = (32, 128, 2) if n == 512 else (16, 256, 4)
    _bf16_gate_gemm[(triton.cdiv(m, bm), triton.cdiv(n, bn))](
        x, weight, bias if bias is not None else output, output, m,
        N=n, K=k, XS=x.stride(0), XK=x.stride(1), WN=weight.stride(0), WK=weight.stride(1),
        HAS_BIAS=bias is not None, BM=bm, BN=bn, BK=bk, SK=sk, num_warps=4, num_stages=3, enable_fp_fusion=False)
    return output


def reference(inputs: dict[str, Any]) -> Any:
    """x @ weight^T + bias in fp64."""
    return inputs["x"].double() @ inputs["weight"].double().T + inputs["bias"].double()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
