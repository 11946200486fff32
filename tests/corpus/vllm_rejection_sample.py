"""vLLM v1's Triton rejection sampler for speculative decoding (vllm/v1/sample/rejection_sampler.py,
``rejection_random_sample_kernel``, the random-sampling path; the greedy path is the same loop with an argmax in
place of the ratio test): one program per request, its draft tokens the slice ``[start, end)`` of the flattened
draft batch, ``start = cu_num_draft_tokens[req - 1]`` (0 for request 0, an ``if req_idx == 0`` on the program id)
and ``end = cu_num_draft_tokens[req]``.

The constructs: a **runtime trip count** ``for pos in range(num_draft_tokens)`` (0 to max_spec_len, 0 for a request
without drafts) carrying an **int32 ``rejected`` flag** and, because Triton has no ``break``, the whole body under
``if rejected == 0:``; in it three scalar loads (the draft token id, its uniform sample in **fp64** as vLLM draws
them, and through the id a **gather** of the draft and target probabilities at ``(start + pos) * vocab_size +
draft_token_id``); the ratio test ``draft_prob > 0 and target_prob / draft_prob >= uniform_prob`` (``and`` of
scalar tensors, as vLLM writes it) picks between the draft token and the request's pre-sampled recovered token in
an if / else whose else branch **sets the flag**; the picked id stored at ``req * (max_spec_len + 1) + pos``; after
the loop, if nothing was rejected, the bonus token stored at slot ``num_draft_tokens``. Slots never written keep
vLLM's placeholder -1. fp32 probabilities, int32 token ids. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

PLACEHOLDER_TOKEN_ID = -1
TWILL_SPEC: dict[str, Any] = {
    "kernel": "rejection_random_sample_kernel",
    "signature": {"output_token_ids_ptr": "*i32", "cu_num_draft_tokens_ptr": "*i32", "draft_token_ids_ptr": "*i32",
                  "draft_probs_ptr": "*fp32", "target_probs_ptr": "*fp32", "bonus_token_ids_ptr": "*i32",
                  "recovered_token_ids_ptr": "*i32", "uniform_probs_ptr": "*fp64", "max_spec_len": "i32",
                  "vocab_size": "i32"},
    "constexprs": {"NO_DRAFT_PROBS": False},
    "num_warps": 1, "num_stages": 3,
    "divisibility": ["output_token_ids_ptr", "cu_num_draft_tokens_ptr", "draft_token_ids_ptr", "draft_probs_ptr",
                     "target_probs_ptr", "bonus_token_ids_ptr", "recovered_token_ids_ptr", "uniform_probs_ptr",
                     "vocab_size"]}
# 512 requests, up to 5 draft tokens each (EAGLE-style k = 5), Llama-2's vocabulary
PROBLEM: dict[str, int] = {"B": 512, "K": 5, "V": 32000}
SMALL: dict[str, int] = {"B": 9, "K": 4, "V": 96}


@triton.jit(do_not_specialize=["max_spec_len"])
def rejection_random_sample_kernel(
    output_token_ids_ptr,  # [batch_size, max_spec_len + 1]
    cu_num_draft_tokens_ptr,  # [batch_size]
    draft_token_ids_ptr,  # [num_tokens]
    draft_probs_ptr,  # [num_tokens, vocab_size] or None
    target_probs_ptr,  # [num_tokens, vocab_size]
    bonus_token_ids_ptr,  # [batch_size]
    recovered_token_ids_ptr,  # [num_tokens]
    uniform_probs_ptr,  # [num_tokens]
    max_spec_len,
    vocab_size,
    NO_DRAFT_PROBS: tl.constexpr,
):
    req_idx = tl.program_id(0)
    if req_idx == 0:
        start_idx = 0
    else:
        start_idx = tl.load(cu_num_draft_tokens_ptr + req_idx - 1)
    end_idx = tl.load(cu_num_draft_tokens_ptr + req_idx)
    num_draft_tokens = end_idx - start_idx

    rejected = 0
    for pos in range(num_draft_tokens):
        if rejected == 0:
            draft_token_id = tl.load(draft_token_ids_ptr + start_idx + pos)
            if NO_DRAFT_PROBS:
                draft_prob = 1.0
            else:
                draft_prob = tl.load(draft_probs_ptr + (start_idx + pos) * vocab_size + draft_token_id)
            target_prob = tl.load(target_probs_ptr + (start_idx + pos) * vocab_size + draft_token_id)
            uniform_prob = tl.load(uniform_probs_ptr + start_idx + pos)
            # NOTE: the draft probability should never be 0; if it is, reject (no NaN from the division).
            if draft_prob > 0 and target_prob / draft_prob >= uniform_prob:
                # Accept.
                token_id = draft_token_id
            else:
                # Reject: the recovered token, and no later draft is looked at.
                rejected = 1
                token_id = tl.load(recovered_token_ids_ptr + start_idx + pos)
            tl.store(output_token_ids_ptr + req_idx * (max_spec_len + 1) + pos, token_id)

    if rejected == 0:
        # Every draft accepted: append the bonus token.
        bonus_token_id = tl.load(bonus_token_ids_ptr + req_idx)
        tl.store(output_token_ids_ptr + req_idx * (max_spec_len + 1) + num_draft_tokens, bonus_token_id)


def make_inputs(B: int, K: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Per request 0..K draft tokens (request 1 has none, request 2 all K); draft probs a softmax of logits, target
    probs a softmax of the same logits plus noise (so about half the drafts pass), draft tokens sampled from the
    draft probs; fp64 uniforms; recovered and bonus tokens uniform ids (the sampler draws them from the residual
    distribution beforehand; the kernel only reads them)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    num_draft = torch.randint(0, K + 1, (B,), device=device, generator=g)
    if B > 2:
        num_draft[1], num_draft[2] = 0, K
    cu = torch.cumsum(num_draft, 0).to(torch.int32)
    T = max(int(cu[-1].item()), 1)
    logits = torch.randn((T, V), device=device, generator=g) * 2.0
    draft_probs = torch.softmax(logits, -1)
    target_probs = torch.softmax(logits + torch.randn((T, V), device=device, generator=g) * 1.5, -1)
    draft_ids = torch.multinomial(draft_probs, 1, generator=g).flatten().to(torch.int32)
    uniform = torch.rand((T,), device=device, generator=g, dtype=torch.float64)
    recovered = torch.randint(0, V, (T,), device=device, generator=g).to(torch.int32)
    bonus = torch.randint(0, V, (B,), device=device, generator=g).to(torch.int32)
    return {"cu_num_draft_tokens": cu, "draft_token_ids": draft_ids, "draft_probs": draft_probs,
            "target_probs": target_probs, "bonus_token_ids": bonus, "recovered_token_ids": recovered,
            "uniform_probs": uniform, "max_spec_len": K}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The output token ids [B, K + 1] (placeholder -1 where nothing was written), flattened, as fp32."""
    import torch
    cu, K = inputs["cu_num_draft_tokens"], inputs["max_spec_len"]
    B, V = cu.numel(), inputs["target_probs"].shape[-1]
    out = torch.full((B, K + 1), PLACEHOLDER_TOKEN_ID, dtype=torch.int32, device=cu.device)
    rejection_random_sample_kernel[(B,)](out, cu, inputs["draft_token_ids"], inputs["draft_probs"],
                                         inputs["target_probs"], inputs["bonus_token_ids"],
                                         inputs["recovered_token_ids"], inputs["uniform_probs"], K, V,
                                         NO_DRAFT_PROBS=False, num_warps=config.get("num_warps", 1),
                                         num_stages=config.get("num_stages", 3))
    return out.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    cu = inputs["cu_num_draft_tokens"].long().cpu().tolist()
    K = inputs["max_spec_len"]
    ids = inputs["draft_token_ids"].long().cpu()
    dp, tp = inputs["draft_probs"].cpu(), inputs["target_probs"].cpu()
    u = inputs["uniform_probs"].cpu()
    rec, bonus = inputs["recovered_token_ids"].cpu(), inputs["bonus_token_ids"].cpu()
    B = len(cu)
    out = torch.full((B, K + 1), float(PLACEHOLDER_TOKEN_ID), dtype=torch.float64)
    for r in range(B):
        start, end = (cu[r - 1] if r else 0), cu[r]
        rejected = False
        for pos in range(end - start):
            t = start + pos
            d, p = dp[t, ids[t]], tp[t, ids[t]]           # fp32, the ratio in fp32 as the kernel computes it
            if d > 0 and float(p / d) >= float(u[t]):
                out[r, pos] = float(ids[t])
            else:
                out[r, pos] = float(rec[t])
                rejected = True
                break
        if not rejected:
            out[r, end - start] = float(bonus[r])
    return out.flatten().to(inputs["target_probs"].device)


def flops(B: int, K: int, V: int) -> float:
    return 2.0 * B * K
