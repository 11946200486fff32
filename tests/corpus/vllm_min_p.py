"""vLLM's Triton min-p filter, ``_min_p_kernel`` (vllm-project/vllm vllm/v1/worker/gpu/sample/min_p.py, the model
runner V2 sampler; ``apply_min_p`` launched it on a grid of one program per token, BLOCK_SIZE 1024, before the
newest revision switched that call to its torch twin ``_min_p_torch``): every logit below ``max + log(min_p)`` (a
probability below min_p times the top token's) is set to -inf, in place.

The constructs: ``tl.program_id(0).to(tl.int64)``; the request's min_p gathered through ``expanded_idx_mapping``
(token -> request state, an int32 index load, then an fp32 load); an **early ``return``** when ``min_p == 0.0``
(a scalar test on a loaded value before both loops: the requests without min-p cost two loads); then **two loops
over the vocabulary** (``for i in range(0, vocab_size, BLOCK_SIZE)``, a runtime i32 bound, masked tail with
``other=-inf``): the first carries a scalar running maximum written as ``max_val = tl.max(tl.maximum(logits,
max_val))`` (the scalar broadcast into the block before the reduction), the second re-reads the row and **writes it
back in place** (a load and a store of the same addresses each iteration) through ``tl.where(logits < threshold,
-inf, logits)``; ``threshold = max_val + tl.log(min_p)`` between them. fp32 logits, a decode batch of 256 tokens over
Llama 3's 128,256-token vocabulary, about a quarter of the requests without min-p. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_min_p_kernel",
    "signature": {"logits_ptr": "*fp32", "logits_stride": "i32", "expanded_idx_mapping_ptr": "*i32",
                  "min_p_ptr": "*fp32", "vocab_size": "i32"},
    "constexprs": {"BLOCK_SIZE": 1024},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["logits_ptr", "logits_stride", "expanded_idx_mapping_ptr", "min_p_ptr", "vocab_size"]}
PROBLEM: dict[str, int] = {"T": 256, "V": 128256, "R": 512}
SMALL: dict[str, int] = {"T": 7, "V": 3001, "R": 11}


@triton.jit
def _min_p_kernel(
    logits_ptr,
    logits_stride,
    expanded_idx_mapping_ptr,
    min_p_ptr,
    vocab_size,
    BLOCK_SIZE: tl.constexpr,
):
    token_idx = tl.program_id(0).to(tl.int64)
    req_state_idx = tl.load(expanded_idx_mapping_ptr + token_idx)
    min_p = tl.load(min_p_ptr + req_state_idx).to(tl.float32)
    if min_p == 0.0:
        return

    max_val = float("-inf")
    for i in range(0, vocab_size, BLOCK_SIZE):
        block = i + tl.arange(0, BLOCK_SIZE)
        mask = block < vocab_size
        logits = tl.load(
            logits_ptr + token_idx * logits_stride + block,
            mask=mask,
            other=float("-inf"),
        )
        max_val = tl.max(tl.maximum(logits, max_val))
    max_val = max_val.to(tl.float32)  # type: ignore

    threshold = max_val + tl.log(min_p)
    for i in range(0, vocab_size, BLOCK_SIZE):
        block = i + tl.arange(0, BLOCK_SIZE)
        mask = block < vocab_size
        logits = tl.load(
            logits_ptr + token_idx * logits_stride + block,
            mask=mask,
            other=float("-inf"),
        )
        logits = tl.where(logits < threshold, float("-inf"), logits)
        tl.store(logits_ptr + token_idx * logits_stride + block, logits, mask=mask)


def make_inputs(T: int, V: int, R: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """logits [T, V] fp32 (randn * 3); expanded_idx_mapping [T] int32 into R request states; min_p [R] fp32 in
    [0.01, 0.3], about a quarter of them 0 (no min-p), the first token's request 0 and the second's 0.1."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn((T, V), device=device, generator=g) * 3.0
    mapping = torch.randint(0, R, (T,), device=device, generator=g).to(torch.int32)
    min_p = torch.rand((R,), device=device, generator=g) * 0.29 + 0.01
    min_p = torch.where(torch.rand((R,), device=device, generator=g) < 0.25, torch.zeros_like(min_p), min_p)
    min_p[int(mapping[0])] = 0.0
    if T > 1 and int(mapping[1]) != int(mapping[0]):
        min_p[int(mapping[1])] = 0.1
    return {"logits": logits, "expanded_idx_mapping": mapping, "min_p": min_p}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The filtered logits [T, V] fp32 (the kernel works in place: on a copy of the input)."""
    logits = inputs["logits"].clone()
    num_tokens, vocab_size = logits.shape
    BLOCK_SIZE = 1024
    _min_p_kernel[(num_tokens,)](
        logits, logits.stride(0), inputs["expanded_idx_mapping"], inputs["min_p"], vocab_size,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return logits


def reference(inputs: dict[str, Any]) -> Any:
    """vLLM's ``_min_p_torch``: logits below max + log(min_p) set to -inf where min_p != 0."""
    import torch
    logits = inputs["logits"].clone()
    mp = inputs["min_p"][inputs["expanded_idx_mapping"].long()].to(torch.float32)
    apply = mp != 0.0
    threshold = logits.max(dim=1, keepdim=True).values + torch.log(mp).unsqueeze(1)
    drop = (logits < threshold) & apply.unsqueeze(1)
    logits[drop] = -float("inf")
    return logits


def flops(T: int, V: int, R: int) -> float:
    """Two passes over each row, a max and a compare an element: 2 * T * V (memory-bound)."""
    return 2.0 * T * V
