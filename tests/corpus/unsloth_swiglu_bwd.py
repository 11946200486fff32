"""Unsloth's SwiGLU backward ``_DWf_DW_dfg_kernel`` (unsloth/kernels/swiglu.py): elementwise over the flat
[batch*seq, hd] tensors, ``e`` upcast to fp32, ``tl.sigmoid``, ``f`` rounded back to the input dtype before the
products (``f_row.to(DW_row.dtype)``), three results written **in place** over the three inputs (h over DW, df over
e, de over g), the ``LONG_INDEXING`` constexpr branch (int64 offsets for tensors past 2^31 elements).

Unsloth launches it with one program per BLOCK_SIZE block (``grid = cdiv(n_elements, BLOCK_SIZE)``) and has no loop;
this is the persistent variant libraries write for elementwise kernels (a ``tl.range(pid, num_blocks,
tl.num_programs(0))`` loop over the blocks, a grid of at most 4 programs per SM), the body otherwise Unsloth's
line for line. The in-place stores alias the loads of the same buffers (disjoint blocks per iteration, a runtime
stride). BLOCK_SIZE 1024, LONG_INDEXING 0, default num_warps (4) as Unsloth
launches it; fp16 (rather than Unsloth's usual bf16: the CPU interpreter of Triton 3.6 computes bf16 products
wrongly)."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

BLOCK_SIZE = 1024
LONG_INDEXING_THRESHOLD = 2 ** 31 - 1 - BLOCK_SIZE
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_DWf_DW_dfg_kernel",
    "signature": {"DW": "*fp16", "e": "*fp16", "g": "*fp16", "n_elements": "i32"},
    "constexprs": {"BLOCK_SIZE": BLOCK_SIZE, "LONG_INDEXING": 0},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["n_elements"]}
PROBLEM: dict[str, int] = {"batch_seq_len": 4096, "hd": 14336}
SMALL: dict[str, int] = {"batch_seq_len": 37, "hd": 112}    # 4144 elements: a ragged last block, 16-divisible


@triton.jit
def _DWf_DW_dfg_kernel(DW, e, g, n_elements, BLOCK_SIZE: tl.constexpr, LONG_INDEXING: tl.constexpr,):
    """
    e = e.float()
    se = 1.0 / (1.0 + torch.exp(-e.float()))
    f = (se * e).to(dtype)
    h = f * g
    df = DW * f
    dg = DW * g
    de = (dg.float() * se * (1.0 + e.float() * (1.0 - se))).to(dtype)
    """
    pid = tl.program_id(0)
    num_blocks = tl.cdiv(n_elements, BLOCK_SIZE)
    for block_idx in tl.range(pid, num_blocks, tl.num_programs(0)):
        if LONG_INDEXING:
            offsets = block_idx.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE).to(tl.int64)
            mask = offsets < tl.cast(n_elements, tl.int64)
        else:
            offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
            mask = offsets < n_elements

        DW_row = tl.load(DW + offsets, mask=mask, other=0)  # .to(tl.float32)
        e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
        g_row = tl.load(g + offsets, mask=mask, other=0)  # .to(tl.float32)

        # e = e.float()
        # se = 1.0 / (1.0 + torch.exp(-e.float()))
        se_row = tl.sigmoid(e_row)  # 1.0 / (1.0 + tl.exp(-e_row))
        # f = (se * e).to(dtype)
        f_row = se_row * e_row
        f_row = f_row.to(DW_row.dtype)
        # h = f * g
        h_row = f_row * g_row
        # df = DW * f
        df_row = DW_row * f_row
        # dg = DW * g
        dg_row = DW_row * g_row
        # de = (dg.float() * se * (1.0 + e.float() * (1.0 - se))).to(dtype)
        de_row = dg_row.to(tl.float32) * se_row * (1.0 + e_row * (1.0 - se_row))
        de_row = de_row.to(DW_row.dtype)

        # Store derivatives in buffers
        tl.store(DW + offsets, h_row, mask=mask)  # h  = f * g
        tl.store(e + offsets, df_row, mask=mask)  # df = DW * f
        tl.store(g + offsets, de_row, mask=mask)  # de


def make_inputs(batch_seq_len: int, hd: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    gen = torch.Generator(device=device).manual_seed(seed)
    DW = torch.randn((batch_seq_len, hd), device=device, generator=gen).half()
    e = (2 * torch.randn((batch_seq_len, hd), device=device, generator=gen)).half()
    g = torch.randn((batch_seq_len, hd), device=device, generator=gen).half()
    return {"DW": DW, "e": e, "g": g}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(h, df, de) fp16 [batch_seq_len, hd], as ``swiglu_DWf_DW_dfg_kernel(DW, e, g)`` returns them (DW, e, g written
    in place: the inputs are cloned first so that the inputs stay intact)."""
    DW, e, g = inputs["DW"].clone(), inputs["e"].clone(), inputs["g"].clone()
    batch_seq_len, hd = e.shape
    n_elements = e.numel()
    sms = torch.cuda.get_device_properties(e.device).multi_processor_count if e.device.type == "cuda" else 4
    grid = lambda meta: (min(triton.cdiv(n_elements, meta['BLOCK_SIZE']), 4 * sms),)
    _DWf_DW_dfg_kernel[grid](DW, e, g, n_elements, BLOCK_SIZE=BLOCK_SIZE,
                             LONG_INDEXING=0 if n_elements <= LONG_INDEXING_THRESHOLD else 1,
                             num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return DW, e, g


def reference(inputs: dict[str, Any]) -> Any:
    DW, e, g = inputs["DW"].double(), inputs["e"].double(), inputs["g"].double()
    se = torch.sigmoid(e)
    f = se * e
    h = f * g
    df = DW * f
    de = DW * g * se * (1.0 + e * (1.0 - se))
    return h, df, de
