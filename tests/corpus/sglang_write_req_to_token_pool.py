"""SGLang's ``write_req_to_token_pool_triton`` (sgl-project/sglang python/sglang/srt/mem_cache/common.py, launched by
``alloc_for_extend`` when a prefill batch is scheduled): each request's row of the ``req_to_token`` table (the KV
cache slot of every token position) is filled with the matched radix-cache prefix's slots, then with the slots just
allocated for its extend tokens.

The constructs: one program per request, three loops in sequence. (1) A **pointer loaded from memory**: each
request's prefix-index tensor is passed by address (``prefix_tensors`` holds int64 ``data_ptr()`` values) and cast
back with ``tl.load(prefix_tensors + pid).to(tl.pointer_type(tl.int64))``; a ``for i in range(num_loop)`` loop with
a loaded trip count (``tl.cdiv(pre_len, BLOCK_SIZE)``) copies it into the row (int64 values stored through an int32
pointer: an implicit narrowing cast), masked by ``offset < pre_len``. (2) A **scalar prefix sum over the program
id**, ``for i in range(pid): cumsum_start += tl.load(extend_lens + i)`` (an int64 carried scalar, a trip count
that differs per program; sglang's own "can be slow for large bs"). (3) The extend copy, ``for i in range(num_loop)``
with ``num_loop = tl.cdiv(seq_len - pre_len, BLOCK_SIZE)``, reading ``out_cache_loc`` at the prefix sum and writing
the row from ``pre_len`` on. ``BLOCK_SIZE: tl.constexpr = 512`` is a constexpr bound inside the body; the row stride
``req_to_token_ptr_stride`` is a constexpr parameter. A batch of 64 requests with prefixes of up to 6k tokens and
extends of up to 2k, a 256 x 8192 pool. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "write_req_to_token_pool_triton",
    "signature": {"req_to_token_ptr": "*i32", "req_pool_indices": "*i64", "prefix_tensors": "*i64",
                  "pre_lens": "*i64", "seq_lens": "*i64", "extend_lens": "*i32", "out_cache_loc": "*i64"},
    "constexprs": {"req_to_token_ptr_stride": 8192},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["req_to_token_ptr", "req_pool_indices", "prefix_tensors", "pre_lens", "seq_lens",
                     "extend_lens", "out_cache_loc"]}
PROBLEM: dict[str, int] = {"B": 64, "P": 6144, "E": 2048, "POOL": 256, "CTX": 8192}
SMALL: dict[str, int] = {"B": 6, "P": 1100, "E": 700, "POOL": 9, "CTX": 2048}


@triton.jit
def write_req_to_token_pool_triton(
    req_to_token_ptr,  # [max_batch, max_context_len]
    req_pool_indices,
    prefix_tensors,
    pre_lens,
    seq_lens,
    extend_lens,
    out_cache_loc,
    req_to_token_ptr_stride: tl.constexpr,
):
    BLOCK_SIZE: tl.constexpr = 512
    pid = tl.program_id(0)

    req_pool_index = tl.load(req_pool_indices + pid)
    pre_len = tl.load(pre_lens + pid)
    seq_len = tl.load(seq_lens + pid)
    prefix_tensor = tl.load(prefix_tensors + pid).to(tl.pointer_type(tl.int64))

    # write prefix
    num_loop = tl.cdiv(pre_len, BLOCK_SIZE)
    for i in range(num_loop):
        offset = tl.arange(0, BLOCK_SIZE) + i * BLOCK_SIZE
        mask = offset < pre_len
        value = tl.load(prefix_tensor + offset, mask=mask)
        tl.store(
            req_to_token_ptr + req_pool_index * req_to_token_ptr_stride + offset,
            value,
            mask=mask,
        )

    # NOTE: This can be slow for large bs
    cumsum_start = tl.cast(0, tl.int64)
    for i in range(pid):
        cumsum_start += tl.load(extend_lens + i)

    num_loop = tl.cdiv(seq_len - pre_len, BLOCK_SIZE)
    for i in range(num_loop):
        offset = tl.arange(0, BLOCK_SIZE) + i * BLOCK_SIZE
        mask = offset < (seq_len - pre_len)
        value = tl.load(out_cache_loc + cumsum_start + offset, mask=mask)
        tl.store(
            req_to_token_ptr
            + req_pool_index * req_to_token_ptr_stride
            + offset
            + pre_len,
            value,
            mask=mask,
        )


def make_inputs(B: int, P: int, E: int, POOL: int, CTX: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """B requests in distinct rows of a [POOL, CTX] int32 req_to_token table (filled with -1); prefix lengths in
    [0, P] (the first request none, the second exactly P), extend lengths in [1, E]; each prefix's KV slots an
    int64 tensor of its own (kept in ``prefixes``; ``prefix_tensors`` holds their addresses), out_cache_loc the
    flattened extend slots (int64). The lengths int64, extend_lens int32, as the scheduler builds them."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    pre = torch.randint(0, P + 1, (B,), device=device, generator=g)
    pre[0] = 0
    if B > 1:
        pre[1] = P
    ext = torch.randint(1, E + 1, (B,), device=device, generator=g)
    rows = torch.randperm(POOL, device=device, generator=g)[:B]
    prefixes = [torch.randint(0, 1 << 20, (max(int(p), 1),), device=device, generator=g).to(torch.int64)
                for p in pre]
    out_cache_loc = torch.randint(0, 1 << 20, (int(ext.sum()),), device=device, generator=g).to(torch.int64)
    return {"req_to_token": torch.full((POOL, CTX), -1, dtype=torch.int32, device=device),
            "req_pool_indices": rows.to(torch.int64), "prefixes": prefixes,
            "prefix_tensors": torch.tensor([t.data_ptr() for t in prefixes], dtype=torch.int64, device=device),
            "pre_lens": pre.to(torch.int64), "seq_lens": (pre + ext).to(torch.int64),
            "extend_lens": ext.to(torch.int32), "out_cache_loc": out_cache_loc}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The updated req_to_token table [POOL, CTX] int32 (written into a copy of the input's)."""
    req_to_token = inputs["req_to_token"].clone()
    bs = inputs["req_pool_indices"].shape[0]
    write_req_to_token_pool_triton[(bs,)](
        req_to_token, inputs["req_pool_indices"], inputs["prefix_tensors"], inputs["pre_lens"],
        inputs["seq_lens"], inputs["extend_lens"], inputs["out_cache_loc"], req_to_token.shape[1],
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return req_to_token


def reference(inputs: dict[str, Any]) -> Any:
    """Row req_pool_indices[b]: the prefix's slots in [0, pre_len), the request's out_cache_loc slice after."""
    t = inputs["req_to_token"].clone()
    start = 0
    for b in range(inputs["req_pool_indices"].shape[0]):
        r, p = int(inputs["req_pool_indices"][b]), int(inputs["pre_lens"][b])
        e = int(inputs["extend_lens"][b])
        t[r, :p] = inputs["prefixes"][b][:p].to(t.dtype)
        t[r, p:p + e] = inputs["out_cache_loc"][start:start + e].to(t.dtype)
        start += e
    return t


def flops(B: int, P: int, E: int, POOL: int, CTX: int) -> float:
    """A copy: no arithmetic; one op an element moved (about B * (P + E) / 2)."""
    return B * (P + E) / 2.0
