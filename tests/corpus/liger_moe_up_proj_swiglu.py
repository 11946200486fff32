"""Liger-Kernel's fused MoE gather + grouped gate/up GEMM + SwiGLU, ``_fused_up_proj_swiglu_kernel`` (linkedin/
Liger-Kernel src/liger_kernel/ops/fused_moe_kernels.py, commit ead96b61, launched by
``LigerFusedMoEFunction.forward`` in src/liger_kernel/ops/fused_moe.py after ``compute_routing_metadata``).

The constructs: grid (M-tile, N-tile) over the expert-sorted (token, k) rows; per program **the tile's first row and
its expert loaded from tile tables** (``tile_row_start``, ``tile_expert``, the expert id cast to int64), the
expert's end row from ``expert_start[e + 1]`` (the row mask); **the A rows gathered through an index vector loaded
once before the loop** (``token_idx = tl.load(x_gather_idx_ptr + row_offs, ...).to(tl.int64)``: each of the 64 rows
is a different token of x, so A is a gather, not a tile); a ``tl.range`` K loop with **two dots sharing the gathered
A tile** (``acc_gate = tl.dot(x_tile, tl.trans(w_gate), acc=acc_gate)``; ``acc_up`` likewise) whose weights are
**the same pointer tile offset by ``I_dim * stride_w_N``** (gate rows and up rows of one [2I, H] expert matrix),
both loaded [N, K] and **transposed in the dot**, x loaded with **``eviction_policy="evict_first"``**, K-tail masks
on all three loads, **unit strides declared ``tl.constexpr``** in the signature (``stride_x_H: tl.constexpr``, ...);
after the loop two stores of the pre-activations (gate half, up half at ``+ I_dim``) and the SwiGLU
``acc_gate * sigmoid(acc_gate) * acc_up`` stored to post_act.

Port notes: the kernel verbatim without its ``@triton.autotune``; the config is the library's own pinned one
(``LIGER_FUSED_MOE_AUTOTUNE=0``: BLOCK_N 128, BLOCK_K 64, 8 warps, 2 stages) with the launcher's BLOCK_M =
``BLOCK_M_TOKEN`` = 64. Geometry Qwen3-30B-A3B's experts (128 experts, top-8, hidden 2048, intermediate 768) at 4096
tokens, bf16. The routing metadata (x_gather_idx, expert_start_idx, tile_row_start, tile_expert) is computed in
torch with the meaning ``compute_routing_metadata``'s three kernels give it (a stable sort of the flat (t, k)
assignments by expert; 64-row tiles per expert), since only this kernel is ported; the routing is random top-8 with
a skew so experts get uneven counts (some none). H_dim and I_dim are constexprs: SMALL keeps them (fewer tokens,
16 experts)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H_, I_, BM, BN, BK = 2048, 768, 64, 128, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fused_up_proj_swiglu_kernel",
    "signature": {"x_ptr": "*bf16", "gate_up_proj_ptr": "*bf16", "x_gather_idx_ptr": "*i32",
                  "expert_start_ptr": "*i32", "tile_row_start_ptr": "*i32", "tile_expert_ptr": "*i32",
                  "pre_act_ptr": "*bf16", "post_act_ptr": "*bf16",
                  "stride_x_T": "i32", "stride_w_E": "i32", "stride_w_N": "i32", "stride_pre_TK": "i32",
                  "stride_post_TK": "i32"},
    "constexprs": {"H_dim": H_, "I_dim": I_, "stride_x_H": 1, "stride_w_K": 1, "stride_pre_N": 1,
                   "stride_post_N": 1, "BLOCK_M": BM, "BLOCK_N": BN, "BLOCK_K": BK},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["stride_x_T", "stride_w_E", "stride_w_N", "stride_pre_TK", "stride_post_TK"]}
PROBLEM: dict[str, int] = {"T": 4096, "E": 128, "K": 8, "H_dim": H_, "I_dim": I_}
SMALL: dict[str, int] = {"T": 48, "E": 16, "K": 8, "H_dim": H_, "I_dim": I_}   # H_dim, I_dim constexprs


@triton.jit
def _fused_up_proj_swiglu_kernel(
    x_ptr,  # (T, H)
    gate_up_proj_ptr,  # (E, 2*I, H)
    x_gather_idx_ptr,  # (TK,) int32
    expert_start_ptr,  # (E+1,) int32
    tile_row_start_ptr,  # (num_m_tiles,) int32 — row_start per M-tile
    tile_expert_ptr,  # (num_m_tiles,) int32 — expert index per M-tile
    pre_act_ptr,  # (TK, 2*I)  pre-SwiGLU activations [saved for backward]
    post_act_ptr,  # (TK, I)    post-SwiGLU activations
    H_dim: tl.constexpr,
    I_dim: tl.constexpr,
    stride_x_T,
    stride_x_H: tl.constexpr,
    stride_w_E,
    stride_w_N,
    stride_w_K: tl.constexpr,
    stride_pre_TK,
    stride_pre_N: tl.constexpr,
    stride_post_TK,
    stride_post_N: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    """Grid: (num_m_tiles, ceil(I/BLOCK_N)).
    pid_m selects M-tile via tile_row_start/tile_expert; pid_n selects N-tile."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    row_start = tl.load(tile_row_start_ptr + pid_m)
    # int64 prevents expert_idx * stride_w_E overflow at large E*I*H (see #1246).
    expert_idx = tl.load(tile_expert_ptr + pid_m).to(tl.int64)
    n_start = pid_n * BLOCK_N
    expert_end = tl.load(expert_start_ptr + expert_idx + 1)

    m_offs = tl.arange(0, BLOCK_M)
    n_offs = tl.arange(0, BLOCK_N)
    k_offs = tl.arange(0, BLOCK_K)

    # int64 prevents row_offs * stride overflow when TK is large (see #1246).
    row_offs = (row_start + m_offs).to(tl.int64)
    row_mask = row_offs < expert_end

    acc_gate = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc_up = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)

    n_idx = n_start + n_offs
    n_mask = n_idx < I_dim
    # int64 prevents token_idx * stride_T overflow at large T*H (see #1246).
    token_idx = tl.load(x_gather_idx_ptr + row_offs, mask=row_mask, other=0).to(tl.int64)
    for k in tl.range(0, H_dim, BLOCK_K):
        k_idx = k + k_offs
        k_mask = k_idx < H_dim

        x_ptrs = x_ptr + token_idx[:, None] * stride_x_T + k_idx[None, :] * stride_x_H
        # Keep bf16 for dot operands → tensor cores. acc stays fp32 for precision.
        x_tile = tl.load(
            x_ptrs,
            mask=row_mask[:, None] & k_mask[None, :],
            other=0.0,
            eviction_policy="evict_first",  # token rows not reused; free L2 for weights
        )

        w_mask = n_mask[:, None] & k_mask[None, :]
        w_gate_ptrs = (
            gate_up_proj_ptr + expert_idx * stride_w_E + n_idx[:, None] * stride_w_N + k_idx[None, :] * stride_w_K
        )
        w_gate = tl.load(
            w_gate_ptrs,
            mask=w_mask,
            other=0.0,
        )
        acc_gate = tl.dot(x_tile, tl.trans(w_gate), acc=acc_gate)

        w_up_ptrs = w_gate_ptrs + I_dim * stride_w_N
        w_up = tl.load(
            w_up_ptrs,
            mask=w_mask,
            other=0.0,
        )

        acc_up = tl.dot(x_tile, tl.trans(w_up), acc=acc_up)

    out_mask = row_mask[:, None] & n_mask[None, :]

    pre_gate_ptrs = pre_act_ptr + row_offs[:, None] * stride_pre_TK + n_idx[None, :] * stride_pre_N
    pre_up_ptrs = pre_gate_ptrs + I_dim * stride_pre_N
    tl.store(pre_gate_ptrs, acc_gate.to(pre_act_ptr.dtype.element_ty), mask=out_mask)
    tl.store(pre_up_ptrs, acc_up.to(pre_act_ptr.dtype.element_ty), mask=out_mask)

    sig_gate = tl.sigmoid(acc_gate)
    silu_gate = acc_gate * sig_gate
    a_out = silu_gate * acc_up

    post_ptrs = post_act_ptr + row_offs[:, None] * stride_post_TK + n_idx[None, :] * stride_post_N
    tl.store(post_ptrs, a_out.to(post_act_ptr.dtype.element_ty), mask=out_mask)


