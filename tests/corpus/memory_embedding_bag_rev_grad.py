"""The embedding bag backward of Meta's memory layers by reverse indices (facebookresearch/memory,
lingua/product_key/xformer_embeddingbag.py ``aggregate_gradient_for_embedding_k``, launched by
``embedding_bag_bw_rev_indices``, the default ``bw_algo`` of ``xformers_embedding_bag``; rewritten here): a segment
sum over a CSR built on the host side of the launch. For every table row, the output rows that looked it up are listed
contiguously in ``reverse_mapping`` between ``emb_begin_pos[row]`` and ``emb_begin_pos[row + 1]`` (a count per row,
its cumsum, and a scatter of positions); the row's gradient is the sum of those outputs' gradients scaled by their
weights, and each (output, slot) pair's weight gradient is the dot of its output gradient with the row.

The constructs, as the library writes them: one program per BLOCK_SIZE (8) table rows taken strided
(``first_embedding_id + (K // BLOCK_SIZE) * k`` with B, K, dim, bag_size and BLOCK_SIZE all constexprs) in order of
decreasing use (``emb_argsorted``: an int64 row id loaded, so programs balance); an outer constexpr loop over the 8
rows, inside it the row's CSR range loaded (int64) and its [dim] fp32 weights loaded once; an inner loop ``for idx in
range(begin, end)`` whose bounds are both loaded values (an unused row runs none); in it an unsigned int32 position
loaded from ``reverse_mapping`` and widened (``.to(tl.int64)``), split into batch and slot with ``//`` and ``%`` by the
constexpr bag size, the weight scalar and the [dim] gradient row gathered through it, ``weight_grad`` carried in fp32,
and a scalar ``tl.sum(gradient * weight)`` STORED every iteration at the gathered position; the row's gradient stored
after the inner loop, once per outer iteration. One warp (``num_warps=1``), Triton's default 3 stages.

Specialisation: a 2^16-row fp32 value table of width 256, 4096 outputs of 32 lookups each. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "aggregate_gradient_for_embedding_k",
    "signature": {"weight_grad_ptr": "*fp32", "per_sample_weights_grad_ptr": "*fp32", "emb_argsorted_ptr": "*i64",
                  "weight_ptr": "*fp32", "emb_begin_pos_ptr": "*i64", "reverse_mapping_ptr": "*u32",
                  "per_sample_weights_ptr": "*fp32", "gradient_ptr": "*fp32"},
    "constexprs": {"dim": 256, "bag_size": 32, "B": 4096, "K": 65536, "BLOCK_SIZE": 8},
    "num_warps": 1, "num_stages": 3}
PROBLEM: dict[str, int] = {"B": 4096, "K": 65536, "dim": 256, "bag_size": 32}
SMALL: dict[str, int] = dict(PROBLEM)     # dim, bag_size, B and K are constexprs: the generated kernel is for these


@triton.jit
def aggregate_gradient_for_embedding_k(
    weight_grad_ptr,  # [K, dim] (out)
    per_sample_weights_grad_ptr,  # [B, bag_size] (out)
    emb_argsorted_ptr,  # [K+1]
    weight_ptr,  # [K, dim]
    emb_begin_pos_ptr,  # [K+1]
    reverse_mapping_ptr,  # [B*bag_size]
    per_sample_weights_ptr,  # [B, bag_size]
    gradient_ptr,  # [B, dim]
    dim: tl.constexpr,
    bag_size: tl.constexpr,
    B: tl.constexpr,
    K: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    first_embedding_id = tl.program_id(axis=0).to(tl.int64)
    for k in range(0, BLOCK_SIZE):
        embedding_id = first_embedding_id + (K // BLOCK_SIZE) * k
        embedding_id = tl.load(emb_argsorted_ptr + embedding_id).to(tl.int64)
        weight_grad = tl.zeros([dim], dtype=tl.float32)
        begin = tl.load(emb_begin_pos_ptr + embedding_id)
        end = tl.load(emb_begin_pos_ptr + embedding_id + 1)
        weight = tl.load(weight_ptr + embedding_id * dim + tl.arange(0, dim)).to(tl.float32)
        for idx in range(begin, end):
            output_indice_id = tl.load(reverse_mapping_ptr + idx).to(tl.int64)
            batch_id = output_indice_id // bag_size
            bag_id = output_indice_id % bag_size  # noqa: F841 - kept as the library computes it
            per_sample_w = tl.load(per_sample_weights_ptr + output_indice_id)
            gradient = tl.load(gradient_ptr + batch_id * dim + tl.arange(0, dim)).to(tl.float32)
            weight_grad = weight_grad + per_sample_w * gradient
            per_sample_weights_grad = gradient * weight
            per_sample_weights_grad = tl.sum(per_sample_weights_grad)
            tl.store(per_sample_weights_grad_ptr + output_indice_id, per_sample_weights_grad)
        tl.store(weight_grad_ptr + embedding_id * dim + tl.arange(0, dim), weight_grad)


def make_inputs(B: int, K: int, dim: int, bag_size: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Indices drawn from a skewed distribution over K rows (many rows unused: empty segments), fp32 weights,
    scores and output gradients; the reverse-index CSR built as ``embedding_bag_bw_rev_indices`` builds it."""
    import torch
    gen = torch.Generator(device="cpu").manual_seed(seed)
    skew = torch.rand((B, bag_size), generator=gen) ** 3
    indices = (skew * K).long().clamp_max(K - 1)
    weight = torch.randn((K, dim), generator=gen)
    psw = torch.softmax(torch.randn((B, bag_size), generator=gen), dim=-1)
    gradient = torch.randn((B, dim), generator=gen)
    count = torch.zeros(K + 1, dtype=torch.int64)
    count.index_add_(0, indices.flatten() + 1, torch.ones(B * bag_size, dtype=torch.int64))
    emb_argsorted = count[1:].argsort(descending=True)
    emb_begin_pos = count.cumsum(0)
    order = torch.argsort(indices.flatten(), stable=True)          # positions grouped by row, as the atomics place them
    reverse_mapping = order.to(torch.int32).view(torch.uint32) if hasattr(torch, "uint32") else order.to(torch.int32)
    return {n: t.to(device) for n, t in (("indices", indices), ("weight", weight), ("per_sample_weights", psw),
                                          ("gradient", gradient), ("emb_argsorted", emb_argsorted),
                                          ("emb_begin_pos", emb_begin_pos), ("reverse_mapping", reverse_mapping))}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The aggregation step of ``embedding_bag_bw_rev_indices``: (weight.grad, per_sample_weights.grad)."""
    import torch
    weight, gradient, psw = inputs["weight"], inputs["gradient"], inputs["per_sample_weights"]
    K, dim = weight.shape
    B, bag_size = psw.shape
    weight_grad = torch.empty_like(weight)
    per_sample_weights_grad = torch.empty_like(psw)
    BLOCK_SIZE = 8
    assert (K % BLOCK_SIZE) == 0
    aggregate_gradient_for_embedding_k[(K // BLOCK_SIZE,)](
        weight_grad_ptr=weight_grad, emb_begin_pos_ptr=inputs["emb_begin_pos"],
        emb_argsorted_ptr=inputs["emb_argsorted"],
        per_sample_weights_grad_ptr=per_sample_weights_grad, weight_ptr=weight,
        reverse_mapping_ptr=inputs["reverse_mapping"], per_sample_weights_ptr=psw, gradient_ptr=gradient,
        dim=dim, bag_size=bag_size, B=B, K=K, BLOCK_SIZE=BLOCK_SIZE, num_warps=1)
    return weight_grad, per_sample_weights_grad


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    idx, weight, psw, grad = (inputs[n].double() if n != "indices" else inputs[n]
                              for n in ("indices", "weight", "per_sample_weights", "gradient"))
    contrib = (psw[..., None] * grad[:, None, :]).reshape(-1, weight.shape[1])
    weight_grad = torch.zeros_like(weight).index_add_(0, idx.flatten(), contrib)
    psw_grad = (grad[:, None, :] * weight[idx]).sum(-1)
    return weight_grad, psw_grad
