"""FlashInfer's Triton cascade merge (flashinfer/triton/kernels/cascade.py ``variable_length_merge_states_kernel``
with its ``state_merge`` / ``state_normalize`` / ``state_get_lse`` helpers, launched as flashinfer/triton/cascade.py's
``variable_length_merge_states`` does): each position ``pos`` merges a variable number of attention partial states
(partial outputs v [*, H, Dh] fp16 and their base-2 log-sum-exps s [*, H] fp32), the sets of position pos being
indptr[pos] .. indptr[pos + 1]. Entirely scalar, as FlashInfer writes it: ``for tx in tl.range(bdx)`` (the head
dimension, bdx = head_dim) over ``for head_idx in tl.range(bdy)`` (bdy = num_heads) over ``for iter in
tl.range(tl.load(indptr + pos), tl.load(indptr + pos + 1))`` -- a loop whose bounds are loaded from memory -- with
``iter.to(tl.int64)`` offsets, an online exp2 merge carried as three scalars (``o, m, d = 0.0, -inf, 1.0``; a
``tl.where(m_max == -inf, 0.0, m_max)`` shift keeps empty states finite), a normalisation, and the merged LSE
stored under ``if s_merged_ptr:`` (a pointer as the condition). A position with no sets writes 0 and -inf.
grid (seq_len,), 4 warps (the launcher's default). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_HEADS, HEAD_DIM = 32, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "variable_length_merge_states_kernel",
    "signature": {"v_ptr": "*fp16", "s_ptr": "*fp32", "indptr": "*i32", "v_merged_ptr": "*fp16",
                  "s_merged_ptr": "*fp32", "num_heads": "i32", "head_dim": "i32"},
    "constexprs": {"bdx": HEAD_DIM, "bdy": NUM_HEADS},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["num_heads", "head_dim"]}
# S positions, each merging 0..MAXSETS partial states (a cascade / split-KV merge); heads and head_dim are the
# kernel's constexprs bdy / bdx, so every size here keeps them
PROBLEM: dict[str, int] = {"S": 4096, "MAXSETS": 8}
SMALL: dict[str, int] = {"S": 3, "MAXSETS": 3}


@triton.jit
def state_merge(o, m, d, other_o, other_m, other_d):
    m_max = tl.maximum(m, other_m)
    # Keep m_max == -inf for empty states, using a finite shift only in exp2.
    m_shift = tl.where(m_max == -float("inf"), 0.0, m_max)
    d = d * tl.exp2(m - m_shift) + other_d * tl.exp2(other_m - m_shift)
    o = o * tl.exp2(m - m_shift) + other_o * tl.exp2(other_m - m_shift)
    return o, m_max, d


@triton.jit
def state_normalize(o, m, d):
    o = o / tl.where(d > 0, d, 1.0)
    return o, m, d


@triton.jit
def state_get_lse(o, m, d):
    return m + tl.log2(d)


@triton.jit
def variable_length_merge_states_kernel(
    v_ptr,
    s_ptr,
    indptr,
    v_merged_ptr,
    s_merged_ptr,
    num_heads,
    head_dim,
    bdx: tl.constexpr,
    bdy: tl.constexpr,
):
    pos = tl.program_id(axis=0)
    for tx in tl.range(bdx):
        for head_idx in tl.range(bdy):
            o, m, d = 0.0, -float("inf"), 1.0
            for iter in tl.range(tl.load(indptr + pos), tl.load(indptr + pos + 1)):
                iter_i64 = iter.to(tl.int64)
                s = tl.load(s_ptr + iter_i64 * num_heads + head_idx)
                v = tl.load(v_ptr + (iter_i64 * num_heads + head_idx) * head_dim + tx)
                o, m, d = state_merge(o, m, d, v, s, 1)
            o, m, d = state_normalize(o, m, d)
            tl.store(v_merged_ptr + (pos * num_heads + head_idx) * head_dim + tx, o)
            if s_merged_ptr:
                tl.store(s_merged_ptr + pos * num_heads + head_idx, state_get_lse(o, m, d))


def make_inputs(S: int, MAXSETS: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """indptr [S + 1] int32 (position 0 has no sets when S > 1; the others 1..MAXSETS), v [total, H, Dh] fp16,
    s [total, H] fp32 (base 2)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    counts = torch.randint(1, MAXSETS + 1, (S,), device=device, generator=g)
    if S > 1:
        counts[0] = 0
    indptr = torch.zeros((S + 1,), device=device, dtype=torch.int32)
    indptr[1:] = torch.cumsum(counts, 0).to(torch.int32)
    total = int(indptr[-1].item())
    v = torch.randn((total, NUM_HEADS, HEAD_DIM), device=device, generator=g).half()
    s = torch.randn((total, NUM_HEADS), device=device, generator=g) * 4.0
    return {"v": v, "s": s, "indptr": indptr}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(v_merged fp16 [S, H, Dh], s_merged fp32 [S, H]), as variable_length_merge_states returns them."""
    import torch
    v, s, indptr = inputs["v"], inputs["s"], inputs["indptr"]
    seq_len = indptr.size(0) - 1
    num_heads, head_dim = v.size(1), v.size(2)
    v_merged = torch.empty((seq_len, num_heads, head_dim), dtype=v.dtype, device=v.device)
    s_merged = torch.empty((seq_len, num_heads), dtype=s.dtype, device=s.device)
    variable_length_merge_states_kernel[(seq_len,)](
        v, s, indptr, v_merged, s_merged, num_heads, head_dim, bdx=head_dim, bdy=num_heads,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return v_merged, s_merged


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    v, s, indptr = inputs["v"].float(), inputs["s"], inputs["indptr"].tolist()
    S = len(indptr) - 1
    vm = torch.zeros((S, NUM_HEADS, HEAD_DIM), device=v.device)
    sm = torch.full((S, NUM_HEADS), -float("inf"), device=v.device)
    for p in range(S):
        lo, hi = indptr[p], indptr[p + 1]
        if hi == lo:
            continue
        ss = s[lo:hi]                                   # n, H
        w = torch.softmax(ss * torch.log(torch.tensor(2.0)), dim=0)
        vm[p] = (w[:, :, None] * v[lo:hi]).sum(0)
        sm[p] = torch.logsumexp(ss * torch.log(torch.tensor(2.0)), dim=0) / torch.log(torch.tensor(2.0))
    return vm, sm
