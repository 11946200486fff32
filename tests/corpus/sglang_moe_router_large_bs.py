"""SGLang's fused MoE router for large batches, ``fused_moe_router_large_bs_kernel``
(sgl-project/sglang python/sglang/srt/layers/moe/router.py, launched by ``fused_moe_router_large_bs_impl`` when
bs >= 512, topk == 1, num_experts <= BLOCK_SIZE_N and hidden % BLOCK_SIZE_K == 0; Grok-1's softcapped router):
the router GEMM, the logit soft-cap and the top-1 softmax gate in one kernel.

The constructs: one program per BLOCK_SIZE_M (32) tokens, all experts in one BLOCK_SIZE_N (16) tile; a
``for k in range(0, K // BLOCK_SIZE_K)`` loop (K a constexpr, hidden % BLOCK_SIZE_K == 0 so no K mask) advancing two
pointer tensors by ``+= BLOCK_SIZE_K``; the bf16 tiles loaded under row masks only (``bs_mask`` on the tokens,
``expert_mask`` on the expert rows: [M, 1] / [N, 1] masks broadcast over K), **cast to fp32 before ``tl.dot``** (a
TF32 dot with default input_precision) and the expert tile **transposed in registers** (``.T``: the router weight
is K-major, [experts, hidden]); after the loop an elementwise tanh soft-cap built from ``tl.exp``, a masked
``tl.argmax`` / ``tl.max(keep_dims=True)`` over the expert axis, ``1 / sum(exp)`` as the top-1 weight, and two
masked stores (int32 ids, fp32 weights). Grok-1's shapes: 8 experts, hidden 6144, soft-cap 30. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_EXPERTS, SOFTCAP = 8, 30.0
BLOCK_M, BLOCK_N, BLOCK_K = 32, 16, 256
TWILL_SPEC: dict[str, Any] = {
    "kernel": "fused_moe_router_large_bs_kernel",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*bf16", "topk_weights_ptr": "*fp32", "topk_ids_ptr": "*i32",
                  "bs": "i32"},
    "constexprs": {"num_experts": NUM_EXPERTS, "topk": 1, "moe_softcapping": SOFTCAP, "moe_renormalize": False,
                   "K": 6144, "BLOCK_SIZE_M": BLOCK_M, "BLOCK_SIZE_N": BLOCK_N, "BLOCK_SIZE_K": BLOCK_K,
                   "stride_am": 6144, "stride_bn": 6144},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "topk_weights_ptr", "topk_ids_ptr"]}
# a prefill batch of 8192 tokens through Grok-1's router (hidden 6144, 8 experts)
PROBLEM: dict[str, int] = {"B": 8192, "H": 6144}
SMALL: dict[str, int] = {"B": 77, "H": 512}


@triton.jit
def fused_moe_router_large_bs_kernel(
    a_ptr,  # input (bs, hidden_dim)
    b_ptr,  # input (num_experts, hidden_dim)
    topk_weights_ptr,  # output (bs, topk)
    topk_ids_ptr,  # output (bs, topk)
    bs,
    num_experts: tl.constexpr,
    topk: tl.constexpr,  # only support topk == 1
    moe_softcapping: tl.constexpr,
    moe_renormalize: tl.constexpr,  # not supported
    K: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    stride_am: tl.constexpr,
    stride_bn: tl.constexpr,
):

    # 1. get block id
    pid = tl.program_id(axis=0)

    # 2. create pointers for the first block of A and B
    # 2.1. setup a_ptrs with offsets in m and k
    offs_m = pid * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)[:, None]
    bs_mask = offs_m < bs
    offs_k = tl.arange(0, BLOCK_SIZE_K)[None, :]
    a_ptrs = a_ptr + (offs_m * stride_am + offs_k)

    # 2.2. setup b_ptrs with offsets in k and n.
    #      Note: b matrix is k-major.
    offs_k = tl.arange(0, BLOCK_SIZE_K)[None, :]
    offs_n = tl.arange(0, BLOCK_SIZE_N)[:, None]
    expert_mask = offs_n < num_experts
    b_ptrs = b_ptr + (offs_n * stride_bn + offs_k)

    # 3. Create an accumulator of float32 of size [BLOCK_SIZE_M, BLOCK_SIZE_N]
    #    3.1. iterate in K dimension
    #    3.2. transpose tile B
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K // BLOCK_SIZE_K):  # hidden_dim % BLOCK_SIZE_K == 0
        a = tl.load(
            a_ptrs,
            mask=bs_mask,
            other=0.0,
        ).to(tl.float32)
        b = tl.load(b_ptrs, mask=expert_mask, other=0.0).to(tl.float32).T
        acc += tl.dot(a, b)

        # Advance the ptrs to the next K block.
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K

    # 4. logit softcap
    logits_scaled = acc / moe_softcapping
    exped = tl.exp(2 * logits_scaled)
    logits_softcapped = (exped - 1) / (exped + 1) * moe_softcapping

    # 5. top1
    cond = tl.arange(0, BLOCK_SIZE_N)[None, :] < num_experts
    top1 = tl.argmax(tl.where(cond, logits_softcapped, float("-inf")), axis=1)
    top1_v = tl.max(
        tl.where(cond, logits_softcapped, float("-inf")), axis=1, keep_dims=True
    )
    invsumexp = 1.0 / tl.sum(
        tl.where(cond, tl.exp(logits_softcapped - top1_v), 0.0), axis=1
    )

    # 6. store to output
    offs_topk = pid * topk * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    topk_mask = offs_topk < bs
    tl.store(topk_ids_ptr + offs_topk, top1, mask=topk_mask)
    tl.store(
        topk_weights_ptr + offs_topk,
        invsumexp,
        mask=topk_mask,
    )


def make_inputs(B: int, H: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """hidden_states [B, H] bf16 and the router weight [8, H] bf16 (std 0.02). Each token is pushed towards one
    expert (its logit raised by about 2.5) so its top-1 choice does not hinge on TF32 rounding of a near tie."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    w = torch.randn((NUM_EXPERTS, H), device=device, generator=g) * 0.02
    x = torch.randn((B, H), device=device, generator=g)
    pick = torch.randint(0, NUM_EXPERTS, (B,), device=device, generator=g)
    x = x + w[pick] / (w[pick].norm(dim=1, keepdim=True) ** 2) * 2.5
    return {"x": x.bfloat16().contiguous(), "w": w.bfloat16().contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(topk_weights [B, 1] fp32, topk_ids [B, 1] int32), as fused_moe_router_large_bs_impl launches the kernel."""
    import torch
    x, router_weight = inputs["x"], inputs["w"]
    bs, hidden_dim = x.shape
    num_experts = router_weight.shape[0]
    topk = 1
    assert num_experts <= BLOCK_N and hidden_dim % BLOCK_K == 0
    topk_weights = torch.empty((bs, topk), dtype=torch.float32, device=x.device)
    topk_ids = torch.empty((bs, topk), dtype=torch.int32, device=x.device)
    grid = (triton.cdiv(bs, BLOCK_M) * triton.cdiv(num_experts, BLOCK_N),)
    fused_moe_router_large_bs_kernel[grid](
        a_ptr=x, b_ptr=router_weight, topk_weights_ptr=topk_weights, topk_ids_ptr=topk_ids, bs=bs,
        num_experts=num_experts, topk=topk, moe_softcapping=SOFTCAP, moe_renormalize=False, K=hidden_dim,
        BLOCK_SIZE_M=BLOCK_M, BLOCK_SIZE_N=BLOCK_N, BLOCK_SIZE_K=BLOCK_K, stride_am=hidden_dim,
        stride_bn=hidden_dim, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return topk_weights, topk_ids


def reference(inputs: dict[str, Any]) -> Any:
    """SGLang's forward_vllm path: fp32 logits, tanh soft-cap, the top-1 softmax probability and its expert."""
    import torch
    g = inputs["x"].float() @ inputs["w"].float().T
    g = torch.tanh(g / SOFTCAP) * SOFTCAP
    p = torch.softmax(g, dim=-1)
    w, ids = p.max(dim=-1, keepdim=True)
    return w, ids.to(torch.int32)


def flops(B: int, H: int) -> float:
    """The router GEMM over the padded 16-expert tile: 2 * B * 16 * H."""
    return 2.0 * B * BLOCK_N * H
