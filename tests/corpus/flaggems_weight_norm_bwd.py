"""FlagGems' weight-norm backward over the last dimension, ``weight_norm_bwd_kernel_last`` (FlagOpen/FlagGems
src/flag_gems/ops/weightnorm.py, launched by ``weight_norm_interface_backward`` for ``dim == v.ndim - 1``): each
program owns BLOCK_COL_SIZE columns of v, w_grad [M, N] (fp32, row-major) and walks all M rows twice in
BLOCK_ROW_SIZE steps with a TRANSPOSED tile ``[BLOCK_COL_SIZE, BLOCK_ROW_SIZE]`` (the columns on axis 0, built as
``tl.arange(0, BLOCK_COL_SIZE)[:, None]`` and ``tl.arange(0, BLOCK_ROW_SIZE)[None, :]``, addresses ``row_offset * N
+ col_offset``: the contiguous dimension is the tile's first). Constructs kept: ``@triton.jit(do_not_specialize=
["eps"])`` (fp32 ``torch.finfo(torch.float32).tiny``); the masks written with Python ``and`` (``row_offset < M and
col_mask``: ``logical_and`` of two broadcast masks); loads without ``other``; ``norm_3 = tl_extra_shim.pow(norm_1,
3)`` (libdevice's pow with an integer exponent) before the loops; the first loop carrying a 2-D fp32 accumulator of
``v * w`` reduced after it (``tl.sum(vw_block, 1)[:, None]``), the second re-reading v and w and storing v's gradient
every step; g's gradient stored after both. ``@triton.autotune`` keyed on M, N over FlagGems' generated
``weight_norm_kernel_last`` configs (BLOCK_ROW_SIZE 512 / 1024 / 2048 x BLOCK_COL_SIZE 1..32 x 4 / 8 / 16 warps);
TWILL_SPEC takes {512, 32, 8 warps}. A 4096 x 4096 weight normalised per column."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice as tl_extra_shim

TWILL_SPEC: dict[str, Any] = {
    "kernel": "weight_norm_bwd_kernel_last",
    "signature": {"v_grad": "*fp32", "g_grad": "*fp32", "w": "*fp32", "v": "*fp32", "g": "*fp32", "norm": "*fp32",
                  "M": "i32", "N": "i32", "eps": "fp32"},
    "constexprs": {"BLOCK_ROW_SIZE": 512, "BLOCK_COL_SIZE": 32},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["v_grad", "g_grad", "w", "v", "g", "norm", "M", "N"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096}
SMALL: dict[str, int] = {"M": 1100, "N": 80}      # three row steps, the last partial; three column blocks


def weight_norm_configs():
    return [triton.Config({"BLOCK_ROW_SIZE": m, "BLOCK_COL_SIZE": n}, num_warps=w)
            for w in (4, 8, 16) for m in (512, 1024, 2048) for n in (1, 2, 4, 8, 32)]


@triton.autotune(configs=weight_norm_configs(), key=["M", "N"])
@triton.jit(do_not_specialize=["eps"])
def weight_norm_bwd_kernel_last(v_grad, g_grad, w, v, g, norm, M, N, eps,
                                BLOCK_ROW_SIZE: tl.constexpr, BLOCK_COL_SIZE: tl.constexpr):
    # twill corpus rendition: d(g * v / ||v||) over the rows of each column
    tx = tl.arange(0, BLOCK_COL_SIZE)[:, None]
    bx = tl.program_id(axis=0) * BLOCK_COL_SIZE
    col_offset = tx + bx
    col_mask = col_offset < N

    g_value = tl.load(g + col_offset, mask=col_mask).to(tl.float32)
    norm_value = tl.load(norm + col_offset, mask=col_mask).to(tl.float32)
    norm_1 = 1 / (norm_value + eps)
    norm_3 = tl_extra_shim.pow(norm_1, 3)

    ty = tl.arange(0, BLOCK_ROW_SIZE)[None, :]

    vw_block = tl.zeros([BLOCK_COL_SIZE, BLOCK_ROW_SIZE], dtype=tl.float32)
    for base in range(0, M, BLOCK_ROW_SIZE):
        row_offset = base + ty
        mask = row_offset < M and col_mask
        v_value = tl.load(v + row_offset * N + col_offset, mask=mask).to(tl.float32)
        w_value = tl.load(w + row_offset * N + col_offset, mask=mask).to(tl.float32)
        vw_block += v_value * w_value
    vw_sum = tl.sum(vw_block, 1)[:, None]

    for base in range(0, M, BLOCK_ROW_SIZE):
        row_offset = base + ty
        mask = row_offset < M and col_mask
        v_value = tl.load(v + row_offset * N + col_offset, mask=mask).to(tl.float32)
        w_value = tl.load(w + row_offset * N + col_offset, mask=mask).to(tl.float32)
        v_grad_value = g_value * (w_value * norm_1 - v_value * norm_3 * vw_sum)
        tl.store(v_grad + row_offset * N + col_offset, v_grad_value, mask=mask)

    g_grad_value = vw_sum / (norm_value + eps)
    tl.store(g_grad + col_offset, g_grad_value, mask=col_mask)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """v [M, N] fp32, g [N] (torch.nn.utils.weight_norm(dim=-1)'s magnitude), the column norms the forward saved,
    and the gradient of w = g * v / ||v|| (w_grad [M, N])."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    v = torch.randn((M, N), device=device, generator=gen)
    g = torch.rand((N,), device=device, generator=gen) + 0.5
    norm = v.norm(dim=0)
    w_grad = torch.randn((M, N), device=device, generator=gen)
    return {"w_grad": w_grad, "v": v, "g": g, "norm": norm}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[v_grad flattened, g_grad] as weight_norm_interface_backward(w_grad, v, g, norm, dim=1) returns them, with the
    spec's tile (the autotuner's configs bypassed: ``.fn``)."""
    import torch
    w_grad, v, g, norm = inputs["w_grad"], inputs["v"], inputs["g"], inputs["norm"]
    M, N = v.shape
    v_grad = torch.empty_like(v)
    g_grad = torch.empty_like(g)
    cols = config.get("BLOCK_COL_SIZE", 32)
    weight_norm_bwd_kernel_last.fn[(triton.cdiv(N, cols),)](
        v_grad, g_grad, w_grad, v, g, norm, M, N, eps=torch.finfo(torch.float32).tiny,
        BLOCK_ROW_SIZE=config.get("BLOCK_ROW_SIZE", 512), BLOCK_COL_SIZE=cols,
        num_warps=config.get("num_warps", 8))
    return torch.cat([v_grad.flatten(), g_grad])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    v = inputs["v"].double().requires_grad_(True)
    g = inputs["g"].double().requires_grad_(True)
    w = g * v / v.norm(dim=0)
    w.backward(inputs["w_grad"].double())
    return torch.cat([v.grad.flatten(), g.grad])
