"""SGLang's `fused_moe_kernel` (python/sglang/srt/layers/moe/fused_moe_triton/fused_moe.py, before its bias
argument) on the w8a8 block-FP8 path, as `invoke_fused_moe_kernel` launches it for a DeepSeek-style MoE
(block_shape [128, 128]): A quantised per 1 x 128 token group to float8_e4m3fn with fp32 scales [M, K // 128]
(done in make_inputs, as SGLang's per_token_group_quant_fp8 does before the launch), B float8_e4m3fn [E, N, K] with
per-128 x 128-block scales [E, N // 128, K // 128]; grouped pid ordering over EM, `num_tokens_post_padded` loaded with
an early `return`, the block's rows from `sorted_token_ids` (cast to int64), its expert from `expert_ids` with the
`filter_expert and off_experts == -1` branch that writes zeros through the `write_zeros_to_output` helper and
returns, `% N` wrapped B columns, the `even_Ks` constexpr (K a multiple of BLOCK_SIZE_K: unmasked-in-K loads), and
in the K loop per step: A's per-token-group scale column (`offs_ks = k * BLOCK_SIZE_K // group_k`, masked by the
token mask) and B's per-block scale row, `accumulator += tl.dot(a, b) * a_scale[:, None] * b_scale[None, :]`. After
the loop: the routing weight per row (MUL_ROUTED_WEIGHT), the cast to `compute_type` (bf16). top_k 6 of 64 experts
(DeepSeek-V2-Lite), the last expert on another EP rank. Config {64, 128, 128, GROUP_SIZE_M 32, 4 warps, 3 stages}
(SGLang's default for block FP8)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TOP_K, NUM_EXPERTS = 6, 64
CONFIG = {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 32, "num_warps": 4,
          "num_stages": 3}
TWILL_SPEC: dict[str, Any] = {
    "kernel": "fused_moe_kernel",
    "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*bf16", "a_scale_ptr": "*fp32",
                  "b_scale_ptr": "*fp32", "topk_weights_ptr": "*fp32", "sorted_token_ids_ptr": "*i32",
                  "expert_ids_ptr": "*i32", "num_tokens_post_padded_ptr": "*i32",
                  "N": "i32", "K": "i32", "EM": "i32", "num_valid_tokens": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_be": "i32", "stride_bk": "constexpr",
                  "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "constexpr",
                  "stride_asm": "i32", "stride_ask": "constexpr", "stride_bse": "i32", "stride_bsk": "constexpr",
                  "stride_bsn": "i32"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "stride_ask": 1, "stride_bsk": 1,
                   "group_n": 128, "group_k": 128, "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128,
                   "GROUP_SIZE_M": 32, "MUL_ROUTED_WEIGHT": True, "top_k": TOP_K, "compute_type": "bf16",
                   "use_fp8_w8a8": True, "use_int8_w8a8": False, "use_int8_w8a16": False,
                   "per_channel_quant": False, "even_Ks": True, "filter_expert": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "a_scale_ptr", "b_scale_ptr", "topk_weights_ptr",
                     "sorted_token_ids_ptr", "expert_ids_ptr", "N", "K", "stride_am", "stride_be", "stride_bn",
                     "stride_cm", "stride_asm", "stride_bse", "stride_bsn"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 2816, "K": 2048}      # DeepSeek-V2-Lite w13: 2 x 1408, hidden 2048
SMALL: dict[str, int] = {"M": 37, "N": 200, "K": 384}          # K a multiple of 128 (even_Ks kept), N ragged


@triton.jit
def write_zeros_to_output(
    c_ptr,
    stride_cm,
    stride_cn,
    pid_n,
    N,
    offs_token,
    token_mask,
    BLOCK_SIZE_M,
    BLOCK_SIZE_N,
    compute_type,
):
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=compute_type)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


@triton.jit
def fused_moe_kernel(
    # Pointers to matrices
    a_ptr,
    b_ptr,
    c_ptr,
    a_scale_ptr,
    b_scale_ptr,
    topk_weights_ptr,
    sorted_token_ids_ptr,
    expert_ids_ptr,
    num_tokens_post_padded_ptr,
    # Matrix dimensions
    N,
    K,
    EM,
    num_valid_tokens,
    # The stride variables represent how much to increase the ptr by when
    # moving by 1 element in a particular dimension. E.g. `stride_am` is
    # how much to increase `a_ptr` by to get the element one row down
    # (A has M rows).
    stride_am,
    stride_ak,
    stride_be,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    stride_asm,
    stride_ask,
    stride_bse,
    stride_bsk,
    stride_bsn,
    # Block size for block-wise quantization
    group_n: tl.constexpr,
    group_k: tl.constexpr,
    # Meta-parameters
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    MUL_ROUTED_WEIGHT: tl.constexpr,
    top_k: tl.constexpr,
    compute_type: tl.constexpr,
    use_fp8_w8a8: tl.constexpr,
    use_int8_w8a8: tl.constexpr,
    use_int8_w8a16: tl.constexpr,
    per_channel_quant: tl.constexpr,
    even_Ks: tl.constexpr,
    filter_expert: tl.constexpr,
):
    """
    Implements the fused computation for a Mixture of Experts (MOE) using
    token and expert matrices.
    """
    # -----------------------------------------------------------
    # Map program ids `pid` to the block of C it should compute.
    # This is done in a grouped ordering to promote L2 data reuse.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(EM, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # ----------------------------------------------------------
    # Create pointers for the first blocks of A and B.
    # We will advance this pointer as we move in the K direction
    # and accumulate
    # `a_ptrs` is a block of [BLOCK_SIZE_M, BLOCK_SIZE_K] pointers
    # `b_ptrs` is a block of [BLOCK_SIZE_K, BLOCK_SIZE_N] pointers
    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_SIZE_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    offs_token = offs_token.to(tl.int64)
    token_mask = offs_token < num_valid_tokens

    off_experts = tl.load(expert_ids_ptr + pid_m).to(tl.int64)

    if filter_expert and off_experts == -1:
        # -----------------------------------------------------------
        # Write back zeros to the output when the expert is not
        # in the current expert parallel rank.
        write_zeros_to_output(
            c_ptr,
            stride_cm,
            stride_cn,
            pid_n,
            N,
            offs_token,
            token_mask,
            BLOCK_SIZE_M,
            BLOCK_SIZE_N,
            compute_type,
        )
        return

    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (
        offs_token[:, None] // top_k * stride_am + offs_k[None, :] * stride_ak
    )

    b_ptrs = (
        b_ptr
        + off_experts * stride_be
        + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    )
    if use_int8_w8a16:
        b_scale_ptrs = (
            b_scale_ptr + off_experts * stride_bse + offs_bn[None, :] * stride_bsn
        )
        b_scale = tl.load(b_scale_ptrs)

    if use_fp8_w8a8 or use_int8_w8a8:
        # block-wise
        if group_k > 0 and group_n > 0:
            a_scale_ptrs = a_scale_ptr + (offs_token // top_k) * stride_asm
            offs_bsn = offs_bn // group_n
            b_scale_ptrs = (
                b_scale_ptr + off_experts * stride_bse + offs_bsn * stride_bsn
            )
        # channel-wise
        elif per_channel_quant:
            b_scale_ptrs = (
                b_scale_ptr + off_experts * stride_bse + offs_bn[None, :] * stride_bsn
            )
            b_scale = tl.load(b_scale_ptrs)
            # Load per-token scale for activations
            a_scale_ptrs = a_scale_ptr + (offs_token // top_k) * stride_asm
            a_scale = tl.load(a_scale_ptrs, mask=token_mask, other=0.0)[:, None]
        # tensor-wise
        else:
            a_scale = tl.load(a_scale_ptr)
            b_scale = tl.load(b_scale_ptr + off_experts)

    # -----------------------------------------------------------
    # Iterate to compute a block of the C matrix.
    # We accumulate into a `[BLOCK_SIZE_M, BLOCK_SIZE_N]` block
    # of fp32 values for higher accuracy.
    # `accumulator` will be converted back to fp16 after the loop.
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        # Load the next block of A and B, generate a mask by checking the
        # K dimension.
        if even_Ks:
            a = tl.load(
                a_ptrs,
                mask=token_mask[:, None],
                other=0.0,
            )
            b = tl.load(b_ptrs)
        else:
            a = tl.load(
                a_ptrs,
                mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_SIZE_K),
                other=0.0,
            )
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)

        # We accumulate along the K dimension.
        if use_int8_w8a16:
            accumulator = tl.dot(a, b.to(compute_type), acc=accumulator)
        elif use_fp8_w8a8 or use_int8_w8a8:
            if group_k > 0 and group_n > 0:
                k_start = k * BLOCK_SIZE_K
                offs_ks = k_start // group_k
                a_scale = tl.load(
                    a_scale_ptrs + offs_ks * stride_ask, mask=token_mask, other=0.0
                )
                b_scale = tl.load(b_scale_ptrs + offs_ks * stride_bsk)

                accumulator += tl.dot(a, b) * a_scale[:, None] * b_scale[None, :]
            else:
                if use_fp8_w8a8:
                    accumulator = tl.dot(a, b, acc=accumulator)
                else:
                    accumulator += tl.dot(a, b)
        else:
            accumulator += tl.dot(a, b)
        # Advance the ptrs to the next K block.
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    if use_int8_w8a16:
        accumulator *= b_scale
    elif use_fp8_w8a8 or use_int8_w8a8:
        if group_k == 0 or group_n == 0:
            accumulator *= a_scale * b_scale

    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        accumulator *= moe_weight[:, None]

    accumulator = accumulator.to(compute_type)
    # -----------------------------------------------------------
    # Write back the block of the output
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


def _moe_align_block_size(topk_ids, block_size: int, num_experts: int, expert_map):
    """What SGLang's moe_align_block_size op (as vLLM's) returns (sorted_token_ids padded with numel per expert to a multiple of
    block_size, expert id per block, the padded count as a 1-element tensor), computed in torch; the padded buffer
    sized as SGLang sizes it (numel + E * (block_size - 1)). Blocks of experts off this rank get id -1."""
    import torch
    device = topk_ids.device
    numel = topk_ids.numel()
    max_num_tokens_padded = numel + num_experts * (block_size - 1)
    flat = topk_ids.flatten().long()
    counts = torch.bincount(flat, minlength=num_experts).cpu().tolist()
    order = torch.argsort(flat, stable=True).cpu().tolist()
    sorted_ids = torch.full((max_num_tokens_padded,), numel, dtype=torch.int32)
    max_blocks = (max_num_tokens_padded + block_size - 1) // block_size
    expert_ids = torch.zeros((max_blocks,), dtype=torch.int32)
    pos, start = 0, 0
    for e in range(num_experts):
        c = counts[e]
        padded = (c + block_size - 1) // block_size * block_size
        sorted_ids[pos:pos + c] = torch.tensor(order[start:start + c], dtype=torch.int32)
        expert_ids[pos // block_size:(pos + padded) // block_size] = int(expert_map[e])
        pos += padded
        start += c
    num_post = torch.tensor([pos], dtype=torch.int32)
    return sorted_ids.to(device), expert_ids.to(device), num_post.to(device)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    fp8 = torch.float8_e4m3fn
    x = torch.randn((M, K), device=device, generator=g)
    # per_token_group_quant_fp8(x, 128): 1 x 128 groups, scale = amax / 448
    xg = x.view(M, K // 128, 128)
    a_s = (xg.abs().amax(-1).clamp(min=1e-10) / 448.0).float()
    a = (xg / a_s[..., None]).clamp(-448.0, 448.0).to(fp8).view(M, K)
    # block-quantised weights: 128 x 128 blocks, fp32 scale per block
    nb = triton.cdiv(N, 128)
    w = torch.randn((NUM_EXPERTS, nb * 128, K), device=device, generator=g) / K ** 0.5
    wg = w.view(NUM_EXPERTS, nb, 128, K // 128, 128)
    w_s = (wg.abs().amax(dim=(2, 4)).clamp(min=1e-10) / 448.0).float()          # E, nb, K // 128
    wq = (wg / w_s[:, :, None, :, None]).clamp(-448.0, 448.0).to(fp8).view(NUM_EXPERTS, nb * 128, K)
    wq = wq[:, :N].contiguous()
    logits = torch.randn((M, NUM_EXPERTS), device=device, generator=g)
    topk_weights, topk_ids = torch.topk(torch.softmax(logits, dim=-1), TOP_K, dim=-1)
    topk_ids = topk_ids.to(torch.int32)
    # expert parallel: the last expert lives on another rank (expert_map maps it to -1)
    expert_map = list(range(NUM_EXPERTS - 1)) + [-1]
    sorted_ids, expert_ids, num_post = _moe_align_block_size(topk_ids, CONFIG["BLOCK_SIZE_M"], NUM_EXPERTS,
                                                             expert_map)
    return {"a": a, "a_s": a_s.contiguous(), "w": wq, "w_s": w_s.contiguous(),
            "topk_weights": topk_weights.float().contiguous(), "topk_ids": topk_ids,
            "sorted_token_ids": sorted_ids, "expert_ids": expert_ids, "num_tokens_post_padded": num_post}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [M, top_k, N] bf16 = topk_weight * dequant(A)[token] @ dequant(W)[expert].T, as invoke_fused_moe_kernel
    launches it for use_fp8_w8a8 with block_shape [128, 128] (A already quantised); rows routed to the off-rank
    expert are zero."""
    import torch
    A, B, A_scale, B_scale = inputs["a"], inputs["w"], inputs["a_s"], inputs["w_s"]
    topk_weights, sorted_token_ids = inputs["topk_weights"], inputs["sorted_token_ids"]
    expert_ids, num_tokens_post_padded = inputs["expert_ids"], inputs["num_tokens_post_padded"]
    top_k = TOP_K
    block_shape = [128, 128]
    cfg = dict(CONFIG)
    cfg["num_warps"] = config.get("num_warps", cfg["num_warps"])
    cfg["num_stages"] = config.get("num_stages", cfg["num_stages"])
    C = torch.empty((A.shape[0], top_k, B.shape[1]), device=A.device, dtype=torch.bfloat16)
    compute_type = tl.bfloat16
    block_n, block_k = block_shape[0], block_shape[1]
    assert triton.cdiv(A.shape[-1], block_k) == A_scale.shape[-1]
    assert triton.cdiv(B.shape[-2], block_n) == B_scale.shape[-2]
    assert triton.cdiv(B.shape[-1], block_k) == B_scale.shape[-1]
    M = A.shape[0]
    num_tokens = M * top_k
    EM = sorted_token_ids.shape[0]
    if A.shape[0] < cfg["BLOCK_SIZE_M"]:
        # optimize for small batch_size.
        # We assume that top_ids of each token is unique, so
        # so num_valid_experts <= batch_size <= BLOCK_SIZE_M,
        # and we can skip some invalid blocks.
        EM = min(sorted_token_ids.shape[0], A.shape[0] * top_k * cfg["BLOCK_SIZE_M"])
    grid = lambda META: (triton.cdiv(EM, META["BLOCK_SIZE_M"]) * triton.cdiv(B.shape[1], META["BLOCK_SIZE_N"]),)
    K = B.shape[2]
    even_Ks = K % cfg["BLOCK_SIZE_K"] == 0
    filter_expert = True
    fused_moe_kernel[grid](
        A,
        B,
        C,
        A_scale,
        B_scale,
        topk_weights,
        sorted_token_ids,
        expert_ids,
        num_tokens_post_padded,
        B.shape[1],
        B.shape[2],
        EM,
        num_tokens,
        A.stride(0),
        A.stride(1),
        B.stride(0),
        B.stride(2),
        B.stride(1),
        C.stride(1),
        C.stride(2),
        A_scale.stride(0) if A_scale is not None and A_scale.ndim == 2 else 0,
        A_scale.stride(1) if A_scale is not None and A_scale.ndim == 2 else 0,
        B_scale.stride(0) if B_scale is not None and B_scale.ndim >= 2 else 0,
        B_scale.stride(2) if B_scale is not None and B_scale.ndim == 3 else 0,
        B_scale.stride(1) if B_scale is not None and B_scale.ndim >= 2 else 0,
        0 if block_shape is None else block_shape[0],
        0 if block_shape is None else block_shape[1],
        MUL_ROUTED_WEIGHT=True,
        top_k=top_k,
        compute_type=compute_type,
        use_fp8_w8a8=True,
        use_int8_w8a8=False,
        use_int8_w8a16=False,
        per_channel_quant=False,
        even_Ks=even_Ks,
        filter_expert=filter_expert,
        **cfg,
    )
    return C


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a = inputs["a"].double()
    M, K = a.shape
    a = (a.view(M, K // 128, 128) * inputs["a_s"].double()[..., None]).view(M, K)
    w = inputs["w"].double()
    E, N, _ = w.shape
    ws = inputs["w_s"].double().repeat_interleave(128, 1)[:, :N].repeat_interleave(128, 2)
    w = w * ws
    ids, wts = inputs["topk_ids"].long(), inputs["topk_weights"].double()
    out = torch.zeros((M, TOP_K, N), dtype=torch.float64, device=a.device)
    for e in range(NUM_EXPERTS - 1):                  # the last expert is off-rank: zeros
        sel = ids == e
        tok, slot = sel.nonzero(as_tuple=True)
        out[tok, slot] = (a[tok] @ w[e].T) * wts[tok, slot][:, None]
    return out


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * TOP_K * N * K
