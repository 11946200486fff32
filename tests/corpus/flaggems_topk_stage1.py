"""FlagGems' ``topk`` first stage, ``topk_stage1_kernel`` (FlagOpen/FlagGems ``src/flag_gems/ops/topk.py``, commit
532ff438c703; launched by ``topk`` on a (batch, chunk_num) grid, CHUNK_SIZE 1024 for rows of 1024 or more): each
program loads one CHUNK_SIZE chunk of a row once and selects its k largest by repeated arg-max.

The constructs: pointer arguments advanced in place (``y_ptr += ...``, ``x_ptr += ...``) from ``tl.program_id`` and
``tl.num_programs(1)``; the masked fill value from a @triton.jit helper branching on the element type
(``_get_finfo_val(x_ptr.dtype.element_ty, return_max=not DESCENDING)``); a single masked chunk load before the loop;
then **a loop with a runtime trip count** ``for k_idx in range(k)`` whose only carry is the whole [CHUNK_SIZE] fp32
chunk, rewritten each iteration by ``tl.where(cols == chunk_select_idx, finfo.min, x_val)`` (a loop-carried
dependence through a full reduction: nothing of iteration i+1 can start before iteration i's ``tl.argmax``); **two
scalar stores an iteration** at ``y_ptr + k_idx`` / ``index_ptr + k_idx`` (fp32 value, int32 index plus the chunk
offset into int64); compile-time ``if DESCENDING`` branches choosing max/argmax or min/argmin. N is a constexpr (as
upstream). Port notes: ``tle.program_id`` / ``tle.num_programs`` replaced by ``tl.program_id`` /
``tl.num_programs``, ``@libentry()`` dropped, the finfo constants (torch.finfo there) written as literals. Top-50
sampling over a 32,000-token vocabulary for a batch of 64, fp32 logits."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "topk_stage1_kernel",
    "signature": {"y_ptr": "*fp32", "index_ptr": "*i64", "x_ptr": "*fp32", "k": "i32"},
    "constexprs": {"N": 32000, "CHUNK_SIZE": 1024, "DESCENDING": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["y_ptr", "index_ptr", "x_ptr"]}
PROBLEM: dict[str, int] = {"B": 64, "N": 32000, "K": 50}
SMALL: dict[str, int] = {"B": 3, "N": 3000, "K": 7}

_MIN_FLOAT32_VAL = tl.constexpr(-3.4028234663852886e38)
_MAX_FLOAT32_VAL = tl.constexpr(3.4028234663852886e38)
_MIN_FLOAT16_VAL = tl.constexpr(-65504.0)
_MAX_FLOAT16_VAL = tl.constexpr(65504.0)
_MIN_BFLOAT16_VAL = tl.constexpr(-3.3895313892515355e38)
_MAX_BFLOAT16_VAL = tl.constexpr(3.3895313892515355e38)


@triton.jit
def _get_finfo_val(
    dtype,
    return_max,
):
    if dtype is tl.float32:
        if return_max:
            return _MAX_FLOAT32_VAL
        else:
            return _MIN_FLOAT32_VAL
    elif dtype is tl.float16:
        if return_max:
            return _MAX_FLOAT16_VAL
        else:
            return _MIN_FLOAT16_VAL
    elif dtype is tl.bfloat16:
        if return_max:
            return _MAX_BFLOAT16_VAL
        else:
            return _MIN_BFLOAT16_VAL


@triton.jit
def topk_stage1_kernel(
    y_ptr,
    index_ptr,
    x_ptr,
    k,
    N: tl.constexpr,
    CHUNK_SIZE: tl.constexpr,
    DESCENDING: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_chunk_idx = tl.program_id(1)
    chunk_num = tl.num_programs(1)

    y_ptr += cur_batch * chunk_num * k + cur_chunk_idx * k
    index_ptr += cur_batch * chunk_num * k + cur_chunk_idx * k

    chunk_offset = cur_chunk_idx * CHUNK_SIZE
    x_ptr += cur_batch * N + chunk_offset

    cols = tl.arange(0, CHUNK_SIZE)
    mask = (chunk_offset + cols) < N

    mask_val = _get_finfo_val(x_ptr.dtype.element_ty, return_max=not DESCENDING)
    x_val = tl.load(x_ptr + cols, mask=mask, other=mask_val).to(tl.float32)
    for k_idx in range(k):
        if DESCENDING:
            chunk_select_val = tl.max(x_val)
            chunk_select_idx = tl.argmax(x_val, axis=0)
        else:
            chunk_select_val = tl.min(x_val)
            chunk_select_idx = tl.argmin(x_val, axis=0)

        tl.store(y_ptr + k_idx, chunk_select_val)
        tl.store(index_ptr + k_idx, chunk_select_idx + chunk_offset)

        if DESCENDING:
            x_val = tl.where(
                cols == chunk_select_idx,
                _get_finfo_val(tl.float32, return_max=False),
                x_val,
            )
        else:
            x_val = tl.where(
                cols == chunk_select_idx,
                _get_finfo_val(tl.float32, return_max=True),
                x_val,
            )


def _chunk_size(N: int, K: int) -> int:
    chunk_size = 256 if N < 1024 else 1024
    if chunk_size < K:
        chunk_size = triton.next_power_of_2(K)
    return chunk_size


def make_inputs(B: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [B, N] fp32 logits (randn * 4: distinct values, no ties); k."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((B, N), device=device, generator=g) * 4.0
    return {"x": x, "k": K}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Stage 1's outputs as ``topk(x, k)`` allocates them: (values [B * chunk_num * k] fp32, indices int64), each
    chunk's k largest in descending order with their row indices."""
    import torch
    x, k = inputs["x"], inputs["k"]
    batch_size, topk_elem_cnt = x.shape
    chunk_size = _chunk_size(topk_elem_cnt, k)
    chunk_num = triton.cdiv(topk_elem_cnt, chunk_size)
    stage1_out = torch.empty(batch_size * chunk_num * k, device=x.device, dtype=x.dtype)
    stage1_out_idx = torch.empty(batch_size * chunk_num * k, device=x.device, dtype=torch.int64)
    topk_stage1_kernel[(batch_size, chunk_num)](
        stage1_out, stage1_out_idx, x, k, topk_elem_cnt, chunk_size, True,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return stage1_out, stage1_out_idx


def reference(inputs: dict[str, Any]) -> Any:
    """torch.topk of each chunk (padded with fp32's lowest), indices made row indices."""
    import torch
    x, k = inputs["x"], inputs["k"]
    B, N = x.shape
    cs = _chunk_size(N, k)
    cn = triton.cdiv(N, cs)
    pad = torch.full((B, cn * cs), torch.finfo(torch.float32).min, dtype=torch.float32, device=x.device)
    pad[:, :N] = x.float()
    v, i = torch.topk(pad.reshape(B, cn, cs), k, dim=2, largest=True, sorted=True)
    i = i + (torch.arange(cn, device=x.device) * cs)[None, :, None]
    return v.reshape(-1), i.reshape(-1).to(torch.int64)


def flops(B: int, N: int, K: int) -> float:
    """k arg-max passes over every element (a max, an argmax compare and a select each): 3 * B * N * k."""
    return 3.0 * B * N * K