def _routing(top_k_index: Any, E: int) -> dict[str, Any]:
    """``compute_routing_metadata``'s outputs the GEMM reads, in torch: sorted position -> token, the experts'
    exclusive row offsets (E + 1), and per 64-row tile its first row and expert."""
    import torch
    T, K = top_k_index.shape
    flat = top_k_index.flatten().long()
    order = torch.sort(flat, stable=True).indices
    x_gather_idx = (order // K).to(torch.int32)
    counts = torch.bincount(flat, minlength=E)
    start = torch.zeros(E + 1, dtype=torch.long)
    start[1:] = torch.cumsum(counts.cpu(), 0)
    rows, experts = [], []
    for e in range(E):
        for r in range(int(start[e]), int(start[e + 1]), BM):
            rows.append(r)
            experts.append(e)
    dev = top_k_index.device
    return {"x_gather_idx": x_gather_idx.to(dev), "expert_start_idx": start.to(torch.int32).to(dev),
            "tile_row_start": torch.tensor(rows, dtype=torch.int32, device=dev),
            "tile_expert": torch.tensor(experts, dtype=torch.int32, device=dev)}


def make_inputs(T: int, E: int, K: int, H_dim: int, I_dim: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [T, H] bf16 (randn), gate_up_proj [E, 2I, H] bf16 (randn / sqrt(H)), top-K expert ids [T, K] int32 (distinct
    per token, drawn with skewed weights; the last expert never drawn) and the routing metadata."""
    import torch
    g = torch.Generator().manual_seed(seed)
    x = torch.randn((T, H_dim), generator=g).to(torch.bfloat16)
    w = (torch.randn((E, 2 * I_dim, H_dim), generator=g) / H_dim ** 0.5).to(torch.bfloat16)
    probs = torch.linspace(1.0, 4.0, E)
    probs[-1] = 0.0
    top_k_index = torch.multinomial(probs.expand(T, E), K, replacement=False, generator=g).to(torch.int32)
    out = {"x": x.to(device), "gate_up_proj": w.to(device), "top_k_index": top_k_index.to(device)}
    out.update(_routing(top_k_index, E))
    return {k: v.to(device) for k, v in out.items()}


def launch(inputs: dict[str, Any], **config: Any) -> Any:
    """The forward's up-projection launch: (pre_act [TK, 2I], post_act [TK, I]) bf16 in expert-sorted row order."""
    import torch
    x, gate_up_proj = inputs["x"], inputs["gate_up_proj"]
    T, K = inputs["top_k_index"].shape
    H = x.shape[1]
    intermediate_dim = gate_up_proj.shape[1] // 2
    TK = T * K
    tile_row_start = inputs["tile_row_start"]
    num_m_tiles = tile_row_start.shape[0]
    pre_act = torch.empty(TK, 2 * intermediate_dim, dtype=x.dtype, device=x.device)
    post_act = torch.empty(TK, intermediate_dim, dtype=x.dtype, device=x.device)
    bn = config.get("BLOCK_N", BN)
    if num_m_tiles > 0:
        _fused_up_proj_swiglu_kernel[(num_m_tiles, triton.cdiv(intermediate_dim, bn))](
            x,
            gate_up_proj,
            inputs["x_gather_idx"],
            inputs["expert_start_idx"],
            tile_row_start,
            inputs["tile_expert"],
            pre_act,
            post_act,
            H_dim=H,
            I_dim=intermediate_dim,
            stride_x_T=x.stride(0),
            stride_x_H=x.stride(1),
            stride_w_E=gate_up_proj.stride(0),
            stride_w_N=gate_up_proj.stride(1),
            stride_w_K=gate_up_proj.stride(2),
            stride_pre_TK=pre_act.stride(0),
            stride_pre_N=pre_act.stride(1),
            stride_post_TK=post_act.stride(0),
            stride_post_N=post_act.stride(1),
            BLOCK_M=BM,
            BLOCK_N=bn,
            BLOCK_K=config.get("BLOCK_K", BK),
            num_warps=config.get("num_warps", 8),
            num_stages=config.get("num_stages", 2),
        )
    return pre_act, post_act


def reference(inputs: dict[str, Any]) -> Any:
    """Per expert: its tokens' rows of x (in sorted order) @ W_e^T in fp32; SwiGLU of the two halves."""
    import torch
    x, w = inputs["x"].float(), inputs["gate_up_proj"].float()
    E, I2, _ = w.shape
    I = I2 // 2
    gather = inputs["x_gather_idx"].long()
    start = inputs["expert_start_idx"].tolist()
    pre = torch.empty((gather.shape[0], I2), dtype=torch.float32, device=x.device)
    for e in range(E):
        r0, r1 = start[e], start[e + 1]
        if r1 > r0:
            pre[r0:r1] = x[gather[r0:r1]] @ w[e].T
    gate, up = pre[:, :I], pre[:, I:]
    return pre, torch.nn.functional.silu(gate) * up


def flops(T: int, E: int, K: int, H_dim: int, I_dim: int) -> float:
    return 2.0 * T * K * H_dim * 2 * I_dim
