"""FastDeploy's WINT2 fused-MoE FFN GEMM, ``moe_wint2_ffn_kernel`` (PaddlePaddle/FastDeploy
fastdeploy/model_executor/ops/triton_ops/wint2_fused_moe_kernel.py, commit 76eb06fe), launched by
``TritonWint2FusedMoeMethod.apply`` (fastdeploy/model_executor/layers/moe/fused_moe_wint2_backend.py) for the
up-gate projection of ERNIE-4.5-21B-A3B (hidden 2560, MoE intermediate 1536 -> N = 2 * 1536, 64 experts, top-6).

The constructs: vLLM-style routed MoE GEMM (``sorted_token_ids`` / ``expert_ids`` / ``num_tokens_post_padded``,
GROUP_SIZE_M swizzle, early ``return`` for blocks past the padded count, token rows gathered by
``offs_token // top_k``); **N, K and every stride are ``tl.constexpr``** (only ``num_valid_tokens`` and
``max_possible_num_post_padded`` are runtime); **a constexpr assigned under ``if USE_DOUBLE_QUANT:``**
(``s_packnums``); channel-wise fp32 code scale / code zero-point and super scale loaded before the loop; in the
K loop (``for k in range(0, tl.cdiv(K, BLOCK_SIZE_K))`` with constexpr K, so a constant trip count): one uint8
weight tile ``[BLOCK_SIZE_K / 4, BLOCK_SIZE_N]`` decoded **``tl.floor(b.to(fp32) * code_bs + code_bzp + 0.5)
.to(tl.int16)``**, then **four 6-bit fields extracted by int16 shifts ``(b >> 9) & 0x3F``, ``>> 6``, ``>> 3``,
``& 0x3F``**, each centred (``- 32``) and scaled by the group scale, and **four ``tl.dot``s per iteration into
one accumulator**, each against A columns ``4 * r + j`` loaded through **``a_ptrs + j`` (a strided
[BLOCK_M, BLOCK_K / 4] gather of A, four loads of the same pointer tile offset by 1, 2, 3)**; the group scale is a
**packed int4 pair whose nibble depends on the iteration parity** (``s_shift_bits = (1 - k % 2) * 4``;
``bs = ((bs >> s_shift_bits) & 0xF) * super_bs``) and whose **pointer advances only on odd iterations**
(``bs_ptrs += stride_bsk * (k % s_packnums)``: the scale row is re-read on the next trip); bf16 output stored
with the token mask.

Port notes: the kernel body verbatim; ``@paddle_use_triton_v2()`` (FastDeploy's wrapper that compiles a Triton
kernel into a Paddle custom op) replaced by ``@triton.jit``. ``launch`` is the first ``moe_wint2_ffn_kernel``
launch of ``TritonWint2FusedMoeMethod.apply`` (its config: BLOCK 16 x 512 x 64, GROUP_SIZE_M 1, 4 warps,
16 stages; ``MUL_ROUTED_WEIGHT=False``, ``USE_DOUBLE_QUANT=True``, ``top_k`` 6) in torch.
``tritonmoe_preprocess`` (a CUDA op) is written in torch as the vLLM ``moe_align_block_size`` it mirrors
(per-expert padding to BLOCK_SIZE_M, sentinel ``numel``, length ``numel + E * (BLOCK_SIZE_M - 1)``). The
quantised weights are synthetic: uint8 codes (the checkpoint's dtype is not in the repository; the kernel's
``b.to(tl.float32)`` reads them unsigned here), code scale in [8, 16) and zero-point in [0, 4) so the decoded
int16 stays in 12 bits, the int4 group scales packed two per byte (even group in the high nibble, as the kernel
reads them), fp32 super scales. N, K and the strides being constexpr, SMALL keeps the model's N and K and only
the token count is small."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

E, TOP_K, HIDDEN, INTER = 64, 6, 2560, 1536
N_, K_ = 2 * INTER, HIDDEN
CONFIG = {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 512, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 1, "num_warps": 4,
          "num_stages": 16}
_SCALE_ROWS = (K_ // 64 + 1) // 2
TWILL_SPEC: dict[str, Any] = {
    "kernel": "moe_wint2_ffn_kernel",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*u8", "c_ptr": "*bf16", "bs_ptr": "*u8", "superbs_ptr": "*fp32",
                  "codebs_ptr": "*fp32", "codebzp_ptr": "*fp32", "topk_weights_ptr": "*fp32",
                  "sorted_token_ids_ptr": "*i32", "expert_ids_ptr": "*i32", "num_tokens_post_padded_ptr": "*i32",
                  "num_valid_tokens": "i32", "max_possible_num_post_padded": "i32",
                  "N": "constexpr", "K": "constexpr", "stride_am": "constexpr", "stride_ak": "constexpr",
                  "stride_be": "constexpr", "stride_bk": "constexpr", "stride_bn": "constexpr",
                  "stride_cm": "constexpr", "stride_cn": "constexpr", "stride_bse": "constexpr",
                  "stride_bsk": "constexpr", "stride_bsn": "constexpr", "stride_bce": "constexpr",
                  "stride_bck": "constexpr", "stride_bcn": "constexpr"},
    "constexprs": {"N": N_, "K": K_, "stride_am": K_, "stride_ak": 1, "stride_be": (K_ // 4) * N_, "stride_bk": N_,
                   "stride_bn": 1, "stride_cm": N_, "stride_cn": 1, "stride_bse": _SCALE_ROWS * N_,
                   "stride_bsk": N_, "stride_bsn": 1, "stride_bce": N_, "stride_bck": 1, "stride_bcn": 1,
                   "BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 512, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 1,
                   "MUL_ROUTED_WEIGHT": False, "USE_DOUBLE_QUANT": True, "top_k": TOP_K},
    "num_warps": 4, "num_stages": 16,
    "divisibility": ["num_valid_tokens", "max_possible_num_post_padded"]}
PROBLEM: dict[str, int] = {"num_tokens": 1024}
SMALL: dict[str, int] = {"num_tokens": 2}


@triton.jit
def moe_wint2_ffn_kernel(
    # Pointers to matrices
    a_ptr,
    b_ptr,
    c_ptr,
    bs_ptr,
    superbs_ptr,
    codebs_ptr,
    codebzp_ptr,
    topk_weights_ptr,
    sorted_token_ids_ptr,
    expert_ids_ptr,
    num_tokens_post_padded_ptr,
    num_valid_tokens,
    # Matrix dimensions
    max_possible_num_post_padded,
    N: tl.constexpr,
    K: tl.constexpr,
    # The stride variables represent how much to increase the ptr by when
    # moving by 1 element in a particular dimension. E.g. `stride_am` is
    # how much to increase `a_ptr` by to get the element one row down
    # (A has M rows).
    stride_am: tl.constexpr,
    stride_ak: tl.constexpr,
    stride_be: tl.constexpr,
    stride_bk: tl.constexpr,
    stride_bn: tl.constexpr,
    stride_cm: tl.constexpr,
    stride_cn: tl.constexpr,
    stride_bse: tl.constexpr,
    stride_bsk: tl.constexpr,
    stride_bsn: tl.constexpr,
    stride_bce: tl.constexpr,
    stride_bck: tl.constexpr,
    stride_bcn: tl.constexpr,
    # Meta-parameters
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    MUL_ROUTED_WEIGHT: tl.constexpr,
    USE_DOUBLE_QUANT: tl.constexpr,
    top_k: tl.constexpr,
):
    """
    Implements the fused computation for a Mixture of Experts (MOE) using
    token and expert matrices.

    Key Parameters:
    - A: The input tensor representing tokens with shape (*, K), where '*' can
        be any shape representing batches and K is the feature dimension of
        each token.
    - B: The stacked MOE weight tensor with shape (E, N, K), where E is
        the number of experts, K is the input feature dimension, and N is
        the output feature dimension.
    - C: The output cache tensor with shape (M, topk, N), where M is the
        total number of tokens post padding, topk is the number of times
        each token is repeated, and N is the output feature dimension.
    - sorted_token_ids: A tensor containing the sorted indices of tokens,
        repeated topk times and arranged by the expert index they are
        assigned to.
    - expert_ids: A tensor containing the indices of the expert for each
        block. It determines which expert matrix from B should be used for
        each block in A.
    This kernel performs the multiplication of a token by its corresponding
    expert matrix as determined by `expert_ids`. The sorting of
    `sorted_token_ids` by expert index and padding ensures divisibility by
    BLOCK_SIZE_M, which is necessary to maintain consistency in block matrix
    multiplication across different blocks processed by the same expert.
    """

    if USE_DOUBLE_QUANT:
        # INT4 scale
        s_packnums: tl.constexpr = 2
    bzp: tl.constexpr = 32
    w_mask: tl.constexpr = 0x3F
    pack_num: tl.constexpr = 4
    real_k_size: tl.constexpr = (BLOCK_SIZE_K - 1) // pack_num + 1

    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(max_possible_num_post_padded, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    compute_type = c_ptr.dtype.element_ty

    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_SIZE_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)

    token_mask = offs_token < num_valid_tokens

    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    # offs_k = tl.arange(0, BLOCK_SIZE_K)
    offs_bk = tl.arange(0, real_k_size)

    a_ptrs = a_ptr + (offs_token[:, None] // top_k * stride_am + offs_bk[None, :] * pack_num * stride_ak)

    off_experts = tl.load(expert_ids_ptr + pid_m)
    b_ptrs = b_ptr + off_experts * stride_be + (offs_bk[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    bs_ptrs = bs_ptr + off_experts * stride_bse + offs_bn[None, :] * stride_bsn  # group-wise, need advanced

    off_set = off_experts * stride_bce + offs_bn[None, :] * stride_bcn
    # load channel-wise scale & zero-point
    if USE_DOUBLE_QUANT:
        superbs_ptrs = superbs_ptr + off_set  # channel-wise
        super_bs = tl.load(superbs_ptrs)  # super scale

    codebs_ptrs = codebs_ptr + off_set  # channel-wise
    code_bs = tl.load(codebs_ptrs)  # code scale
    codebzp_ptrs = codebzp_ptr + off_set  # channel-wise
    code_bzp = tl.load(codebzp_ptrs)  # code zp

    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):

        b = tl.load(b_ptrs)

        bs = tl.load(bs_ptrs)
        if USE_DOUBLE_QUANT:
            s_shift_bits = (1 - k % s_packnums) * 4
            bs = ((bs >> s_shift_bits) & 0xF) * super_bs

        # reverse to int16
        b = tl.floor((b.to(tl.float32) * code_bs + code_bzp) + 0.5).to(tl.int16)
        # dequant
        b1 = (((b >> 9) & w_mask) - bzp) * bs
        a = tl.load(
            a_ptrs,
            mask=token_mask[:, None],
            other=0.0,
        )
        accumulator += tl.dot(a, b1.to(a.dtype))

        b1 = (((b >> 6) & w_mask) - bzp) * bs
        a = tl.load(
            a_ptrs + 1,
            mask=token_mask[:, None],
            other=0.0,
        )
        accumulator += tl.dot(a, b1.to(a.dtype))

        b1 = (((b >> 3) & w_mask) - bzp) * bs
        a = tl.load(
            a_ptrs + 2,
            mask=token_mask[:, None],
            other=0.0,
        )
        accumulator += tl.dot(a, b1.to(a.dtype))

        b = ((b & w_mask) - bzp) * bs
        a = tl.load(
            a_ptrs + 3,
            mask=token_mask[:, None],
            other=0.0,
        )
        accumulator += tl.dot(a, b.to(a.dtype))

        b_ptrs += real_k_size * stride_bk
        a_ptrs += BLOCK_SIZE_K * stride_ak

        # advance scale ptr
        if USE_DOUBLE_QUANT:
            bs_ptrs += stride_bsk * (k % s_packnums)
        else:
            bs_ptrs += stride_bsk

    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        accumulator = accumulator * moe_weight[:, None]

    accumulator = accumulator.to(compute_type)
    # -----------------------------------------------------------
    # Write back the block of the output
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


def _moe_align(topk_ids: Any, block_m: int, num_experts: int) -> tuple[Any, Any, Any]:
    """``tritonmoe_preprocess`` in torch: pair ids (token * top_k + slot) grouped by expert, each expert's run padded
    to a multiple of ``block_m`` with the sentinel ``numel``; one expert id per block; the padded total."""
    import torch
    flat = topk_ids.flatten().long().cpu()
    numel = flat.numel()
    max_pad = numel + num_experts * (block_m - 1)
    sorted_ids = torch.full((max_pad,), numel, dtype=torch.int32)
    expert_ids = torch.zeros((triton.cdiv(max_pad, block_m),), dtype=torch.int32)
    pos = 0
    for e in range(num_experts):
        idx = torch.nonzero(flat == e).flatten()
        n = idx.numel()
        if n == 0:
            continue
        padded = triton.cdiv(n, block_m) * block_m
        sorted_ids[pos:pos + n] = idx.to(torch.int32)
        expert_ids[pos // block_m:(pos + padded) // block_m] = e
        pos += padded
    dev = topk_ids.device
    return sorted_ids.to(dev), expert_ids.to(dev), torch.tensor([pos], dtype=torch.int32, device=dev)


def make_inputs(num_tokens: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [T, 2560] bf16; weight codes [64, 640, 3072] uint8; int4 group scales packed [64, 20, 3072] uint8;
    super / code scales and code zero-points [64, 3072] fp32; top-6 routing from random logits."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((num_tokens, K_), device=device, generator=g).to(torch.bfloat16)
    w = torch.randint(0, 256, (E, K_ // 4, N_), device=device, generator=g, dtype=torch.int32).to(torch.uint8)
    ws = torch.randint(0, 256, (E, _SCALE_ROWS, N_), device=device, generator=g, dtype=torch.int32).to(torch.uint8)
    super_s = (torch.rand((E, N_), device=device, generator=g) * 0.5 + 0.5) / (32.0 * 8.0 * K_ ** 0.5)
    code_s = torch.randint(8, 16, (E, N_), device=device, generator=g).float()
    code_zp = torch.rand((E, N_), device=device, generator=g) * 4.0
    logits = torch.randn((num_tokens, E), device=device, generator=g)
    topk_weights, topk_ids = torch.topk(torch.softmax(logits, dim=-1), TOP_K, dim=-1)
    topk_ids = topk_ids.to(torch.int32)
    sorted_ids, expert_ids, num_post = _moe_align(topk_ids, CONFIG["BLOCK_SIZE_M"], E)
    return {"x": x, "w": w, "w_scale": ws, "super_scale": super_s.contiguous(), "code_scale": code_s,
            "code_zp": code_zp, "topk_weights": topk_weights.float().contiguous(), "topk_ids": topk_ids,
            "sorted_token_ids": sorted_ids, "expert_ids": expert_ids, "num_tokens_post_padded": num_post}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """intermediate_cache1 [T, 6, 3072] bf16, as the first launch of ``TritonWint2FusedMoeMethod.apply``."""
    import torch
    x, w = inputs["x"], inputs["w"]
    topk_ids = inputs["topk_ids"]
    sorted_token_ids = inputs["sorted_token_ids"]
    num_tokens, K = x.shape
    _, _, N = w.shape
    M = num_tokens
    top_k = topk_ids.shape[1]
    intermediate_cache1 = torch.empty([M, top_k, N], dtype=x.dtype, device=x.device)
    num_valid_tokens = topk_ids.shape[0] * topk_ids.shape[1]
    cfg = dict(CONFIG)
    cfg["num_warps"] = config.get("num_warps", cfg["num_warps"])
    cfg["num_stages"] = config.get("num_stages", cfg["num_stages"])
    max_possible_num_post_padded = sorted_token_ids.shape[0]
    grid = (triton.cdiv(max_possible_num_post_padded, cfg["BLOCK_SIZE_M"]) * triton.cdiv(N, cfg["BLOCK_SIZE_N"]),)
    moe_wint2_ffn_kernel[grid](
        x, w, intermediate_cache1, inputs["w_scale"], inputs["super_scale"], inputs["code_scale"],
        inputs["code_zp"], inputs["topk_weights"], sorted_token_ids, inputs["expert_ids"],
        inputs["num_tokens_post_padded"], num_valid_tokens, max_possible_num_post_padded,
        N=N, K=K,
        stride_am=x.stride(0), stride_ak=x.stride(1), stride_be=w.stride(0), stride_bk=w.stride(1), stride_bn=1,
        stride_cm=intermediate_cache1.stride(-2), stride_cn=1,
        stride_bse=inputs["w_scale"].stride(0), stride_bsk=inputs["w_scale"].stride(1), stride_bsn=1,
        stride_bce=inputs["code_scale"].stride(0), stride_bck=1, stride_bcn=1,
        BLOCK_SIZE_M=cfg["BLOCK_SIZE_M"], BLOCK_SIZE_N=cfg["BLOCK_SIZE_N"], BLOCK_SIZE_K=cfg["BLOCK_SIZE_K"],
        GROUP_SIZE_M=cfg["GROUP_SIZE_M"], MUL_ROUTED_WEIGHT=False, USE_DOUBLE_QUANT=True, top_k=top_k,
        num_warps=cfg["num_warps"], num_stages=cfg["num_stages"],
    )
    return intermediate_cache1


def _dequant(inputs: dict[str, Any], e: int) -> Any:
    """Expert e's weight [K, N] (fp64, each element rounded to bf16 as the kernel's ``.to(a.dtype)``): row
    64 * g + 4 * r + j = ((code[16 * g + r] >> (9, 6, 3, 0)[j]) & 63) - 32, times the group scale
    nibble(g) * super, where code = floor(u8 * code_scale + code_zp + 0.5)."""
    import torch
    code = torch.floor(inputs["w"][e].double() * inputs["code_scale"][e].double()[None, :]
                       + inputs["code_zp"][e].double()[None, :] + 0.5).long()           # [K/4, N]
    packed = inputs["w_scale"][e].long()                                                  # [G/2, N]
    G = K_ // 64
    g = torch.arange(G)
    nib = torch.where((g % 2 == 0)[:, None], packed[g // 2] >> 4, packed[g // 2]) & 0xF  # [G, N]
    scale = nib.double() * inputs["super_scale"][e].double()[None, :]                   # [G, N]
    fields = torch.stack([((code >> s) & 63) - 32 for s in (9, 6, 3, 0)], dim=1)        # [K/4, 4, N]
    wk = fields.reshape(K_, N_).double() * scale.repeat_interleave(64, dim=0)
    return wk.to(torch.bfloat16).double()


def reference(inputs: dict[str, Any]) -> Any:
    """C[t, s] = x[t] @ W[topk_ids[t, s]] (fp64, no routing weight: the up-gate launch)."""
    import torch
    x, topk_ids = inputs["x"].double(), inputs["topk_ids"].long()
    T = x.shape[0]
    out = torch.zeros((T, TOP_K, N_), dtype=torch.float64, device=x.device)
    for e in torch.unique(topk_ids).tolist():
        t, s = torch.nonzero(topk_ids == e, as_tuple=True)
        out[t, s] = x[t] @ _dequant(inputs, e)
    return out


def flops(num_tokens: int) -> float:
    return 2.0 * num_tokens * TOP_K * N_ * K_
