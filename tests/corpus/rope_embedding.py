"""Unsloth's rotary embedding kernel (``_rope_embedding``, unsloth/kernels/rope_embedding.py): one program per
(row, group of ROPE_GROUP_SIZE heads), cos/sin loaded once, a loop over the group's heads rotating the two halves
of each head in place; BACKWARD_PASS flips sin's sign."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

ROPE_GROUP_SIZE: int = 4


@triton.heuristics({"BACKWARD_PASS": lambda args: bool(args["BACKWARD_PASS"]), })
@triton.jit
def _rope_embedding(
    Q, Q_row_stride,
    cos, cos_row_stride,
    sin, sin_row_stride,
    seqlen,
    head_dim: tl.constexpr,
    n_heads: tl.constexpr,
    BACKWARD_PASS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    """
        Calculates the RoPE Embedding quickly
        RoPE is Q * cos + rotate_half(Q) * sin
        See our blog post for more info
    """
    ROPE_GROUP_SIZE = 4
    row_position = tl.program_id(0)
    group_head_position = tl.program_id(1)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    half_head_dim = head_dim // 2
    mask = col_offsets < half_head_dim

    sin1 = tl.load(sin + (row_position % seqlen) * sin_row_stride + half_head_dim * 0 + col_offsets,
                   mask=mask, other=0)
    cos1 = tl.load(cos + (row_position % seqlen) * cos_row_stride + half_head_dim * 0 + col_offsets,
                   mask=mask, other=0)

    if BACKWARD_PASS:
        # See our blog post for more info.
        sin1 = -sin1
    pass

    # [TODO] Autotune ROPE_GROUP_SIZE to be 1, 2, 4, 8
    head_start = group_head_position * ROPE_GROUP_SIZE
    head_end = min((head_start + ROPE_GROUP_SIZE), n_heads)

    # 10% Faster kernel from [HuyNguyen-hust](https://github.com/unslothai/unsloth/pull/238)
    for k in range(head_start, head_end):
        offs_q1 = row_position * Q_row_stride + k * head_dim + col_offsets
        offs_q2 = row_position * Q_row_stride + k * head_dim + col_offsets + half_head_dim

        # For Gemma - sometimes RoPE must be done in float32 and not bfloat16
        Q1 = tl.load(Q + offs_q1, mask=mask, other=0).to(sin1.dtype)
        Q2 = tl.load(Q + offs_q2, mask=mask, other=0).to(sin1.dtype)

        tl.store(Q + offs_q1, Q1 * cos1 - Q2 * sin1, mask=mask)
        tl.store(Q + offs_q2, Q2 * cos1 + Q1 * sin1, mask=mask)
    pass


TWILL_SPEC: dict[str, Any] = {
    "signature": {"Q": "*fp16", "Q_row_stride": "i32", "cos": "*fp32", "cos_row_stride": "i32", "sin": "*fp32",
                  "sin_row_stride": "i32", "seqlen": "i32"},
    "constexprs": {"head_dim": 128, "n_heads": 32, "BACKWARD_PASS": False, "BLOCK_SIZE": 64},
    "num_warps": 4, "num_stages": 2, "divisibility": ["Q_row_stride", "cos_row_stride", "sin_row_stride"]}
PROBLEM: dict[str, int] = {"B": 4, "S": 4096, "H": 32}
SMALL: dict[str, int] = {"B": 2, "S": 9, "H": 32}     # n_heads is a constexpr
HD = 128


def make_inputs(B, S, H, device="cuda", seed=0):
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    ang = torch.arange(S, device=device)[:, None].float() * (10000 ** (-torch.arange(HD // 2, device=device) / (HD // 2)))
    return {"q": torch.randn((B, S, H, HD), device=device, generator=g).to(torch.float16),
            "cos": ang.cos().contiguous(), "sin": ang.sin().contiguous()}


def launch(inputs, **config):
    q = inputs["q"].clone()
    B, S, H, _ = q.shape
    Q = q.view(B * S, H * HD)
    cos, sin = inputs["cos"], inputs["sin"]
    _rope_embedding[(B * S, triton.cdiv(H, ROPE_GROUP_SIZE))](
        Q, Q.stride(0), cos, cos.stride(0), sin, sin.stride(0), S, head_dim=HD, n_heads=H,
        BACKWARD_PASS=False, BLOCK_SIZE=64, num_warps=config.get("num_warps", 4),
        num_stages=config.get("num_stages", 2))
    return q


def reference(inputs):
    import torch
    q = inputs["q"].double()
    c, s = inputs["cos"].double()[None, :, None, :], inputs["sin"].double()[None, :, None, :]
    q1, q2 = q[..., :HD // 2], q[..., HD // 2:]
    return torch.cat([q1 * c - q2 * s, q2 * c + q1 * s], -1)
