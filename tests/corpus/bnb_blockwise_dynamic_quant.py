"""bitsandbytes' 8-bit blockwise dynamic quantization (``F.quantize_blockwise``; CUDA ``kQuantizeBlockwise``, and the
Triton backend's ``quantize_blockwise_kernel`` in bitsandbytes/backends/triton/kernels_8bit_quant.py, what the 8-bit
optimizers run on their states): each block of 256 values scaled by its absmax, then each normalised value mapped to
the **nearest entry of the 256-entry dynamic quantization map** (``create_dynamic_map``: a signed dynamic-tree
code, sorted, loaded from memory), by **binary search**.

The constructs: one program per SPLIT_NUM_BLOCKS = 4 blocks, a flat [1024] load **reshaped** to [4, 256]
(``tl.reshape``), ``absmax = tl.max(tl.abs(a), axis=1)`` per block, the normalised values clamped to [-1, 1];
then a **fixed eight-trip loop** (``for _ in range(8)``: log2 of the map's 256 entries) carrying two [4, 256] int32
pivot tensors, each trip a **data-dependent gather from the 1 KB code table** (``tl.load(code_ptr + pivot)``), a
compare and two ``tl.where`` moves of the bounds; after it the two bracketing codes gathered again and the nearer
taken (ties to the lower), the indices stored as uint8 and the per-block absmax as fp32 (a block wholly past the end
not stored). fp32 input (an Adam state), 4 warps. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_SIZE, SPLIT_NUM_BLOCKS, CODE_SIZE = 256, 4, 256
TWILL_SPEC: dict[str, Any] = {
    "kernel": "quantize_blockwise_kernel",
    "signature": {"A_ptr": "*fp32", "code_ptr": "*fp32", "absmax_ptr": "*fp32", "out_ptr": "*u8",
                  "n_elements": "i32"},
    "constexprs": {"BLOCK_SIZE": BLOCK_SIZE, "SPLIT_NUM_BLOCKS": SPLIT_NUM_BLOCKS, "CODE_SIZE": CODE_SIZE},
    "num_warps": 4, "num_stages": 1,
    "divisibility": ["A_ptr", "code_ptr", "absmax_ptr", "out_ptr"]}
# an 8-bit Adam state of a 4096 x 11008 MLP weight
PROBLEM: dict[str, int] = {"n": 4096 * 11008}
SMALL: dict[str, int] = {"n": 4700}


@triton.jit
def quantize_blockwise_kernel(A_ptr, code_ptr, absmax_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr,
                              SPLIT_NUM_BLOCKS: tl.constexpr, CODE_SIZE: tl.constexpr):
    block_start_idx = tl.program_id(0) * SPLIT_NUM_BLOCKS
    thread_idx = tl.arange(0, SPLIT_NUM_BLOCKS * BLOCK_SIZE)
    offsets = block_start_idx * BLOCK_SIZE + thread_idx
    mask = offsets < n_elements
    A = tl.load(A_ptr + offsets, mask=mask, other=0.0)

    a = tl.reshape(A, (SPLIT_NUM_BLOCKS, BLOCK_SIZE))
    absmax = tl.max(tl.abs(a), axis=1)
    a_norm = a / absmax[:, None]
    a_norm = tl.clamp(a_norm, -1.0, 1.0)

    lower_pivot = tl.zeros((SPLIT_NUM_BLOCKS, BLOCK_SIZE), dtype=tl.int32)
    upper_pivot = tl.full((SPLIT_NUM_BLOCKS, BLOCK_SIZE), CODE_SIZE - 1, dtype=tl.int32)
    for _ in range(8):
        pivot = (lower_pivot + upper_pivot) // 2
        val = tl.load(code_ptr + pivot)
        is_higher = a_norm > val
        lower_pivot = tl.where(is_higher, pivot, lower_pivot)
        upper_pivot = tl.where(is_higher, upper_pivot, pivot)

    lower_val = tl.load(code_ptr + lower_pivot)
    upper_val = tl.load(code_ptr + upper_pivot)
    lower_dist = tl.abs(a_norm - lower_val)
    upper_dist = tl.abs(a_norm - upper_val)
    quantized = tl.where(lower_dist <= upper_dist, lower_pivot, upper_pivot).to(tl.uint8)

    quantized = tl.reshape(quantized, (BLOCK_SIZE * SPLIT_NUM_BLOCKS,))
    blocks = block_start_idx + tl.arange(0, SPLIT_NUM_BLOCKS)
    tl.store(absmax_ptr + blocks, absmax, mask=blocks * BLOCK_SIZE < n_elements)
    tl.store(out_ptr + offsets, quantized, mask=mask)


def create_dynamic_map(signed: bool = True, max_exponent_bits: int = 7, total_bits: int = 8) -> Any:
    """bitsandbytes.functional.create_dynamic_map: the dynamic-tree code, 256 sorted fp32 values in [-1, 1]."""
    import torch
    data: list[float] = []
    non_sign_bits = total_bits - (1 if signed else 1)
    additional_items = 2 ** (non_sign_bits - max_exponent_bits) - 1
    for i in range(max_exponent_bits):
        fraction_items = int(2 ** (i + non_sign_bits - max_exponent_bits) + 1 if signed
                             else 2 ** (i + non_sign_bits - max_exponent_bits + 1) + 1)
        boundaries = torch.linspace(0.1, 1, fraction_items, dtype=torch.float32)
        means = (boundaries[:-1] + boundaries[1:]) / 2.0
        data += ((10 ** (-(max_exponent_bits - 1) + i)) * means).tolist()
        if signed:
            data += (-(10 ** (-(max_exponent_bits - 1) + i)) * means).tolist()
    if additional_items > 0:
        boundaries = torch.linspace(0.1, 1, additional_items + 1, dtype=torch.float32)
        means = (boundaries[:-1] + boundaries[1:]) / 2.0
        data += ((10 ** (-(max_exponent_bits - 1) + max_exponent_bits)) * means).tolist()
        if signed:
            data += (-(10 ** (-(max_exponent_bits - 1) + max_exponent_bits)) * means).tolist()
    data.append(0)
    data.append(1.0)
    data += [0.0] * (2 ** total_bits - len(data))
    data.sort()
    return torch.tensor(data, dtype=torch.float32)


def make_inputs(n: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A heavy-tailed fp32 state (randn times a log-uniform per-256 scale, as an Adam moment varies across a
    weight) and the signed dynamic map."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(n, device=device, generator=g)
    nb = triton.cdiv(n, BLOCK_SIZE)
    scale = torch.exp(torch.rand(nb, device=device, generator=g) * 8 - 6).repeat_interleave(BLOCK_SIZE)[:n]
    return {"x": (x * scale).contiguous(), "code": create_dynamic_map().to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The uint8 codes (as fp32) and the per-block absmax."""
    import torch
    x, code = inputs["x"], inputs["code"]
    n = x.numel()
    nb = triton.cdiv(n, BLOCK_SIZE)
    absmax = torch.empty(nb, device=x.device, dtype=torch.float32)
    out = torch.empty(n, device=x.device, dtype=torch.uint8)
    grid = (triton.cdiv(nb, SPLIT_NUM_BLOCKS),)
    quantize_blockwise_kernel[grid](x, code, absmax, out, n, BLOCK_SIZE=BLOCK_SIZE,
                                    SPLIT_NUM_BLOCKS=SPLIT_NUM_BLOCKS, CODE_SIZE=CODE_SIZE,
                                    num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 1))
    return out.float(), absmax


def reference(inputs: dict[str, Any]) -> Any:
    """Per-block absmax; the nearest code by ``torch.searchsorted`` over the sorted map (ties to the lower
    entry, an exact hit to itself, as the kernel's search ends)."""
    import torch
    x, code = inputs["x"], inputs["code"]
    n = x.numel()
    nb = triton.cdiv(n, BLOCK_SIZE)
    xp = torch.nn.functional.pad(x, (0, nb * BLOCK_SIZE - n)).view(nb, BLOCK_SIZE)
    absmax = xp.abs().amax(1)
    a = (xp / absmax[:, None]).clamp(-1.0, 1.0).flatten()[:n]
    hi = torch.searchsorted(code, a).clamp(max=CODE_SIZE - 1)
    lo = (hi - 1).clamp(min=0)
    pick = torch.where((a - code[lo]).abs() <= (a - code[hi]).abs(), lo, hi)
    return pick.float(), absmax


def flops(n: int) -> float:
    return 10.0 * n
