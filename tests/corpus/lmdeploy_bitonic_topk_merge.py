"""LMDeploy's streaming bitonic top-k, ``_bitonic_topk_kernel1`` (InternLM/lmdeploy
lmdeploy/pytorch/kernels/cuda/bitonic_topk.py, launched by ``bitonic_topk`` after ``_bitonic_topk_kernel0``, which
sorts each K-wide block of a row descending): the DeepSeek-V3.2 sparse-attention indexer's top-2048 key selection.

The constructs: one program per token row; a **``tl.range(K, seqlen, K, num_stages=3)`` loop with a runtime
(loaded) bound**, carrying the running top-K **scores [2048] fp32 and ids [2048] int32** plus two pointer tensors and
the position vector ``pos``; each trip loads the next block **reversed** (``pos = 2K - 1 - arange``, masked
``pos < seqlen`` with other = -1e6 / fill), concatenates it to the carry with a **``tl.join`` + ``.trans()`` +
``tl.reshape``** helper (``_concate``), runs a **hand-written bitonic merge** of the 4096 values: the tensor
reshaped to a **12-dimensional [2]*12 hypercube** and 12 ``tl.static_range`` compare-and-swap rounds, each
swapping partners through **``tl.xor_sum`` over one hypercube axis of the int-bitcast values** (``_flip_along_middle``,
``x ^ xor_sum(x, axis, keep_dims=True)``), an ``arange(0, 2)`` indicator reshaped to broadcast, and two
``tl.where``s (scores and ids swapped together); then the top half kept with **reshape + trans + ``tl.split``**
(``_split``). Helpers are nested ``@triton.jit`` functions with constexpr arguments computed by
``triton.language.standard._log2``. After the loop one unmasked store of the ids. Port notes: none; K = 2048
(``k`` of the indexer), 2 warps as the launcher picks (``cdiv(k, 4096) * 2``). One change: upstream's ``core.get_int_dtype(...)`` call in
``_flip_along_middle`` is refused by Triton 3.6's JIT dependency check (``RuntimeError: Unsupported function
referenced: <function get_int_dtype>`` when the kernel's cache key is computed, i.e. at every GPU launch; the
interpreter never computes it), so it is called through ``triton.language.standard._get_int_dtype``, the
``constexpr_function`` wrapper Triton's own ``tl.sort`` uses. ``launch`` sorts each output row
ascending (the kernel's order depends on whether a merge ran) so that it compares with ``torch.topk`` as a set."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language import core
from triton.language.standard import _get_int_dtype, _log2

TOPK = 2048
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bitonic_topk_kernel1",
    "signature": {"score_ptr": "*fp32", "ids_ptr": "*i32", "seqlen_ptr": "*i32", "out_ptr": "*i32",
                  "stride_m": "i32"},
    "constexprs": {"K": TOPK, "fill": -1, "descending": 1},
    "num_warps": 2, "num_stages": 3,
    "divisibility": ["stride_m"]}
PROBLEM: dict[str, int] = {"T": 64, "S": 32768, "K": TOPK}
SMALL: dict[str, int] = {"T": 3, "S": 5008, "K": TOPK}


@triton.jit
def _indicator(n_dims: core.constexpr, j: core.constexpr):
    ar = core.arange(0, 2)
    ar = core.reshape(ar, [1] * (n_dims - j - 1) + [2] + [1] * j)
    return ar


@triton.jit
def _flip_along_middle(x, n_dims, i):
    idtype = _get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    ix = x.to(idtype, bitcast=True)
    iy = ix ^ tl.xor_sum(ix, n_dims - 1 - i, True)
    y = iy.to(x.dtype, bitcast=True)
    return y


@triton.jit
def _compare_and_swap(x, ids, flip, i: core.constexpr):
    # compare-and-swap on the ith *innermost* dimension
    n_dims: core.constexpr = _log2(x.numel)

    # determines whether we are in the right (rather than left) position along the axis:
    is_right = _indicator(n_dims, i)

    # flip along middle dimension (the bitwise XORs will be optimised away):
    y = _flip_along_middle(x, n_dims, i)
    ids_y = _flip_along_middle(ids, n_dims, i)

    # conditional swap:
    mask = (x > y) != (flip ^ is_right)
    ret_x = core.where(mask, y, x)
    ret_ids = core.where(mask, ids_y, ids)
    return ret_x, ret_ids


@triton.jit
def _bitonic_merge_hypercube(x, ids, stage: core.constexpr, order: core.constexpr):
    """order_type 0 == ascending order_type 1 == descending order_type 2 ==
    alternating."""
    if order == 2:
        flip = _indicator(_log2(x.numel), stage)
    else:
        flip = order
    # perform `stage` rounds of `compare-and-swap`
    for i in core.static_range(stage):
        x, ids = _compare_and_swap(x, ids, flip, stage - 1 - i)
    return x, ids


@triton.jit
def _bitonic_merge(x, ids, stage: tl.constexpr, order: tl.constexpr, n_dims: tl.constexpr):
    """order_type 0 == ascending order_type 1 == descending order_type 2 ==
    alternating."""
    h = core.reshape(x, [2] * _log2(x.numel))
    h_ids = core.reshape(ids, [2] * _log2(x.numel))
    h, h_ids = _bitonic_merge_hypercube(h, h_ids, stage, order)
    x = core.reshape(h, x.shape)
    ids = core.reshape(h_ids, ids.shape)
    return x, ids


@triton.jit
def argsort(x, ids, dim: tl.constexpr = None, descending: tl.constexpr = core.CONSTEXPR_0):
    # handle default dimension or check that it is the most minor dim
    _dim: tl.constexpr = len(x.shape) - 1 if dim is None else dim
    tl.static_assert(_dim == len(x.shape) - 1, 'only minor dimension is currently supported')
    # iteratively run bitonic merge-sort steps
    n_dims: tl.constexpr = _log2(x.shape[_dim])

    for i in tl.static_range(1, n_dims + 1):
        x, ids = _bitonic_merge(x, ids, i, 2 if i < n_dims else descending, n_dims)
    return x, ids


@triton.jit
def _bitonic_topk_kernel0(score_ptr,
                          seqlen_ptr,
                          out_ptr,
                          ids_ptr,
                          stride_m,
                          K: tl.constexpr,
                          fill: tl.constexpr,
                          descending: tl.constexpr = core.CONSTEXPR_0,
                          sorted: tl.constexpr = False):
    """kernel0."""
    batch_id = tl.program_id(0).to(tl.int64)
    block_id = tl.program_id(1).to(tl.int64)

    seqlen = tl.load(seqlen_ptr + batch_id)

    if block_id * K >= seqlen:
        return

    offs_k = tl.arange(0, K)
    origin_ids = block_id * K + offs_k
    # num scores should less than max(int32), I guess
    origin_ids = origin_ids.to(tl.int32)
    mask = (origin_ids < seqlen)
    score_ptrs = score_ptr + batch_id * stride_m + origin_ids
    scores = tl.load(score_ptrs, mask=mask, other=-1e6)
    ids = tl.where(mask, origin_ids, fill)
    ids = origin_ids

    if sorted or (seqlen > K):
        scores, ids = argsort(scores, ids, 0, descending)

    tl.store(out_ptr + batch_id * stride_m + origin_ids, scores, mask=mask)
    tl.store(ids_ptr + batch_id * stride_m + origin_ids, ids, mask=mask)


@triton.jit
def _concate(a, b):
    """concate."""
    c = tl.join(a, b)  # [k, 2]
    c = c.trans()  # [2, k]
    # there are bugs in `tr.ravel` when triton<=3.2.0
    c = tl.reshape(c, (a.numel + b.numel, ))
    return c


@triton.jit
def _split(a, k):
    """split."""
    a = a.reshape(2, k)
    a = a.trans()
    return tl.split(a)


@triton.jit
def _bitonic_topk_kernel1(score_ptr,
                          ids_ptr,
                          seqlen_ptr,
                          out_ptr,
                          stride_m,
                          K: tl.constexpr,
                          fill: tl.constexpr,
                          descending: tl.constexpr = core.CONSTEXPR_0):
    """kernel1."""
    batch_id = tl.program_id(0).to(tl.int64)

    seqlen = tl.load(seqlen_ptr + batch_id)
    offs_k = tl.arange(0, K)
    score_ptrs = score_ptr + batch_id * stride_m + offs_k
    ids_ptrs = ids_ptr + batch_id * stride_m + offs_k

    # initialize
    pos = offs_k
    mask = pos < seqlen
    scores = tl.load(score_ptrs, mask=mask, other=-1e6)
    ids = tl.load(ids_ptrs, mask=mask, other=fill)

    pos = 2 * K - 1 - offs_k
    score_ptrs = score_ptr + batch_id * stride_m + pos
    ids_ptrs = ids_ptr + batch_id * stride_m + pos

    stage: tl.constexpr = _log2(2 * K)
    for k in tl.range(K, seqlen, K, num_stages=3):
        mask = pos < seqlen
        new_scores = tl.load(score_ptrs, mask=mask, other=-1e6)
        new_ids = tl.load(ids_ptrs, mask=mask, other=fill)

        merged_scores = _concate(scores, new_scores)
        merged_ids = _concate(ids, new_ids)

        merged_scores, merged_ids = _bitonic_merge(merged_scores, merged_ids, stage, descending, stage)

        scores, _ = _split(merged_scores, K)
        ids, _ = _split(merged_ids, K)
        score_ptrs += K
        ids_ptrs += K
        pos += K

    out_ptrs = out_ptr + batch_id * K + offs_k
    tl.store(out_ptrs, ids)


def make_inputs(T: int, S: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Index scores [T, S] fp32 (distinct values, no ties) and per-row kv lengths int32 (S, a partial-block length,
    K, ...; never below K)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    perm = torch.argsort(torch.rand((T, S), device=device, generator=g), dim=1)
    scores = (perm.float() / S - 0.5) * 8.0
    lens = [(S, S - 3 * K // 4 - 5, K, S - K // 2)[i % 4] for i in range(T)]
    return {"scores": scores, "kv_seqlens": torch.tensor(lens, dtype=torch.int32, device=device), "k": K}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Top-k ids [T, K] int32 of ``bitonic_topk(scores, q_seqlens, kv_seqlens, k)`` (q_seqlens unused: one kv length
    per token), each row sorted ascending."""
    import torch
    scores, kv_seqlens, k = inputs["scores"], inputs["kv_seqlens"], inputs["k"]
    fill, descending, sorted = -1, True, False
    num_tokens = scores.size(0)
    max_kv_len = scores.size(-1)
    repeat_kv_seqlens = kv_seqlens
    tmp_scores = torch.empty_like(scores)
    tmp_ids = torch.empty_like(scores, dtype=torch.int32)
    num_warps = triton.cdiv(k, 4096)
    grid = (num_tokens, triton.cdiv(max_kv_len, k))
    _bitonic_topk_kernel0[grid](scores, repeat_kv_seqlens, tmp_scores, tmp_ids, stride_m=scores.stride(0), K=k,
                                fill=fill, descending=1 if descending else 0, sorted=sorted, num_warps=num_warps)
    out = kv_seqlens.new_empty((num_tokens, k), dtype=torch.int32)
    _bitonic_topk_kernel1[(num_tokens, )](tmp_scores, tmp_ids, repeat_kv_seqlens, out,
                                          stride_m=tmp_scores.stride(0), K=k, fill=fill,
                                          descending=1 if descending else 0, num_warps=num_warps * 2)
    return torch.sort(out, dim=1).values


def reference(inputs: dict[str, Any]) -> Any:
    """torch.topk over each row's first kv_seqlens scores, ids sorted ascending."""
    import torch
    scores, lens, k = inputs["scores"], inputs["kv_seqlens"], inputs["k"]
    rows = []
    for i in range(scores.size(0)):
        n = int(lens[i])
        rows.append(torch.sort(torch.topk(scores[i, :n], k).indices.to(torch.int32)).values)
    return torch.stack(rows)


def flops(T: int, S: int, K: int) -> float:
    """Per merged block of K: 12 compare-and-swap rounds over 2K values (a compare and two selects each)."""
    return 3.0 * 12 * 2 * K * T * max(S // K - 1, 0)
