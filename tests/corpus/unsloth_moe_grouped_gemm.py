"""Unsloth's MoE grouped GEMM forward (unsloth/kernels/moe/grouped_gemm/kernels/forward.py style, rewritten here):
the first GEMM of an MoE MLP with PERMUTE_X, tokens gathered into expert order on load. A persistent grid of
NUM_SMS programs walks the experts with ``for expert_idx in tl.range(NUM_EXPERTS, flatten=FLATTEN)``; each loads
its group size from m_sizes (a prefix sum carried across experts), and under ``if m_size > 0`` a ``while`` whose
condition is a compound ``tidx >= processed_tiles and tidx < processed_tiles + num_tiles`` claims this program's
tiles of the expert (``tidx += NUM_SMS``). A tile gathers its token rows through gather_indices (``% m_size``
wrapped, ``tl.max_contiguous(tl.multiple_of(...))`` hinted, ``// TOPK`` to the source token) and runs the K loop:
``x`` rows loaded at gathered offsets with a row mask, the expert's W [N, K] tile read as ``w.T`` in
``tl.dot(x, w.T)``, both pointers advanced by ``+= BLOCK_SIZE_K``. The K loop is the innermost loop, three levels
deep (for / if / while). ``tl.static_assert(K % BLOCK_SIZE_K == 0)``, defaulted constexpr flags (FUSE_MUL_*,
USE_TMA_* False). fp16 where Unsloth uses bf16 (Triton 3.6's interpreter mishandles bf16)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_grouped_gemm_forward_kernel",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*fp16", "y_ptr": "*fp16", "m_sizes_ptr": "*i32",
                  "gather_indices_ptr": "*i32", "topk_weights_ptr": "*fp16", "NUM_TOKENS": "i32", "NUM_SMS": "i32"},
    "constexprs": {"NUM_EXPERTS": 8, "TOPK": 2, "N": 2048, "K": 2048, "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128,
                   "BLOCK_SIZE_K": 64, "PERMUTE_X": True, "PERMUTE_Y": False, "FLATTEN": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["x_ptr", "w_ptr", "y_ptr", "m_sizes_ptr", "gather_indices_ptr", "topk_weights_ptr"]}
PROBLEM: dict[str, int] = {"tokens": 4096, "experts": 8, "topk": 2, "n": 2048, "k": 2048, "sm_count": 132}
SMALL: dict[str, int] = {"tokens": 45, "experts": 8, "topk": 2, "n": 2048, "k": 2048, "sm_count": 5}  # PROBLEM's constexprs


@triton.jit
def _grouped_gemm_forward_kernel(
    x_ptr, w_ptr, y_ptr,
    m_sizes_ptr, gather_indices_ptr, topk_weights_ptr,
    NUM_EXPERTS: tl.constexpr, NUM_TOKENS, TOPK: tl.constexpr, N: tl.constexpr, K: tl.constexpr, NUM_SMS,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
    PERMUTE_X: tl.constexpr = False, PERMUTE_Y: tl.constexpr = False,
    FUSE_MUL_PRE: tl.constexpr = False, FUSE_MUL_POST: tl.constexpr = False,
    USE_TMA_LOAD_W: tl.constexpr = False, USE_TMA_LOAD_X: tl.constexpr = False, USE_TMA_STORE: tl.constexpr = False,
    acc_dtype: tl.constexpr = tl.float32, FLATTEN: tl.constexpr = True,
):
    tl.static_assert(K % BLOCK_SIZE_K == 0)
    TOTAL_TOKENS = NUM_TOKENS * TOPK
    tidx = tl.program_id(0)
    out_ty: tl.dtype = y_ptr.dtype.element_ty
    m_end = 0
    processed_tiles = 0
    rows = tl.arange(0, BLOCK_SIZE_M)
    for expert_idx in tl.range(NUM_EXPERTS, flatten=FLATTEN):
        m_start = m_end
        m_size = tl.load(m_sizes_ptr + expert_idx).to(tl.int32)
        m_end = m_start + m_size
        if m_size > 0:
            n_start = expert_idx * N
            num_m_tiles = tl.cdiv(m_size, BLOCK_SIZE_M)
            num_tiles = num_m_tiles * tl.cdiv(N, BLOCK_SIZE_N)
            while tidx >= processed_tiles and tidx < processed_tiles + num_tiles:
                tile = tidx - processed_tiles
                tile_m = tile % num_m_tiles
                tile_n = tile // num_m_tiles
                # the expert's rows of this tile, wrapped into the group so every gathered index is valid
                local = tile_m * BLOCK_SIZE_M + rows
                gathered = m_start + tl.max_contiguous(tl.multiple_of(local % m_size, BLOCK_SIZE_M), BLOCK_SIZE_M)
                token = tl.load(gather_indices_ptr + gathered, mask=gathered < TOTAL_TOKENS)
                row_mask = (local < m_size)[:, None]
                if PERMUTE_X:
                    load_idx = (token[:, None] // TOPK) * K       # a routed copy reads its source token's row
                    store_idx = gathered[:, None] * N              # written in expert order
                else:
                    load_idx = gathered[:, None] * K
                    store_idx = token[:, None] * N
                offs_k = tl.arange(0, BLOCK_SIZE_K)
                offs_n = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
                offs_n = tl.max_contiguous(tl.multiple_of(offs_n % N, BLOCK_SIZE_N), BLOCK_SIZE_N)
                x_ptrs = x_ptr + load_idx + offs_k[None, :]
                w_ptrs = w_ptr + (n_start + offs_n[:, None]) * K + offs_k[None, :]
                acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=acc_dtype)
                for k_off in range(0, K, BLOCK_SIZE_K):
                    x = tl.load(x_ptrs, mask=row_mask)
                    w = tl.load(w_ptrs, mask=offs_n[:, None] < N)
                    acc += tl.dot(x.to(w.dtype), w.T)
                    x_ptrs += BLOCK_SIZE_K
                    w_ptrs += BLOCK_SIZE_K
                y = acc.to(out_ty)
                if FUSE_MUL_POST:
                    y *= tl.load(topk_weights_ptr + token[:, None], mask=row_mask).to(out_ty)
                cols = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
                tl.store(y_ptr + store_idx + cols[None, :], y, mask=row_mask & (cols[None, :] < N))
                tidx += NUM_SMS
            processed_tiles += num_tiles


def make_inputs(tokens: int, experts: int, topk: int, n: int, k: int, sm_count: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """Hidden states X [tokens, k], expert weights W [experts, n, k], a top-k routing of every token; m_sizes and
    gather_indices as Unsloth's get_routing_indices makes them (token copies sorted by expert, stable)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((tokens, k), device=device, generator=g) * 0.5).half()
    w = (torch.randn((experts, n, k), device=device, generator=g) * 0.05).half()
    logits = torch.randn((tokens, experts), device=device, generator=g)
    topk_ids = torch.topk(logits, topk, dim=-1).indices                      # [tokens, topk]
    flat = topk_ids.flatten()
    gather = torch.sort(flat, stable=True).indices.to(torch.int32)            # copy index t * topk + j
    m_sizes = torch.bincount(flat, minlength=experts).to(torch.int32)
    return {"x": x, "w": w, "m_sizes": m_sizes, "gather": gather, "topk": topk, "sm_count": sm_count}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Y [tokens * topk, n] fp16 in expert order (grouped_gemm_forward with permute_x=True)."""
    import torch
    x, w, m_sizes, gather = inputs["x"], inputs["w"], inputs["m_sizes"], inputs["gather"]
    E, N, K = w.shape
    topk, sms = inputs["topk"], inputs["sm_count"]
    y = torch.empty((x.shape[0] * topk, N), device=x.device, dtype=x.dtype)
    _grouped_gemm_forward_kernel[(sms,)](
        x, w, y, m_sizes, gather, x, NUM_EXPERTS=E, NUM_TOKENS=x.shape[0], TOPK=topk, N=N, K=K, NUM_SMS=sms,
        BLOCK_SIZE_M=config.get("BLOCK_SIZE_M", 64), BLOCK_SIZE_N=config.get("BLOCK_SIZE_N", 128),
        BLOCK_SIZE_K=config.get("BLOCK_SIZE_K", 64), PERMUTE_X=True, PERMUTE_Y=False,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, m_sizes, gather = inputs["x"].double(), inputs["w"].double(), inputs["m_sizes"], inputs["gather"].long()
    topk = inputs["topk"]
    y = torch.empty((gather.numel(), w.shape[1]), dtype=torch.float64, device=x.device)
    start = 0
    for e, m in enumerate(m_sizes.tolist()):
        idx = gather[start:start + m]
        y[start:start + m] = x[idx // topk] @ w[e].T
        start += m
    return y
