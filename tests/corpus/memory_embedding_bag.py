"""The embedding bag of Meta's memory layers (facebookresearch/memory, lingua/product_key/xformer_embeddingbag.py
``embedding_bag_k``, launched by ``embedding_bag_triton`` in the forward of ``xFormersEmbeddingBag``, as the
product-key memory sums the values of its top-k keys; rewritten here): each output row is the weighted sum of
``bag_size`` rows of a value table, ``out[b] = sum_i per_sample_weights[b, i] * weight[indices[b, i]]``.

The constructs, as the library writes them: one program per output row, its id widened with ``.to(tl.int64)``; a loop
``for bag in range(0, bag_size)`` over a constexpr count; in it two scalar loads (the row index, int64 from
``torch.topk`` and widened again, and its fp32 score) and a [dim] gather of the bf16 table row at ``my_index * dim``
(an address computed from a value loaded in the same iteration, unmasked: dim is the table's constexpr width);
``out_value + my_weight.to(tl.float32) * my_scaling`` carried in fp32; the fp32 sum stored into the bf16 output (the
store's implicit cast). The launcher passes ``dim`` and ``bag_size`` as constexprs and Triton's default 4 warps and
3 stages (its ``num_warps=1`` is commented out).

Specialisation: a 2^18-row bf16 table of width 1024 (the memory's value dimension), bag_size 32 (top-32 keys), as
Triton's launcher specialises the constexprs. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "embedding_bag_k",
    "signature": {"out_ptr": "*bf16", "indices_ptr": "*i64", "weight_ptr": "*bf16", "per_sample_weights": "*fp32"},
    "constexprs": {"dim": 1024, "bag_size": 32},
    "num_warps": 4, "num_stages": 3}
PROBLEM: dict[str, int] = {"B": 16384, "K": 262144, "dim": 1024, "bag_size": 32}
SMALL: dict[str, int] = {"B": 37, "K": 5000, "dim": 1024, "bag_size": 32}   # dim, bag_size: constexprs


@triton.jit
def embedding_bag_k(
    out_ptr,  # [B, dim]
    indices_ptr,  # [B, bag_size]
    weight_ptr,  # [n_keys**2, dim]
    per_sample_weights,  # [B, bag_size]
    dim: tl.constexpr,
    bag_size: tl.constexpr,
):
    out_idx = tl.program_id(axis=0).to(tl.int64)
    out_value = tl.zeros([dim], dtype=tl.float32)
    for bag in range(0, bag_size):
        my_index = tl.load(indices_ptr + out_idx * bag_size + bag).to(tl.int64)
        my_scaling = tl.load(per_sample_weights + out_idx * bag_size + bag)
        my_weight = tl.load(weight_ptr + tl.arange(0, dim) + my_index * dim)
        out_value = out_value + my_weight.to(tl.float32) * my_scaling
    tl.store(out_ptr + out_idx * dim + tl.arange(0, dim), out_value)


def make_inputs(B: int, K: int, dim: int, bag_size: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Top-k style indices (int64, repeats across rows), softmax scores (fp32) and a bf16 value table [K, dim]."""
    import torch
    gen = torch.Generator(device="cpu").manual_seed(seed)
    indices = torch.randint(0, K, (B, bag_size), generator=gen, dtype=torch.int64)
    scores = torch.softmax(torch.randn((B, bag_size), generator=gen), dim=-1)
    weight = (torch.randn((K, dim), generator=gen) / 4).to(torch.bfloat16)
    return {"indices": indices.to(device), "weight": weight.to(device), "per_sample_weights": scores.to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``embedding_bag_triton(indices, weight, per_sample_weights)`` (config ignored)."""
    import torch
    indices, weight, per_sample_weights = inputs["indices"], inputs["weight"], inputs["per_sample_weights"]
    trt_out = torch.empty([indices.shape[0], weight.shape[1]], dtype=weight.dtype, device=weight.device)
    grid = (indices.shape[0],)
    embedding_bag_k[grid](trt_out, indices, weight, per_sample_weights, dim=weight.shape[-1],
                          bag_size=indices.shape[1])
    return trt_out


def reference(inputs: dict[str, Any]) -> Any:
    indices, weight, psw = inputs["indices"], inputs["weight"].double(), inputs["per_sample_weights"].double()
    return (weight[indices] * psw[..., None]).sum(1)
