"""ScatterMoE's fused gather-GEMM-scatter, ``_scatter2scatter`` with its helper ``_compute_expert_block``
(shawntan/scattermoe scattermoe/kernels/ops.py, launched by ``scatter2scatter_compileable``; ParallelExperts'
first MoE layer calls it with ``x_grouped=False, y_grouped=True``): each program owns BLOCK_M rows of the
expert-sorted (token, k) list and a BLOCK_N slice of the expert's output; the rows' input rows are gathered from
X through ``sorted_scattered_idxs // FAN_OUT`` and multiplied by the expert weight W[e] ([E, K, N]).

The constructs: a 1-D grid split into (M block, N block) by ``//`` and ``%`` of ``tl.cdiv(N, BLOCK_N)``; the
block's expert ids loaded with ``other=E`` and the **expert range taken from the loaded data** (``E_first_idx =
tl.min(E_idxs)``, ``E_last_idx = tl.minimum(tl.max(E_idxs), E - 1)``); an **outer loop ``for E_idx in
range(E_first_idx, E_last_idx + 1)``** (runtime bounds from reductions of loaded values) carrying the fp32
accumulator, with a constexpr-if ``x_grouped`` choosing the gathered row index ``M_idx // FAN_OUT``; inside, the
``@triton.jit`` helper ``_compute_expert_block`` (called, not inlined here) with the **inner K loop** ``for
K_block_id in range(iters)`` (``iters = tl.cdiv(K, BLOCK_K)``, K constexpr): a constexpr ``if no_k_mask:``
(``K % BLOCK_K == 0`` of constexprs) choosing the masks, a **gathered-row X tile** (``M_in_idx[:, None] *
stride_xm``, rows of other experts masked off by ``E_mask``), the expert's W tile at ``E_idx * stride_we``
(runtime stride), both pointer blocks bumped every iteration, ``acc = tl.dot(x, w, acc, allow_tf32=...)``, the
accumulator returned to the outer loop. After the loops a constexpr-``None`` bias branch (``B_ptr is not None``:
untaken here) and the masked store at ``M_block`` (y_grouped) or the scattered rows. ``@triton.heuristics`` sets
NO_K_MASK / NO_N_MASK (unused by the body, as upstream); the single ``@triton.autotune`` config (BLOCK_N 128,
BLOCK_K 32, 4 warps, 4 stages) is passed explicitly here instead. Shapes Mixtral-like: 4096 tokens, top-2 of 8
experts, hidden 4096, N 14336; bf16 in and out, fp32 accumulate. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_M = 128
ALLOW_TF32 = True
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_scatter2scatter",
    "signature": {"X_ptr": "*bf16", "W_ptr": "*bf16", "stride_we": "i32", "Y_ptr": "*bf16", "B_ptr": "constexpr",
                  "grouped_idx_ptr": "*i64", "expert_idxs_ptr": "*i64", "M": "i32"},
    "constexprs": {"stride_xm": 4096, "stride_xk": 1, "stride_wk": 14336, "stride_wn": 1, "stride_ym": 14336,
                   "stride_yn": 1, "B_ptr": None, "stride_be": 0, "stride_bn": 0, "FAN_OUT": 2, "K": 4096,
                   "N": 14336, "E": 8, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "ACC_TYPE": tl.float32,
                   "allow_tf32": True, "x_grouped": False, "y_grouped": True, "NO_K_MASK": True,
                   "NO_N_MASK": True},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["X_ptr", "W_ptr", "stride_we", "Y_ptr", "grouped_idx_ptr", "expert_idxs_ptr", "M"]}
PROBLEM: dict[str, int] = {"M": 4096, "K": 4096, "N": 14336, "E": 8, "k": 2}
SMALL: dict[str, int] = {"M": 37, "K": 4096, "N": 14336, "E": 8, "k": 2}   # the constexprs it was generated for; few rows


@triton.jit
def _compute_expert_block(
    E_idx, E_mask,
    M_in_idx,
    N_block, N_mask,
    X_ptr, stride_xm, stride_xk,
    W_ptr, stride_we, stride_wk, stride_wn,
    K,
    acc,
    no_k_mask,
    BLOCK_K,
    allow_tf32=True,
):

    K_block = tl.arange(0, BLOCK_K)
    X_blk_ptrs = X_ptr + M_in_idx[:, None] * stride_xm + K_block[None, :] * stride_xk
    W_blk_ptrs = W_ptr + K_block[:, None] * stride_wk + N_block[None, :] * stride_wn + E_idx * stride_we
    iters = tl.cdiv(K, BLOCK_K)

    for K_block_id in range(iters):
        if no_k_mask:
            x = tl.load(X_blk_ptrs, mask=E_mask[:, None])
            w = tl.load(W_blk_ptrs, mask=N_mask[None, :])
        else:
            K_mask = (K_block_id * BLOCK_K + K_block) < K
            x = tl.load(X_blk_ptrs, mask=E_mask[:, None] & K_mask[None, :])
            w = tl.load(W_blk_ptrs, mask=K_mask[:, None] & N_mask[None, :])

        X_blk_ptrs += BLOCK_K * stride_xk
        W_blk_ptrs += BLOCK_K * stride_wk
        acc = tl.dot(x, w, acc, allow_tf32=allow_tf32)
    return acc


@triton.heuristics({
    "NO_K_MASK": lambda args: (args['K'] % args['BLOCK_K']) == 0,
    "NO_N_MASK": lambda args: (args['N'] % args['BLOCK_N']) == 0,
})
@triton.jit
def _scatter2scatter(
    X_ptr, stride_xm: tl.constexpr, stride_xk: tl.constexpr,
    W_ptr, stride_we, stride_wk: tl.constexpr, stride_wn: tl.constexpr,
    Y_ptr, stride_ym: tl.constexpr, stride_yn: tl.constexpr,
    B_ptr, stride_be: tl.constexpr, stride_bn: tl.constexpr,
    grouped_idx_ptr, expert_idxs_ptr,
    # block_start_idx_ptr,
    FAN_OUT: tl.constexpr,
    M, K: tl.constexpr, N: tl.constexpr, E: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
    ACC_TYPE: tl.constexpr,
    # OUT_M,
    allow_tf32: tl.constexpr,
    x_grouped: tl.constexpr, y_grouped: tl.constexpr,
    NO_K_MASK: tl.constexpr, NO_N_MASK: tl.constexpr
):
    pid = tl.program_id(axis=0)

    N_BLOCK_COUNT = tl.cdiv(N, BLOCK_N)
    M_block_id = pid // N_BLOCK_COUNT
    N_block_id = pid % N_BLOCK_COUNT

    M_block = M_block_id * BLOCK_M + tl.arange(0, BLOCK_M)
    N_block = N_block_id * BLOCK_N + tl.arange(0, BLOCK_N)
    N_mask = N_block < N
    M_boundary_mask = M_block < (FAN_OUT * M)
    E_idxs = tl.load(expert_idxs_ptr + M_block, mask=M_boundary_mask, other=E)

    no_k_mask = K % BLOCK_K == 0

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    E_first_idx = tl.min(E_idxs)
    E_last_idx = tl.minimum(tl.max(E_idxs), E - 1)
    M_idx = tl.load(grouped_idx_ptr + M_block, mask=M_boundary_mask).to(tl.int32)
    for E_idx in range(E_first_idx, E_last_idx + 1):
        E_mask = E_idxs == E_idx
        E_M_idx = M_idx
        if x_grouped:
            M_in_idx = M_block
        else:
            M_in_idx = E_M_idx // FAN_OUT
        acc = _compute_expert_block(
            E_idx, E_mask,
            M_in_idx, N_block, N_mask,
            X_ptr, stride_xm, stride_xk,
            W_ptr, stride_we, stride_wk, stride_wn,
            K,
            acc,
            no_k_mask,
            BLOCK_K,
            allow_tf32=allow_tf32,
        )

    if B_ptr is not None:
        B_blk_ptrs = B_ptr + E_idxs[:, None] * stride_be + N_block[None, :] * stride_bn
        acc += tl.load(B_blk_ptrs, mask=M_boundary_mask[:, None] & N_mask[None, :])

    if y_grouped:
        M_out_idx = M_block
    else:
        M_out_idx = M_idx
    Y_blk_ptrs = Y_ptr + (M_out_idx[:, None] * stride_ym + N_block[None, :] * stride_yn)
    tl.store(Y_blk_ptrs, acc, mask=M_boundary_mask[:, None] & N_mask[None, :])


def make_inputs(M: int, K: int, N: int, E: int, k: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """X [M, K] bf16, W [E, K, N] bf16 (scattermoe's ParallelExperts layout), top-k expert ids per token (distinct),
    flattened and sorted as ``flatten_sort_count`` does: sorted_expert_idxs and sorted_scattered_idxs (int64)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).bfloat16()
    w = (torch.randn((E, K, N), device=device, generator=g) / K ** 0.5).bfloat16()
    ids = torch.stack([torch.randperm(E, device=device, generator=g)[:k] for _ in range(M)])
    sorted_expert_idxs, sorted_scattered_idxs = torch.sort(ids.flatten())
    return {"x": x, "w": w, "k": k, "sorted_expert_idxs": sorted_expert_idxs.contiguous(),
            "sorted_scattered_idxs": sorted_scattered_idxs.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``scatter2scatter(X, W, sorted_expert_idxs, sorted_scattered_idxs, k, x_grouped=False, y_grouped=True)``:
    the grouped output [M * k, N] bf16 (row i the product for the i-th sorted (token, k) pair)."""
    import torch
    X, W, k = inputs["x"], inputs["w"], inputs["k"]
    sei, ssi = inputs["sorted_expert_idxs"], inputs["sorted_scattered_idxs"]
    L = sei.size(0)
    output = torch.empty((L, W.size(-1)), device=X.device, dtype=X.dtype)
    BLOCK_N, BLOCK_K = 128, 32
    grid = (triton.cdiv(L, BLOCK_M) * triton.cdiv(output.size(1), BLOCK_N),)
    _scatter2scatter[grid](
        X, X.stride(0), X.stride(1),
        W, W.stride(0), W.stride(1), W.stride(2),
        output, output.stride(0), output.stride(1),
        None, 0, 0,
        grouped_idx_ptr=ssi, expert_idxs_ptr=sei,
        FAN_OUT=k, M=X.size(0), K=X.size(1), N=output.size(1), E=W.size(0),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, ACC_TYPE=tl.float32,
        allow_tf32=ALLOW_TF32, x_grouped=False, y_grouped=True,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 4))
    return output


def reference(inputs: dict[str, Any]) -> Any:
    """Row i = X[ssi[i] // k] @ W[sei[i]] in fp32, rounded to bf16."""
    import torch
    X, W, k = inputs["x"].float(), inputs["w"].float(), inputs["k"]
    sei, ssi = inputs["sorted_expert_idxs"], inputs["sorted_scattered_idxs"]
    xg = X[ssi // k]
    out = torch.einsum("lk,lkn->ln", xg, W[sei]) if xg.shape[0] * W.shape[1] * W.shape[2] < 2 ** 26 else \
        torch.stack([xg[i] @ W[sei[i]] for i in range(xg.shape[0])])
    return out.bfloat16()


def flops(M: int, K: int, N: int, E: int, k: int) -> float:
    """2 * M * k * K * N (each (token, k) row times its expert's weight)."""
    return 2.0 * M * k * K * N
