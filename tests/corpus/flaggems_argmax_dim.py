"""FlagGems' ``argmax`` along a middle dimension (``argmax_kernel`` in flag_gems/ops/argmax.py): the input viewed as
[M, N, K] and reduced over N, a 2-D grid (BLOCK_M rows of M by one k), a loop over N in BLOCK_N blocks whose
[BLOCK_M, BLOCK_N] tile is strided by K along the loop's dimension and by N * K along the rows
(``m_offset[:, None] * N * K + n_offset[None, :] * K + pid_k``), masked with ``and``, masked lanes reading the
dtype's minimum; ``tl.max(x, 1, return_indices=True, return_indices_tie_break_left=True)`` (the first of equal
maxima), the running best carried in fp32 [BLOCK_M] registers against the bf16 block maximum and the best index in
int64 (``start_n + local_argmax``), replaced only where strictly greater (so the earliest block wins a tie). The
logits are bf16 rounded to quarters: many ties, and torch.argmax's answer is the first. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "argmax_kernel",
    "signature": {"inp": "*bf16", "out_index": "*i64", "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 8, "BLOCK_N": 512}, "num_warps": 8, "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"M": 512, "N": 32000, "K": 2}
SMALL: dict[str, int] = {"M": 13, "N": 1500, "K": 3}    # M % BLOCK_M and N % BLOCK_N: both masks cut
BF16_MIN = -3.3895313892515355e38


@triton.jit
def argmax_kernel(inp, out_index, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    m_offset = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    min_value: tl.constexpr = -3.3895313892515355e38     # get_dtype_min(tl.bfloat16)
    max_values = tl.full([BLOCK_M], dtype=tl.float32, value=min_value)
    argmax_values = tl.full([BLOCK_M], dtype=tl.int64, value=0)
    for start_n in range(0, N, BLOCK_N):
        n_offset = start_n + tl.arange(0, BLOCK_N)
        offset = m_offset[:, None] * N * K + n_offset[None, :] * K + pid_k
        mask = m_offset[:, None] < M and n_offset[None, :] < N
        inp_ptrs = inp + offset
        inp_vals = tl.load(inp_ptrs, mask=mask, other=min_value)
        local_max, local_argmax = tl.max(inp_vals, 1, return_indices=True, return_indices_tie_break_left=True)
        update = local_max > max_values
        max_values = tl.where(update, local_max, max_values)
        argmax_values = tl.where(update, start_n + local_argmax, argmax_values)
    offset_index = m_offset * K + pid_k
    out_index_ptrs = out_index + offset_index
    mask1 = m_offset < M
    tl.store(out_index_ptrs, argmax_values, mask=mask1)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """[M, N, K] bf16 values rounded to quarters (ties within and across blocks)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": (torch.round(torch.randn((M, N, K), device=device, generator=g) * 4) / 4).to(torch.bfloat16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """argmax over dim 1, int64 [M, K]."""
    import torch
    x = inputs["x"]
    M, N, K = x.shape
    out = torch.empty((M, K), device=x.device, dtype=torch.int64)
    block_m = config.get("BLOCK_M", 8)
    argmax_kernel[(triton.cdiv(M, block_m), K)](x, out, M, N, K, BLOCK_M=block_m,
                                                 BLOCK_N=config.get("BLOCK_N", 512),
                                                 num_warps=config.get("num_warps", 8),
                                                 num_stages=config.get("num_stages", 2))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["x"].argmax(dim=1)
