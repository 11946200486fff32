"""vLLM's fused softmax + entropy for speculative decoding's early-stop test, ``_softmax_entropy_kernel``
(vllm-project/vllm vllm/v1/spec_decode/ops/softmax_entropy.py, launched by that file's ``softmax_entropy``):
H = -sum p log p of p = softmax(logits) per row, as log Z - S / Z with Z = sum exp(x - max) and S = sum exp(x -
max) (x - max), one program per row.

The constructs: **the strides are constexpr parameters** (``stride_batch: tl.constexpr``, ``stride_vocab:
tl.constexpr``, passed by keyword: each vocabulary size compiles its own kernel, the row offset ``row_idx *
stride_batch`` a multiply by a constant) while the row length ``n_cols`` is a runtime argument; **two loops over the
row** (``for block_start in range(0, n_cols, BLOCK_N)``, BLOCK_N = 4096, masked tail): the first carries a **scalar
running max** from a Python float (``max_val = float("-inf")``, ``tl.maximum(max_val, tl.max(x))``) with ``other =
-inf``; the second re-reads the row (``other = 0.0``) and carries **two scalar sums** (``Z += tl.sum(exp_x)``, ``S +=
tl.sum(exp_x * x_shifted)``) with the tail zeroed by ``tl.where(mask, exp_x, 0.0)``; after it ``tl.log(Z) - S / Z``
stored as one scalar. Every argument is passed by keyword. fp32 logits of Llama 3's 128,256-token vocabulary, a
batch of 256 draft rows; Triton's default 4 warps and 3 stages.

Port notes: ``softmax_entropy``'s HAS_TRITON check and PyTorch fallback dropped (the fallback is the reference);
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

VOCAB = 128256
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_softmax_entropy_kernel",
    "signature": {"logits_ptr": "*fp32", "entropy_ptr": "*fp32", "n_cols": "i32"},
    "constexprs": {"stride_batch": VOCAB, "stride_vocab": 1, "BLOCK_N": 4096},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["n_cols"]}
PROBLEM: dict[str, int] = {"B": 256, "V": VOCAB}
SMALL: dict[str, int] = {"B": 5, "V": 9001}


@triton.jit
def _softmax_entropy_kernel(
    logits_ptr,
    entropy_ptr,
    stride_batch: tl.constexpr,
    stride_vocab: tl.constexpr,
    n_cols,
    BLOCK_N: tl.constexpr,
):
    """Compute entropy = -sum(softmax(logits) * log(softmax(logits))) per row.

    Uses numerically stable formula:
      max_val = max(logits)
      Z = sum(exp(logits - max_val))
      S = sum(exp(logits - max_val) * (logits - max_val))
      entropy = log(Z) - S / Z
    """
    row_idx = tl.program_id(0)

    # First pass: find max (use scalar accumulators, not [1]-shaped blocks)
    max_val = float("-inf")
    for block_start in range(0, n_cols, BLOCK_N):
        col_offs = block_start + tl.arange(0, BLOCK_N)
        mask = col_offs < n_cols
        ptr = logits_ptr + row_idx * stride_batch + col_offs * stride_vocab
        x = tl.load(ptr, mask=mask, other=float("-inf"))
        cur_max = tl.max(x)
        max_val = tl.maximum(max_val, cur_max)

    # Second pass: compute Z and S
    Z = 0.0
    S = 0.0
    for block_start in range(0, n_cols, BLOCK_N):
        col_offs = block_start + tl.arange(0, BLOCK_N)
        mask = col_offs < n_cols
        ptr = logits_ptr + row_idx * stride_batch + col_offs * stride_vocab
        x = tl.load(ptr, mask=mask, other=0.0)
        x_shifted = x - max_val
        exp_x = tl.exp(x_shifted)
        exp_x = tl.where(mask, exp_x, 0.0)
        Z += tl.sum(exp_x)
        S += tl.sum(exp_x * x_shifted)

    entropy = tl.log(Z) - S / Z
    out_ptr = entropy_ptr + row_idx
    tl.store(out_ptr, entropy)


def softmax_entropy(logits: "torch.Tensor", num_warps: int | None = None,
                    num_stages: int | None = None) -> "torch.Tensor":
    """vLLM's launcher (num_warps / num_stages added for the harness; None: Triton's defaults)."""
    logits = logits.contiguous()
    batch_size, vocab_size = logits.shape
    entropy = logits.new_empty((batch_size, 1))

    BLOCK_N = 4096
    grid = (batch_size,)
    extra = {key: val for key, val in (("num_warps", num_warps), ("num_stages", num_stages)) if val is not None}
    _softmax_entropy_kernel[grid](
        logits,
        entropy,
        stride_batch=logits.stride(0),
        stride_vocab=logits.stride(1),
        n_cols=vocab_size,
        BLOCK_N=BLOCK_N,
        **extra,
    )
    return entropy


def make_inputs(B: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Draft logits [B, V] fp32: randn * 2, a few rows peaked (one logit + 20) so entropies span near 0 to ~log V."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn((B, V), device=device, generator=g) * 2.0
    peaked = torch.arange(B, device=device) % 3 == 0
    top = torch.randint(0, V, (B,), device=device, generator=g)
    logits[peaked, top[peaked]] += 20.0
    return {"logits": logits}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """entropy [B, 1] fp32."""
    return softmax_entropy(inputs["logits"], config.get("num_warps"), config.get("num_stages"))


def reference(inputs: dict[str, Any]) -> Any:
    """vLLM's ``_softmax_entropy_pytorch`` in fp64."""
    import torch
    probs = torch.nn.functional.softmax(inputs["logits"].double(), dim=-1)
    return torch.special.entr(probs).sum(dim=-1, keepdim=True)


def bytes_moved(B: int, V: int) -> float:
    """Two passes over the logits (fp32)."""
    return 2.0 * 4 * B * V
