"""Unsloth's cross entropy forward with Gemma 2 logit soft-capping and Cohere logit scaling. Unsloth's
`_chunked_cross_entropy_forward` has no loop (one 65536-wide chunk per program, the chunks' logsumexps combined
on the host), so this is the looped variant Liger uses, written with Unsloth's constructs: a
`@triton.heuristics` decorator turning DO_SOFTCAPPING / DO_LOGIT_SCALING into constexpr bools, runtime float
SOFTCAP and LOGIT_SCALE, `triton_tanh` (libdevice) and `triton_cast`, the label's -100 test, an online
logsumexp over 65536-wide blocks, loss and logsumexp stored per row. 32 warps, MAX_FUSED_SIZE 65536."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice

triton_tanh = libdevice.tanh
triton_cast = tl.cast

TWILL_SPEC = {"signature": {"logits_ptr": "*bf16", "logits_row_stride": "i32", "loss_ptr": "*fp32",
                            "logsumexp_ptr": "*fp32", "labels_ptr": "*i64", "VOCAB_SIZE": "i32",
                            "SOFTCAP": "fp32", "LOGIT_SCALE": "fp32"},
              "constexprs": {"BLOCK_SIZE": 65536, "DO_SOFTCAPPING": True, "DO_LOGIT_SCALING": True},
              "num_warps": 32, "num_stages": 3,
              "divisibility": ["logits_row_stride", "VOCAB_SIZE"]}
PROBLEM: dict[str, int] = {"R": 8192, "V": 256000}      # Gemma 2's vocabulary
SMALL: dict[str, int] = {"R": 8, "V": 70000}
MAX_FUSED_SIZE = 65536
SOFTCAP = 30.0
LOGIT_SCALE = 0.0625


@triton.heuristics({
    "DO_SOFTCAPPING":   lambda args: bool(args["DO_SOFTCAPPING"  ]),
    "DO_LOGIT_SCALING": lambda args: bool(args["DO_LOGIT_SCALING"]),
})
@triton.jit
def _looped_cross_entropy_forward(
    logits_ptr        ,
    logits_row_stride ,
    loss_ptr          ,
    logsumexp_ptr     ,
    labels_ptr        ,
    VOCAB_SIZE        ,
    BLOCK_SIZE        : tl.constexpr,
    DO_SOFTCAPPING    : tl.constexpr,
    SOFTCAP           ,
    DO_LOGIT_SCALING  : tl.constexpr,
    LOGIT_SCALE       ,
):
    """
        Cross Entropy Loss = 1/n sum [ -yi log(Pi) ]
        Pi = exp(xi) / sum(exp(xi))
        CE_i = -y log(p) = -y log[ exp(x) / sum(exp(x)) ]
             = -y [ x - log[sum(exp(x))] ]
             = y * (log[sum(exp(x))] - x)
        If y == 0: CE_i = 0
        If y == 1: CE_i = logsumexp - x

        logsumexp is also stable
        Take    y =         log[sum(exp(x))]
           exp(y) =             sum(exp(x))
           exp(y) =             sum(exp(x - c)*exp(c)) Since e^(x-c)*e^c = e^x
           exp(y) =      exp(c)*sum(exp(x - c))
               y  = log(exp(c)*sum(exp(x - c)))
               y  = c + log[sum(exp(x - c))]
        This means we can set c = max(x) to make sure
        exp(x - c) always is exp(x - max(x)).
        This ensures exp(x - max(x))'s maximum is 1 as exp(0) = 1.
    """
    row_idx = tl.program_id(0)
    logits_ptr    += row_idx * triton_cast(logits_row_stride, tl.int64)
    loss_ptr      += row_idx
    logsumexp_ptr += row_idx
    labels_ptr    += row_idx

    label_idx = tl.load(labels_ptr).to(tl.int32)

    m = -float("inf")
    d = 0.0
    for start in range(0, VOCAB_SIZE, BLOCK_SIZE):
        col_offsets = start + tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < VOCAB_SIZE
        logits = tl.load(logits_ptr + col_offsets, mask = mask, other = -float("inf")).to(tl.float32)

        # Go logit scaling for Cohere: t * x
        if DO_LOGIT_SCALING: logits = LOGIT_SCALE * logits
        # Do logit softcapping for Gemma 2: t * tanh(1/t * x)
        if DO_SOFTCAPPING:   logits = SOFTCAP * triton_tanh(logits / SOFTCAP)

        c = tl.maximum(m, tl.max(logits, 0))
        d = d * tl.exp(m - c) + tl.sum(tl.exp(logits - c), 0)
        m = c
    pass
    logsumexp = m + tl.log(d)

    if label_idx != -100:
        x = tl.load(logits_ptr + label_idx).to(tl.float32)
        # Go logit scaling for Cohere: t * x
        if DO_LOGIT_SCALING: x = LOGIT_SCALE * x
        # Do logit softcapping for Gemma 2: t * tanh(1/t * x)
        if DO_SOFTCAPPING:   x = SOFTCAP * triton_tanh(x / SOFTCAP)
        loss = logsumexp - x
    else:
        loss = 0.0
    tl.store(logsumexp_ptr, logsumexp)
    tl.store(loss_ptr, loss)


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((R, V), device=device, generator=g) * 200).to(torch.bfloat16)
    y = torch.randint(0, V, (R,), device=device, generator=g)
    y[torch.arange(R, device=device) % 3 == 0] = -100
    return {"x": x, "y": y}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(loss per row, logsumexp per row), as Fast_CrossEntropyLoss.forward would with the looped kernel."""
    import torch
    logits, labels = inputs["x"], inputs["y"]
    n_rows, vocab_size = logits.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    logsumexp = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    _looped_cross_entropy_forward[(n_rows,)](
        logits, logits.stride(0), losses, logsumexp, labels, VOCAB_SIZE=vocab_size, BLOCK_SIZE=MAX_FUSED_SIZE,
        DO_SOFTCAPPING=True, SOFTCAP=SOFTCAP, DO_LOGIT_SCALING=True, LOGIT_SCALE=LOGIT_SCALE,
        num_warps=config.get("num_warps", 32), num_stages=config.get("num_stages", 3))
    return losses, logsumexp


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, y = inputs["x"].double() * LOGIT_SCALE, inputs["y"]
    z = SOFTCAP * torch.tanh(x / SOFTCAP)
    lse = torch.logsumexp(z, dim=1)
    zy = z.gather(1, y.clamp(min=0)[:, None])[:, 0]
    return torch.where(y != -100, lse - zy, 0.0), lse
