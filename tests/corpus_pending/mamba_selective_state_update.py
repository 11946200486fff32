"""mamba_ssm's ``_selective_scan_update_kernel`` (mamba_ssm/ops/triton/selective_state_update.py, as
``selective_state_update`` launches it for a Mamba-1 decode step: state [batch, dim, dstate] seen as one head):
``@triton.heuristics`` for HAS_DT_BIAS / HAS_D / HAS_Z (``is not None`` tests) and BLOCK_SIZE_DSTATE
(next_power_of_2(dstate)), a (dim tile, batch, head) grid, pointers moved per batch/head, the ``TIE_HDIM`` constexpr
branch (off here: dt and A per dim), dt + dt_bias, ``DT_SOFTPLUS`` through the ``softplus`` @triton.jit helper under
``tl.where(dt <= 20.0, ...)``, dA = exp(A * dt), state = state * dA + B * dt * x, the state stored back in place, out
= sum(state * C) + D * x, gated by z * sigmoid(z). No loop: one dim tile per program. fp32 state, fp16 x/dt/z/out."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_selective_scan_update_kernel",
    "signature": {"state_ptr": "*fp32", "x_ptr": "*fp16", "dt_ptr": "*fp16", "dt_bias_ptr": "*fp32",
                  "A_ptr": "*fp32", "B_ptr": "*fp16", "C_ptr": "*fp16", "D_ptr": "*fp32", "z_ptr": "*fp16",
                  "out_ptr": "*fp16", "batch": "i32", "nheads": "i32", "dim": "i32", "dstate": "i32",
                  "nheads_ngroups_ratio": "i32",
                  "stride_state_batch": "i32", "stride_state_head": "i32", "stride_state_dim": "i32",
                  "stride_state_dstate": "constexpr",
                  "stride_x_batch": "i32", "stride_x_head": "i32", "stride_x_dim": "constexpr",
                  "stride_dt_batch": "i32", "stride_dt_head": "i32", "stride_dt_dim": "constexpr",
                  "stride_dt_bias_head": "i32", "stride_dt_bias_dim": "constexpr",
                  "stride_A_head": "i32", "stride_A_dim": "i32", "stride_A_dstate": "constexpr",
                  "stride_B_batch": "i32", "stride_B_group": "i32", "stride_B_dstate": "constexpr",
                  "stride_C_batch": "i32", "stride_C_group": "i32", "stride_C_dstate": "constexpr",
                  "stride_D_head": "i32", "stride_D_dim": "constexpr",
                  "stride_z_batch": "i32", "stride_z_head": "i32", "stride_z_dim": "constexpr",
                  "stride_out_batch": "i32", "stride_out_head": "i32", "stride_out_dim": "constexpr"},
    "constexprs": {"stride_state_dstate": 1, "stride_x_dim": 1, "stride_dt_dim": 1, "stride_dt_bias_dim": 1,
                   "stride_A_dstate": 1, "stride_B_dstate": 1, "stride_C_dstate": 1, "stride_D_dim": 1,
                   "stride_z_dim": 1, "stride_out_dim": 1, "DT_SOFTPLUS": True, "TIE_HDIM": False,
                   "BLOCK_SIZE_M": 32, "HAS_DT_BIAS": True, "HAS_D": True, "HAS_Z": True, "BLOCK_SIZE_DSTATE": 16},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["state_ptr", "x_ptr", "dt_ptr", "dt_bias_ptr", "A_ptr", "B_ptr", "C_ptr", "D_ptr", "z_ptr",
                     "out_ptr", "dim", "dstate", "stride_state_batch", "stride_state_head", "stride_state_dim",
                     "stride_x_batch", "stride_x_head", "stride_dt_batch", "stride_dt_head",
                     "stride_dt_bias_head", "stride_A_head", "stride_A_dim", "stride_B_batch", "stride_B_group",
                     "stride_C_batch", "stride_C_group", "stride_D_head", "stride_z_batch", "stride_z_head",
                     "stride_out_batch", "stride_out_head"]}
PROBLEM: dict[str, int] = {"batch": 128, "dim": 5120, "dstate": 16}       # Mamba-2.8B d_inner, decode batch 128
SMALL: dict[str, int] = {"batch": 3, "dim": 100, "dstate": 12}            # ragged dim and dstate (BLOCK 16 kept)


@triton.jit
def softplus(dt):
    dt = tl.where(dt <= 20.0, tl.math.log(tl.math.exp(dt) + 1), dt)
    return dt


@triton.heuristics({"HAS_DT_BIAS": lambda args: args["dt_bias_ptr"] is not None})
@triton.heuristics({"HAS_D": lambda args: args["D_ptr"] is not None})
@triton.heuristics({"HAS_Z": lambda args: args["z_ptr"] is not None})
@triton.heuristics({"BLOCK_SIZE_DSTATE": lambda args: triton.next_power_of_2(args["dstate"])})
@triton.jit
def _selective_scan_update_kernel(
    # Pointers to matrices
    state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr,
    # Matrix dimensions
    batch, nheads, dim, dstate, nheads_ngroups_ratio,
    # Strides
    stride_state_batch, stride_state_head, stride_state_dim, stride_state_dstate,
    stride_x_batch, stride_x_head, stride_x_dim,
    stride_dt_batch, stride_dt_head, stride_dt_dim,
    stride_dt_bias_head, stride_dt_bias_dim,
    stride_A_head, stride_A_dim, stride_A_dstate,
    stride_B_batch, stride_B_group, stride_B_dstate,
    stride_C_batch, stride_C_group, stride_C_dstate,
    stride_D_head, stride_D_dim,
    stride_z_batch, stride_z_head, stride_z_dim,
    stride_out_batch, stride_out_head, stride_out_dim,
    # Meta-parameters
    DT_SOFTPLUS: tl.constexpr,
    TIE_HDIM: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    HAS_DT_BIAS: tl.constexpr,
    HAS_D: tl.constexpr,
    HAS_Z: tl.constexpr,
    BLOCK_SIZE_DSTATE: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_b = tl.program_id(axis=1)
    pid_h = tl.program_id(axis=2)
    state_ptr += pid_b * stride_state_batch + pid_h * stride_state_head
    x_ptr += pid_b * stride_x_batch + pid_h * stride_x_head
    dt_ptr += pid_b * stride_dt_batch + pid_h * stride_dt_head
    if HAS_DT_BIAS:
        dt_bias_ptr += pid_h * stride_dt_bias_head
    A_ptr += pid_h * stride_A_head
    B_ptr += pid_b * stride_B_batch + (pid_h // nheads_ngroups_ratio) * stride_B_group
    C_ptr += pid_b * stride_C_batch + (pid_h // nheads_ngroups_ratio) * stride_C_group
    if HAS_Z:
        z_ptr += pid_b * stride_z_batch + pid_h * stride_z_head
    out_ptr += pid_b * stride_out_batch + pid_h * stride_out_head

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = tl.arange(0, BLOCK_SIZE_DSTATE)
    state_ptrs = state_ptr + (offs_m[:, None] * stride_state_dim + offs_n[None, :] * stride_state_dstate)
    x_ptrs = x_ptr + offs_m * stride_x_dim
    dt_ptrs = dt_ptr + offs_m * stride_dt_dim
    if HAS_DT_BIAS:
        dt_bias_ptrs = dt_bias_ptr + offs_m * stride_dt_bias_dim
    if HAS_D:
        D_ptr += pid_h * stride_D_head
    A_ptrs = A_ptr + (offs_m[:, None] * stride_A_dim + offs_n[None, :] * stride_A_dstate)
    B_ptrs = B_ptr + offs_n * stride_B_dstate
    C_ptrs = C_ptr + offs_n * stride_C_dstate
    if HAS_D:
        D_ptrs = D_ptr + offs_m * stride_D_dim
    if HAS_Z:
        z_ptrs = z_ptr + offs_m * stride_z_dim
    out_ptrs = out_ptr + offs_m * stride_out_dim

    state = tl.load(state_ptrs, mask=(offs_m[:, None] < dim) & (offs_n[None, :] < dstate), other=0.0)
    x = tl.load(x_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
    if not TIE_HDIM:
        dt = tl.load(dt_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
        if HAS_DT_BIAS:
            dt += tl.load(dt_bias_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
        if DT_SOFTPLUS:
            dt = softplus(dt)
        A = tl.load(A_ptrs, mask=(offs_m[:, None] < dim) & (offs_n[None, :] < dstate), other=0.0).to(tl.float32)
        dA = tl.exp(A * dt[:, None])
    else:
        dt = tl.load(dt_ptr).to(tl.float32)
        if HAS_DT_BIAS:
            dt += tl.load(dt_bias_ptr).to(tl.float32)
        if DT_SOFTPLUS:
            dt = softplus(dt)
        A = tl.load(A_ptr).to(tl.float32)
        dA = tl.exp(A * dt)  # scalar, not a matrix

    B = tl.load(B_ptrs, mask=offs_n < dstate, other=0.0).to(tl.float32)
    C = tl.load(C_ptrs, mask=offs_n < dstate, other=0.0).to(tl.float32)
    if HAS_D:
        D = tl.load(D_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
    if HAS_Z:
        z = tl.load(z_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)

    if not TIE_HDIM:
        dB = B[None, :] * dt[:, None]
    else:
        dB = B * dt  # vector of size (dstate,)
    state = state * dA + dB * x[:, None]
    tl.store(state_ptrs, state, mask=(offs_m[:, None] < dim) & (offs_n[None, :] < dstate))
    out = tl.sum(state * C[None, :], axis=1)
    if HAS_D:
        out += x * D
    if HAS_Z:
        out *= z * tl.sigmoid(z)
    tl.store(out_ptrs, out, mask=offs_m < dim)


def make_inputs(batch: int, dim: int, dstate: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    state = torch.randn((batch, dim, dstate), device=device, generator=g)
    x = torch.randn((batch, dim), device=device, generator=g).half()
    dt = (torch.randn((batch, dim), device=device, generator=g) - 2.0).half()
    dt_bias = torch.rand((dim,), device=device, generator=g) - 4.0
    A = -torch.rand((dim, dstate), device=device, generator=g) * 4 - 0.5
    B = torch.randn((batch, dstate), device=device, generator=g).half()
    C = torch.randn((batch, dstate), device=device, generator=g).half()
    D = torch.randn((dim,), device=device, generator=g)
    z = torch.randn((batch, dim), device=device, generator=g).half()
    return {"state": state, "x": x, "dt": dt, "dt_bias": dt_bias, "A": A, "B": B, "C": C, "D": D, "z": z}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """selective_state_update(state, x, dt, A, B, C, D, z, dt_bias, dt_softplus=True): (out [batch, dim] fp16,
    the updated state [batch, dim, dstate] fp32; the launch updates a copy of the input state)."""
    import torch
    state = inputs["state"].clone()
    x, dt, A, B, C, D, z, dt_bias = (inputs[n] for n in ("x", "dt", "A", "B", "C", "D", "z", "dt_bias"))
    dt_softplus = True
    has_heads = state.dim() > 3
    if state.dim() == 3:
        state = state.unsqueeze(1)
    if x.dim() == 2:
        x = x.unsqueeze(1)
    if dt.dim() == 2:
        dt = dt.unsqueeze(1)
    if A.dim() == 2:
        A = A.unsqueeze(0)
    if B.dim() == 2:
        B = B.unsqueeze(1)
    if C.dim() == 2:
        C = C.unsqueeze(1)
    if D is not None and D.dim() == 1:
        D = D.unsqueeze(0)
    if z is not None and z.dim() == 2:
        z = z.unsqueeze(1)
    if dt_bias is not None and dt_bias.dim() == 1:
        dt_bias = dt_bias.unsqueeze(0)
    batch, nheads, dim, dstate = state.shape
    assert x.shape == (batch, nheads, dim)
    assert dt.shape == x.shape
    assert A.shape == (nheads, dim, dstate)
    ngroups = B.shape[1]
    assert nheads % ngroups == 0, "nheads must be divisible by ngroups"
    assert B.shape == (batch, ngroups, dstate)
    assert C.shape == B.shape
    if D is not None:
        assert D.shape == (nheads, dim)
    if z is not None:
        assert z.shape == x.shape
    if dt_bias is not None:
        assert dt_bias.shape == (nheads, dim)
    out = torch.empty_like(x)
    grid = lambda META: (triton.cdiv(dim, META['BLOCK_SIZE_M']), batch, nheads)
    z_strides = ((z.stride(0), z.stride(1), z.stride(2)) if z is not None else (0, 0, 0))
    # We don't want autotune since it will overwrite the state
    # We instead tune by hand.
    BLOCK_SIZE_M, num_warps = ((32, 4) if dstate <= 16
                               else ((16, 4) if dstate <= 32 else
                                     ((8, 4) if dstate <= 64 else
                                      ((4, 4) if dstate <= 128 else
                                       ((4, 8))))))
    tie_hdim = A.stride(-1) == 0 and A.stride(-2) == 0 and dt.stride(-1) == 0 and dt_bias.stride(-1) == 0
    _selective_scan_update_kernel[grid](
        state, x, dt, dt_bias, A, B, C, D, z, out,
        batch, nheads, dim, dstate, nheads // ngroups,
        state.stride(0), state.stride(1), state.stride(2), state.stride(3),
        x.stride(0), x.stride(1), x.stride(2),
        dt.stride(0), dt.stride(1), dt.stride(2),
        *(dt_bias.stride(0), dt_bias.stride(1)) if dt_bias is not None else 0,
        A.stride(0), A.stride(1), A.stride(2),
        B.stride(0), B.stride(1), B.stride(2),
        C.stride(0), C.stride(1), C.stride(2),
        *(D.stride(0), D.stride(1)) if D is not None else 0,
        z_strides[0], z_strides[1], z_strides[2],
        out.stride(0), out.stride(1), out.stride(2),
        dt_softplus,
        tie_hdim,
        BLOCK_SIZE_M,
        num_warps=config.get("num_warps", num_warps),
        num_stages=config.get("num_stages", 3),
    )
    if not has_heads:
        out = out.squeeze(1)
    return out, state.squeeze(1)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    state, x, dt, A, B, C, D, z, dt_bias = (inputs[n].float() for n in
                                            ("state", "x", "dt", "A", "B", "C", "D", "z", "dt_bias"))
    dt = torch.nn.functional.softplus(dt + dt_bias)                  # batch, dim
    dA = torch.exp(A[None] * dt[..., None])                          # batch, dim, dstate
    dB = dt[..., None] * B[:, None, :]
    state = state * dA + dB * x[..., None]
    out = (state * C[:, None, :]).sum(-1) + x * D
    out = out * z * torch.sigmoid(z)
    return out, state


def flops(batch: int, dim: int, dstate: int) -> float:
    return 7.0 * batch * dim * dstate
