"""FlashInfer's ``sampling_from_probs`` (flashinfer/sampling.py; CUDA's ``SamplingFromProbKernel`` in
include/flashinfer/sampling.cuh) as the Triton fallbacks of LLM servers write it: inverse-transform sampling, one
program per request, one pass over the vocabulary.

The constructs: the request's row picked through an optional ``indices`` table (``HAS_INDICES``, FlashInfer's
``indices`` argument: several samples of one row); the uniform draw **``tl.rand(seed, row)`` on a scalar offset**
before the loop (Philox, as FlashInfer's curand_init(seed, bx, offset)); in the loop over the 152k-entry vocabulary
an **inclusive ``tl.cumsum`` of the block plus the running prefix** carried as a fp32 scalar, the first column whose
prefix passes ``u`` found as ``tl.min(tl.where(hit, cols, vocab_size))`` and folded into the carried int32
``sampled`` with ``tl.minimum`` (CUDA breaks out of the loop there; Triton cannot, so every block is read), the
prefix advanced by ``tl.sum`` of the block; the last valid column as the fallback where rounding leaves the total
just under ``u`` (FlashInfer's ``sampled_id = min(sampled_id, d - 1)``). fp32 probabilities; int32 samples. Nothing
here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "sampling_from_probs_kernel",
    "signature": {"probs_ptr": "*fp32", "output_ptr": "*i32", "indices_ptr": "*i32", "seed": "i32",
                  "stride": "i32", "vocab_size": "i32"},
    "constexprs": {"HAS_INDICES": True, "BLOCK_SIZE": 2048},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["probs_ptr", "output_ptr", "indices_ptr", "stride"]}
# 128 samples of a 64-request batch over Qwen2's vocabulary
PROBLEM: dict[str, int] = {"B": 64, "S": 128, "V": 151936}
SMALL: dict[str, int] = {"B": 5, "S": 7, "V": 10000}


@triton.heuristics({"HAS_INDICES": lambda args: args["indices_ptr"] is not None})
@triton.jit
def sampling_from_probs_kernel(probs_ptr, output_ptr, indices_ptr, seed, stride, vocab_size,
                               HAS_INDICES: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    if HAS_INDICES:
        row = tl.load(indices_ptr + pid)
    else:
        row = pid
    row_ptr = probs_ptr + row.to(tl.int64) * stride
    u = tl.rand(seed, pid)
    offs = tl.arange(0, BLOCK_SIZE)
    prefix = 0.0
    sampled = vocab_size
    for start in range(0, vocab_size, BLOCK_SIZE):
        cols = start + offs
        mask = cols < vocab_size
        x = tl.load(row_ptr + cols, mask=mask, other=0.0)
        cdf = tl.cumsum(x, 0) + prefix
        hit = (cdf > u) & mask
        first = tl.min(tl.where(hit, cols, vocab_size), 0)
        sampled = tl.minimum(sampled, first)
        prefix += tl.sum(x, 0)
    sampled = tl.minimum(sampled, vocab_size - 1)
    tl.store(output_ptr + pid, sampled)


@triton.jit
def _uniform_kernel(out_ptr, seed):
    pid = tl.program_id(0)
    tl.store(out_ptr + pid, tl.rand(seed, pid))


def make_inputs(B: int, S: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """probs [B, V] fp32 (a softmax of logits, a heavy head), indices [S] int32 (each sample's request), a seed."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    probs = torch.softmax(torch.randn((B, V), device=device, generator=g) * 3.0, dim=-1)
    indices = torch.randint(0, B, (S,), device=device, generator=g).to(torch.int32)
    return {"probs": probs, "indices": indices, "seed": 4321 + seed}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The sampled token of each of the S samples, int32 [S]."""
    import torch
    probs, indices = inputs["probs"], inputs["indices"]
    out = torch.empty(indices.shape, device=probs.device, dtype=torch.int32)
    sampling_from_probs_kernel[(indices.numel(),)](probs, out, indices, inputs["seed"], probs.stride(0),
                                                   probs.shape[1], BLOCK_SIZE=2048,
                                                   num_warps=config.get("num_warps", 8),
                                                   num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """The first column whose fp64 prefix sum passes the sample's uniform (the kernel's Philox number, drawn by
    _uniform_kernel), the last column if none."""
    import torch
    probs, indices = inputs["probs"], inputs["indices"].long()
    u = torch.empty(indices.shape, device=probs.device, dtype=torch.float32)
    _uniform_kernel[(indices.numel(),)](u, inputs["seed"])
    cdf = probs[indices].double().cumsum(dim=-1)
    first = (cdf <= u.double()[:, None]).sum(dim=-1)
    return torch.clamp(first, max=probs.shape[1] - 1).to(torch.int32)


def flops(B: int, S: int, V: int) -> float:
    """A scan, a compare and two reductions an entry: memory-bound; an estimate."""
    return 4.0 * S * V
