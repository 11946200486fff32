"""A fused AdamW step over one flat buffer of parameters, in the style of the fused / foreach optimizer kernels written
in Triton (torch.optim's ``_fused_adamw`` semantics with ``capturable=True``: the step count and the learning rate
read from device tensors, so the step can be captured in a CUDA graph): a grid-stride loop
``for off in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK)`` over the buffer, four streams per element (the
fp32 parameter, the bf16 gradient, the two fp32 moments), all three state buffers written back in place each
iteration; the gradient unscaled by a loaded AMP ``inv_scale`` and zeroed where ``found_inf`` is set, the bias
corrections ``1 - beta ** step`` computed before the loop as ``exp2(step * log2(beta))`` from the loaded step,
decoupled weight decay, ``sqrt(v) / sqrt(bias2) + eps``. A fixed grid of 4 programs per SM (132 SMs) walks the
buffer whatever its length. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"p_ptr": "*fp32", "g_ptr": "*bf16", "m_ptr": "*fp32", "v_ptr": "*fp32", "step_ptr": "*fp32",
                  "lr_ptr": "*fp32", "inv_scale_ptr": "*fp32", "found_inf_ptr": "*fp32", "n": "i32",
                  "beta1": "fp32", "beta2": "fp32", "eps": "fp32", "weight_decay": "fp32"},
    "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 2, "divisibility": ["n"]}
PROBLEM: dict[str, int] = {"N": 125_000_000}    # a 125M-parameter model's flat buffer
SMALL: dict[str, int] = {"N": 1_234_567}        # not a multiple of BLOCK: the last block is masked
GRID = 4 * 132
BETA1, BETA2, EPS, WD = 0.9, 0.999, 1e-8, 0.01


@triton.jit
def fused_adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, step_ptr, lr_ptr, inv_scale_ptr, found_inf_ptr, n, beta1, beta2,
                       eps, weight_decay, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.load(step_ptr)
    lr = tl.load(lr_ptr)
    inv_scale = tl.load(inv_scale_ptr)
    skip = tl.load(found_inf_ptr) != 0.0
    bias1 = 1.0 - tl.exp2(step * tl.log2(beta1))
    bias2 = 1.0 - tl.exp2(step * tl.log2(beta2))
    step_size = lr / bias1
    bias2_sqrt = tl.sqrt(bias2)
    decay = 1.0 - lr * weight_decay
    for off in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = off + tl.arange(0, BLOCK)
        mask = offs < n
        p = tl.load(p_ptr + offs, mask=mask, other=0.0)
        g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32) * inv_scale
        m = tl.load(m_ptr + offs, mask=mask, other=0.0)
        v = tl.load(v_ptr + offs, mask=mask, other=0.0)
        m_new = beta1 * m + (1.0 - beta1) * g
        v_new = beta2 * v + (1.0 - beta2) * g * g
        denom = tl.sqrt(v_new) / bias2_sqrt + eps
        p_new = p * decay - step_size * m_new / denom
        tl.store(p_ptr + offs, tl.where(skip, p, p_new), mask=mask)
        tl.store(m_ptr + offs, tl.where(skip, m, m_new), mask=mask)
        tl.store(v_ptr + offs, tl.where(skip, v, v_new), mask=mask)


def make_inputs(N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """The parameters, a bf16 gradient scaled by 1024 (AMP), moments from earlier steps, step 7 and lr 1e-3 on the
    device (capturable)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    f32 = torch.float32
    return {"p": torch.randn((N,), device=device, generator=g),
            "g": (torch.randn((N,), device=device, generator=g) * 1024).to(torch.bfloat16),
            "m": torch.randn((N,), device=device, generator=g) * 0.01,
            "v": torch.rand((N,), device=device, generator=g) * 1e-4,
            "step": torch.full((1,), 7.0, device=device, dtype=f32),
            "lr": torch.full((1,), 1e-3, device=device, dtype=f32),
            "inv_scale": torch.full((1,), 1.0 / 1024, device=device, dtype=f32),
            "found_inf": torch.zeros((1,), device=device, dtype=f32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(parameters, first moment, second moment) after one step, on copies of the state."""
    p, m, v = inputs["p"].clone(), inputs["m"].clone(), inputs["v"].clone()
    fused_adamw_kernel[(GRID,)](p, inputs["g"], m, v, inputs["step"], inputs["lr"], inputs["inv_scale"],
                                inputs["found_inf"], p.numel(), BETA1, BETA2, EPS, WD,
                                BLOCK=config.get("BLOCK", 1024), num_warps=config.get("num_warps", 4),
                                num_stages=config.get("num_stages", 2))
    return p, m, v


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    p, m, v = (inputs[k].double() for k in ("p", "m", "v"))
    g = inputs["g"].double() * inputs["inv_scale"].double()
    step, lr = inputs["step"].double(), inputs["lr"].double()
    m = BETA1 * m + (1 - BETA1) * g
    v = BETA2 * v + (1 - BETA2) * g * g
    denom = torch.sqrt(v) / torch.sqrt(1 - BETA2 ** step) + EPS
    p = p * (1 - lr * WD) - lr / (1 - BETA1 ** step) * m / denom
    return p, m, v
