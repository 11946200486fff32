"""An MoE grouped GEMM driven by cumulative token offsets, in the style of the Triton grouped-mm kernels that
recent MoE training stacks (torchtitan / torchao's ``_grouped_mm`` emulation, Liger / Unsloth MoE) write around
``torch._grouped_mm``'s ``offs`` convention (rewritten here): X [M_total, K] holds the routed tokens sorted by expert,
``offs`` [E] int32 the cumulative end row of each expert's group (groups may be empty), W [E, N, K] the experts'
nn.Linear weights, out [M_total, N] = X[group e] @ W[e].T. The grid is an upper bound on the M tiles of all groups
(``cdiv(M_total, BLOCK_M) + E``) times the N tiles; each program FINDS its expert with a loop over the offsets before
the K loop: ``for e in range(NUM_EXPERTS)`` loading ``offs[e]``, counting the group's tiles with ``tl.cdiv`` and
selecting, with scalar ``tl.where``, the expert, the tile's first row and the group's end row (four loop-carried
scalars, two of them only selected); a program past the last tile returns early (``if expert < 0: return``). Then the
K loop: X rows masked by the group's end (the M tail of every group), W's N tail masked, W addressed from the found
expert in int64 (``expert.to(tl.int64) * stride_we``), ``tl.dot(x, tl.trans(w), acc)``, pointers advanced by
``+= BLOCK_K``; the output stored masked as fp16. fp16 where the libraries run bf16 (Triton 3.6's interpreter
mishandles bf16). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"x_ptr": "*fp16", "w_ptr": "*fp16", "offs_ptr": "*i32", "out_ptr": "*fp16", "N": "i32", "K": "i32",
                  "stride_xm": "i32", "stride_we": "i32", "stride_wn": "i32", "stride_om": "i32"},
    "constexprs": {"NUM_EXPERTS": 8, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 8,
    "num_stages": 3, "divisibility": ["N", "K", "stride_xm", "stride_we", "stride_wn", "stride_om"]}
PROBLEM: dict[str, int] = {"T": 16384, "E": 8, "N": 4096, "K": 2048}
SMALL: dict[str, int] = {"T": 300, "E": 8, "N": 176, "K": 128}


@triton.jit
def moe_offs_grouped_mm(x_ptr, w_ptr, offs_ptr, out_ptr, N, K, stride_xm, stride_we, stride_wn, stride_om,
                        NUM_EXPERTS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    # find this program's expert: walk the groups, counting their M tiles
    tile_base = 0
    group_start = 0
    expert = -1
    m_start = 0
    m_end = 0
    for e in range(NUM_EXPERTS):
        group_end = tl.load(offs_ptr + e)
        n_tiles = tl.cdiv(group_end - group_start, BLOCK_M)
        hit = (pid_m >= tile_base) & (pid_m < tile_base + n_tiles)
        expert = tl.where(hit, e, expert)
        m_start = tl.where(hit, group_start + (pid_m - tile_base) * BLOCK_M, m_start)
        m_end = tl.where(hit, group_end, m_end)
        tile_base += n_tiles
        group_start = group_end
    if expert < 0:
        return
    offs_m = m_start + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m < m_end
    mask_n = offs_n < N
    x_ptrs = x_ptr + offs_m[:, None].to(tl.int64) * stride_xm + offs_k[None, :]
    w_ptrs = w_ptr + expert.to(tl.int64) * stride_we + offs_n[:, None] * stride_wn + offs_k[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptrs, mask=mask_m[:, None], other=0.0)
        w = tl.load(w_ptrs, mask=mask_n[:, None], other=0.0)
        acc = tl.dot(x, tl.trans(w), acc)
        x_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    out_ptrs = out_ptr + offs_m[:, None].to(tl.int64) * stride_om + offs_n[None, :]
    tl.store(out_ptrs, acc.to(tl.float16), mask=mask_m[:, None] & mask_n[None, :])


def make_inputs(T: int, E: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """T routed tokens split unevenly over E experts (one expert empty, sizes not multiples of BLOCK_M)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    weights = torch.rand(E, generator=g, device=device) + 0.2
    weights[E // 2] = 0.0                                         # an empty group
    sizes = torch.floor(weights / weights.sum() * T).to(torch.int64)
    sizes[0] += T - int(sizes.sum())
    offs = torch.cumsum(sizes, 0).to(torch.int32)
    x = torch.randn((T, K), device=device, dtype=torch.float16, generator=g)
    w = (torch.randn((E, N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    return {"x": x, "w": w, "offs": offs}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out[group e] = x[group e] @ w[e].T, fp16 [T, N]."""
    import torch
    x, w, offs = inputs["x"], inputs["w"], inputs["offs"]
    T, K = x.shape
    E, N, _ = w.shape
    out = torch.empty((T, N), device=x.device, dtype=torch.float16)
    grid = (triton.cdiv(T, 128) + E, triton.cdiv(N, 128))
    moe_offs_grouped_mm[grid](x, w, offs, out, N, K, x.stride(0), w.stride(0), w.stride(1), out.stride(0),
                              NUM_EXPERTS=E, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                              num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, offs = inputs["x"].double(), inputs["w"].double(), inputs["offs"].tolist()
    out = torch.empty((x.shape[0], w.shape[1]), dtype=torch.float64, device=x.device)
    start = 0
    for e, end in enumerate(offs):
        out[start:end] = x[start:end] @ w[e].T
        start = end
    return out


def flops(T: int, E: int, N: int, K: int) -> float:
    return 2.0 * T * N * K
