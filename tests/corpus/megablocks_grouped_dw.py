"""A MoE expert weight-gradient in the style of MegaBlocks' grouped GEMM backward (databricks/megablocks,
``megablocks/layers/mlp.py`` ``GroupedMLP`` backward, whose ``gg.backend.gmm(x, grad, batch_sizes, trans_a=True)``
computes each expert's dW over its contiguous run of permuted tokens; written here as one Triton kernel as the
grouped-GEMM ports of it write it): the tokens are sorted by expert, so expert e owns rows ``[offsets[e],
offsets[e + 1])`` of grad_output [M, N] and of the layer input [M, K]; one program per (N tile, K tile, expert)
loads its expert's segment bounds from memory (``start = tl.load(offs_ptr + e)``, ``end = tl.load(offs_ptr + e +
1)``), zeroes a [BLOCK_N, BLOCK_K] fp32 accumulator and, ``if end > start:``, loops ``for m in range(start, end,
BLOCK_M)`` over the segment (runtime bounds read from memory, a partial last block masked with ``offs_m < end``),
``acc += tl.dot(tl.trans(go), x)``; the tile is stored after the ``if`` (zeros for an expert routed no token, as
MegaBlocks' gmm writes them). So the scheduled loop has bounds loaded from memory and sits inside an ``scf.if``
whose result is the accumulator the store reads.

dW[e] = grad_output[seg_e].T @ x[seg_e], [E, N, K]; bf16 in, fp32 accumulate, bf16 out. Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

PROBLEM: dict[str, int] = {"M": 16384, "N": 2048, "K": 1024, "E": 8}
SMALL: dict[str, int] = {"M": 333, "N": 128, "K": 128, "E": 6}
TWILL_SPEC: dict[str, Any] = {
    "kernel": "grouped_dw_kernel",
    "signature": {"go_ptr": "*bf16", "x_ptr": "*bf16", "dw_ptr": "*bf16", "offs_ptr": "*i32", "N": "i32",
                  "K": "i32", "stride_gom": "i32", "stride_xm": "i32", "stride_dwe": "i32", "stride_dwn": "i32"},
    "constexprs": {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 128},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["go_ptr", "x_ptr", "dw_ptr", "offs_ptr", "N", "K", "stride_gom", "stride_xm", "stride_dwe",
                     "stride_dwn"],
}


@triton.jit
def grouped_dw_kernel(go_ptr, x_ptr, dw_ptr, offs_ptr, N, K, stride_gom, stride_xm, stride_dwe, stride_dwn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """One [BLOCK_N, BLOCK_K] tile of expert e's weight gradient, summed over the expert's token rows."""
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    e = tl.program_id(2)
    start = tl.load(offs_ptr + e)
    end = tl.load(offs_ptr + e + 1)

    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    mask_n = offs_n < N
    mask_k = offs_k < K
    rows = tl.arange(0, BLOCK_M)

    acc = tl.zeros((BLOCK_N, BLOCK_K), dtype=tl.float32)
    if end > start:
        for m in range(start, end, BLOCK_M):
            offs_m = m + rows
            mask_m = offs_m < end
            go_ptrs = go_ptr + offs_m[:, None].to(tl.int64) * stride_gom + offs_n[None, :]
            x_ptrs = x_ptr + offs_m[:, None].to(tl.int64) * stride_xm + offs_k[None, :]
            go = tl.load(go_ptrs, mask=mask_m[:, None] & mask_n[None, :], other=0.0)   # [BLOCK_M, BLOCK_N]
            x = tl.load(x_ptrs, mask=mask_m[:, None] & mask_k[None, :], other=0.0)     # [BLOCK_M, BLOCK_K]
            acc += tl.dot(tl.trans(go), x)

    dw_ptrs = dw_ptr + e.to(tl.int64) * stride_dwe + offs_n[:, None] * stride_dwn + offs_k[None, :]
    tl.store(dw_ptrs, acc.to(dw_ptr.dtype.element_ty), mask=mask_n[:, None] & mask_k[None, :])


def make_inputs(M: int, N: int, K: int, E: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """grad_output [M, N] and x [M, K] bf16, rows sorted by expert; offsets [E + 1] int32 of the experts' segments,
    their lengths uneven and not multiples of BLOCK_M; expert 1 and the last expert routed no token."""
    import torch
    assert E >= 4
    g = torch.Generator(device=device).manual_seed(seed)
    go = torch.randn((M, N), device=device, generator=g).to(torch.bfloat16)
    x = (torch.randn((M, K), device=device, generator=g) / M ** 0.5).to(torch.bfloat16)
    cuts = torch.randint(1, M, (E - 1,), device=device, generator=g).sort().values
    cuts[0] = cuts[1] = cuts[0].clone()     # expert 1: start == end
    cuts[-1] = M                            # the last expert: start == end == M
    zero = torch.zeros((1,), device=device, dtype=cuts.dtype)
    offsets = torch.cat([zero, cuts, zero + M]).to(torch.int32).contiguous()
    return {"grad_output": go, "x": x, "offsets": offsets}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """dW [E, N, K] bf16, one program per (N tile, K tile, expert), as the grouped backward launches it."""
    import torch
    go, x, offsets = inputs["grad_output"], inputs["x"], inputs["offsets"]
    (M, N), K = go.shape, x.shape[1]
    E = offsets.numel() - 1
    dw = torch.empty((E, N, K), device=go.device, dtype=go.dtype)
    grid = (triton.cdiv(N, 128), triton.cdiv(K, 128), E)
    grouped_dw_kernel[grid](go, x, dw, offsets, N, K, go.stride(0), x.stride(0), dw.stride(0), dw.stride(1),
                            BLOCK_M=64, BLOCK_N=128, BLOCK_K=128,
                            num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return dw


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    go, x = inputs["grad_output"].float(), inputs["x"].float()
    offs = inputs["offsets"].tolist()
    E = len(offs) - 1
    out = torch.zeros((E, go.shape[1], x.shape[1]), device=go.device, dtype=torch.float32)
    for e in range(E):
        s, t = offs[e], offs[e + 1]
        if t > s:
            out[e] = go[s:t].T @ x[s:t]
    return out


def flops(M: int, N: int, K: int, E: int) -> float:
    return 2.0 * M * N * K
