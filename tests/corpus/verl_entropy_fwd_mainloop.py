"""verl's fused linear + cross-entropy + entropy forward, ``efficient_entropy_kernel_general_mainloop``
(volcengine/verl verl/utils/kernel/kernels.py, launched by ``efficient_entropy_forward`` with reduction "mean"):
per (token block, vocab split of 1024) it computes logits = hidden @ weight^T tile by tile and keeps an **online
softmax** (running max, rescaled sum of exp, rescaled sum of logit * exp = the entropy numerator) and the label's
logit, writing per-split partials the epilogue kernel reduces.

The constructs: ``@triton.autotune`` with one config (128 x 256 x 32, 8 warps, 3 stages) keyed on three runtime
ints; **``tl.int64``-annotated stride parameters** and a ``tl.float32``-annotated ``rcp_temperature``; a 1-D grid
split into (pid_m, pid_n) by ``%`` / ``//``; a **predicated scalar store** (``if pid_m == 0 and pid_n == 0: tl.store(
global_logprobs_scalar_ptr, 0.0)``, runtime ``and``) before the loops; **device-side TMA descriptors**
(``tl.make_tensor_descriptor`` for hidden [tokens, H] and weight [V, H], taken because USE_TMA is True on
Hopper with unit inner strides -- the constexpr ``if USE_TMA`` / ``else`` branches both in the source, the pointer
path's ``hidden_ptrs`` defined only on it); **a nested loop**: the outer ``for n in range(0, num_pid_n)`` over vocab
tiles (runtime trip count ``cdiv(vocab_per_split, BLOCK_N)``) carries four [BLOCK_M] fp32 states, the inner ``for k``
over hidden tiles does ``desc.load`` x 2 and ``tl.dot(_hidden, _weight.trans(), logits)``; after the inner loop
per-row reductions ``tl.max`` / ``tl.sum`` (axis 1), exp rescaling, and a **label-match mask multiplied into the
logits** (``logits * label_mask``, bool times fp32, comparing int64 labels with an int32 + int offset); epilogue
stores whose masks mix a vector and a scalar (``offs_max_n < num_splits``, ``offs_max_n[None]`` indexing a scalar),
and a **masked store of logprobs only for the rows whose label lies in this split** (``min(...)`` of runtime values).

Port notes: kernel and decorator copied verbatim; ``efficient_entropy_forward``'s mainloop launch is ``launch`` (the
epilogue kernel and its reduction not ported: the partials are the outputs); verl's module-level
``triton.set_allocator`` for the device descriptors is done in ``launch``. Reduction "mean" (verl's default) so
``global_logprobs_scalar_ptr`` is a separate scalar (with reduction "none" verl passes the same tensor as
``_logprobs`` and the program (0, 0) zeroes token 0's entry, racing with the split that owns its label). Vocab sizes
are multiples of 1024: for a vocab not a multiple of BLOCK_N the zero-filled columns past ``vocab_size`` enter the
running max and sum as logits of 0 in the library (both paths)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "efficient_entropy_kernel_general_mainloop",
    "signature": {"rank": "i32", "hidden_ptr": "*bf16", "weight_ptr": "*bf16", "labels_ptr": "*i64",
                  "num_tokens": "i32", "hidden_size": "i32", "vocab_size": "i32", "vocab_per_split": "i32",
                  "stride_hidden_m": "i64", "stride_hidden_k": "i64", "stride_weight_n": "i64",
                  "stride_weight_k": "i64", "max_ptr": "*fp32", "stride_max_m": "i64", "stride_max_n": "i64",
                  "accu_ptr": "*fp32", "stride_accu_m": "i64", "stride_accu_n": "i64", "entropy_b_ptr": "*fp32",
                  "stride_entropy_b_m": "i64", "stride_entropy_b_n": "i64", "global_logprobs_ptr": "*fp32",
                  "stride_global_logprobs": "i64", "global_logprobs_scalar_ptr": "*fp32", "rcp_temperature": "fp32"},
    "constexprs": {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32, "USE_TMA": True},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["hidden_size", "vocab_size", "vocab_per_split"]}
PROBLEM: dict[str, int] = {"num_tokens": 4096, "hidden_size": 4096, "vocab_size": 32768}
SMALL: dict[str, int] = {"num_tokens": 200, "hidden_size": 256, "vocab_size": 2048}   # a partial token block
VOCAB_PER_SPLIT = 1024


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32}, num_stages=3, num_warps=8)],
    key=["num_tokens", "hidden_size", "vocab_size"],
)
@triton.jit
def efficient_entropy_kernel_general_mainloop(
    rank,
    hidden_ptr,
    weight_ptr,
    labels_ptr,
    num_tokens,
    hidden_size,
    vocab_size,
    vocab_per_split,
    stride_hidden_m: tl.int64,
    stride_hidden_k: tl.int64,
    stride_weight_n: tl.int64,
    stride_weight_k: tl.int64,
    max_ptr,
    stride_max_m: tl.int64,
    stride_max_n: tl.int64,
    accu_ptr,
    stride_accu_m: tl.int64,
    stride_accu_n: tl.int64,
    entropy_b_ptr,
    stride_entropy_b_m: tl.int64,
    stride_entropy_b_n: tl.int64,
    global_logprobs_ptr,
    stride_global_logprobs: tl.int64,
    global_logprobs_scalar_ptr,
    rcp_temperature: tl.float32,
    # Meta-parameters
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    USE_TMA: tl.constexpr,
):
    """
    forward mainloop
    """
    pid = tl.program_id(axis=0)
    num_splits = (vocab_size + vocab_per_split - 1) // vocab_per_split
    num_pid_m = tl.cdiv(num_tokens, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(vocab_per_split, BLOCK_SIZE_N)
    pid_m = pid % num_pid_m
    pid_n = pid // num_pid_m

    if pid_m == 0 and pid_n == 0:
        tl.store(global_logprobs_scalar_ptr, 0.0)

    # create pointers for the first blocks of hidden
    start_offs_am = pid_m * BLOCK_SIZE_M
    offs_am = start_offs_am + tl.arange(0, BLOCK_SIZE_M)
    offs_k = tl.arange(0, BLOCK_SIZE_K)

    if USE_TMA:
        # using TMA and device-side descriptor creation
        hidden_desc = tl.make_tensor_descriptor(
            hidden_ptr,
            shape=[num_tokens, hidden_size],
            strides=[stride_hidden_m, 1],
            block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K],
        )

        weight_desc = tl.make_tensor_descriptor(
            weight_ptr,
            shape=[vocab_size, hidden_size],
            strides=[stride_weight_n, 1],
            block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K],
        )

    else:
        hidden_ptrs = hidden_ptr + (offs_am[:, None] * stride_hidden_m + offs_k[None, :] * stride_hidden_k)

    # load labels for this block
    labels = tl.load(labels_ptr + offs_am, mask=offs_am < num_tokens)

    # traverse over N dimension
    # _max = tl.zeros((BLOCK_SIZE_M,), dtype=tl.float32)
    _max = tl.full((BLOCK_SIZE_M,), -float("inf"), dtype=tl.float32)
    _accu = tl.zeros((BLOCK_SIZE_M,), dtype=tl.float32)
    _entropy_b = tl.zeros((BLOCK_SIZE_M,), dtype=tl.float32)
    _logprobs = tl.zeros((BLOCK_SIZE_M,), dtype=tl.float32)
    for n in range(0, num_pid_n):
        start_offs_bn = pid_n * vocab_per_split + n * BLOCK_SIZE_N
        offs_bn = start_offs_bn + tl.arange(0, BLOCK_SIZE_N)

        logits = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        if not USE_TMA:
            # weight_ptrs = weight_ptr + (offs_k[:, None] * stride_weight_k + offs_bn[None, :] * stride_weight_n)
            weight_ptrs = weight_ptr + (offs_bn[:, None] * stride_weight_n + offs_k[None, :] * stride_weight_k)

        # iterate over K dimension
        for k in range(0, tl.cdiv(hidden_size, BLOCK_SIZE_K)):
            if USE_TMA:
                # load the next block of hidden and weight
                start_offs_k = k * BLOCK_SIZE_K
                _hidden = hidden_desc.load([start_offs_am, start_offs_k])
                _weight = weight_desc.load([start_offs_bn, start_offs_k])
            else:
                # load the next block of hidden and weight
                _hidden = tl.load(
                    hidden_ptrs,
                    mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K) & (offs_am[:, None] < num_tokens),
                    other=0.0,
                )

                _weight = tl.load(
                    weight_ptrs,
                    mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K)
                    & (offs_bn[:, None] < (min((pid_n + 1) * vocab_per_split, vocab_size))),
                    other=0.0,
                )

                # advance the ptrs to the next K block
                hidden_ptrs += BLOCK_SIZE_K * stride_hidden_k
                weight_ptrs += BLOCK_SIZE_K * stride_weight_k

            # GEMM
            logits = tl.dot(_hidden, _weight.trans(), logits)

        if not USE_TMA:
            # reset hidden_ptrs for next iteration
            hidden_ptrs -= hidden_size * stride_hidden_k

        # scale logits by temperature
        logits *= rcp_temperature

        # update global maximum
        _max_old = _max
        m_pid_n = tl.max(logits, axis=1)
        _max = tl.maximum(_max_old, m_pid_n)

        exp_logits = tl.exp(logits - _max[:, None])
        coeff = tl.exp(_max_old - _max)
        _accu = coeff * _accu + tl.sum(exp_logits, axis=1)

        _entropy_b = _entropy_b * coeff + tl.sum(logits * exp_logits, axis=1)

        label_mask = (offs_bn + rank * vocab_size)[None, :] == labels[:, None]
        _logprobs += tl.sum(logits * label_mask, axis=1)

    # store maximum
    offs_max_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_max_n = pid_n
    maximum_ptrs = max_ptr + offs_max_n * stride_max_n + offs_max_m * stride_max_m
    tl.store(maximum_ptrs, _max, mask=(offs_max_m < num_tokens) & (offs_max_n < num_splits))

    # store entropy
    accu_ptrs = accu_ptr + offs_max_n * stride_accu_n + offs_max_m * stride_accu_m
    tl.store(accu_ptrs, _accu, mask=(offs_max_m < num_tokens) & (offs_max_n[None] < num_splits))
    entropy_b_ptrs = entropy_b_ptr + offs_max_n * stride_entropy_b_n + offs_max_m * stride_entropy_b_m
    tl.store(entropy_b_ptrs, _entropy_b, mask=(offs_max_m < num_tokens) & (offs_max_n < num_splits))
    # store logprobs
    vocab_left_idx = pid_n * vocab_per_split + rank * vocab_size
    vocab_right_idx = min((pid_n + 1) * vocab_per_split, vocab_size) + rank * vocab_size
    mask = (labels >= vocab_left_idx) & (labels < vocab_right_idx)
    mask &= offs_am < num_tokens
    global_logprobs_ptrs = global_logprobs_ptr + offs_am * stride_global_logprobs
    # tl.atomic_add(global_logprobs_ptrs, _logprobs, mask=mask)
    tl.store(global_logprobs_ptrs, _logprobs, mask=mask)


def make_inputs(num_tokens: int, hidden_size: int, vocab_size: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """hidden [T, H] bf16, weight [V, H] bf16 (the lm head), labels [T] int64."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    hidden = torch.randn((num_tokens, hidden_size), device=device, generator=g).bfloat16()
    weight = (torch.randn((vocab_size, hidden_size), device=device, generator=g) * 2 * hidden_size ** -0.5).bfloat16()
    labels = torch.randint(0, vocab_size, (num_tokens,), device=device, generator=g, dtype=torch.int64)
    return {"hidden": hidden, "weight": weight, "labels": labels, "temperature": 0.7}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The mainloop's outputs as ``efficient_entropy_forward`` allocates them: _max, _accu, _entropy_b [T, splits],
    _logprobs [T] (each token's entry written by the split owning its label) and the zeroed scalar."""
    import torch
    hidden, weight, labels, temperature = inputs["hidden"], inputs["weight"], inputs["labels"], inputs["temperature"]
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=hidden.device, dtype=torch.int8))
    num_tokens, hidden_size = hidden.shape
    vocab_size = weight.shape[0]
    _rank = 0
    vocab_per_split = VOCAB_PER_SPLIT
    num_splits = (vocab_size + vocab_per_split - 1) // vocab_per_split
    logprobs = torch.empty((), device=hidden.device, dtype=torch.float32)
    _max = torch.empty((num_tokens, num_splits), device=hidden.device, dtype=torch.float32)
    _accu = torch.empty((num_tokens, num_splits), device=hidden.device, dtype=torch.float32)
    _entropy_b = torch.empty((num_tokens, num_splits), device=hidden.device, dtype=torch.float32)
    _logprobs = torch.empty((num_tokens,), device=hidden.device, dtype=torch.float32)

    def mainloop_grid(meta):
        return (triton.cdiv(num_tokens, meta["BLOCK_SIZE_M"]) * num_splits,)

    efficient_entropy_kernel_general_mainloop[mainloop_grid](
        _rank,
        hidden,
        weight,
        labels,
        num_tokens,
        hidden_size,
        vocab_size,
        vocab_per_split,
        hidden.stride(0),
        hidden.stride(1),
        weight.stride(0),
        weight.stride(1),
        _max,
        _max.stride(0),
        _max.stride(1),
        _accu,
        _accu.stride(0),
        _accu.stride(1),
        _entropy_b,
        _entropy_b.stride(0),
        _entropy_b.stride(1),
        _logprobs,
        _logprobs.stride(0),
        logprobs,
        1.0 / temperature,
        USE_TMA=hidden.stride(1) == 1 and weight.stride(1) == 1,
    )
    return _max, _accu, _entropy_b, _logprobs, logprobs


def reference(inputs: dict[str, Any]) -> Any:
    """Per split s: m = max_j l, accu = sum_j exp(l - m), entropy_b = sum_j l exp(l - m) over the split's columns,
    with l = hidden @ weight^T / temperature in fp64; the label's logit; 0 for the scalar."""
    import torch
    hidden, weight, labels = inputs["hidden"].double(), inputs["weight"].double(), inputs["labels"]
    logits = hidden @ weight.T / inputs["temperature"]
    T, V = logits.shape
    ls = logits.view(T, V // VOCAB_PER_SPLIT, VOCAB_PER_SPLIT)
    m = ls.max(-1).values
    e = torch.exp(ls - m[..., None])
    accu, ent = e.sum(-1), (ls * e).sum(-1)
    lp = logits.gather(1, labels[:, None])[:, 0]
    return m, accu, ent, lp, torch.zeros((), dtype=lp.dtype)


def flops(num_tokens: int, hidden_size: int, vocab_size: int) -> float:
    return 2.0 * num_tokens * hidden_size * vocab_size
