"""LMDeploy's KPool prefill metadata, ``_prefill_query_metadata_kernel`` (InternLM/lmdeploy
lmdeploy/pytorch/kernels/cuda/kpool.py, launched by ``kpool_prefill_metadata`` after ``_prefill_offsets_kernel``):
for each query token of a ragged prefill batch, find its request and write the token's causal sequence length and
the bounds of the compressed (pooled) key cache it may attend.

The constructs: the main loop is a **data-dependent ``while`` loop** (an ``scf.while``), a vectorised
**upper-bound binary search** over the request end offsets: its condition is a **reduction**
(``tl.sum((low < high).to(tl.int32), 0) > 0``), each trip **gathers** ``QEnds[mid]`` at a per-lane address computed
from the two [BLOCK] int32 loop carries (``mid = (low + high) // 2``, masked ``mid < BATCH``, other = INT32_MAX)
and updates ``low`` / ``high`` through ``tl.where`` on an ``active`` lane mask; no fixed trip count. After it,
**loads whose addresses depend on the loop's result** (``KV[request]`` int64 cast to int32, ``QEnds[request]``,
``Starts[request]``) and four masked int32 stores. Every size (ROWS, BATCH, POOL, BLOCK) is a constexpr, as the
launcher passes them. Port notes: none; the launch also runs the loop-free ``_prefill_offsets_kernel`` that builds
QEnds / Starts. A 16-request prefill (some requests empty) of 8192 query tokens, pool 4."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

ROWS, BATCH, POOL = 8192, 16, 4
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_prefill_query_metadata_kernel",
    "signature": {"KV": "*i64", "QEnds": "*i32", "Starts": "*i32", "Seq": "*i32", "Lengths": "*i32",
                  "QueryStarts": "*i32", "QueryEnds": "*i32"},
    "constexprs": {"ROWS": ROWS, "BATCH": BATCH, "POOL": POOL, "BLOCK": 128},
    "num_warps": 4, "num_stages": 3,
    "divisibility": []}
PROBLEM: dict[str, int] = {"ROWS": ROWS, "BATCH": BATCH, "POOL": POOL}
SMALL: dict[str, int] = {"ROWS": ROWS, "BATCH": BATCH, "POOL": POOL}


@triton.jit
def _prefill_offsets_kernel(Q, KV, Counts, Starts, QEnds,
                            BATCH: tl.constexpr, POOL: tl.constexpr, BLOCK: tl.constexpr):
    request = tl.arange(0, BLOCK)
    q = tl.load(Q + request, request < BATCH, other=0).to(tl.int32)
    groups = tl.load(KV + request, request < BATCH, other=0).to(tl.int32) // POOL
    tl.store(Counts + request, groups, request < BATCH)
    tl.store(Starts + request, tl.cumsum(groups) - groups, request < BATCH)
    tl.store(QEnds + request, tl.cumsum(q), request < BATCH)


@triton.jit
def _prefill_query_metadata_kernel(KV, QEnds, Starts, Seq, Lengths, QueryStarts, QueryEnds,
                                   ROWS: tl.constexpr, BATCH: tl.constexpr, POOL: tl.constexpr,
                                   BLOCK: tl.constexpr):
    row = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    low = tl.full((BLOCK,), 0, tl.int32)
    high = tl.full((BLOCK,), BATCH, tl.int32)
    # Upper-bound search skips empty requests without a host ragged loop.
    while tl.sum((low < high).to(tl.int32), 0) > 0:
        mid = (low + high) // 2
        end = tl.load(QEnds + mid, mid < BATCH, other=2147483647)
        active = low < high
        right = row >= end
        low = tl.where(active & right, mid + 1, low)
        high = tl.where(active & ~right, mid, high)
    request = tl.minimum(low, BATCH - 1)
    seq = tl.load(KV + request).to(tl.int32) + row - tl.load(QEnds + request) + 1
    start = tl.load(Starts + request)
    tl.store(Seq + row, seq, row < ROWS)
    tl.store(Lengths + row, seq // POOL, row < ROWS)
    tl.store(QueryStarts + row, start, row < ROWS)
    tl.store(QueryEnds + row, start + seq // POOL, row < ROWS)


def make_inputs(ROWS: int, BATCH: int, POOL: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q_seqlens [BATCH] int64 summing to ROWS (every 5th request empty), kv_seqlens = q + a random history."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    w = torch.rand((BATCH,), device=device, generator=g) + 0.1
    w[::5] = 0.0
    q = torch.floor(w / w.sum() * ROWS).to(torch.int64)
    q[1] += ROWS - int(q.sum())
    hist = torch.randint(0, 3000, (BATCH,), device=device, generator=g, dtype=torch.int64)
    return {"q_seqlens": q, "kv_seqlens": q + hist, "pool": POOL}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(seq, lengths, query_starts, query_ends) [ROWS] int32, the outputs of ``kpool_prefill_metadata``."""
    import torch
    q_seqlens, kv_seqlens, pool_size = inputs["q_seqlens"], inputs["kv_seqlens"], inputs["pool"]
    rows = int(q_seqlens.sum())
    batch = q_seqlens.numel()
    counts = torch.empty(batch, device=q_seqlens.device, dtype=torch.int32)
    starts = torch.empty_like(counts)
    q_ends = torch.empty_like(counts)
    seq = torch.empty(rows, device=q_seqlens.device, dtype=torch.int32)
    lengths = torch.empty_like(seq)
    query_starts = torch.empty_like(seq)
    query_ends = torch.empty_like(seq)
    _prefill_offsets_kernel[(1,)](
        q_seqlens.contiguous(), kv_seqlens.contiguous(), counts, starts, q_ends,
        batch, pool_size, triton.next_power_of_2(batch))
    if rows:
        _prefill_query_metadata_kernel[(triton.cdiv(rows, 128),)](
            kv_seqlens.contiguous(), q_ends, starts, seq, lengths, query_starts, query_ends,
            rows, batch, pool_size, 128)
    return seq, lengths, query_starts, query_ends


def reference(inputs: dict[str, Any]) -> Any:
    """Per token r: request = the first with cumsum(q) > r; seq = kv[req] + r - q_end[req] + 1; lengths = seq // POOL;
    query start = sum of kv // POOL over earlier requests; query end = start + seq // POOL."""
    import torch
    q, kv, P = inputs["q_seqlens"], inputs["kv_seqlens"], inputs["pool"]
    q_end = torch.cumsum(q, 0)
    groups = kv // P
    starts = torch.cumsum(groups, 0) - groups
    r = torch.arange(int(q.sum()), dtype=torch.int64)
    req = torch.searchsorted(q_end, r, right=True).clamp(max=q.numel() - 1)
    seq = kv[req] + r - q_end[req] + 1
    return seq, seq // P, starts[req], starts[req] + seq // P


def flops(ROWS: int, BATCH: int, POOL: int) -> float:
    """Integer bookkeeping: about 6 ops a search step, log2(BATCH) + 1 steps, plus 8 a row."""
    import math
    return float(ROWS) * (6 * (math.log2(BATCH) + 1) + 8)
