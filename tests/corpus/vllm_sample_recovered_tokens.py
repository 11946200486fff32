"""vLLM v1's recovered-token sampler for speculative decoding, ``sample_recovered_tokens_kernel`` (vllm-project/vllm
vllm/v1/sample/rejection_sampler.py, the recent blocked-vocabulary form with ``inv_q_ptr`` and a ``BLOCK_SIZE`` loop;
read from a copy of that file in the code index, id 70949023207, which matches the upstream layout), launched as that
file's ``sample_recovered_tokens`` does: grid (batch_size, max_spec_len), BLOCK_SIZE = 8192, default 4 warps,
``inv_q = 1 / Exponential(1)`` (Gumbel-max-style sampling from the residual distribution without normalising it).

The constructs: the request's draft slice from ``cu_num_draft_tokens`` (``start_idx = 0 if req_idx == 0 else
tl.load(...)``: a conditional expression on the program id around a load) and an **early ``return``** for a position
past the request's drafts; a loop ``for v in range(0, vocab_size, BLOCK_SIZE)`` over the 152k-entry vocabulary
(runtime bound, masked tail) loading the draft and target probabilities and ``inv_q`` (three fp32 streams, the
draft/target rows addressed by the token index, inv_q by the request), ``tl.maximum(target - draft, 0)``, a
**``tl.max(score, axis=0, return_indices=True)``** (max and argmax of the block) and **``if local_max > max_val:``
-- a scalar ``scf.if`` that updates the two scalar carries** (the running max and ``recovered_id = v + local_id``);
one int32 store after the loop. ``NO_DRAFT_PROBS`` False (a draft model's probabilities given; the n-gram branch,
with the draft token masked out, is not compiled). Qwen2 vocabulary 151,936, 64 requests with 4 draft tokens each
(max_spec_len 4). Nothing here is imported by twill; the kernel is verbatim."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "sample_recovered_tokens_kernel",
    "signature": {"output_token_ids_ptr": "*i32", "cu_num_draft_tokens_ptr": "*i32", "draft_token_ids_ptr": "*i32",
                  "draft_probs_ptr": "*fp32", "target_probs_ptr": "*fp32", "inv_q_ptr": "*fp32",
                  "vocab_size": "i32"},
    "constexprs": {"BLOCK_SIZE": 8192, "NO_DRAFT_PROBS": False},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["vocab_size"]}
PROBLEM: dict[str, int] = {"batch": 64, "spec": 4, "vocab": 151936}
SMALL: dict[str, int] = {"batch": 3, "spec": 4, "vocab": 20000}


@triton.jit
def sample_recovered_tokens_kernel(
    output_token_ids_ptr,  # [num_tokens]
    cu_num_draft_tokens_ptr,  # [batch_size]
    draft_token_ids_ptr,  # [num_tokens]
    draft_probs_ptr,  # [num_tokens, vocab_size] or None
    target_probs_ptr,  # [num_tokens, vocab_size]
    inv_q_ptr,  # [batch_size, vocab_size]
    vocab_size,
    BLOCK_SIZE: tl.constexpr,
    NO_DRAFT_PROBS: tl.constexpr,
):
    req_idx = tl.program_id(0)
    start_idx = 0 if req_idx == 0 else tl.load(cu_num_draft_tokens_ptr + req_idx - 1)
    end_idx = tl.load(cu_num_draft_tokens_ptr + req_idx)
    num_draft_tokens = end_idx - start_idx

    # Early exit for out-of-range positions.
    pos = tl.program_id(1)
    if pos >= num_draft_tokens:
        return

    token_idx = start_idx + pos

    if NO_DRAFT_PROBS:
        draft_token_id = tl.load(draft_token_ids_ptr + token_idx)

    max_val = float("-inf")
    recovered_id = 0
    for v in range(0, vocab_size, BLOCK_SIZE):
        vocab_offset = v + tl.arange(0, BLOCK_SIZE)
        vocab_mask = vocab_offset < vocab_size

        if NO_DRAFT_PROBS:
            prob = tl.load(
                target_probs_ptr + token_idx * vocab_size + vocab_offset,
                mask=(vocab_mask & (vocab_offset != draft_token_id)),
                other=0.0,
            )
        else:
            draft_prob = tl.load(
                draft_probs_ptr + token_idx * vocab_size + vocab_offset,
                mask=vocab_mask,
                other=0.0,
            )
            target_prob = tl.load(
                target_probs_ptr + token_idx * vocab_size + vocab_offset,
                mask=vocab_mask,
                other=0.0,
            )
            prob = tl.maximum(target_prob - draft_prob, 0.0)
            # NOTE(woosuk): We don't need `prob = prob / tl.sum(prob)` here because
            # `tl.argmax` will select the maximum value.

        inv_q = tl.load(
            inv_q_ptr + req_idx * vocab_size + vocab_offset,
            mask=vocab_mask,
            other=0.0,
        )

        # Local tile reduction
        score = prob * inv_q
        local_max, local_id = tl.max(score, axis=0, return_indices=True)

        if local_max > max_val:
            max_val = local_max
            recovered_id = v + local_id

    tl.store(output_token_ids_ptr + token_idx, recovered_id)


def make_inputs(batch: int, spec: int, vocab: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Per request 1..spec draft tokens (cumulative counts int32), softmax draft / target probabilities [num_tokens,
    vocab] fp32, inv_q = 1 / Exponential(1) [batch, vocab]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    n = torch.randint(1, spec + 1, (batch,), device=device, generator=g)
    n[0] = spec
    cu = torch.cumsum(n, 0).to(torch.int32)
    T = int(cu[-1])
    draft = torch.softmax(2.0 * torch.randn((T, vocab), device=device, generator=g), dim=-1)
    target = torch.softmax(2.0 * torch.randn((T, vocab), device=device, generator=g), dim=-1)
    q = -torch.log(torch.rand((batch, vocab), device=device, generator=g).clamp_min(1e-12))
    draft_ids = torch.randint(0, vocab, (T,), device=device, generator=g).to(torch.int32)
    return {"cu": cu, "draft_ids": draft_ids, "draft_probs": draft, "target_probs": target, "inv_q": 1.0 / q,
            "spec": spec}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """recovered token ids [num_tokens] (as float), as ``sample_recovered_tokens`` with draft probabilities."""
    import torch
    cu, draft_ids = inputs["cu"], inputs["draft_ids"]
    batch_size = cu.shape[0]
    vocab_size = inputs["target_probs"].shape[-1]
    recovered = torch.empty_like(draft_ids)
    BLOCK_SIZE = 8192
    sample_recovered_tokens_kernel[(batch_size, inputs["spec"])](
        recovered, cu, draft_ids, inputs["draft_probs"], inputs["target_probs"], inputs["inv_q"], vocab_size,
        BLOCK_SIZE, NO_DRAFT_PROBS=False)
    return recovered.float()


def reference(inputs: dict[str, Any]) -> Any:
    """argmax over the vocabulary of max(target - draft, 0) * inv_q[request]."""
    import torch
    cu = inputs["cu"].long()
    counts = torch.diff(cu, prepend=torch.zeros(1, dtype=torch.long, device=cu.device))
    req = torch.repeat_interleave(torch.arange(cu.shape[0], device=cu.device), counts)
    score = (inputs["target_probs"] - inputs["draft_probs"]).clamp_min(0.0) * inputs["inv_q"][req]
    return score.argmax(dim=-1).float()


def flops(batch: int, spec: int, vocab: int) -> float:
    """A subtract, a max, a multiply and a compare an entry: 4 * tokens * vocab (memory-bound)."""
    return 4.0 * batch * spec * vocab
