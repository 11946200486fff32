"""LMDeploy's multinomial sampler, ``_multinomial_sampling_kernel`` (InternLM/lmdeploy
lmdeploy/pytorch/kernels/cuda/multinomial_sampling.py, launched by ``multinomial_sampling`` with one program per
sequence, BLOCK_N 128, ``num_warps=1``): the scores are a row of softmax probabilities already sorted in descending
order, a uniform sample ``samp = tl.rand(seed, offset)`` is drawn per row (Philox, the seed and the offset loaded
per row, the offset cast to int32), and the first position whose running cumulative probability reaches ``samp``
is mapped back through ``indices`` (the pre-sort token ids) and written to ``Outputs``.

The constructs: ``tl.rand`` on a scalar seed/offset before the loop; one loop ``for b_idx in tl.range(0,
num_tokens, BLOCK_N)`` (a runtime i32 bound, masked tail with ``other=0.0``) with **four loop-carried values**:
a scalar fp32 running sum ``acc`` (``acc += tl.max(c_scores, 0)``), a scalar boolean ``found_mask`` that starts
as the Python constant ``False`` and becomes ``tl.sum(valid_mask, 0) > 0``, the scalar int64 ``output`` (initialised
from a load of ``indice_ptr`` before the loop, replaced by a **data-dependent gather** ``tl.load(indice_ptr +
valid_pos * stride_it)`` inside a nested ``if found_mask:``), and two **pointer carries** ``score_ptr`` (a block of
pointers) and ``indice_ptr`` (a scalar pointer) advanced at the end of every iteration. The whole body but the
pointer increments sits under ``if not found_mask:`` (the source's comment: "triton does not have break
statement, use mask to skip computation"): an ``scf.if`` on a loop-carried i1 with results. Inside: ``tl.cumsum``
(an associative scan), ``tl.argmax`` over an int32 cast of a boolean block. One store after the loop.
Qwen-style decode: 64 rows over a 32,000-token vocabulary, fp32 probabilities, int64 seeds/offsets/indices.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_multinomial_sampling_kernel",
    "signature": {"Scores": "*fp32", "Seeds": "*i64", "Offsets": "*i64", "Indices": "*i64", "Outputs": "*i64",
                  "stride_sb": "i32", "stride_st": "i32", "stride_ib": "i32", "stride_it": "i32",
                  "num_tokens": "i32"},
    "constexprs": {"BLOCK_N": 128},
    "num_warps": 1, "num_stages": 3,
    # stride_st / stride_it are 1 (contiguous rows): not declared divisible
    "divisibility": ["Scores", "Seeds", "Offsets", "Indices", "Outputs", "stride_sb", "stride_ib", "num_tokens"]}
PROBLEM: dict[str, int] = {"B": 64, "V": 32000}
SMALL: dict[str, int] = {"B": 6, "V": 700}


@triton.jit
def _multinomial_sampling_kernel(Scores, Seeds, Offsets, Indices, Outputs, stride_sb, stride_st, stride_ib, stride_it,
                                 num_tokens, BLOCK_N: tl.constexpr):
    """Kernel."""
    batch_id = tl.program_id(0)
    n_off = tl.arange(0, BLOCK_N)

    # sampling random seed
    seed = tl.load(Seeds + batch_id)
    offset = tl.load(Offsets + batch_id).to(tl.int32)
    samp = tl.rand(seed, offset)

    # initialize
    acc = 0.0
    score_ptr = Scores + batch_id * stride_sb + n_off * stride_st
    indice_ptr = Indices + batch_id * stride_ib
    output = tl.load(indice_ptr)

    found_mask = False
    for b_idx in tl.range(0, num_tokens, BLOCK_N):
        # triton does not have break statement, use mask to skip computation
        if not found_mask:
            s_off = b_idx + n_off
            s_mask = (s_off < num_tokens)
            scores = tl.load(score_ptr, mask=s_mask, other=0.0).to(tl.float32)
            c_scores = tl.cumsum(scores, 0)
            cum_scores = acc + c_scores
            acc += tl.max(c_scores, 0)

            pre_cum_scores = cum_scores - scores
            valid_mask = (samp > pre_cum_scores) & (samp <= cum_scores)
            found_mask = tl.sum(valid_mask, 0) > 0

            if found_mask:
                valid_pos = tl.argmax(valid_mask.to(tl.int32), 0)
                indice = tl.load(indice_ptr + valid_pos * stride_it)
                output = indice
        score_ptr += stride_st * BLOCK_N
        indice_ptr += stride_it * BLOCK_N

    tl.store(Outputs + batch_id, output)


def make_inputs(B: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """scores [B, V] fp32: softmax of randn * 2 logits, sorted descending (what lmdeploy's sampler passes after its
    top-k/top-p sort); indices [B, V] int64, the argsort that sorted them; seeds and offsets [B] int64 (the
    per-request generator seed and step)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn((B, V), device=device, generator=g) * 2.0
    probs = torch.softmax(logits, dim=-1)
    scores, indices = probs.sort(dim=-1, descending=True)
    seeds = torch.randint(0, 2**31 - 1, (B,), device=device, generator=g, dtype=torch.int64)
    offsets = torch.randint(0, 4096, (B,), device=device, generator=g, dtype=torch.int64)
    return {"scores": scores.contiguous(), "indices": indices.contiguous(), "seeds": seeds, "offsets": offsets}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The sampled token id per row, [B] int64 (as ``multinomial_sampling``: outputs start as indices[:, 0])."""
    scores, indices = inputs["scores"], inputs["indices"]
    batch_size, num_tokens = scores.shape
    outputs = indices[:, 0].clone()
    _multinomial_sampling_kernel[(batch_size,)](
        scores, inputs["seeds"], inputs["offsets"], indices, outputs,
        stride_sb=scores.stride(0), stride_st=scores.stride(1), stride_ib=indices.stride(0),
        stride_it=indices.stride(1), num_tokens=num_tokens, BLOCK_N=128,
        num_warps=config.get("num_warps", 1), num_stages=config.get("num_stages", 3))
    return outputs


def _philox_uniform(seed: int, offset: int) -> float:
    """Triton's ``tl.rand(seed, offset)`` for an int64 seed and an int32 offset: 10 Philox-4x32 rounds on
    (offset, 0, 0, 0) with key (seed lo, seed hi), the first word turned into a float in [0, 1)."""
    import torch
    M = 0xFFFFFFFF
    A, Bc, KA, KB = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
    c0, c1, c2, c3 = offset & M, 0, 0, 0
    k0, k1 = seed & M, (seed >> 32) & M
    for _ in range(10):
        _c0, _c2 = c0, c2
        c0 = ((Bc * _c2) >> 32) ^ c1 ^ k0
        c2 = ((A * _c0) >> 32) ^ c3 ^ k1
        c1 = (Bc * _c2) & M
        c3 = (A * _c0) & M
        k0 = (k0 + KA) & M
        k1 = (k1 + KB) & M
    x = c0 - (1 << 32) if c0 >= (1 << 31) else c0
    if x < 0:
        x = -x - 1
    return (torch.tensor(x, dtype=torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32)).item()


def reference(inputs: dict[str, Any]) -> Any:
    """First sorted position i with cumsum[i-1] < u <= cumsum[i] (u Triton's Philox uniform), as its original id;
    indices[:, 0] where no position qualifies."""
    import torch
    scores, indices = inputs["scores"], inputs["indices"]
    B, V = scores.shape
    cum = torch.cumsum(scores.double(), dim=1)
    pre = cum - scores.double()
    out = indices[:, 0].clone()
    for b in range(B):
        u = _philox_uniform(int(inputs["seeds"][b]), int(inputs["offsets"][b]) & 0xFFFFFFFF)
        hit = torch.nonzero((u > pre[b]) & (u <= cum[b])).flatten()
        if hit.numel():
            out[b] = indices[b, int(hit[0])]
    return out


def flops(B: int, V: int) -> float:
    """A scan and two compares an element, at most (rows stop early): 3 * B * V (memory-bound)."""
    return 3.0 * B * V
