"""torchtitan's contiguous grouped GEMM for MoE training, its weight-gradient kernel (pytorch/torchtitan,
torchtitan/experiments/kernels/triton_contiguous_group_gemm/cg_backward.py, ``_kernel_cg_backward_dw``): one program
per (expert, N x K tile of its weight gradient), ``if expert_id < NUM_EXPERTS:`` and ``if n_start < N and k_start <
K:`` around the work; a loop over every group of GROUP_SIZE_M tokens reading the group's expert from the per-token
index array (``tl.load(indices_ptr + group_start)``) and, ``if group_expert == expert_id:``, a constant-trip loop over
the group's BLOCK_SIZE_M-row blocks: grad_output [M, N] and inputs [M, K] loaded with masks from ``min(group_start +
GROUP_SIZE_M, M_TOTAL)``, ``tl.trans(go)`` and ``grad_weights += tl.dot(go_t, inp)`` (a [BLOCK_N, BLOCK_M] x
[BLOCK_M, BLOCK_K] product accumulated over the expert's groups); the gradient stored once after the group loop.
M_TOTAL, N, K, NUM_EXPERTS constexprs; launched as ``cg_grouped_gemm_backward_weights`` launches it
(BLOCK_N = min(128, N), BLOCK_K = min(32, K), BLOCK_M = min(32, GROUP_SIZE_M), Triton's default 4 warps and 3
stages). bf16. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_EXPERTS_ = 8
GROUP_M = 128
PROBLEM: dict[str, int] = {"M": 8192, "N": 2048, "K": 1024}
SMALL: dict[str, int] = dict(PROBLEM)   # M, N, K are constexprs of its TWILL_SPEC: the committed kernel runs only them
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_kernel_cg_backward_dw",
    "signature": {"grad_output_ptr": "*bf16", "inputs_ptr": "*bf16", "grad_weights_ptr": "*bf16",
                  "indices_ptr": "*i32"},
    "constexprs": {"M_TOTAL": PROBLEM["M"], "N": PROBLEM["N"], "K": PROBLEM["K"], "NUM_EXPERTS": NUM_EXPERTS_,
                   "GROUP_SIZE_M": GROUP_M, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "BLOCK_SIZE_M": 32},
    "num_warps": 4, "num_stages": 3}


@triton.jit
def _kernel_cg_backward_dw(
    grad_output_ptr,   # [M_TOTAL, N]
    inputs_ptr,        # [M_TOTAL, K]
    grad_weights_ptr,  # [num_experts, N, K]
    indices_ptr,       # [M_TOTAL]
    M_TOTAL: tl.constexpr,
    N: tl.constexpr,
    K: tl.constexpr,
    NUM_EXPERTS: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
):
    """One N x K tile of one expert's weight gradient, summed over every group routed to that expert."""
    pid = tl.program_id(0)

    expert_id = pid // ((N * K) // (BLOCK_SIZE_N * BLOCK_SIZE_K))
    position_id = pid % ((N * K) // (BLOCK_SIZE_N * BLOCK_SIZE_K))

    if expert_id < NUM_EXPERTS:
        n_tiles = K // BLOCK_SIZE_K
        tile_n = position_id // n_tiles
        tile_k = position_id % n_tiles

        n_start = tile_n * BLOCK_SIZE_N
        k_start = tile_k * BLOCK_SIZE_K

        if n_start < N and k_start < K:
            offs_n = tl.arange(0, BLOCK_SIZE_N) + n_start
            offs_k = tl.arange(0, BLOCK_SIZE_K) + k_start
            mask_n = offs_n < N
            mask_k = offs_k < K

            grad_weights = tl.zeros([BLOCK_SIZE_N, BLOCK_SIZE_K], dtype=tl.float32)

            # every group, the ones of this expert summed
            for group_idx in range(0, M_TOTAL // GROUP_SIZE_M):
                group_start = group_idx * GROUP_SIZE_M
                group_expert = tl.load(indices_ptr + group_start)

                if group_expert == expert_id:
                    for m_offset in range(0, GROUP_SIZE_M, BLOCK_SIZE_M):
                        m_start = group_start + m_offset
                        offs_m = tl.arange(0, BLOCK_SIZE_M) + m_start
                        mask_m = offs_m < min(group_start + GROUP_SIZE_M, M_TOTAL)

                        go_ptrs = grad_output_ptr + offs_m[:, None] * N + offs_n[None, :]
                        mask_go = mask_m[:, None] & mask_n[None, :]
                        go = tl.load(go_ptrs, mask=mask_go, other=0.0)

                        in_ptrs = inputs_ptr + offs_m[:, None] * K + offs_k[None, :]
                        mask_in = mask_m[:, None] & mask_k[None, :]
                        inp = tl.load(in_ptrs, mask=mask_in, other=0.0)

                        go_t = tl.trans(go)   # [N, M]
                        grad_weights += tl.dot(go_t, inp)

            grad_w_ptrs = grad_weights_ptr + expert_id * N * K + offs_n[:, None] * K + offs_k[None, :]
            mask_gw = mask_n[:, None] & mask_k[None, :]
            tl.store(grad_w_ptrs, grad_weights, mask=mask_gw)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """grad_output [M, N] and inputs [M, K] bf16, sorted by expert in groups of 128 rows; the per-token expert indices
    (every row of a group the same expert; two experts get no group)."""
    import torch
    assert M % GROUP_M == 0
    g = torch.Generator(device=device).manual_seed(seed)
    go = torch.randn((M, N), device=device, generator=g).bfloat16()
    x = (torch.randn((M, K), device=device, generator=g) / M ** 0.5).bfloat16()
    groups = torch.randint(0, NUM_EXPERTS_ - 2, (M // GROUP_M,), device=device, generator=g).sort().values
    indices = groups.repeat_interleave(GROUP_M).to(torch.int32).contiguous()
    return {"grad_output": go, "inputs": x, "indices": indices}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """grad_W [E, N, K] bf16 (zeros for experts with no group), as ``cg_grouped_gemm_backward_weights`` launches it."""
    import torch
    go, x, indices = inputs["grad_output"], inputs["inputs"], inputs["indices"]
    M, N = go.shape
    K = x.shape[1]
    grad_weights = torch.zeros((NUM_EXPERTS_, N, K), device=go.device, dtype=go.dtype)
    bn, bk, bm = min(128, N), min(32, K), min(32, GROUP_M)
    grid = (NUM_EXPERTS_ * triton.cdiv(N, bn) * triton.cdiv(K, bk),)
    _kernel_cg_backward_dw[grid](go, x, grad_weights, indices, M_TOTAL=M, N=N, K=K, NUM_EXPERTS=NUM_EXPERTS_,
                                 GROUP_SIZE_M=GROUP_M, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, BLOCK_SIZE_M=bm, **config)
    return grad_weights


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    go, x = inputs["grad_output"].float(), inputs["inputs"].float()
    idx = inputs["indices"].long()
    out = torch.zeros((NUM_EXPERTS_, go.shape[1], x.shape[1]), device=go.device, dtype=torch.float32)
    for s in range(0, go.shape[0], GROUP_M):
        out[idx[s]] += go[s:s + GROUP_M].T @ x[s:s + GROUP_M]
    return out.bfloat16()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
