"""FlagGems' ``var_mean`` over the last dim (``var_mean_welford_kernel``), from FlagOpen/FlagGems
``src/flag_gems/ops/var_mean.py`` (commit 0dd842dfe64b, the variant with a persistent row loop). A grid capped at
TOTAL_CORE_NUM programs; an outer ``for i in range(0, iter_num)`` over row tiles (``iter_num = tl.cdiv(task_num,
num_prog)`` from ``tl.num_programs``), and inside it a ``for off in range(0, N, BLOCK_N)`` loop doing a per-lane
Welford update of three [BLOCK_M, BLOCK_N] fp32 carries (mean, count, M2) with a boolean mask added to a float
(``_count + mask``, ``* mask``) and the Python ``row_mask and col_mask`` of two tensors; after it a tuple
``tl.reduce((_mean, _count, _acc), axis=1, combine_fn=welford_func)`` with a @triton.jit combine function, a
runtime float ``correction`` (``do_not_specialize``), and [BLOCK_M, 1] stores of var and mean. bf16 in and out.
Port notes: TOTAL_CORE_NUM (a device constant there) is the H100's 132 SMs; the autotuned config is fixed to
BLOCK_M 4, BLOCK_N 1024, 4 warps; ``@libentry`` / ``@triton.autotune`` are dropped."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"kernel": "var_mean_welford_kernel",
                              "signature": {"X": "*bf16", "Var": "*bf16", "Mean": "*bf16", "M": "i32", "N": "i32",
                                            "correction": "fp32"},
                              "constexprs": {"BLOCK_M": 4, "BLOCK_N": 1024}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["X", "Var", "Mean", "N"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 8192}
SMALL: dict[str, int] = {"M": 570, "N": 1500}
TOTAL_CORE_NUM = 132


@triton.jit
def welford_func(mean_x, count_x, M_x, mean_y, count_y, M_y):
    count = count_x + count_y
    _count = tl.maximum(count, 1)
    mc_x = mean_x * count_x
    mc_y = mean_y * count_y
    mean = (mc_x + mc_y) / _count
    M = M_x + mc_x * mean_x + M_y + mc_y * mean_y - count * mean * mean
    return mean, count, M


@triton.jit(do_not_specialize=["correction"])
def var_mean_welford_kernel(
    X,
    Var,
    Mean,
    M,
    N,
    correction,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    # Map the program id to the row of X it should compute.
    num_prog = tl.num_programs(0)
    task_num = tl.cdiv(M, BLOCK_M)
    iter_num = tl.cdiv(task_num, num_prog)
    for i in range(0, iter_num):
        pid = (i * num_prog + tl.program_id(0)) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
        X_ptr = X + pid * N
        Var_ptr = Var + pid
        Mean_ptr = Mean + pid
        row_mask = pid < M

        _mean = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        _acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        _count = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for off in range(0, N, BLOCK_N):
            cols = off + tl.arange(0, BLOCK_N)[None, :]
            col_mask = cols < N
            mask = row_mask and col_mask

            x = tl.load(X_ptr + cols, mask, other=0.0).to(tl.float32)

            count = _count + mask
            cnt = tl.maximum(count, 1)
            cur_mean = (_mean * _count + x) / cnt
            _acc += (x - cur_mean) * (x - _mean) * mask
            _mean = cur_mean
            _count = count

        mean, _, acc = tl.reduce((_mean, _count, _acc), axis=1, combine_fn=welford_func)
        var = acc / (N - correction)
        mean = mean[:, None]
        var = var[:, None]
        # Write mean / var
        tl.store(Mean_ptr, mean, row_mask)
        tl.store(Var_ptr, var, row_mask)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((M, N), device=device, generator=g) * 2 + 0.5).to(torch.bfloat16)
    return {"x": x}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(var, mean) as ``var_mean(x, dim=[1], correction=1)`` computes them."""
    import torch
    x = inputs["x"]
    M, N = x.shape
    correction = 1.0
    BLOCK_M = config.get("BLOCK_M", 4)
    BLOCK_N = config.get("BLOCK_N", 1024)
    var = torch.empty((M, 1), dtype=x.dtype, device=x.device)
    mean = torch.empty((M, 1), dtype=x.dtype, device=x.device)
    grid = (min(triton.cdiv(M, BLOCK_M), TOTAL_CORE_NUM),)
    var_mean_welford_kernel[grid](x, var, mean, M, N, correction, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                                  num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return var.squeeze(1), mean.squeeze(1)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    v, m = torch.var_mean(inputs["x"].double(), dim=1, correction=1)
    return v, m


def flops(M: int, N: int) -> float:
    return 9.0 * M * N
