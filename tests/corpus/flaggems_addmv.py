"""FlagGems' ``addmv_kernel`` (FlagOpen/FlagGems, src/flag_gems/ops/addmv.py): out = alpha * (mat @ vec) + beta * self
as a matrix-vector product with no tl.dot: each program owns BLOCK_N rows (offsets as a [BLOCK_N, 1] column), a
``range(0, M, BLOCK_M)`` loop multiplies a [BLOCK_N, BLOCK_M] tile of the matrix by a broadcast [1, BLOCK_M] slice
of the vector and accumulates elementwise into a 2-D fp32 register tile (both loads masked on the M tail, the matrix
also on the N tail, both pointers advanced every iteration), the row sums taken once after the loop
(``tl.sum(acc, axis=1)[:, None]``), then the bias row read through its own stride and the fp32 result stored into
the bf16 output (an implicit cast on store). ``@triton.jit(do_not_specialize=["alpha", "beta"])`` keeps both scalars
arguments; ``tle.program_id`` (FlagGems' triton_lang_extension) is ``tl.program_id`` here and ``@libentry`` /
``@triton.autotune`` are dropped (flag_gems is not installed). Config from the nvidia tune_configs.yaml "mv" list
(BLOCK_M 32/64/128, BLOCK_N 1/2/4/8, 4 or 8 warps, 3 or 4 stages): BLOCK_N 8, BLOCK_M 128, 4 warps, 3 stages."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "addmv_kernel",
    "signature": {"A": "*bf16", "B": "*bf16", "Inp": "*bf16", "Out": "*bf16", "N": "i32", "M": "i32",
                  "alpha": "fp32", "beta": "fp32", "stride_an": "i32", "stride_am": "constexpr",
                  "stride_bm": "constexpr", "stride_in": "constexpr", "stride_outn": "constexpr"},
    "constexprs": {"stride_am": 1, "stride_bm": 1, "stride_in": 1, "stride_outn": 1,
                   "BLOCK_N": 8, "BLOCK_M": 128},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["N", "M", "stride_an"]}
PROBLEM: dict[str, int] = {"N": 16384, "M": 8192}
SMALL: dict[str, int] = {"N": 203, "M": 1000}
ALPHA, BETA = 0.75, 0.5


@triton.jit(do_not_specialize=["alpha", "beta"])
def addmv_kernel(
    A,
    B,
    Inp,
    Out,
    N,
    M,
    alpha,
    beta,
    stride_an,
    stride_am,
    stride_bm,
    stride_in,
    stride_outn,
    BLOCK_N: tl.constexpr,
    BLOCK_M: tl.constexpr,
):
    pid = tl.program_id(0)
    offset_n = pid * BLOCK_N + tl.arange(0, BLOCK_N)[:, None]
    offset_m = tl.arange(0, BLOCK_M)[None, :]
    n_mask = offset_n < N
    A_ptrs = A + offset_n * stride_an + offset_m * stride_am
    B_ptrs = B + offset_m * stride_bm
    acc = tl.zeros((BLOCK_N, BLOCK_M), dtype=tl.float32)
    for m in range(0, M, BLOCK_M):
        m_mask = m + offset_m < M
        a = tl.load(A_ptrs, mask=n_mask & m_mask, other=0.0).to(tl.float32)
        b = tl.load(B_ptrs, mask=m_mask, other=0.0).to(tl.float32)
        acc += a * b
        A_ptrs += BLOCK_M * stride_am
        B_ptrs += BLOCK_M * stride_bm

    acc = tl.sum(acc, axis=1)[:, None]
    Inp_ptrs = Inp + offset_n * stride_in
    inp = tl.load(Inp_ptrs, mask=n_mask, other=0.0).to(tl.float32)
    Out_ptrs = Out + offset_n * stride_outn
    out_block = acc * alpha + inp * beta
    tl.store(Out_ptrs, out_block, mask=n_mask)


def make_inputs(N: int, M: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    mat = torch.randn((N, M), device=device, generator=g).to(torch.bfloat16)
    vec = (torch.randn((M,), device=device, generator=g) / M ** 0.5).to(torch.bfloat16)
    inp = torch.randn((N,), device=device, generator=g).to(torch.bfloat16)
    return {"mat": mat, "vec": vec, "inp": inp}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out (N,) bf16, as flag_gems.addmv(self, mat, vec, beta=BETA, alpha=ALPHA) runs the kernel."""
    import torch
    mat, vec, inp = inputs["mat"], inputs["vec"], inputs["inp"]
    N, M = mat.shape
    out = torch.empty((N,), device=mat.device, dtype=mat.dtype)
    inp = inp.broadcast_to(out.shape)
    BLOCK_N, BLOCK_M = config.get("BLOCK_N", 8), config.get("BLOCK_M", 128)
    grid = (triton.cdiv(N, BLOCK_N),)
    addmv_kernel[grid](mat, vec, inp, out, N, M, ALPHA, BETA, mat.stride(0), mat.stride(1), vec.stride(0),
                       inp.stride(0), out.stride(0), BLOCK_N=BLOCK_N, BLOCK_M=BLOCK_M,
                       num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    mat, vec, inp = inputs["mat"].double(), inputs["vec"].double(), inputs["inp"].double()
    return ALPHA * (mat @ vec) + BETA * inp


def flops(N: int, M: int) -> float:
    return 2.0 * N * M
