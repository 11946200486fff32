"""vLLM's ``fused_moe_kernel_gptq_awq`` (vllm/model_executor/layers/fused_moe/fused_moe.py, the MoE-WNA16 path that
``invoke_fused_moe_kernel`` takes for GPTQ / AWQ int4 experts when ``use_int4_w4a16``), fp16 activations: grouped pid
ordering over ``EM``, ``num_tokens_post_padded`` loaded with an early ``return``, the block's rows read from
``sorted_token_ids`` and its expert from ``expert_ids`` (the ``off_experts == -1`` branch writes zeros through the
``write_zeros_to_output`` helper and returns), A's rows gathered as ``offs_token // top_k``. The construct this file
brings: the expert's 4-bit weights packed two a byte ALONG K ([E, N, K // 2], ``b_ptrs`` reads row ``offs_k // 2``, so
two rows of the tile share each byte) unpacked with a per-row shift ``(b >> b_shifter) & 0xF``; per-group fp16 scales
[E, N, K // group_size] and 4-bit zero points packed two a byte ALONG N ([E, N // 2, K // group_size], unpacked with a
per-column shift ``(b_zp >> b_zp_shifter) & 0xF``) both addressed in the loop by the group of the tile's absolute K row
``(offs_k[:, None] + BLOCK_SIZE_K * k) // group_size`` (a [BLOCK_K, BLOCK_N] gather of group rows, the expert's offset
added); ``k_mask = None`` / ``k_other = None`` when ``block_k_diviable``; ``((b.to(tl.float32) - b_zp) * b_scale)
.to(compute_type)`` then ``accumulator = tl.dot(a, b, acc=accumulator)``; B's pointer stepped by ``BLOCK_SIZE_K // 2``
rows; N and K constexpr (vLLM passes them so); the int8_w8a16 and no-zero-point branches present but constexpr-off.
top_k 2, MUL_ROUTED_WEIGHT True, group size 128; one expert on another EP rank (id -1). Config {BLOCK_SIZE_M 64,
BLOCK_SIZE_N 64, BLOCK_SIZE_K 64, GROUP_SIZE_M 8, 4 warps, 3 stages} (vLLM's ``get_moe_wna16_block_config`` keeps
BLOCK_SIZE_K <= group_size). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TOP_K, NUM_EXPERTS, GROUP = 2, 8, 128
CONFIG = {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "num_warps": 4,
          "num_stages": 3}
PROBLEM: dict[str, int] = {"M": 2048, "N": 2048, "K": 2048}
SMALL: dict[str, int] = {"M": 37, "N": 2048, "K": 2048}   # N and K are constexprs (vLLM's): M small and ragged
TWILL_SPEC: dict[str, Any] = {
    "kernel": "fused_moe_kernel_gptq_awq",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*u8", "c_ptr": "*fp16", "b_scale_ptr": "*fp16", "b_zp_ptr": "*u8",
                  "topk_weights_ptr": "*fp32", "sorted_token_ids_ptr": "*i32", "expert_ids_ptr": "*i32",
                  "num_tokens_post_padded_ptr": "*i32", "N": "constexpr", "K": "constexpr", "EM": "i32",
                  "num_valid_tokens": "i32", "stride_am": "i32", "stride_ak": "constexpr", "stride_be": "i32",
                  "stride_bk": "constexpr", "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "constexpr",
                  "stride_bse": "i32", "stride_bsk": "constexpr", "stride_bsn": "i32", "stride_bze": "i32",
                  "stride_bzk": "constexpr", "stride_bzn": "i32"},
    # the unit strides Triton's launcher specialises as constants; N and K are constexpr in vLLM's signature
    "constexprs": {"N": PROBLEM["N"], "K": PROBLEM["K"], "stride_ak": 1, "stride_bk": 1, "stride_cn": 1,
                   "stride_bsk": 1, "stride_bzk": 1, "block_k_diviable": True, "group_size": GROUP,
                   "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "SPLIT_K": 1,
                   "MUL_ROUTED_WEIGHT": True, "top_k": TOP_K, "compute_type": "fp16", "has_zp": True,
                   "use_int4_w4a16": True, "use_int8_w8a16": False},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "b_scale_ptr", "b_zp_ptr", "EM", "stride_am", "stride_be",
                     "stride_bn", "stride_cm", "stride_bse", "stride_bsn", "stride_bze", "stride_bzn"]}


@triton.jit
def write_zeros_to_output(c_ptr, stride_cm, stride_cn, pid_n, N, offs_token, token_mask, BLOCK_SIZE_M, BLOCK_SIZE_N,
                          compute_type):
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=compute_type)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


@triton.jit
def fused_moe_kernel_gptq_awq(
        a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr,
        num_tokens_post_padded_ptr,
        N: tl.constexpr, K: tl.constexpr, EM, num_valid_tokens,
        stride_am, stride_ak, stride_be, stride_bk, stride_bn, stride_cm, stride_cn,
        stride_bse, stride_bsk, stride_bsn, stride_bze, stride_bzk, stride_bzn,
        block_k_diviable: tl.constexpr, group_size: tl.constexpr,
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
        GROUP_SIZE_M: tl.constexpr, SPLIT_K: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr, top_k: tl.constexpr,
        compute_type: tl.constexpr, has_zp: tl.constexpr, use_int4_w4a16: tl.constexpr,
        use_int8_w8a16: tl.constexpr):
    # twill corpus rendition: C[token] = w_topk * A[token // top_k] @ ((B_e - zp_e) * s_e)^T, B_e int4 packed along K
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(EM, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_SIZE_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens

    off_experts = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    if off_experts == -1:                # the expert lives on another expert-parallel rank
        write_zeros_to_output(c_ptr, stride_cm, stride_cn, pid_n, N, offs_token, token_mask, BLOCK_SIZE_M,
                              BLOCK_SIZE_N, compute_type)
        return

    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_token[:, None] // top_k * stride_am + offs_k[None, :] * stride_ak)
    if use_int4_w4a16:                   # two K rows a byte: the low nibble holds the even row
        b_ptrs = b_ptr + off_experts * stride_be + (offs_k[:, None] // 2) * stride_bk + offs_bn[None, :] * stride_bn
        b_shifter = (offs_k[:, None] % 2) * 4
    elif use_int8_w8a16:
        b_ptrs = b_ptr + off_experts * stride_be + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn

    if not has_zp and use_int4_w4a16:
        b_zp_num = 8
    if not has_zp and use_int8_w8a16:
        b_zp_num = 128
    elif has_zp and use_int4_w4a16:      # two N columns a zero-point byte
        b_zp_shifter = (offs_bn[None, :] % 2) * 4

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        if not block_k_diviable:
            k_mask = offs_k[:, None] < K - k * BLOCK_SIZE_K
            k_other = 0.0
        else:
            k_mask = None
            k_other = None
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_SIZE_K), other=0.0)
        b = tl.load(b_ptrs)
        if use_int4_w4a16:
            b = (b >> b_shifter) & 0xF

        b_scale_ptrs = (b_scale_ptr + off_experts * stride_bse + offs_bn[None, :] * stride_bsn
                        + ((offs_k[:, None] + BLOCK_SIZE_K * k) // group_size) * stride_bsk)
        b_scale = tl.load(b_scale_ptrs, mask=k_mask, other=k_other)
        b_scale = b_scale.to(tl.float32)

        if has_zp and use_int4_w4a16:
            offs_k_true = (offs_k[:, None] + BLOCK_SIZE_K * k) // group_size
            b_zp_ptrs = (b_zp_ptr + off_experts * stride_bze + (offs_bn[None, :] // 2) * stride_bzn
                         + offs_k_true * stride_bzk)
            b_zp = tl.load(b_zp_ptrs, mask=k_mask, other=k_other)
            b_zp = (b_zp >> b_zp_shifter) & 0xF
            b_zp = b_zp.to(tl.float32)
        elif has_zp and use_int8_w8a16:
            offs_k_true = (offs_k[:, None] + BLOCK_SIZE_K * k) // group_size
            b_zp_ptrs = (b_zp_ptr + off_experts * stride_bze + offs_bn[None, :] * stride_bzn
                         + offs_k_true * stride_bzk)
            b_zp = tl.load(b_zp_ptrs, mask=k_mask, other=k_other)
            b_zp = b_zp.to(tl.float32)

        if has_zp:
            b = ((b.to(tl.float32) - b_zp) * b_scale).to(compute_type)
        else:
            b = ((b.to(tl.float32) - b_zp_num) * b_scale).to(compute_type)
        accumulator = tl.dot(a, b, acc=accumulator)

        a_ptrs += BLOCK_SIZE_K * stride_ak
        if use_int4_w4a16:
            b_ptrs += (BLOCK_SIZE_K // 2) * stride_bk
        else:
            b_ptrs += BLOCK_SIZE_K * stride_bk

    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        accumulator = accumulator * moe_weight[:, None]
    accumulator = accumulator.to(compute_type)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


def _moe_align_block_size(topk_ids, block_size: int, num_experts: int, expert_map):
    """What vLLM's moe_align_block_size op returns (sorted_token_ids padded with numel per expert to a multiple of
    block_size, expert id per block, the padded count as a 1-element tensor), computed in torch. Blocks of experts
    off this rank get id -1."""
    import torch
    device = topk_ids.device
    numel = topk_ids.numel()
    max_num_tokens_padded = numel + num_experts * (block_size - 1)
    flat = topk_ids.flatten().long()
    counts = torch.bincount(flat, minlength=num_experts).cpu().tolist()
    order = torch.argsort(flat, stable=True).cpu().tolist()
    sorted_ids = torch.full((max_num_tokens_padded,), numel, dtype=torch.int32)
    expert_ids = torch.zeros(((max_num_tokens_padded + block_size - 1) // block_size,), dtype=torch.int32)
    pos, start = 0, 0
    for e in range(num_experts):
        c = counts[e]
        padded = (c + block_size - 1) // block_size * block_size
        sorted_ids[pos:pos + c] = torch.tensor(order[start:start + c], dtype=torch.int32)
        expert_ids[pos // block_size:(pos + padded) // block_size] = int(expert_map[e])
        pos += padded
        start += c
    return sorted_ids.to(device), expert_ids.to(device), torch.tensor([pos], dtype=torch.int32).to(device)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """fp16 A [M, K]; per expert int4 weights W_q [E, N, K] in 0..15 packed two a byte along K (the even row in the
    low nibble, as vLLM's MoE-WNA16 repacks GPTQ / AWQ checkpoints), fp16 scales [E, N, K // 128] and int4 zero
    points [E, N, K // 128] packed two a byte along N; a top-2 routing with the last expert off-rank."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    w_q = torch.randint(0, 16, (NUM_EXPERTS, N, K), device=device, generator=g, dtype=torch.uint8)
    scales = (torch.rand((NUM_EXPERTS, N, K // GROUP), device=device, generator=g) * 0.01 + 0.002).half()
    zp = torch.randint(5, 11, (NUM_EXPERTS, N, K // GROUP), device=device, generator=g, dtype=torch.uint8)
    b = (w_q[:, :, 0::2] | (w_q[:, :, 1::2] << 4)).contiguous()                     # [E, N, K // 2]
    b_zp = (zp[:, 0::2, :] | (zp[:, 1::2, :] << 4)).contiguous()                   # [E, N // 2, K // 128]
    logits = torch.randn((M, NUM_EXPERTS), device=device, generator=g)
    topk_weights, topk_ids = torch.topk(torch.softmax(logits, dim=-1), TOP_K, dim=-1)
    topk_ids = topk_ids.to(torch.int32)
    expert_map = list(range(NUM_EXPERTS - 1)) + [-1]
    sorted_ids, expert_ids, num_post = _moe_align_block_size(topk_ids, CONFIG["BLOCK_SIZE_M"], NUM_EXPERTS,
                                                             expert_map)
    return {"a": a, "b": b, "w_q": w_q, "scales": scales, "zp": zp, "b_zp": b_zp,
            "topk_weights": topk_weights.float().contiguous(), "topk_ids": topk_ids,
            "sorted_token_ids": sorted_ids, "expert_ids": expert_ids, "num_tokens_post_padded": num_post}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [M, top_k, N] fp16, as invoke_fused_moe_kernel launches the GPTQ / AWQ kernel (use_int4_w4a16, has_zp,
    mul_routed_weight True); rows routed to the off-rank expert are zero."""
    import torch
    A, B, B_scale, B_zp = inputs["a"], inputs["b"], inputs["scales"], inputs["b_zp"]
    sorted_token_ids, expert_ids = inputs["sorted_token_ids"], inputs["expert_ids"]
    cfg = dict(CONFIG)
    cfg["num_warps"] = config.get("num_warps", cfg["num_warps"])
    cfg["num_stages"] = config.get("num_stages", cfg["num_stages"])
    M, K, N = A.shape[0], A.shape[1], B.shape[1]
    C = torch.empty((M, TOP_K, N), device=A.device, dtype=A.dtype)
    EM = sorted_token_ids.shape[0]
    if M < cfg["BLOCK_SIZE_M"]:
        EM = min(sorted_token_ids.shape[0], M * TOP_K * cfg["BLOCK_SIZE_M"])
    grid = lambda META: (triton.cdiv(EM, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)  # noqa: E731
    fused_moe_kernel_gptq_awq[grid](
        A, B, C, B_scale, B_zp, inputs["topk_weights"], sorted_token_ids, expert_ids,
        inputs["num_tokens_post_padded"], N, K, EM, M * TOP_K,
        A.stride(0), A.stride(1), B.stride(0), B.stride(2), B.stride(1), C.stride(1), C.stride(2),
        B_scale.stride(0), B_scale.stride(2), B_scale.stride(1), B_zp.stride(0), B_zp.stride(2), B_zp.stride(1),
        block_k_diviable=K % cfg["BLOCK_SIZE_K"] == 0, group_size=GROUP, SPLIT_K=1, MUL_ROUTED_WEIGHT=True,
        top_k=TOP_K, compute_type=tl.float16, has_zp=True, use_int4_w4a16=True, use_int8_w8a16=False, **cfg)
    return C


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a = inputs["a"].double()
    ids, wts = inputs["topk_ids"].long(), inputs["topk_weights"].double()
    s = inputs["scales"].double().repeat_interleave(GROUP, dim=2)
    z = inputs["zp"].double().repeat_interleave(GROUP, dim=2)
    w = ((inputs["w_q"].double() - z) * s).half().double()        # the kernel rounds the weights to fp16
    M, N = a.shape[0], w.shape[1]
    out = torch.zeros((M, TOP_K, N), dtype=torch.float64, device=a.device)
    for e in range(NUM_EXPERTS - 1):                  # the last expert is off-rank: zeros
        tok, slot = (ids == e).nonzero(as_tuple=True)
        out[tok, slot] = (a[tok] @ w[e].T) * wts[tok, slot][:, None]
    return out


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * TOP_K * N * K
