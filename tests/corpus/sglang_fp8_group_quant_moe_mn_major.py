"""SGLang's per-token-group FP8 quantisation of grouped-MoE activations for the Hopper CUTLASS grouped GEMM
(sgl-project/sglang, python/sglang/srt/layers/quantization/fp8_kernel.py
``_per_token_group_quant_fp8_hopper_moe_mn_major``): one program per (K group of BLOCK_K = group_size columns,
expert); the expert's row count and first row read from memory (``m = tl.load(problem_sizes + expert_id * 3)``,
``tl.load(expert_offsets + expert_id).to(tl.int64)``), hinted by ``tl.multiple_of`` whose results the library
discards; a ``for i in tl.range(tl.cdiv(m, BLOCK_M))`` loop over the expert's rows (data-dependent trip count,
zero for an empty expert) doing all the work: a masked [BLOCK_M, BLOCK_K] tile (no ``other``), row abs-max
clamped by ``tl.clamp(.., min=1e-4, max=float("inf"))``, ``(inp * (448.0 / amax)).to(FP8_DTYPE)`` stored through a
**uint8 bitcast** (``.to(tl.uint8, bitcast=True)`` into a ``view(torch.uint8)`` buffer), and the scales stored
**MN-major per expert** (``sfa + offset * k + k_offset * m + coord_m``, an address that depends on the loaded row
count); ``tl.cdiv`` of a constexpr inside the loop; the dtype passed as a ``tl.constexpr``. An
``@triton.autotune`` over BLOCK_M / num_warps as the library wraps it (one config kept: BLOCK_M = 64, 4 warps).
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

GROUP = 128            # group_size = BLOCK_K
BLOCK_M_CFG = 64
HIDDEN = 7168          # DeepSeek-V3 hidden size
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_per_token_group_quant_fp8_hopper_moe_mn_major",
    "signature": {"a": "*bf16", "expert_offsets": "*i32", "problem_sizes": "*i32", "a_fp8": "*u8", "sfa": "*fp32"},
    "constexprs": {"K": HIDDEN, "BLOCK_K": GROUP, "M_ALIGNMENT": 1, "FP8_DTYPE": tl.float8e4nv,
                   "BLOCK_M": BLOCK_M_CFG},
    "num_warps": 4, "num_stages": 3,
    "divisibility": []}
# DeepSeek-V3 prefill: 8192 tokens x top-8 routed over 32 local experts
PROBLEM: dict[str, int] = {"M": 65536, "K": HIDDEN, "E": 32}
SMALL: dict[str, int] = {"M": 100, "K": HIDDEN, "E": 3}

fp8_autotune = triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": block_m}, num_warps=num_warps)
        for block_m in [BLOCK_M_CFG]
        for num_warps in [4]
    ],
    key=["K", "BLOCK_K", "M_ALIGNMENT"],
)


@triton.jit
def _per_token_group_quant_fp8_hopper_moe_mn_major(
    a,  # (M, K):(K, 1)
    expert_offsets,  # (num_experts,)
    problem_sizes,  # (num_experts, 3)
    a_fp8,  # (M, K):(K, 1)
    sfa,  # (M, k)
    K: tl.constexpr,
    BLOCK_K: tl.constexpr,
    M_ALIGNMENT: tl.constexpr,
    FP8_DTYPE: tl.constexpr,
    BLOCK_M: tl.constexpr,  # tune
):
    k_offset = tl.program_id(0)
    expert_id = tl.program_id(1)

    m = tl.load(problem_sizes + expert_id * 3)
    current_expert_offset = tl.load(expert_offsets + expert_id).to(tl.int64)
    tl.multiple_of(m, M_ALIGNMENT)
    tl.multiple_of(current_expert_offset, M_ALIGNMENT)

    coord_k = k_offset * BLOCK_K + tl.arange(0, BLOCK_K)
    for i in tl.range(tl.cdiv(m, BLOCK_M)):
        coord_m = i * BLOCK_M + tl.arange(0, BLOCK_M)
        a_ptrs = a + current_expert_offset * K + coord_m[:, None] * K + coord_k[None, :]
        a_mask = (coord_m < m)[:, None] & (coord_k < K)[None, :]

        inp = tl.load(a_ptrs, mask=a_mask).to(tl.float32)  # [BLOCK_M, BLOCK_K]
        inp_amax = tl.max(tl.abs(inp), axis=1)  # [BLOCK_M,]
        inp_amax = tl.clamp(inp_amax, min=1e-4, max=float("inf"))
        inp_fp8 = (inp * (448.0 / inp_amax[:, None])).to(FP8_DTYPE)

        # Store fp8
        a_fp8_ptrs = (
            a_fp8 + current_expert_offset * K + coord_m[:, None] * K + coord_k[None, :]
        )
        tl.store(a_fp8_ptrs, inp_fp8.to(tl.uint8, bitcast=True), mask=a_mask)

        # Store sfa
        k = tl.cdiv(K, BLOCK_K)
        sfa_ptrs = (
            sfa + current_expert_offset * k + k_offset * m + coord_m
        )  # MN-Major with sfa
        tl.store(sfa_ptrs, inp_amax / 448.0, mask=coord_m < m)


_per_token_group_quant_fp8_hopper_moe_mn_major = fp8_autotune(
    _per_token_group_quant_fp8_hopper_moe_mn_major
)


def make_inputs(M: int, K: int, E: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [M, K] bf16, the rows already permuted expert by expert; problem_sizes [E, 3] int32 (m, n, k) with random
    row counts summing to M (one expert possibly empty), expert_offsets [E] int32 their exclusive prefix sum."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    A = (torch.randn((M, K), device=device, generator=g)
         * torch.rand((M, 1), device=device, generator=g).mul(6.0).exp2()).to(torch.bfloat16)
    cuts = torch.randint(0, M + 1, (E - 1,), device=device, generator=g).sort().values
    bounds = torch.cat([torch.zeros(1, dtype=torch.long, device=device), cuts, torch.tensor([M], device=device)])
    sizes = (bounds[1:] - bounds[:-1]).to(torch.int32)
    problem_sizes = torch.stack([sizes, torch.full_like(sizes, 4096), torch.full_like(sizes, K)], 1).contiguous()
    expert_offsets = bounds[:-1].to(torch.int32).contiguous()
    return {"A": A, "expert_offsets": expert_offsets, "problem_sizes": problem_sizes, "group_size": GROUP}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[the fp8 values as fp32 [M, K], the scales sfa [M, K // group_size] fp32], as
    ``per_token_group_quant_fp8_hopper_moe_mn_major`` launches it: grid (K // group_size, num_experts)."""
    import torch
    A, expert_offsets, problem_sizes, group_size = (inputs["A"], inputs["expert_offsets"], inputs["problem_sizes"],
                                                    inputs["group_size"])
    assert A.dim() == 2
    assert A.is_contiguous(), "`A` is not contiguous"
    assert A.shape[-1] % group_size == 0
    a_q = torch.empty_like(A, device=A.device, dtype=torch.float8_e4m3fn)
    M, K = A.shape[0], A.shape[1]
    k = K // group_size
    sfa = torch.empty((M, k), device=A.device, dtype=torch.float32)
    num_experts = problem_sizes.shape[0]
    grid = (k, num_experts)
    _per_token_group_quant_fp8_hopper_moe_mn_major[grid](
        A, expert_offsets, problem_sizes, a_q.view(torch.uint8), sfa, K, group_size, 1, tl.float8e4nv)
    return a_q.float(), sfa


def reference(inputs: dict[str, Any]) -> Any:
    """Per row and group: amax clamped to 1e-4, q = e4m3(x * 448 / amax), s = amax / 448, the scales of expert e laid
    out [k, m_e] (MN-major) inside the rows of sfa that belong to the expert."""
    import torch
    x = inputs["A"].float()
    M, K = x.shape
    G = inputs["group_size"]
    k = K // G
    xg = x.view(M, k, G)
    amax = xg.abs().amax(dim=2).clamp(min=1e-4)                       # M k
    q = (xg * (448.0 / amax[:, :, None])).to(torch.float8_e4m3fn).float().view(M, K)
    s = amax / 448.0
    sfa = torch.empty((M * k,), dtype=torch.float32, device=x.device)
    for off, m in zip(inputs["expert_offsets"].tolist(), inputs["problem_sizes"][:, 0].tolist()):
        sfa[off * k: off * k + m * k] = s[off:off + m].t().reshape(-1)
    return q, sfa.view(M, k)


def flops(M: int, K: int, E: int) -> float:
    return 3.0 * M * K
