"""Mamba-1's selective scan forward (``selective_scan_fn(u, delta, A, B, C, D, z, delta_bias, delta_softplus=True,
return_last_state=True)`` of mamba_ssm) as the community Triton ports of the CUDA ``selective_scan_fwd_kernel``
write it (mamba.py / zeta-style ``_selective_scan_fwd_kernel``, the same argument layout as mamba_ssm's
``selective_state_update`` kernel but looped over time): one program per (BLOCK_D channels, batch), the state
``h`` a loop-carried fp32 [BLOCK_D, BLOCK_DSTATE] register tile, and the main loop ``for t in range(0, seqlen)``
**one time step a trip**: tiny strided per-step loads (u, delta, z: [BLOCK_D] values of stride ``stride_u_dim``
apart, mamba_ssm's [batch, dim, seqlen] layout with seqlen contiguous; B and C: [BLOCK_DSTATE] of stride
``stride_B_dstate``, the single-group [batch, dstate, seqlen] layout), ``delta + delta_bias`` through the
``softplus`` helper (``tl.where(dt <= 20, log(exp(dt) + 1), dt)``), ``dA = tl.exp(A * dt[:, None])`` on the
[BLOCK_D, BLOCK_DSTATE] tile, ``h = h * dA + B[None, :] * (dt * u)[:, None]``, ``y = tl.sum(h * C[None, :], 1) +
D * u`` gated by ``z * sigmoid(z)``, **y stored every step** (a store inside the loop, nothing carried but ``h``);
the last state stored after the loop (``return_last_state``). No tl.dot: a serial recurrence on CUDA cores.
fp16 u / delta / z / B / C / out, fp32 A, D, delta_bias and state; BLOCK_D = 64, DSTATE = 16, 4 warps.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_D = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_selective_scan_fwd_kernel",
    "signature": {"u_ptr": "*fp16", "delta_ptr": "*fp16", "A_ptr": "*fp32", "B_ptr": "*fp16", "C_ptr": "*fp16",
                  "D_ptr": "*fp32", "z_ptr": "*fp16", "delta_bias_ptr": "*fp32", "out_ptr": "*fp16",
                  "last_state_ptr": "*fp32", "dim": "i32", "dstate": "i32", "seqlen": "i32",
                  "stride_u_batch": "i32", "stride_u_dim": "i32",
                  "stride_A_dim": "i32", "stride_B_batch": "i32", "stride_B_dstate": "i32",
                  "stride_state_batch": "i32", "stride_state_dim": "i32",
                  "DELTA_SOFTPLUS": "constexpr", "BLOCK_D": "constexpr", "BLOCK_DSTATE": "constexpr"},
    "constexprs": {"DELTA_SOFTPLUS": True, "BLOCK_D": BLOCK_D, "BLOCK_DSTATE": 16},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["u_ptr", "delta_ptr", "A_ptr", "B_ptr", "C_ptr", "D_ptr", "z_ptr", "delta_bias_ptr",
                     "out_ptr", "last_state_ptr", "dim", "dstate", "seqlen", "stride_u_batch", "stride_u_dim",
                     "stride_A_dim", "stride_B_batch", "stride_B_dstate", "stride_state_batch",
                     "stride_state_dim"]}
PROBLEM: dict[str, int] = {"batch": 8, "dim": 5120, "dstate": 16, "seqlen": 2048}   # Mamba-2.8B d_inner, prefill 2k
SMALL: dict[str, int] = {"batch": 2, "dim": 80, "dstate": 12, "seqlen": 37}          # ragged dim and dstate


@triton.jit
def softplus(dt):
    dt = tl.where(dt <= 20.0, tl.math.log(tl.math.exp(dt) + 1), dt)
    return dt


@triton.jit
def _selective_scan_fwd_kernel(
    u_ptr, delta_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, delta_bias_ptr, out_ptr, last_state_ptr,
    dim, dstate, seqlen,
    stride_u_batch, stride_u_dim,
    stride_A_dim, stride_B_batch, stride_B_dstate,
    stride_state_batch, stride_state_dim,
    DELTA_SOFTPLUS: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DSTATE: tl.constexpr,
):
    pid_d = tl.program_id(axis=0)
    pid_b = tl.program_id(axis=1)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    offs_n = tl.arange(0, BLOCK_DSTATE)
    mask_d = offs_d < dim
    mask_n = offs_n < dstate

    # u, delta, z and out share the [batch, dim, seqlen] layout (seqlen contiguous)
    u_ptr += pid_b * stride_u_batch + offs_d * stride_u_dim
    delta_ptr += pid_b * stride_u_batch + offs_d * stride_u_dim
    z_ptr += pid_b * stride_u_batch + offs_d * stride_u_dim
    out_ptr += pid_b * stride_u_batch + offs_d * stride_u_dim
    B_ptr += pid_b * stride_B_batch + offs_n * stride_B_dstate
    C_ptr += pid_b * stride_B_batch + offs_n * stride_B_dstate

    A = tl.load(A_ptr + offs_d[:, None] * stride_A_dim + offs_n[None, :],
                mask=mask_d[:, None] & mask_n[None, :], other=0.0).to(tl.float32)
    D = tl.load(D_ptr + offs_d, mask=mask_d, other=0.0).to(tl.float32)
    dt_bias = tl.load(delta_bias_ptr + offs_d, mask=mask_d, other=0.0).to(tl.float32)

    h = tl.zeros([BLOCK_D, BLOCK_DSTATE], dtype=tl.float32)
    for t in range(0, seqlen):
        u = tl.load(u_ptr + t, mask=mask_d, other=0.0).to(tl.float32)
        dt = tl.load(delta_ptr + t, mask=mask_d, other=0.0).to(tl.float32) + dt_bias
        if DELTA_SOFTPLUS:
            dt = softplus(dt)
        B = tl.load(B_ptr + t, mask=mask_n, other=0.0).to(tl.float32)
        C = tl.load(C_ptr + t, mask=mask_n, other=0.0).to(tl.float32)
        dA = tl.exp(A * dt[:, None])
        dB = B[None, :] * dt[:, None]
        h = h * dA + dB * u[:, None]
        y = tl.sum(h * C[None, :], axis=1) + D * u
        z = tl.load(z_ptr + t, mask=mask_d, other=0.0).to(tl.float32)
        y *= z * tl.sigmoid(z)
        tl.store(out_ptr + t, y.to(out_ptr.dtype.element_ty), mask=mask_d)

    state_ptrs = last_state_ptr + pid_b * stride_state_batch + offs_d[:, None] * stride_state_dim + offs_n[None, :]
    tl.store(state_ptrs, h, mask=mask_d[:, None] & mask_n[None, :])


def make_inputs(batch: int, dim: int, dstate: int, seqlen: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """u, delta, z [batch, dim, seqlen] fp16 (delta small, as the x_proj output before softplus), A = -exp(A_log)
    [dim, dstate] fp32 with S4D-real init (-(1..dstate)), B, C [batch, dstate, seqlen] fp16, D and delta_bias [dim]
    fp32 (delta_bias the inverse softplus of dt in [1e-3, 1e-1], as mamba_ssm initialises dt_proj.bias)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)

    def rn(*shape: int) -> Any:
        return torch.randn(shape, device=device, dtype=torch.float32, generator=g)

    u = rn(batch, dim, seqlen).half()
    delta = (0.5 * rn(batch, dim, seqlen)).half()
    z = rn(batch, dim, seqlen).half()
    A = -torch.arange(1, dstate + 1, device=device, dtype=torch.float32).repeat(dim, 1)
    B = rn(batch, dstate, seqlen).half()
    C = rn(batch, dstate, seqlen).half()
    D = torch.ones(dim, device=device, dtype=torch.float32)
    dt = torch.exp(torch.rand(dim, device=device, generator=g) * (torch.log(torch.tensor(0.1)) -
                                                                   torch.log(torch.tensor(1e-3)))
                   + torch.log(torch.tensor(1e-3))).to(device)
    delta_bias = dt + torch.log(-torch.expm1(-dt))
    return {"u": u, "delta": delta, "A": A, "B": B, "C": C, "D": D, "z": z, "delta_bias": delta_bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[out flattened, last_state flattened] fp32."""
    import torch
    u, B = inputs["u"], inputs["B"]
    batch, dim, seqlen = u.shape
    dstate = B.shape[1]
    out = torch.empty_like(u)
    last_state = torch.empty((batch, dim, dstate), device=u.device, dtype=torch.float32)
    grid = (triton.cdiv(dim, BLOCK_D), batch)
    _selective_scan_fwd_kernel[grid](
        u, inputs["delta"], inputs["A"], B, inputs["C"], inputs["D"], inputs["z"], inputs["delta_bias"], out,
        last_state, dim, dstate, seqlen, u.stride(0), u.stride(1), inputs["A"].stride(0), B.stride(0), B.stride(1),
        last_state.stride(0), last_state.stride(1),
        DELTA_SOFTPLUS=True, BLOCK_D=BLOCK_D, BLOCK_DSTATE=max(triton.next_power_of_2(dstate), 16),
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return torch.cat([out.float().flatten(), last_state.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    """mamba_ssm's ``selective_scan_ref`` in float64 (scan over time), out rounded to fp16 as the kernel stores it."""
    import torch
    u, delta, A, B, C, D, z, db = (inputs[n].double() for n in ("u", "delta", "A", "B", "C", "D", "z", "delta_bias"))
    batch, dim, seqlen = u.shape
    delta = torch.nn.functional.softplus(delta + db[None, :, None])
    h = torch.zeros((batch, dim, A.shape[1]), dtype=torch.float64, device=u.device)
    ys = []
    for t in range(seqlen):              # per step (dA over all steps at PROBLEM size is 10 GB in fp64)
        dt = delta[:, :, t, None]
        h = torch.exp(dt * A[None]) * h + dt * B[:, None, :, t] * u[:, :, t, None]
        ys.append(torch.einsum("bdn,bn->bd", h, C[:, :, t]))
    y = torch.stack(ys, dim=2) + D[None, :, None] * u
    out = y * z * torch.sigmoid(z)
    return torch.cat([out.half().double().flatten(), h.flatten()])


def flops(batch: int, dim: int, dstate: int, seqlen: int) -> float:
    """~9 flops per (batch, channel, state, step): exp, 2 mul for dB * u, the fused h update, y's product and sum."""
    return 9.0 * batch * dim * dstate * seqlen
