"""Liger-Kernel's ``_selective_log_softmax_kernel`` (liger_kernel/ops/grpo_loss.py, behind
``fused_selective_log_softmax``: the per-token log-probabilities GRPO / PPO trainers take of the policy's and the
reference model's logits). One program a (sequence, completion position): ``tl.program_id(...).cast(tl.int64)``
offsets into logits [B, L + 1, V] (the last position's logits skipped: the row stride is ``(L + 1) * N``), an
optional completion mask (``if MASK is not None:`` on a pointer argument, then ``if not_skip == 0: return``: an early
return on a loaded scalar before the loop and before any store), then the loop ``for start in range(0, N, BLOCK_N)``
over the vocabulary carrying two fp32 **scalars** started from Python floats (``m_i = float("-inf")``, ``l_i =
0.0``: an online logsumexp, ``tl.max`` and ``tl.sum`` of a [BLOCK_N] block each iteration, ``other=float("-inf")``
masking the vocab tail, a division by a runtime ``TEMPERATURE``), and after it one gathered logit at the token id
(a scalar load through a loaded index) minus the logsumexp, stored. L and N are constexprs as Liger declares them;
``BLOCK_N = 2048, num_stages = 4, num_warps = 1`` as ``fused_selective_log_softmax`` launches it. fp16 logits where
trainers pass bf16 (Triton's interpreter mishandles bf16); the mask int32."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

VOCAB = 151936       # Qwen2.5's vocabulary, the usual GRPO policy
SEQ = 256            # completion length (L: a constexpr of the kernel)
TEMP = 0.9
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_selective_log_softmax_kernel",
    "signature": {"LOGITS": "*fp16", "INPUT_IDS": "*i64", "LOG_P": "*fp32", "MASK": "*i32", "TEMPERATURE": "fp32",
                  "stride_input_ids_b": "i32"},
    "constexprs": {"L": SEQ, "N": VOCAB, "BLOCK_N": 2048},
    "num_warps": 1, "num_stages": 4,
    "divisibility": ["LOGITS", "INPUT_IDS", "LOG_P", "MASK"]}
PROBLEM: dict[str, Any] = {"B": 16, "L": SEQ, "V": VOCAB}   # a group of 16 completions of 256 tokens
SMALL: dict[str, Any] = {"B": 1, "L": SEQ, "V": VOCAB}      # L and V as PROBLEM's: they are constexprs


@triton.jit
def _selective_log_softmax_kernel(
    LOGITS,
    INPUT_IDS,
    LOG_P,
    MASK,
    TEMPERATURE,
    stride_input_ids_b,
    L: tl.constexpr,
    N: tl.constexpr,
    BLOCK_N: tl.constexpr = 4096,
):
    off_b = tl.program_id(0).cast(tl.int64)
    off_l = tl.program_id(1).cast(tl.int64)

    LOGITS += off_b * (L + 1) * N + off_l * N
    INPUT_IDS += off_b * stride_input_ids_b + off_l
    LOG_P += off_b * L + off_l

    if MASK is not None:
        MASK += off_b * stride_input_ids_b + off_l
        not_skip = tl.load(MASK)
        if not_skip == 0:
            return

    m_i = float("-inf")
    l_i = 0.0
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        logits = tl.load(LOGITS + cols, mask=cols < N, other=float("-inf")).to(tl.float32) / TEMPERATURE
        new_m_i = tl.maximum(m_i, tl.max(logits))
        alpha = tl.exp(m_i - new_m_i)
        l_i = l_i * alpha + tl.sum(tl.exp(logits - new_m_i))
        m_i = new_m_i
    lse = m_i + tl.log(l_i)

    ids = tl.load(INPUT_IDS)
    x = tl.load(LOGITS + ids).to(tl.float32) / TEMPERATURE
    logp = x - lse
    tl.store(LOG_P, logp)


def make_inputs(B: int, L: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """logits [B, L + 1, V] fp16 (the model's output over prompt end + completion), input_ids [B, P + L] int64 (a
    prompt of 7 tokens before the completion: the kernel reads the last L), a completion mask [B, P + L] int32 with
    every sequence cut short at a random length (padding after its EOS)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = (torch.randn((B, L + 1, V), device=device, generator=g) * 3.0).half()
    prompt = 7
    input_ids = torch.randint(0, V, (B, prompt + L), device=device, generator=g, dtype=torch.int64)
    ends = torch.randint(L // 2, L + 1, (B,), device=device, generator=g)
    mask = (torch.arange(prompt + L, device=device)[None, :] < (prompt + ends)[:, None]).to(torch.int32)
    return {"logits": logits, "input_ids": input_ids, "mask": mask, "temperature": TEMP}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """log_p [B, L] fp32 as ``fused_selective_log_softmax(logits, input_ids, temperature, mask)`` returns it (zeros
    where the mask is 0: the kernel returns before storing there)."""
    import torch
    logits, input_ids, mask = inputs["logits"], inputs["input_ids"], inputs["mask"]
    temperature = inputs["temperature"]
    assert logits.is_contiguous()
    B, L_ADD_1, N = logits.shape
    L = L_ADD_1 - 1
    input_ids = input_ids[:, -L:]
    if mask is not None:
        mask = mask[:, -L:]
    log_p = torch.zeros(B, L, dtype=torch.float32, device=logits.device)
    kwargs = {"BLOCK_N": config.get("BLOCK_N", 2048), "num_stages": config.get("num_stages", 4),
              "num_warps": config.get("num_warps", 1)}
    _selective_log_softmax_kernel[(B, L)](
        logits, input_ids, log_p, mask, temperature, input_ids.stride(0), L, N, **kwargs)
    return log_p


def reference(inputs: dict[str, Any]) -> Any:
    """float64 log_softmax(logits[:, :-1] / T) gathered at the completion's ids, zeroed where the mask is 0; a
    sequence at a time."""
    import torch
    logits, ids, mask = inputs["logits"], inputs["input_ids"], inputs["mask"]
    B, L1, V = logits.shape
    L = L1 - 1
    out = torch.zeros((B, L), dtype=torch.float64, device=logits.device)
    for b in range(B):
        lp = torch.log_softmax(logits[b, :L].double() / inputs["temperature"], dim=-1)
        out[b] = lp.gather(-1, ids[b, -L:, None])[:, 0] * mask[b, -L:].double()
    return out
