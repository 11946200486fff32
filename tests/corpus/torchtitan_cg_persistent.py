"""torchtitan's contiguous grouped GEMM for MoE training, its persistent forward (pytorch/torchtitan,
torchtitan/experiments/kernels/triton_contiguous_group_gemm/cg_forward.py, ``_kernel_cg_persistent_forward``,
"persistent rewrite ... from @AdnanHoque, IBM Research"): the tokens sorted by expert into groups of GROUP_SIZE_M
rows, each group's expert read from ``indices_ptr`` (one int32 per token; the group's first); a persistent loop
``for tile_id in tl.range(start_pid, num_tiles, NUM_SMS)`` over super-grouped tiles (an @triton.jit helper
``_compute_pid`` returning two values), ``if m_start < M_TOTAL:`` around the K loop and its epilogue; inside the K loop
the masks rebuilt every iteration and the expert id loaded again every iteration from the index array (loop-invariant,
as the library writes it), B [E, N, K] addressed from the loaded expert and read as ``b.T``; the epilogue's tile
recomputed from a second counter ``tile_id_c`` (tutorial 09's way), the output's dtype from ``c_ptr.dtype.element_ty``;
M_TOTAL, N, K, NUM_EXPERTS, NUM_SMS constexprs; ``@triton.autotune`` over the library's STANDARD_CONFIGS with its
``early_config_prune`` (configs whose BLOCK_SIZE_K exceeds K dropped). bf16 in and out, as the library runs it;
TWILL_SPEC compiles the largest config (128 x 128 x 64, 8 warps, 3 stages). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_EXPERTS_ = 8
GROUP_M = 128
NUM_SMS_H100 = 132
PROBLEM: dict[str, int] = {"M": 8192, "N": 4096, "K": 2048}
SMALL: dict[str, int] = dict(PROBLEM)     # M_TOTAL, N and K are constexprs: the generated kernel is for these
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_kernel_cg_persistent_forward",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "indices_ptr": "*i32"},
    "constexprs": {"M_TOTAL": PROBLEM["M"], "N": PROBLEM["N"], "K": PROBLEM["K"], "NUM_EXPERTS": NUM_EXPERTS_,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "NUM_SMS": NUM_SMS_H100,
                   "GROUP_SIZE_M": GROUP_M, "SUPER_GROUP_M": 32},
    "num_warps": 8, "num_stages": 3}

STANDARD_CONFIGS = [
    # Configurations for small matrices
    triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=2, num_warps=4),
    triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=2, num_warps=4),
    # Medium sizes
    triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32}, num_stages=2, num_warps=8),
    # Larger sizes with more warps, stages
    triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64}, num_stages=3, num_warps=8),
    triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64}, num_stages=4, num_warps=8),
]


def early_config_prune(configs, args, **kwargs):
    """Configs whose BLOCK_SIZE_K exceeds K dropped; at least one kept."""
    k = kwargs.get("K", 0)
    valid = [c for c in configs if c.kwargs.get("BLOCK_SIZE_K", 0) <= k]
    if not valid and configs:
        return [min(configs, key=lambda c: c.kwargs.get("BLOCK_SIZE_K", float("inf")))]
    return valid


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, super_group_m):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * super_group_m
    group_size_m = min(num_pid_m - first_pid_m, super_group_m)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.autotune(
    configs=STANDARD_CONFIGS,
    key=["M_TOTAL", "N", "K"],
    prune_configs_by={"early_config_prune": early_config_prune},
)
@triton.jit
def _kernel_cg_persistent_forward(
    a_ptr,
    b_ptr,
    c_ptr,
    indices_ptr,
    M_TOTAL: tl.constexpr,
    N: tl.constexpr,
    K: tl.constexpr,
    NUM_EXPERTS: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    NUM_SMS: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr = 128,
    SUPER_GROUP_M: tl.constexpr = 32,
):
    """Each GROUP_SIZE_M rows of A use one expert; assumes GROUP_SIZE_M a multiple of BLOCK_SIZE_M."""
    c_type = c_ptr.dtype.element_ty

    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M_TOTAL, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = SUPER_GROUP_M * num_pid_n

    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS):
        tile_m_idx, tile_n_idx = _compute_pid(tile_id, num_pid_in_group, num_pid_m, SUPER_GROUP_M)

        m_start = tile_m_idx * BLOCK_SIZE_M
        n_start = tile_n_idx * BLOCK_SIZE_N

        if m_start < M_TOTAL:
            offs_m = m_start + tl.arange(0, BLOCK_SIZE_M)
            offs_n = n_start + tl.arange(0, BLOCK_SIZE_N)

            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for ki in range(k_tiles):
                offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)

                mask_m = offs_m < M_TOTAL
                mask_n = offs_n < N
                mask_k = offs_k < K
                mask_a = mask_m[:, None] & mask_k[None, :]
                mask_b = mask_n[:, None] & mask_k[None, :]

                # the expert of this block's group
                group_idx = m_start // GROUP_SIZE_M
                expert_idx = tl.load(indices_ptr + group_idx * GROUP_SIZE_M)

                a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
                a = tl.load(a_ptrs, mask=mask_a, other=0.0)

                b_ptrs = b_ptr + expert_idx * N * K + offs_n[:, None] * K + offs_k[None, :]
                b = tl.load(b_ptrs, mask=mask_b, other=0.0)

                accumulator += tl.dot(a, b.T)

            tile_id_c += NUM_SMS
            tile_m_idx, tile_n_idx = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, SUPER_GROUP_M)

            offs_m = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_n = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            mask_m = offs_m < M_TOTAL
            mask_n = offs_n < N
            mask_c = mask_m[:, None] & mask_n[None, :]

            c = accumulator.to(tl.float32)
            c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
            tl.store(c_ptrs, c.to(c_type), mask=mask_c)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [M, K] bf16 sorted by expert in groups of 128 rows, W [E, N, K] bf16, and the per-token expert indices
    (every row of a group the same expert, some experts with no group, as a skewed router leaves them)."""
    import torch
    assert M % GROUP_M == 0
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).bfloat16()
    w = (torch.randn((NUM_EXPERTS_, N, K), device=device, generator=g) / K ** 0.5).bfloat16()
    groups = torch.randint(0, NUM_EXPERTS_ - 2, (M // GROUP_M,), device=device, generator=g).sort().values
    indices = groups.repeat_interleave(GROUP_M).to(torch.int32).contiguous()
    return {"a": a, "w": w, "indices": indices}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [M, N] bf16 = A @ W[expert of the row's group].T, as ``cg_grouped_gemm_forward`` launches it: one program
    per SM, the autotuner picking the tile."""
    import torch
    a, w, indices = inputs["a"], inputs["w"], inputs["indices"]
    M, K = a.shape
    E, N, _ = w.shape
    out = torch.empty((M, N), device=a.device, dtype=torch.bfloat16)
    num_sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    _kernel_cg_persistent_forward[(num_sms, 1, 1)](a, w, out, indices, M_TOTAL=M, N=N, K=K, NUM_EXPERTS=E,
                                                    GROUP_SIZE_M=GROUP_M, NUM_SMS=num_sms)
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, w = inputs["a"].float(), inputs["w"].float()
    idx = inputs["indices"].long()
    out = torch.empty((a.shape[0], w.shape[1]), device=a.device, dtype=torch.float32)
    for s in range(0, a.shape[0], GROUP_M):
        out[s:s + GROUP_M] = a[s:s + GROUP_M] @ w[idx[s]].T
    return out.bfloat16()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
