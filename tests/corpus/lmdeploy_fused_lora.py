"""LMDeploy's multi-adapter fused LoRA, ``_fused_lora_kernel`` (InternLM/lmdeploy
lmdeploy/pytorch/kernels/cuda/fused_lora.py, launched by ``fused_lora``): for each sequence of a ragged batch,
out[rows] (+)= scaling[a] * (x[rows] @ lora_a[a]^T) @ lora_b[a], with adapter a = adapter_ids[seq].

The constructs: ``@triton.autotune`` (two configs, ``restore_value=['c_ptr']``, ``warmup`` / ``rep``; the first,
32 x 128 x 128 with 4 warps and 4 stages, is the one specified); a 2-D grid (M blocks x sequences) with **two
early returns** (``if M <= 0`` on a loaded sequence length, ``if pid_m * BLOCK_SIZE_M >= M``); **chained
dependent loads** (``adapter_id`` loaded, then ``rank_start`` / ``rank`` / ``scaling`` loaded at that index); a
**runtime ``if rank == 0`` / else** around the loops (the rank-0 side a zero-fill loop under ``if not CUM``); in the
else side **two loops in sequence**: the shrink loop over K (``tl.dot`` of a [32, 128] x-tile, rows wrapped with
``% M``, by a [128, BLOCK_SIZE_R = 16] lora_a tile whose rows are ``rank_start + arange(16) % rank``; a
**[32, 16] fp32 accumulator**), a bf16 cast, a scalar scale and a ``tl.where`` column mask, then the expand loop over
N (a [32, 16] x [16, 128] dot each iteration, **K = 16**) storing through the ``@triton.jit`` helper
``_atomic_store``: its ``if (dtype == torch.float16) | (dtype == torch.float32)`` compares a Triton dtype with a
**torch dtype** (always false in Triton 3.6), so it takes the bf16 path: **load the output, add, store** (a
read-modify-write per iteration; CUM=True, the accumulate-into-output mode). ``N``, ``K`` and most strides are
constexprs. Port notes: none beyond choosing bf16 and CUM=True; a prefill batch of 8 sequences, hidden 4096, ranks
16 / 8 / 0 (BLOCK_SIZE_R = max(16, max_rank) = 16)."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

HIDDEN, RANKS = 4096, (16, 8, 0)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fused_lora_kernel",
    "signature": {"a_ptr": "*bf16", "lora_a_ptr": "*bf16", "lora_b_ptr": "*bf16", "c_ptr": "*bf16",
                  "scaling_ptr": "*fp32", "rank_start_ptr": "*i64", "ranks_ptr": "*i64", "seq_start_ptr": "*i64",
                  "seq_lens_ptr": "*i64", "adapter_ids_ptr": "*i64", "stride_am": "i32", "stride_cm": "i32"},
    "constexprs": {"N": HIDDEN, "K": HIDDEN, "stride_ak": 1, "stride_lar": HIDDEN, "stride_lak": 1,
                   "stride_lbr": HIDDEN, "stride_lbn": 1, "stride_cn": 1, "BLOCK_SIZE_R": 16, "BLOCK_SIZE_M": 32,
                   "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "CUM": True},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["stride_am", "stride_cm"]}
PROBLEM: dict[str, int] = {"B": 8, "L": 512, "N": HIDDEN, "K": HIDDEN}
SMALL: dict[str, int] = {"B": 4, "L": 40, "N": HIDDEN, "K": HIDDEN}


def get_autotune_config():
    """get autotune config."""
    return [
        triton.Config({
            'BLOCK_SIZE_M': 32,
            'BLOCK_SIZE_N': 128,
            'BLOCK_SIZE_K': 128
        }, num_stages=4, num_warps=4),
        triton.Config({
            'BLOCK_SIZE_M': 16,
            'BLOCK_SIZE_N': 256,
            'BLOCK_SIZE_K': 128
        }, num_stages=4, num_warps=4),
    ]


@triton.jit
def _atomic_store(ptrs, val, mask):
    """atomic store values."""
    dtype = ptrs.dtype.element_ty
    if (dtype == torch.float16) | (dtype == torch.float32):
        tl.atomic_add(ptrs, val, mask=mask, sem='relaxed')
    else:
        # bfloat16 does not support atomic add
        origin = tl.load(ptrs, mask=mask)
        val = val.to(origin.dtype)
        val += origin
        tl.store(ptrs, val, mask=mask)


@triton.autotune(
    configs=get_autotune_config(),
    key=['N', 'K'],
    restore_value=['c_ptr'],
    warmup=5,
    rep=20,
)
@triton.jit
def _fused_lora_kernel(
    a_ptr,
    lora_a_ptr,
    lora_b_ptr,
    c_ptr,
    scaling_ptr,
    rank_start_ptr,
    ranks_ptr,
    seq_start_ptr,
    seq_lens_ptr,
    adapter_ids_ptr,
    N: tl.constexpr,
    K: tl.constexpr,
    stride_am,
    stride_ak: tl.constexpr,
    stride_lar: tl.constexpr,
    stride_lak: tl.constexpr,
    stride_lbr: tl.constexpr,
    stride_lbn: tl.constexpr,
    stride_cm,
    stride_cn: tl.constexpr,
    BLOCK_SIZE_R: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    CUM: tl.constexpr,
):
    """fused lora kernel."""
    pid = tl.program_id(axis=0)
    bid = tl.program_id(axis=1)

    M = tl.load(seq_lens_ptr + bid)
    if M <= 0:
        return

    seq_start = tl.load(seq_start_ptr + bid)
    adapter_id = tl.load(adapter_ids_ptr + bid)
    rank_start = tl.load(rank_start_ptr + adapter_id)
    rank = tl.load(ranks_ptr + adapter_id)

    pid_m = pid

    if pid_m * BLOCK_SIZE_M >= M:
        return

    offs_m = (seq_start + pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M))
    offs_n = tl.arange(0, BLOCK_SIZE_N)

    mask_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M) < M
    offs_cm = offs_m
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_n[None, :]

    if rank == 0:
        if not CUM:
            for n in range(0, tl.cdiv(N, BLOCK_SIZE_N)):
                mask_cn = (offs_n < N - n * BLOCK_SIZE_N)
                c_mask = mask_cm[:, None] * mask_cn[None, :]
                tl.store(c_ptrs, 0.0, mask=c_mask)
                c_ptrs += stride_cn * BLOCK_SIZE_N
    else:

        offs_am = (seq_start + (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M)
        offs_r = rank_start + tl.arange(0, BLOCK_SIZE_R) % rank
        offs_k = tl.arange(0, BLOCK_SIZE_K)
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        la_ptrs = lora_a_ptr + (offs_k[:, None] * stride_lak + offs_r[None, :] * stride_lar)

        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_R), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
            # Load the next block of A and B
            # If it is out of bounds, set it to 0.
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
            la = tl.load(la_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
            # We accumulate along the K dimension.
            accumulator = tl.dot(a, la, acc=accumulator)
            # Advance the ptrs to the next K block.
            a_ptrs += BLOCK_SIZE_K * stride_ak
            la_ptrs += BLOCK_SIZE_K * stride_lak
        ar = accumulator.to(lora_b_ptr.dtype.element_ty)

        scaling = tl.load(scaling_ptr + adapter_id).to(ar.dtype)
        ar *= scaling
        ar = tl.where(tl.arange(0, BLOCK_SIZE_R)[None, :] < rank, ar, tl.zeros_like(ar))
        lb_ptrs = lora_b_ptr + (offs_r[:, None] * stride_lbr + offs_n[None, :] * stride_lbn)

        for n in range(0, tl.cdiv(N, BLOCK_SIZE_N)):
            lb = tl.load(lb_ptrs, mask=offs_n[None, :] < N - n * BLOCK_SIZE_N)
            c = tl.dot(ar, lb)

            mask_cn = (offs_n < N - n * BLOCK_SIZE_N)
            c_mask = mask_cm[:, None] * mask_cn[None, :]
            if CUM:
                _atomic_store(c_ptrs, c, mask=c_mask)
            else:
                tl.store(c_ptrs, c, mask=c_mask)
            c_ptrs += stride_cn * BLOCK_SIZE_N
            lb_ptrs += stride_lbn * BLOCK_SIZE_N


def _lens(B: int, L: int) -> list[int]:
    return [(L, L // 3 + 1, 0, L // 2 + 3)[i % 4] for i in range(B)]


def make_inputs(B: int, L: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [T, K] bf16 (T = sum of the ragged lengths L, L/3+1, 0, L/2+3, ...), stacked lora_a [sum ranks, K] and lora_b
    [sum ranks, N] bf16 for adapters of ranks 16 / 8 / 0, per-adapter fp32 scaling, the existing output [T, N] bf16,
    per-sequence int64 starts / lengths / adapter ids (adapters 0, 1, 0, 2, ...)."""
    g = torch.Generator(device=device).manual_seed(seed)
    lens = _lens(B, L)
    T = sum(lens)
    ranks = torch.tensor(RANKS, dtype=torch.int64, device=device)
    rank_start = torch.cumsum(ranks, 0) - ranks
    R = int(ranks.sum())
    x = torch.randn((T, K), device=device, generator=g).bfloat16()
    lora_a = (torch.randn((R, K), device=device, generator=g) * K ** -0.5).bfloat16()
    lora_b = torch.randn((R, N), device=device, generator=g).bfloat16()
    out = torch.randn((T, N), device=device, generator=g).bfloat16()
    seq_lens = torch.tensor(lens, dtype=torch.int64, device=device)
    seq_start = torch.cumsum(seq_lens, 0) - seq_lens
    adapter_ids = torch.tensor([(0, 1, 0, 2)[i % 4] for i in range(B)], dtype=torch.int64, device=device)
    scaling = torch.tensor([2.0, 0.5, 1.0], dtype=torch.float32, device=device)
    return {"x": x, "lora_a": lora_a, "lora_b": lora_b, "out": out, "scaling": scaling, "rank_start": rank_start,
            "ranks": ranks, "seq_start": seq_start, "seq_lens": seq_lens, "adapter_ids": adapter_ids,
            "max_rank": max(RANKS), "max_seqlen": max(lens)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The output [T, N] bf16 after ``fused_lora(x, lora_a, lora_b, ..., output=out, cum=True)`` (on a copy)."""
    input, lora_a, lora_b = inputs["x"], inputs["lora_a"], inputs["lora_b"]
    output = inputs["out"].clone()
    seq_lens = inputs["seq_lens"]
    max_seqlen = inputs["max_seqlen"]

    def grid(META):
        ret = ((triton.cdiv(max_seqlen, META['BLOCK_SIZE_M'])), batch_size)
        return ret

    batch_size = seq_lens.numel()
    M, K = input.shape
    N = lora_b.size(1)
    BLOCK_SIZE_R = max(16, inputs["max_rank"])
    _fused_lora_kernel[grid](
        input, lora_a, lora_b, output, inputs["scaling"], inputs["rank_start"], inputs["ranks"],
        inputs["seq_start"], seq_lens, inputs["adapter_ids"], N, K,
        stride_am=input.stride(0), stride_ak=input.stride(1), stride_lar=lora_a.stride(0),
        stride_lak=lora_a.stride(1), stride_lbr=lora_b.stride(0), stride_lbn=lora_b.stride(1),
        stride_cm=output.stride(0), stride_cn=output.stride(1), BLOCK_SIZE_R=BLOCK_SIZE_R, CUM=True)
    return output


def reference(inputs: dict[str, Any]) -> Any:
    """out + scaling[a] * (x @ lora_a[a]^T) @ lora_b[a] per sequence, in fp64 (rank-0 adapters add nothing)."""
    out = inputs["out"].double().clone()
    x, la, lb = inputs["x"].double(), inputs["lora_a"].double(), inputs["lora_b"].double()
    for b in range(inputs["seq_lens"].numel()):
        s, n = int(inputs["seq_start"][b]), int(inputs["seq_lens"][b])
        a = int(inputs["adapter_ids"][b])
        r0, r = int(inputs["rank_start"][a]), int(inputs["ranks"][a])
        if n == 0 or r == 0:
            continue
        xa = x[s:s + n] @ la[r0:r0 + r].T
        out[s:s + n] += float(inputs["scaling"][a]) * xa @ lb[r0:r0 + r]
    return out


def flops(B: int, L: int, N: int, K: int) -> float:
    """Shrink and expand dots at the padded rank 16: 2 * 16 * (K + N) per token."""
    return 2.0 * 16 * (K + N) * sum(_lens(B, L))
