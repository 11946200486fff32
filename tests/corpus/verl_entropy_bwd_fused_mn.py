"""verl's fused linear + cross-entropy + entropy backward, ``efficient_entropy_backward_kernel_general_mainloop_MN``
(volcengine/verl verl/utils/kernel/kernels.py, launched by ``efficient_entropy_backward`` when
``_config._backward == BackwardEnum._Total_Fuse_MN``): per (token block, vocab block) it recomputes the logits
tile, forms d_logits from the forward's max / sum-exp / entropy_b and the label, and scatters both GEMM gradients,
d_weight = d_logits^T @ hidden and d_hidden = d_logits @ weight, **with fp32 atomics inside the K loop** (d_logits
never materialised).

The constructs: ``@triton.autotune`` with one config (128 x 128 x 32, GROUP_SIZE_M 16, 8 warps, 3 stages); plain
``int``-annotated runtime scalars and ``tl.int64``-annotated strides; GROUP_SIZE_M **grouped pid swizzle** with a
runtime ``min``; a **runtime if / elif / else on ``reduction``** choosing a masked vector load, or a **scalar load
broadcast** with ``tl.broadcast_to`` (``tl.fdiv`` by ``num_tokens.to(tl.float32)`` for "mean"); **two K loops in
sequence**: the first (pointer path: USE_TMA False) loads hidden / weight tiles with **K-tail masks**
``offs_k < hidden_size - k * BLOCK_K`` ANDed with row masks, advances the pointers and accumulates ``tl.dot(_hidden,
_weight.T, logits)``; the pointers are **rewound** after it (``hidden_ptrs -= hidden_size * stride``); between the
loops the softmax / entropy gradient with a **bool label mask subtracted from fp32**; the second loop reloads the
hidden and weight tiles, does two **fp32 x fp32 ``tl.dot``s (tf32) of an fp32 register tile transposed
(``d_logits.trans()``)** against upcast bf16 tiles, and two masked **``tl.atomic_add``s** of [128, 32] fp32 tiles
per iteration, advancing four pointer tiles.

Port notes: kernel and decorator verbatim; ``efficient_entropy_backward``'s fused-MN launch is ``launch`` with
reduction "mean" (verl's default) and d_hidden / d_weight fp32 zeros as it allocates them. USE_TMA is False here:
verl passes ``SUPPORT_CUDA_TMA and ...``, False on pre-Hopper GPUs or a Triton without ``make_tensor_descriptor``
(the TMA path is the forward port's ``verl_entropy_fwd_mainloop.py``); the pointer path is what this file shows.
maximum / accumulate / entropy_b come from an fp64 torch forward (entropy_b = sum p * logit, as verl's epilogue
leaves it)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "efficient_entropy_backward_kernel_general_mainloop_MN",
    "signature": {"num_tokens": "i32", "hidden_size": "i32", "vocab_size": "i32", "rank": "i32",
                  "hidden_ptr": "*bf16", "stride_hidden_m": "i64", "stride_hidden_k": "i64",
                  "weight_ptr": "*bf16", "stride_weight_n": "i64", "stride_weight_k": "i64",
                  "labels_ptr": "*i64", "stride_labels": "i64", "maximum_ptr": "*fp32", "stride_maximum": "i64",
                  "accu_ptr": "*fp32", "stride_accu": "i64", "d_entropy_ptr": "*fp32", "stride_d_entropy": "i64",
                  "d_logprobs_ptr": "*fp32", "stride_d_logprobs": "i64", "reduction": "i32",
                  "entropy_b_ptr": "*fp32", "stride_entropy_b": "i64", "d_hidden_ptr": "*fp32",
                  "stride_d_hidden_m": "i64", "stride_d_hidden_k": "i64", "d_weight_ptr": "*fp32",
                  "stride_d_weight_n": "i64", "stride_d_weight_k": "i64", "rcp_temperature": "fp32"},
    "constexprs": {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 16,
                   "USE_TMA": False},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["hidden_size"]}
PROBLEM: dict[str, int] = {"num_tokens": 4096, "hidden_size": 4096, "vocab_size": 32768}
SMALL: dict[str, int] = {"num_tokens": 200, "hidden_size": 256, "vocab_size": 320}   # partial M and N blocks


@triton.autotune(
    configs=[
        triton.Config(
            {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 16},
            num_stages=3,
            num_warps=8,
        )
    ],
    key=["num_tokens", "hidden_size", "vocab_size"],
)
@triton.jit
def efficient_entropy_backward_kernel_general_mainloop_MN(
    num_tokens: int,
    hidden_size: int,
    vocab_size: int,
    rank: int,
    hidden_ptr,
    stride_hidden_m: tl.int64,
    stride_hidden_k: tl.int64,
    weight_ptr,
    stride_weight_n: tl.int64,
    stride_weight_k: tl.int64,
    labels_ptr,
    stride_labels: tl.int64,
    maximum_ptr,
    stride_maximum: tl.int64,
    accu_ptr,
    stride_accu: tl.int64,
    d_entropy_ptr,
    stride_d_entropy: tl.int64,
    d_logprobs_ptr,
    stride_d_logprobs: tl.int64,
    reduction: int,
    entropy_b_ptr,
    stride_entropy_b: tl.int64,
    d_hidden_ptr,
    stride_d_hidden_m: tl.int64,
    stride_d_hidden_k: tl.int64,
    d_weight_ptr,
    stride_d_weight_n: tl.int64,
    stride_d_weight_k: tl.int64,
    rcp_temperature: tl.float32,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    USE_TMA: tl.constexpr,
):
    """
    backward mainloop, where d_logits & d_hidden & d_weight are fused
    """
    # block swizzling
    # pid = tl.program_id(axis=0)
    # num_pid_m = tl.cdiv(num_tokens, BLOCK_SIZE_M)
    # pid_m = pid % num_pid_m
    # pid_n = pid // num_pid_m

    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(num_tokens, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(vocab_size, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    start_offs_am = pid_m * BLOCK_SIZE_M
    offs_am = start_offs_am + tl.arange(0, BLOCK_SIZE_M)
    start_offs_bn = pid_n * BLOCK_SIZE_N
    offs_bn = start_offs_bn + tl.arange(0, BLOCK_SIZE_N)
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

    maximum_ptrs = maximum_ptr + offs_am * stride_maximum
    maximum = tl.load(maximum_ptrs, mask=offs_am < num_tokens, other=0.0)
    accu_ptrs = accu_ptr + offs_am * stride_accu
    accu = tl.load(accu_ptrs, mask=offs_am < num_tokens, other=1e-6)  # epsilon to avoid division by zero
    accu_rcp = tl.fdiv(1.0, accu)

    d_entropy_ptrs = d_entropy_ptr + offs_am * stride_d_entropy
    d_entropy = tl.load(d_entropy_ptrs, mask=offs_am < num_tokens, other=0.0)
    if reduction == 0:  # none
        d_logprobs_ptrs = d_logprobs_ptr + offs_am * stride_d_logprobs
        d_logprobs = tl.load(d_logprobs_ptrs, mask=offs_am < num_tokens, other=0.0)
    elif reduction == 1:  # sum
        d_logprobs = tl.load(d_logprobs_ptr)
        d_logprobs = tl.broadcast_to(d_logprobs, (BLOCK_SIZE_M,))
    else:  # mean
        d_logprobs = tl.fdiv(tl.load(d_logprobs_ptr), num_tokens.to(tl.float32))
        d_logprobs = tl.broadcast_to(d_logprobs, (BLOCK_SIZE_M,))
    d_logprobs = -1 * d_logprobs

    entropy_b_ptrs = entropy_b_ptr + offs_am * stride_entropy_b
    entropy_b = tl.load(entropy_b_ptrs, mask=offs_am < num_tokens, other=0.0)

    if not USE_TMA:
        hidden_ptrs = hidden_ptr + (offs_am[:, None] * stride_hidden_m + offs_k[None, :] * stride_hidden_k)
        # weight_ptrs = weight_ptr + (offs_k[:, None] * stride_weight_k + offs_bn[None, :] * stride_weight_n)
        weight_ptrs = weight_ptr + (offs_bn[:, None] * stride_weight_n + offs_k[None, :] * stride_weight_k)
    labels_ptrs = labels_ptr + offs_am * stride_labels
    labels = tl.load(labels_ptrs, mask=offs_am < num_tokens, other=0)

    d_hidden_ptrs = d_hidden_ptr + offs_am[:, None] * stride_d_hidden_m + offs_k[None, :] * stride_d_hidden_k
    # d_weight_ptrs = d_weight_ptr + offs_k[:, None] * stride_d_weight_k + offs_bn[None, :] * stride_d_weight_n
    d_weight_ptrs = d_weight_ptr + offs_bn[:, None] * stride_d_weight_n + offs_k[None, :] * stride_d_weight_k

    logits = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(hidden_size, BLOCK_SIZE_K)):
        if USE_TMA:
            start_offs_k = k * BLOCK_SIZE_K
            _hidden = hidden_desc.load([start_offs_am, start_offs_k])
            _weight = weight_desc.load([start_offs_bn, start_offs_k])
        else:
            _hidden = tl.load(
                hidden_ptrs,
                mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K) & (offs_am[:, None] < num_tokens),
                other=0.0,
            )
            _weight = tl.load(
                weight_ptrs,
                mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K) & (offs_bn[:, None] < vocab_size),
                other=0.0,
            )
            hidden_ptrs += BLOCK_SIZE_K * stride_hidden_k
            weight_ptrs += BLOCK_SIZE_K * stride_weight_k

        logits = tl.dot(_hidden, _weight.T, logits)

    if not USE_TMA:
        hidden_ptrs -= hidden_size * stride_hidden_k
        weight_ptrs -= hidden_size * stride_weight_k

    # scale logits by temperature
    logits *= rcp_temperature

    exp_logits = tl.exp(logits - maximum[:, None])

    mask = (offs_bn + rank * vocab_size)[None, :] == labels[:, None]
    d_logits = d_logprobs[:, None] * (exp_logits * accu_rcp[:, None] - mask)
    d_logits += d_entropy[:, None] * (-exp_logits * accu_rcp[:, None]) * (logits - entropy_b[:, None])

    # scale d_logits by temperature
    d_logits *= rcp_temperature

    # loop for d_weight & d_hidden
    for k in range(0, tl.cdiv(hidden_size, BLOCK_SIZE_K)):
        start_offs_k = k * BLOCK_SIZE_K
        if USE_TMA:
            _hidden = hidden_desc.load([start_offs_am, start_offs_k])
        else:
            _hidden = tl.load(
                hidden_ptrs,
                mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K) & (offs_am[:, None] < num_tokens),
                other=0.0,
            )
            # _d_weight = tl.dot(tl.trans(_hidden).to(tl.float32), d_logits)
            # tl.atomic_add(d_weight_ptrs,
            #               _d_weight,
            #               mask=(offs_k[:, None] < hidden_size - k * BLOCK_SIZE_K) & (offs_bn[None, :] < vocab_size))
        _d_weight = tl.dot(d_logits.trans(), _hidden.to(tl.float32))
        tl.atomic_add(
            d_weight_ptrs,
            _d_weight,
            mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K) & (offs_bn[:, None] < vocab_size),
        )

        if USE_TMA:
            _weight = weight_desc.load([start_offs_bn, start_offs_k])
        else:
            # _weight = tl.load(
            #     weight_ptrs,
            #     mask=(offs_k[:, None] < hidden_size - k * BLOCK_SIZE_K) & (offs_bn[None, :] < vocab_size),
            #     other=0.0
            # )
            # _d_hidden = tl.dot(d_logits, tl.trans(_weight).to(tl.float32))
            _weight = tl.load(
                weight_ptrs,
                mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K) & (offs_bn[:, None] < vocab_size),
                other=0.0,
            )
        _d_hidden = tl.dot(d_logits, _weight.to(tl.float32))
        tl.atomic_add(
            d_hidden_ptrs,
            _d_hidden,
            mask=(offs_k[None, :] < hidden_size - k * BLOCK_SIZE_K) & (offs_am[:, None] < num_tokens),
        )

        if not USE_TMA:
            hidden_ptrs += BLOCK_SIZE_K * stride_hidden_k
            weight_ptrs += BLOCK_SIZE_K * stride_weight_k
        d_hidden_ptrs += BLOCK_SIZE_K * stride_d_hidden_k
        d_weight_ptrs += BLOCK_SIZE_K * stride_d_weight_k



def _forward(hidden: Any, weight: Any, temperature: float) -> tuple[Any, Any, Any, Any]:
    """fp64 logits / temperature, their row max, sum of exp(l - max), and sum p * l (verl's entropy_b)."""
    import torch
    logits = hidden.double() @ weight.double().T / temperature
    m = logits.max(-1).values
    e = torch.exp(logits - m[:, None])
    acc = e.sum(-1)
    return logits, m, acc, (e * logits).sum(-1) / acc


def make_inputs(num_tokens: int, hidden_size: int, vocab_size: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """hidden [T, H] bf16, weight [V, H] bf16, labels [T] int64, the forward's maximum / accumulate / entropy_b
    [T] fp32, the upstream grads: dlogprobs a 0-d fp32 (reduction mean), dentropy [T] fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    hidden = torch.randn((num_tokens, hidden_size), device=device, generator=g).bfloat16()
    weight = (torch.randn((vocab_size, hidden_size), device=device, generator=g) * 2 * hidden_size ** -0.5).bfloat16()
    labels = torch.randint(0, vocab_size, (num_tokens,), device=device, generator=g, dtype=torch.int64)
    temperature = 0.7
    _, m, acc, eb = _forward(hidden, weight, temperature)
    return {"hidden": hidden, "weight": weight, "labels": labels, "maximum": m.float(), "acc": acc.float(),
            "entropy_b": eb.float(), "dlogprobs": torch.tensor(1.5, device=device),
            "dentropy": torch.randn((num_tokens,), device=device, generator=g) * 0.1, "temperature": temperature}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(d_hidden [T, H] fp32, d_weight [V, H] fp32), accumulated by atomics into zeros as verl allocates them."""
    import torch
    hidden, weight, labels = inputs["hidden"], inputs["weight"], inputs["labels"]
    maximum, acc, entropy_b = inputs["maximum"], inputs["acc"], inputs["entropy_b"]
    dlogprobs, dentropy, temperature = inputs["dlogprobs"], inputs["dentropy"], inputs["temperature"]
    num_tokens, hidden_size = hidden.shape
    vocab_size = weight.shape[0]
    _rank = 0
    REDUCTION = 2
    d_hidden = torch.zeros_like(hidden, dtype=torch.float32, device=hidden.device)
    d_weight = torch.zeros_like(weight, dtype=torch.float32, device=weight.device)

    def mainloop_grid(meta):
        return (triton.cdiv(num_tokens, meta["BLOCK_SIZE_M"]) * triton.cdiv(vocab_size, meta["BLOCK_SIZE_N"]),)

    efficient_entropy_backward_kernel_general_mainloop_MN[mainloop_grid](
        num_tokens,
        hidden_size,
        vocab_size,
        _rank,
        hidden,
        hidden.stride(0),
        hidden.stride(1),
        weight,
        weight.stride(0),
        weight.stride(1),
        labels,
        labels.stride(0),
        maximum,
        maximum.stride(0),
        acc,
        acc.stride(0),
        dentropy,
        dentropy.stride(0),
        dlogprobs,
        dlogprobs.stride(0) if REDUCTION == 0 else 0,
        REDUCTION,
        entropy_b,
        entropy_b.stride(0),
        d_hidden,
        d_hidden.stride(0),
        d_hidden.stride(1),
        d_weight,
        d_weight.stride(0),
        d_weight.stride(1),
        1.0 / temperature,
        USE_TMA=False,
    )
    return d_hidden, d_weight


def reference(inputs: dict[str, Any]) -> Any:
    """The kernel's d_logits in fp64 from the same forward statistics, then d_logits @ weight and d_logits^T @ hidden."""
    import torch
    hidden, weight = inputs["hidden"].double(), inputs["weight"].double()
    rcp_t = 1.0 / inputs["temperature"]
    logits = hidden @ weight.T * rcp_t
    e = torch.exp(logits - inputs["maximum"].double()[:, None])
    p = e / inputs["acc"].double()[:, None]
    onehot = torch.nn.functional.one_hot(inputs["labels"], weight.shape[0]).double()
    dlp = -inputs["dlogprobs"].double() / hidden.shape[0]
    d_logits = dlp * (p - onehot) + inputs["dentropy"].double()[:, None] * (-p) * (
        logits - inputs["entropy_b"].double()[:, None])
    d_logits = d_logits * rcp_t
    return d_logits @ weight, d_logits.T @ hidden


def flops(num_tokens: int, hidden_size: int, vocab_size: int) -> float:
    return 3 * 2.0 * num_tokens * hidden_size * vocab_size
