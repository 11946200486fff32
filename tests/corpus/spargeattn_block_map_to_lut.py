"""SpargeAttn's block-map compaction, ``triton_block_map_to_lut_kernel`` (thu-ml/SpargeAttn spas_sage_attn/utils.py,
launched by ``block_map_lut_triton`` from ``get_block_map_meansim(..., return_lut=True)``): for each (batch, head,
query block) row of the boolean [B, H, Q, K] block map, the list of kept key blocks as **deltas** from the previous
kept block (the look-up table the sparse attention kernel walks, advancing its K/V pointers by each delta), and how
many there are.

The constructs: a 3-D grid whose sizes are read with ``tl.num_programs``; a scalar loop ``for i in range(num_block_k)``
(runtime bound) whose body loads one bool (``tl.load(map_ptr + i)``) and, **inside ``if cur_block:`` (an ``scf.if``
on a loaded scalar)**, stores ``i - prev_block`` at ``lut_ptr + valid_block_num`` -- **a store whose address is a
loop-carried counter** -- then updates the two scalar carries (``valid_block_num += 1``, ``prev_block = i``) that only
that branch changes; the count stored once after the loop. No vector op at all: every value is a scalar (a single
thread's work, replicated by the warps). Bool map (``*i1`` in the signature, as Triton types a torch.bool tensor),
int32 LUT. A Wan2.1 / CogVideoX-like prefill shape: 2 x 40 heads, 17,550 tokens -> Q = 138 query blocks of 128,
K = 275 key blocks of 64; 4 warps (the launcher's default). Nothing here is imported by twill; the kernel is
verbatim."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_block_map_to_lut_kernel",
    "signature": {"map_ptr": "*i1", "lut_ptr": "*i32", "valid_block_num_ptr": "*i32", "num_block_k": "i32"},
    "constexprs": {},
    "num_warps": 4, "num_stages": 3,
    "divisibility": []}
PROBLEM: dict[str, int] = {"B": 2, "H": 40, "Q": 138, "K": 275}
SMALL: dict[str, int] = {"B": 1, "H": 3, "Q": 5, "K": 37}


@triton.jit
def triton_block_map_to_lut_kernel(map_ptr, lut_ptr, valid_block_num_ptr, num_block_k):
    b, h, q = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    B, H, Q = tl.num_programs(0), tl.num_programs(1), tl.num_programs(2)
    valid_block_num = 0

    map_ptr = map_ptr + b * H * Q * num_block_k + h * Q * num_block_k + q * num_block_k
    lut_ptr = lut_ptr + b * H * Q * num_block_k + h * Q * num_block_k + q * num_block_k
    valid_block_num_ptr = valid_block_num_ptr + b * H * Q + h * Q + q

    valid_block_num = 0
    prev_block = 0

    for i in range(num_block_k):
        cur_block = tl.load(map_ptr + i)
        if cur_block:
            tl.store(lut_ptr + valid_block_num, i - prev_block)
            valid_block_num += 1
            prev_block = i

    tl.store(valid_block_num_ptr, valid_block_num)


def make_inputs(B: int, H: int, Q: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [B, H, Q, K] bool block map, about 30% kept, the first key block always kept (the attention sink) and a
    few rows empty."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    m = torch.rand((B, H, Q, K), device=device, generator=g) < 0.3
    m[..., 0] = True
    m[:, :, ::4, :] = False
    return {"block_map": m.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(lut [B, H, Q, K] int32, valid_block_num [B, H, Q] int32), as ``block_map_lut_triton``; the LUT's tail past
    each row's count is left as allocated (zeros)."""
    import torch
    block_map = inputs["block_map"]
    B, H, Q, K = block_map.shape
    lut = torch.zeros((B, H, Q, K), dtype=torch.int32, device=block_map.device)
    valid_block_num = torch.zeros((B, H, Q), dtype=torch.int32, device=block_map.device)
    grid = (B, H, Q)
    triton_block_map_to_lut_kernel[grid](block_map, lut, valid_block_num, K)
    return lut.float(), valid_block_num.float()


def reference(inputs: dict[str, Any]) -> Any:
    """Per row: the kept columns' indices, differenced (the first from 0), zero-padded; and their count."""
    import torch
    m = inputs["block_map"]
    B, H, Q, K = m.shape
    flat = m.reshape(-1, K)
    lut = torch.zeros((flat.shape[0], K), dtype=torch.int32, device=m.device)
    cnt = flat.sum(dim=1).to(torch.int32)
    for r in range(flat.shape[0]):
        idx = torch.nonzero(flat[r]).flatten().to(torch.int32)
        if idx.numel():
            lut[r, :idx.numel()] = torch.diff(idx, prepend=torch.zeros(1, dtype=torch.int32, device=m.device))
    return lut.reshape(B, H, Q, K).float(), cnt.reshape(B, H, Q).float()


def flops(B: int, H: int, Q: int, K: int) -> float:
    """No floating point: one compare and a subtract per map entry, counted as 2 * B * H * Q * K."""
    return 2.0 * B * H * Q * K
