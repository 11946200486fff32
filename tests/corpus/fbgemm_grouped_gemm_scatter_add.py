"""FBGEMM's Triton grouped GEMM ``_fbgemm_grouped_gemm`` (fbgemm_gpu/experimental/gemm/triton_gemm/grouped_gemm.py,
rewritten here) on its pointer path (USE_TMA_LOAD False) with the MoE epilogue fused: FUSE_SCATTER_ADD, HAS_BIAS and
HAS_TOKEN_WEIGHTS. NUM_SMS persistent programs walk the groups with ``for g in tl.range(G)``, each group's row count
loaded from m_sizes and its row offset carried across groups as an int64 (``M_end_offset = 0`` then
``M_end_offset.to(tl.int64)``: a Python int made a tensor and widened); under ``if m_size > 0`` a ``while tidx >=
iterated_tiles and tidx < iterated_tiles + num_tiles`` claims this program's tiles of the group (M tiles first,
``tidx += NUM_SMS``), and ``iterated_tiles += num_tiles`` after it. The K loop reads A [M_total, K] rows from the
group's offset and the group's slice of B [G * N, K] (``g.to(tl.int64) * N``), both with row and K masks, as
``tl.dot(a, b.T)``. After it: the group's bias row added, each row scaled by its token weight, and the fp16 tile
added with ``tl.atomic_add(..., sem="relaxed")`` into the output rows named by scatter_add_indices (loaded with
``cache_modifier=".ca"``), the mask written ``mask[:, None] and offs_bn[None, :] < n_size`` (Python ``and`` on two
tensors). ``tl.static_assert`` on the flags; G, N, K, NUM_SMS constexprs as FBGEMM declares them; 128 x 128 x 64
tiles, 3 stages, 8 warps of its autotuner's configs. fp16 where FBGEMM runs bf16 (Triton's interpreter mishandles
bf16). Triton 3.6's interpreter runs the body as Python (an int has no ``.to``, ``and`` on tensors is Python's):
checked in it with ``tl.full([], x, tl.int64)`` for the two ``.to(tl.int64)`` and ``&`` for the ``and``."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

G, N, K, NUM_SMS = 16, 2048, 2048, 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fbgemm_grouped_gemm",
    "signature": {"a_desc_ptr": "*fp16", "b_desc_ptr": "*fp16", "c_ptr": "*fp16", "scatter_add_indices": "*i32",
                  "m_sizes": "*i32", "bias_ptr": "*fp16", "token_weights_ptr": "*fp32", "M_BUCKET": "i32"},
    "constexprs": {"G": G, "N": N, "K": K, "NUM_SMS": NUM_SMS, "FUSE_SCATTER_ADD": True, "USE_TMA_LOAD": False,
                   "USE_TMA_STORE": False, "USE_FAST_ACCUM": False, "HAS_BIAS": True, "HAS_TOKEN_WEIGHTS": True,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "NUM_CONSUMER_GROUPS": 1},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["a_desc_ptr", "b_desc_ptr", "c_ptr", "scatter_add_indices", "m_sizes", "bias_ptr",
                     "token_weights_ptr"]}
PROBLEM: dict[str, Any] = {"tokens": 4096, "topk": 2, "active": 16}
SMALL: dict[str, Any] = {"tokens": 70, "topk": 2, "active": 3}     # G, N, K as PROBLEM's: they are constexprs


@triton.jit
def _fbgemm_grouped_gemm(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr,
                         G: tl.constexpr, M_BUCKET, N: tl.constexpr, K: tl.constexpr, NUM_SMS: tl.constexpr,
                         FUSE_SCATTER_ADD: tl.constexpr, USE_TMA_LOAD: tl.constexpr, USE_TMA_STORE: tl.constexpr,
                         USE_FAST_ACCUM: tl.constexpr, HAS_BIAS: tl.constexpr, HAS_TOKEN_WEIGHTS: tl.constexpr,
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                         NUM_CONSUMER_GROUPS: tl.constexpr):
    # twill corpus rendition: the pointer path, the scatter-add epilogue
    tl.static_assert(not (FUSE_SCATTER_ADD and USE_TMA_STORE), "a scatter add cannot be a TMA store")
    tl.static_assert(not USE_TMA_LOAD, "the pointer path")
    tidx = tl.program_id(0)
    M_end_offset = 0
    M_end_offset = M_end_offset.to(tl.int64)
    iterated_tiles = 0
    for g in tl.range(G):
        m_size = tl.load(m_sizes + g)
        if m_size > 0:
            M_start_offset = M_end_offset
            M_end_offset = M_start_offset + m_size
            N_start_offset = g.to(tl.int64) * N
            n_size = N
            num_m_tiles = tl.cdiv(m_size, BLOCK_SIZE_M)
            num_n_tiles = tl.cdiv(n_size, BLOCK_SIZE_N)
            num_tiles = num_m_tiles * num_n_tiles
            while tidx >= iterated_tiles and tidx < iterated_tiles + num_tiles:
                gidx = tidx - iterated_tiles
                tile_m_idx = gidx % num_m_tiles             # M first, then N
                tile_n_idx = gidx // num_m_tiles
                accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                offs_am = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
                offs_bn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
                offs_k = tl.arange(0, BLOCK_SIZE_K)
                a_ptrs = a_desc_ptr + (M_start_offset + offs_am[:, None]) * K + offs_k[None, :]
                b_ptrs = b_desc_ptr + (N_start_offset + offs_bn[:, None]) * K + offs_k[None, :]
                for k_offset in range(0, K, BLOCK_SIZE_K):
                    k_mask = (k_offset + offs_k)[None, :] < K
                    a = tl.load(a_ptrs, mask=(offs_am[:, None] < m_size) & k_mask, other=0.0)
                    b = tl.load(b_ptrs, mask=(offs_bn[:, None] < n_size) & k_mask, other=0.0)
                    accumulator += tl.dot(a, b.T)
                    a_ptrs += BLOCK_SIZE_K
                    b_ptrs += BLOCK_SIZE_K
                if HAS_BIAS:
                    bias = tl.load(bias_ptr + g.to(tl.int64) * N + offs_bn, mask=offs_bn < n_size, other=0.0)
                    accumulator = accumulator + bias[None, :]
                if HAS_TOKEN_WEIGHTS:
                    tw = tl.load(token_weights_ptr + M_start_offset + offs_am, mask=offs_am < m_size, other=1.0)
                    accumulator = accumulator * tw[:, None]
                mask = offs_am < m_size
                m_offsets = tl.load(scatter_add_indices + M_start_offset + offs_am, mask=mask, cache_modifier=".ca")
                c = accumulator.to(c_ptr.dtype.element_ty)
                tl.atomic_add(c_ptr + m_offsets[:, None] * N + offs_bn[None, :], c,
                              mask=mask[:, None] and offs_bn[None, :] < n_size, sem="relaxed")
                tidx += NUM_SMS
            iterated_tiles += num_tiles


def make_inputs(tokens: int, topk: int, active: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """tokens * topk routed rows sorted by expert (``active`` of the G experts get rows, the others none), A [rows,
    K], B [G * N, K], bias [G, N], per-row routing weights and the token each row scatters back to."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    rows = tokens * topk
    experts = torch.randperm(G, generator=g, device=device)[:active]
    pick = experts[torch.randint(0, active, (rows,), generator=g, device=device)]
    m_sizes = torch.bincount(pick, minlength=G).to(torch.int32)
    order = torch.argsort(pick, stable=True)
    scatter = (order // topk).to(torch.int32)              # the sorted row's source token
    a = (torch.randn((rows, K), device=device, generator=g) / 8).half()
    b = (torch.randn((G * N, K), device=device, generator=g) / K ** 0.5).half()
    bias = (torch.randn((G, N), device=device, generator=g) / 4).half()
    tw = torch.rand((rows,), device=device, generator=g)
    return {"a": a, "b": b, "bias": bias, "token_weights": tw, "m_sizes": m_sizes, "scatter": scatter,
            "tokens": tokens}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [tokens, N] fp16: each token's routed rows' (A_g @ B_g^T + bias_g) * weight summed, as FBGEMM's
    grouped_gemm with scatter-add fusion (the output zeroed first)."""
    import torch
    a = inputs["a"]
    out = torch.zeros((inputs["tokens"], N), device=a.device, dtype=a.dtype)
    _fbgemm_grouped_gemm[(NUM_SMS,)](
        a, inputs["b"], out, inputs["scatter"], inputs["m_sizes"], inputs["bias"], inputs["token_weights"],
        G=G, M_BUCKET=a.shape[0], N=N, K=K, NUM_SMS=NUM_SMS, FUSE_SCATTER_ADD=True, USE_TMA_LOAD=False,
        USE_TMA_STORE=False, USE_FAST_ACCUM=False, HAS_BIAS=True, HAS_TOKEN_WEIGHTS=True,
        BLOCK_SIZE_M=config.get("BLOCK_SIZE_M", 128), BLOCK_SIZE_N=config.get("BLOCK_SIZE_N", 128),
        BLOCK_SIZE_K=config.get("BLOCK_SIZE_K", 64), NUM_CONSUMER_GROUPS=1,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b, bias = inputs["a"].double(), inputs["b"].double(), inputs["bias"].double()
    out = torch.zeros((inputs["tokens"], N), device=a.device, dtype=torch.float64)
    start = 0
    for grp, m in enumerate(inputs["m_sizes"].tolist()):
        rows = slice(start, start + m)
        y = (a[rows] @ b[grp * N:(grp + 1) * N].T + bias[grp]) * inputs["token_weights"][rows, None].double()
        out.index_add_(0, inputs["scatter"][rows].long(), y)
        start += m
    return out.to(inputs["a"].dtype)
