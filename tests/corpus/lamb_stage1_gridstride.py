"""LAMB's first stage over one flat buffer, as Apex's ``multi_tensor_lamb`` (stage 1: the Adam update written to a
buffer, the norms LAMB's trust ratio needs summed on the way) reads when written as one Triton grid-stride loop:
``for off in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK)``, the gradient divided by a loaded global gradient
norm clipped at max_grad_norm (``tl.where(gnorm > max_norm, gnorm / max_norm, 1.0)``), both moments updated and
stored in place, the update ``m_hat / (sqrt(v_hat) + eps) + wd * p`` stored to its own buffer, and two fp32 [BLOCK]
sums of squares (the parameter's and the update's) carried across the loop, reduced after it and added with
``tl.atomic_add`` into the two global squared norms (stage 2, not here, scales by their square roots' ratio). fp32
state, bf16 gradient, 4 programs per SM (132). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"p_ptr": "*fp32", "g_ptr": "*bf16", "m_ptr": "*fp32", "v_ptr": "*fp32", "u_ptr": "*fp32",
                  "gnorm_ptr": "*fp32", "norms_ptr": "*fp32", "n": "i32", "beta1": "fp32", "beta2": "fp32",
                  "bias1": "fp32", "bias2": "fp32", "eps": "fp32", "weight_decay": "fp32", "max_norm": "fp32"},
    "constexprs": {"BLOCK": 2048}, "num_warps": 8, "num_stages": 2, "divisibility": ["n"]}
PROBLEM: dict[str, int] = {"N": 110_000_000}    # BERT-large's parameters in one buffer
SMALL: dict[str, int] = {"N": 999_999}          # the last block masked
GRID = 4 * 132
BETA1, BETA2, EPS, WD, MAX_NORM, STEP = 0.9, 0.999, 1e-6, 0.01, 1.0, 3


@triton.jit
def lamb_stage1_kernel(p_ptr, g_ptr, m_ptr, v_ptr, u_ptr, gnorm_ptr, norms_ptr, n, beta1, beta2, bias1, bias2, eps,
                       weight_decay, max_norm, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    gnorm = tl.load(gnorm_ptr)
    clip = tl.where(gnorm > max_norm, gnorm / max_norm, 1.0)
    p_sq = tl.zeros([BLOCK], dtype=tl.float32)
    u_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = off + tl.arange(0, BLOCK)
        mask = offs < n
        p = tl.load(p_ptr + offs, mask=mask, other=0.0)
        g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32) / clip
        m = tl.load(m_ptr + offs, mask=mask, other=0.0)
        v = tl.load(v_ptr + offs, mask=mask, other=0.0)
        m = beta1 * m + (1.0 - beta1) * g
        v = beta2 * v + (1.0 - beta2) * g * g
        u = (m / bias1) / (tl.sqrt(v / bias2) + eps) + weight_decay * p
        tl.store(m_ptr + offs, m, mask=mask)
        tl.store(v_ptr + offs, v, mask=mask)
        tl.store(u_ptr + offs, u, mask=mask)
        p_sq += p * p
        u_sq += tl.where(mask, u * u, 0.0)
    tl.atomic_add(norms_ptr, tl.sum(p_sq, axis=0))
    tl.atomic_add(norms_ptr + 1, tl.sum(u_sq, axis=0))


def make_inputs(N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Parameters, a bf16 gradient, earlier moments, and the gradient's global norm (above max_norm: clipped)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    grad = torch.randn((N,), device=device, generator=g).to(torch.bfloat16)
    return {"p": torch.randn((N,), device=device, generator=g), "g": grad,
            "m": torch.randn((N,), device=device, generator=g) * 0.01,
            "v": torch.rand((N,), device=device, generator=g) * 1e-4,
            "gnorm": grad.float().norm().reshape(1)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(first moment, second moment, update, [|p|^2, |u|^2]) on copies of the state."""
    import torch
    p, m, v = inputs["p"], inputs["m"].clone(), inputs["v"].clone()
    u = torch.empty_like(p)
    norms = torch.zeros((2,), device=p.device, dtype=torch.float32)
    lamb_stage1_kernel[(GRID,)](p, inputs["g"], m, v, u, inputs["gnorm"], norms, p.numel(), BETA1, BETA2,
                                1 - BETA1 ** STEP, 1 - BETA2 ** STEP, EPS, WD, MAX_NORM,
                                BLOCK=config.get("BLOCK", 2048), num_warps=config.get("num_warps", 8),
                                num_stages=config.get("num_stages", 2))
    return m, v, u, norms


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    p, m, v = (inputs[k].double() for k in ("p", "m", "v"))
    gnorm = inputs["gnorm"].double()
    g = inputs["g"].double() / torch.where(gnorm > MAX_NORM, gnorm / MAX_NORM, 1.0)
    m = BETA1 * m + (1 - BETA1) * g
    v = BETA2 * v + (1 - BETA2) * g * g
    u = (m / (1 - BETA1 ** STEP)) / (torch.sqrt(v / (1 - BETA2 ** STEP)) + EPS) + WD * p
    return m, v, u, torch.stack([(p * p).sum(), (u * u).sum()])
