"""vLLM's Lightning Attention prefill, step 1 of 4: ``_fwd_diag_kernel`` (vllm-project/vllm
vllm/model_executor/layers/lightning_attn.py, launched by ``_attention.forward`` under ``lightning_attention`` for
MiniMax-Text-01's linear-attention layers): the intra-block (diagonal) part of decayed linear attention,
o_t = sum_{t' <= t, same 256-row block} exp(-s_h (t - t')) (q_t . k_t') v_t', one program per (batch * head * block,
32-row sub-block).

The constructs: the program's block and head from ``tl.program_id(0)`` by ``//`` and ``%`` of a runtime NUM_BLOCK;
**``b`` and ``h`` constexpr parameters passed positionally** (``_fwd_diag_kernel[grid](q, k, v, o, s, b, h, n, d,
e, BLOCK=..., ...)``), d and e too; raw pointer tiles built by hand (K **read transposed** as ``tl.arange(0,
CBLOCK)[None, :] * d + tl.arange(0, d)[:, None]``); ONE scalar load of the head's decay rate ``s``; a **triangular
loop** ``for j in range(i + 1)`` whose trip count is the second program id plus one (1 to 8 iterations: the
sub-blocks up to and including the diagonal); inside it a [32, 32] decay tile built from ``diff = q_index[:, None] -
kv_index[None, :]`` with ``tl.where(diff >= 0, -s_index, float("-inf"))`` and ``tl.exp`` (the causal mask folded
into the exponent), **K and V loaded with masks against the sequence length** (``block_offset + kv_index < n``) and
``.to(tl.float32)``, two chained dots ``qk = tl.dot(q, k_trans) * decay`` and ``qkv += tl.dot(qk, v)`` on **fp32
operands** (MiniMax runs the layer in fp32 after its SiLU: Triton's default input precision, i.e. **TF32** dots), and
**pointers advanced in place** (``K_trans_block_ptr += CBLOCK * d``) rather than recomputed; the output stored with
``O_block_ptr.dtype.element_ty``. BLOCK 256, CBLOCK 32, Triton's default 4 warps and 3 stages (the launch gives
none).

Port notes: ``lightning_attention``'s head-dim split (one chunk at d = 128) and ``_attention.forward``'s first step
are the launch; the other three kernels are not run, so ``launch`` returns the diagonal part (what o holds after
step 1). MiniMax-Text-01's 64 heads at tensor parallelism 8 (8 heads a rank), head dim 128; the slopes are
ALiBi-style ``2 ** (-8 (i + 1) / 64)``. ``PAD_SLOT_ID`` and einops imports dropped (unused by this kernel). Nothing
here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HEADS, HEAD_DIM = 8, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_diag_kernel",
    "signature": {"Q": "*fp32", "K": "*fp32", "V": "*fp32", "Out": "*fp32", "S": "*fp32", "n": "i32",
                  "NUM_BLOCK": "i32"},
    "constexprs": {"b": 4, "h": HEADS, "d": HEAD_DIM, "e": HEAD_DIM, "BLOCK": 256, "CBLOCK": 32},
    "num_warps": 4, "num_stages": 3,
    "divisibility": []}
# a prefill of 4 sequences of 8192 tokens (the kernel's b is a constexpr: TWILL_SPEC's b matches PROBLEM's B)
PROBLEM: dict[str, int] = {"B": 4, "n": 8192}
SMALL: dict[str, int] = {"B": 1, "n": 300}


@triton.jit
def _fwd_diag_kernel(
    Q,
    K,
    V,
    Out,
    S,
    b: tl.constexpr,
    h: tl.constexpr,
    n,
    d: tl.constexpr,
    e: tl.constexpr,
    BLOCK: tl.constexpr,
    NUM_BLOCK,
    CBLOCK: tl.constexpr,
):
    # This kernel computes the diagonal blocks of the attention matrix
    # Each diagonal block represents attention
    # where queries attend to keys in the same block
    off = tl.program_id(0)
    off_bh = off // NUM_BLOCK  # batch-head index
    off_block = off % NUM_BLOCK  # block index within the sequence
    off_cblock = tl.program_id(1)  # sub-block index within a block

    off_h = off_bh % h  # head index

    # Calculate base offsets for the current batch and head
    qk_offset = off_bh * n * d
    v_offset = off_bh * n * e
    o_offset = off_bh * n * e

    # Calculate offsets for the current block
    block_offset = off_block * BLOCK
    qk_block_offset = block_offset * d
    v_block_offset = block_offset * e
    o_block_offset = block_offset * e

    # Calculate offsets for the current sub-block
    cblock_offset = off_cblock * CBLOCK
    q_cblock_offset = cblock_offset * d
    o_cblock_offset = cblock_offset * e

    # Calculate pointers to the query, key, value, and output tensors
    Q_block_ptr = (
        Q
        + qk_offset
        + qk_block_offset
        + q_cblock_offset
        + tl.arange(0, CBLOCK)[:, None] * d
        + tl.arange(0, d)[None, :]
    )
    K_trans_block_ptr = (
        K
        + qk_offset
        + qk_block_offset
        + tl.arange(0, CBLOCK)[None, :] * d
        + tl.arange(0, d)[:, None]
    )
    V_block_ptr = (
        V
        + v_offset
        + v_block_offset
        + tl.arange(0, CBLOCK)[:, None] * e
        + tl.arange(0, e)[None, :]
    )
    O_block_ptr = (
        Out
        + o_offset
        + o_block_offset
        + o_cblock_offset
        + tl.arange(0, CBLOCK)[:, None] * e
        + tl.arange(0, e)[None, :]
    )

    # Load the decay rate for the current head
    S_block_ptr = S + off_h
    s = tl.load(S_block_ptr)

    i = off_cblock
    q_index = tl.arange(0, CBLOCK) + i * CBLOCK

    # Load query values
    q = tl.load(Q_block_ptr, mask=block_offset + q_index[:, None] < n, other=0.0).to(
        tl.float32
    )

    # Initialize output accumulator
    qkv = tl.zeros([CBLOCK, e], dtype=tl.float32)

    # Process all sub-blocks up to and
    # including the current one (causal attention)
    for j in range(i + 1):
        kv_index = tl.arange(0, CBLOCK) + j * CBLOCK
        diff = q_index[:, None] - kv_index[None, :]
        s_index = s * diff
        # Apply causal mask: only attend to positions before the current one
        s_index = tl.where(diff >= 0, -s_index, float("-inf"))
        decay = tl.exp(s_index)

        # Load key and value
        k_trans = tl.load(
            K_trans_block_ptr,
            mask=block_offset + kv_index[None, :] < n,
            other=0.0,
        ).to(tl.float32)
        v = tl.load(
            V_block_ptr,
            mask=block_offset + kv_index[:, None] < n,
            other=0.0,
        ).to(tl.float32)

        # Compute attention scores and apply decay
        qk = tl.dot(q, k_trans) * decay

        # Compute weighted values and accumulate
        qkv += tl.dot(qk, v)

        # Move to the next sub-block
        K_trans_block_ptr += CBLOCK * d
        V_block_ptr += CBLOCK * e

    # Store the result
    tl.store(
        O_block_ptr,
        qkv.to(O_block_ptr.dtype.element_ty),
        mask=block_offset + q_index[:, None] < n,
    )


def make_inputs(B: int, n: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, 8, n, 128] fp32 (SiLU of randn, as MiniMax's layer feeds them; k scaled by 1/sqrt(d)); s [8]
    fp32 decay rates."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    shape = (B, HEADS, n, HEAD_DIM)
    q = torch.nn.functional.silu(torch.randn(shape, device=device, generator=g))
    k = torch.nn.functional.silu(torch.randn(shape, device=device, generator=g)) * HEAD_DIM ** -0.5
    v = torch.nn.functional.silu(torch.randn(shape, device=device, generator=g))
    s = torch.tensor([2.0 ** (-8.0 * (i + 1) / 64) for i in range(HEADS)], device=device, dtype=torch.float32)
    return {"q": q, "k": k, "v": v, "s": s.reshape(HEADS, 1, 1)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Step 1 of ``_attention.forward`` (one head-dim chunk, d = 128): o holds the diagonal blocks' output."""
    import torch
    q = inputs["q"].contiguous()
    k = inputs["k"].contiguous()
    v = inputs["v"].contiguous()
    s = inputs["s"].contiguous()
    b, h, n, d = q.shape
    e = v.shape[-1]
    o = torch.empty((b, h, n, e), dtype=q.dtype, device=q.device)
    BLOCK = 256
    NUM_BLOCK = triton.cdiv(n, BLOCK)
    CBLOCK = 32
    NUM_CBLOCK = BLOCK // CBLOCK
    assert BLOCK % CBLOCK == 0, "BLOCK must be a multiple of CBLOCK"
    grid = (b * h * NUM_BLOCK, NUM_CBLOCK)
    _fwd_diag_kernel[grid](
        q,
        k,
        v,
        o,
        s,
        b,
        h,
        n,
        d,
        e,
        BLOCK=BLOCK,
        NUM_BLOCK=NUM_BLOCK,
        CBLOCK=CBLOCK,
        **{key: config[key] for key in ("num_warps", "num_stages") if key in config},
    )
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """Per 256-row block (the last one short), causal decayed attention inside the block, in fp64."""
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    s = inputs["s"].double().reshape(1, -1, 1, 1)
    n = q.shape[2]
    out = torch.empty_like(v)
    for start in range(0, n, 256):
        stop = min(start + 256, n)
        idx = torch.arange(stop - start, device=q.device, dtype=torch.float64)
        diff = idx[:, None] - idx[None, :]
        decay = torch.where(diff >= 0, torch.exp(-s * diff), torch.zeros((), dtype=torch.float64, device=q.device))
        scores = q[:, :, start:stop] @ k[:, :, start:stop].transpose(-1, -2) * decay
        out[:, :, start:stop] = scores @ v[:, :, start:stop]
    return out


def flops(B: int, n: int) -> float:
    """Per 32-row sub-block i (0..7) of each 256-row block, i + 1 pairs of [32, 128] x [128, 32] and [32, 32] x
    [32, 128] dots: 36 pairs a block."""
    blocks = B * HEADS * triton.cdiv(n, 256)
    return blocks * 36 * 2 * (2.0 * 32 * 32 * HEAD_DIM)
