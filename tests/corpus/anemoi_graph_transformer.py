"""The graph transformer's message passing in ECMWF's Anemoi weather models (ecmwf/anemoi-core,
models/src/anemoi/models/triton/gt.py ``_gt_fwd``, launched by ``GraphTransformerFunction.forward``, the ``triton``
backend of the GraphTransformer processor and mappers; rewritten here): for every destination node, attention over
its incoming edges in CSC order, keys and values gathered from the source nodes and shifted by the edge features,
with an online softmax per head: ``out[d] = sum_e softmax_e(<q_d, k_src(e) + e_e> / sqrt(C)) (v_src(e) + e_e)``.

The constructs, as the library writes them: one program per destination node and an early ``return`` past
``N_dst``; a helper (``build_masks_and_offsets``) whose constexpr branches pick the [H * C] offsets (H and C powers of
two here: ``tl.arange(0, H * C)``, both masks ``True``); the node's edge range loaded from the CSC ``colptr`` (int64)
and an ``if num_edges == 0:`` that stores zeros into both outputs and returns; ``q`` loaded flat, ``.to(tl.float32)``
and ``.reshape((H_pad, C_pad))``; a loop ``for _ in range(num_edges)`` (a trip count loaded from memory, one edge an
iteration) carrying an edge-feature pointer advanced by ``H * C`` and an int64 edge counter ``e_idx += 1``; in it the
source node loaded from ``ROW_ptr + e_idx`` and the [H, C] key and value rows gathered at ``src_idx * H * C`` (loads
indexed by a loaded value), ``tl.sum(q * k_e, axis=-1)`` per head, the running max / correction / sum of the online
softmax on [H] vectors broadcast with ``[:, None]``; after the loop the normalised [H, C] tile reshaped flat and
stored in ``out_dtype`` (fp32: the launcher's ``tl.float32``), and ``m_i + log(l_i)`` per head for the backward.
``qk_scale: tl.constexpr = 1.0 / tl.sqrt(float(C))``. bf16 q / k / v / e [*, 16, 64]; Triton's default 4 warps and
3 stages (the launch passes none). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_gt_fwd",
    "signature": {"Q_ptr": "*bf16", "K_ptr": "*bf16", "V_ptr": "*bf16", "E_ptr": "*bf16", "M_ptr": "*fp32",
                  "ROW_ptr": "*i64", "COLPTR_ptr": "*i64", "OUT_ptr": "*fp32", "N_dst": "i32"},
    "constexprs": {"H": 16, "C": 64, "out_dtype": "fp32"},
    "num_warps": 4, "num_stages": 3}
PROBLEM: dict[str, int] = {"N_src": 40320, "N_dst": 40320, "degree": 12, "H": 16, "C": 64}
SMALL: dict[str, int] = {"N_src": 300, "N_dst": 257, "degree": 5, "H": 16, "C": 64}


@triton.jit
def build_masks_and_offsets(H: tl.constexpr, C: tl.constexpr, H_pad: tl.constexpr, C_pad: tl.constexpr):
    """The [H_pad * C_pad] offsets into a [H, C] row and their masks (True where H and C are powers of two)."""
    H_mask = True
    H_C_mask = True
    if H == H_pad and C == C_pad:
        H_C_off = tl.arange(0, H * C)
    elif H == H_pad:   # only C padded: no head mask
        C_pad_off = tl.arange(0, C_pad)[None, :]
        H_off = tl.arange(0, H)[:, None]
        H_C_mask_2d = (C_pad_off < C) & (H_off < H)
        H_C_mask = tl.reshape(H_C_mask_2d, (H * C_pad,))
        H_C_off = tl.reshape(H_off * C + C_pad_off, (H * C_pad,))
    else:   # both padded
        H_pad_off = tl.arange(0, H_pad)[:, None]
        C_pad_off = tl.arange(0, C_pad)[None, :]
        H_mask = tl.arange(0, H_pad) < H
        H_C_mask_2d = (C_pad_off < C) & (H_pad_off < H)
        H_C_mask = tl.reshape(H_C_mask_2d, (H_pad * C_pad,))
        H_C_off = tl.reshape(H_pad_off * C + C_pad_off, (H_pad * C_pad,))
    return H_mask, H_C_mask, H_C_off


@triton.jit
def _gt_fwd(
    Q_ptr,  # [N_dst, H, C]
    K_ptr,  # [N_src, H, C]
    V_ptr,  # [N_src, H, C]
    E_ptr,  # [M, H, C]
    M_ptr,  # [N_dst, H]
    ROW_ptr,  # [M]
    COLPTR_ptr,  # [N_dst+1]
    OUT_ptr,  # [N_dst, H, C]
    N_dst,
    H: tl.constexpr,
    C: tl.constexpr,
    out_dtype: tl.constexpr,
):
    pid = tl.program_id(0)
    dst_idx = pid
    if dst_idx >= N_dst:
        return

    H_pad: tl.constexpr = triton.next_power_of_2(H)
    C_pad: tl.constexpr = triton.next_power_of_2(C)
    H_mask, H_C_mask, H_C_off = build_masks_and_offsets(H, C, H_pad, C_pad)

    dst_start = dst_idx * H * C
    dst_off = dst_start + H_C_off

    neigh_start = tl.load(COLPTR_ptr + dst_idx)
    neigh_end = tl.load(COLPTR_ptr + dst_idx + 1)
    num_edges = neigh_end - neigh_start

    if num_edges == 0:   # an isolated node: zeros, and no softmax
        zeros = tl.zeros((H_pad,), dtype=tl.float32)
        M_off = M_ptr + dst_idx * H + tl.arange(0, H_pad)
        tl.store(M_off, zeros, mask=H_mask)
        zeros = tl.zeros((H_pad * C_pad,), dtype=out_dtype)
        OUT_off = OUT_ptr + dst_off
        tl.store(OUT_off, zeros, mask=H_C_mask)
        return

    q = tl.load(Q_ptr + dst_off, mask=H_C_mask).to(tl.float32).reshape((H_pad, C_pad))
    acc = tl.zeros((H_pad, C_pad), dtype=tl.float32)   # the output, pending normalisation by l_i
    l_i = tl.zeros((H_pad,), dtype=tl.float32)   # sum of attention weights
    m_i = tl.full((H_pad,), value=-float("inf"), dtype=tl.float32)   # running max

    edge_ptr = E_ptr + neigh_start * H * C + H_C_off   # the first edge's features
    e_idx = neigh_start   # the first edge
    qk_scale: tl.constexpr = 1.0 / tl.sqrt(float(C))

    for _ in range(num_edges):
        e = tl.load(edge_ptr, mask=H_C_mask).to(tl.float32).reshape((H_pad, C_pad))

        src_idx = tl.load(ROW_ptr + e_idx)   # the edge's source node
        src_off = src_idx * H * C + H_C_off
        k = tl.load(K_ptr + src_off, mask=H_C_mask).to(tl.float32).reshape((H_pad, C_pad))
        v = tl.load(V_ptr + src_off, mask=H_C_mask).to(tl.float32).reshape((H_pad, C_pad))

        k_e = k + e
        v_e = v + e

        qk = tl.sum(q * k_e, axis=-1) * qk_scale   # [H]

        m_ij = tl.maximum(m_i, qk)
        alpha_ij = tl.exp(qk - m_ij)
        correction = tl.exp(m_i - m_ij)

        acc = acc * correction[:, None]
        l_i = l_i * correction

        acc = acc + alpha_ij[:, None] * v_e
        l_i = l_i + alpha_ij
        m_i = m_ij

        edge_ptr += H * C
        e_idx += 1

    acc = acc / l_i[:, None]
    tl.store(OUT_ptr + dst_off, acc.to(out_dtype).reshape(H_pad * C_pad,), mask=H_C_mask)

    m_start = dst_idx * H
    m_off = m_start + tl.arange(0, H_pad)
    m_i += tl.log(l_i)
    tl.store(M_ptr + m_off, m_i, mask=H_mask)


def make_inputs(N_src: int, N_dst: int, degree: int, H: int, C: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """A random bipartite graph in CSC order (every seventh destination isolated), bf16 features."""
    import torch
    gen = torch.Generator(device="cpu").manual_seed(seed)
    deg = torch.randint(1, 2 * degree, (N_dst,), generator=gen)
    deg[::7] = 0
    colptr = torch.zeros(N_dst + 1, dtype=torch.int64)
    colptr[1:] = torch.cumsum(deg, 0)
    M = int(colptr[-1])
    row = torch.randint(0, N_src, (M,), generator=gen, dtype=torch.int64)

    def feats(n: int) -> Any:
        return torch.randn((n, H, C), generator=gen).to(torch.bfloat16).to(device)
    return {"q": feats(N_dst), "k": feats(N_src), "v": feats(N_src), "e": feats(M) / 4,
            "row": row.to(device), "colptr": colptr.to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``GraphTransformerFunction.forward``'s launch: the fp32 output (config ignored)."""
    import torch
    q, k, v, e, row, colptr = (inputs[n] for n in ("q", "k", "v", "e", "row", "colptr"))
    N_dst, H, C = q.shape
    out_saved = torch.empty((N_dst, H, C), device=q.device, dtype=torch.float32)
    m = torch.empty((N_dst, H), device=q.device, dtype=torch.float32)
    _gt_fwd[(N_dst,)](q, k, v, e, m, row, colptr, out_saved, N_dst, H, C, tl.float32)
    return out_saved


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, e = (inputs[n].double() for n in ("q", "k", "v", "e"))
    row, colptr = inputs["row"], inputs["colptr"]
    N_dst, H, C = q.shape
    dst = torch.repeat_interleave(torch.arange(N_dst, device=q.device), colptr[1:] - colptr[:-1])
    ke, ve = k[row] + e, v[row] + e
    s = (q[dst] * ke).sum(-1) / C ** 0.5                                     # [M, H]
    smax = torch.full((N_dst, H), -float("inf"), dtype=s.dtype, device=s.device)
    smax = smax.scatter_reduce(0, dst[:, None].expand(-1, H), s, "amax")
    p = torch.exp(s - smax[dst])
    denom = torch.zeros((N_dst, H), dtype=s.dtype, device=s.device).index_add_(0, dst, p)
    out = torch.zeros((N_dst, H, C), dtype=s.dtype, device=s.device).index_add_(0, dst, p[..., None] * ve)
    return torch.where(denom[..., None] > 0, out / denom.clamp_min(1e-300)[..., None], 0.0)
