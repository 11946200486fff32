"""OpenAI triton_kernels' ``matmul_ogs`` (the MoE GEMM gpt-oss runs: matmul_ogs_details/_matmul_ogs.py ``_matmul_ogs``,
rewritten and simplified here: no split-K, no microscaling, no fused activation): Y = scatter(gammas * (gather(X) @
W[e] + bias[e])). One program per (M tile of an expert, N tile), the tiles of all experts laid end to end in
``ExptData`` (``block_id << 16 | expt_id``, -1 where a slot carries no tile: an early ``return``); the pid swizzled by
the library's own ``swizzle2d`` helper (GROUP_M); each expert's row count and first sorted row loaded from
``ExptHist`` / ``ExptOffs``; the rows GATHERED through ``GatherIndx`` (the token is the routed index ``//
N_EXPTS_ACT``) after ``tl.max_contiguous(tl.multiple_of(offs % M, BLOCK_M), BLOCK_M)`` hints; a K loop counting down
(``range(K, 0, -BLOCK_K)``) whose mask is an ``EVEN_K`` constexpr branch (``tl.full(.., True)`` or ``offs_k < k``),
W [E, K, N] offset by the expert in int64; after it the expert's bias, the routing weight (``Gammas``)
per row, and a SCATTER store through ``ScatterIndx`` (its -1 rows masked). fp16 in and out (gpt-oss runs bf16: Triton
3.6's interpreter multiplies bf16 tiles wrongly, so the CPU check could not run), fp32 accumulate. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_matmul_ogs",
    "signature": {"Y": "*fp16", "stride_y_m": "i32", "stride_y_n": "constexpr",
                  "X": "*fp16", "stride_x_m": "i32", "stride_x_k": "constexpr",
                  "W": "*fp16", "stride_w_e": "i32", "stride_w_k": "i32", "stride_w_n": "constexpr",
                  "Bias": "*fp32", "stride_b_e": "i32", "Gammas": "*fp32", "N": "i32", "K": "i32",
                  "GatherIndx": "*i32", "ScatterIndx": "*i32", "ExptHist": "*i32", "ExptOffs": "*i32",
                  "ExptData": "*i32", "grid_m": "i32", "grid_n": "i32"},
    "constexprs": {"stride_y_n": 1, "stride_x_k": 1, "stride_w_n": 1, "N_EXPTS_ACT": 4, "BLOCK_M": 64,
                   "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "EVEN_K": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["Y", "X", "W", "Bias", "Gammas", "GatherIndx", "ScatterIndx", "ExptHist", "ExptOffs", "ExptData",
                     "stride_y_m", "stride_x_m", "stride_w_e", "stride_w_k", "stride_b_e", "N", "K"]}
# gpt-oss-20b's first MoE projection: hidden 2880 -> 2 x 2880, 32 experts, 4 active per token
PROBLEM: dict[str, int] = {"T": 4096, "E": 32, "N": 5760, "K": 2880}
SMALL: dict[str, int] = {"T": 100, "E": 6, "N": 208, "K": 192}   # K % BLOCK_K == 0 as EVEN_K says; N masked
N_EXPTS_ACT = 4
BLOCK_M = 64


@triton.jit
def swizzle2d(pid, grid_m, grid_n, GROUP_M: tl.constexpr):
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = tl.minimum(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size
    return pid_m, pid_n


@triton.jit
def _matmul_ogs(Y, stride_y_m, stride_y_n, X, stride_x_m, stride_x_k, W, stride_w_e, stride_w_k, stride_w_n,
                Bias, stride_b_e, Gammas, N, K, GatherIndx, ScatterIndx, ExptHist, ExptOffs, ExptData, grid_m, grid_n,
                N_EXPTS_ACT: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                GROUP_M: tl.constexpr, EVEN_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_m, pid_n = swizzle2d(pid, grid_m, grid_n, GROUP_M)
    expt_data = tl.load(ExptData + pid_m)
    if expt_data == -1:
        return
    expt_id = expt_data & 0x0000FFFF
    block_id = expt_data >> 16
    M = tl.load(ExptHist + expt_id)
    start_m = tl.load(ExptOffs + expt_id)
    # A: the expert's sorted rows, gathered from the tokens they were routed from
    offs_x_m = BLOCK_M * block_id + tl.arange(0, BLOCK_M)
    offs_x_m = tl.max_contiguous(tl.multiple_of(offs_x_m % M, BLOCK_M), BLOCK_M)
    GatherIndx += start_m
    offs_x_m = tl.load(GatherIndx + offs_x_m) // N_EXPTS_ACT
    offs_k = tl.arange(0, BLOCK_K)
    XPtrs = X + offs_x_m.to(tl.int64)[:, None] * stride_x_m + offs_k[None, :] * stride_x_k
    # B: the expert's weights
    offs_w_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_w_n = tl.max_contiguous(tl.multiple_of(offs_w_n % N, BLOCK_N), BLOCK_N)
    W += expt_id.to(tl.int64) * stride_w_e
    WPtrs = W + offs_k[:, None] * stride_w_k + offs_w_n[None, :] * stride_w_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            mask_k = tl.full([BLOCK_K], True, dtype=tl.int1)
        else:
            mask_k = offs_k < k
        x = tl.load(XPtrs, mask=mask_k[None, :], other=0.0)
        w = tl.load(WPtrs, mask=mask_k[:, None], other=0.0)
        acc = tl.dot(x, w, acc)
        XPtrs += BLOCK_K * stride_x_k
        WPtrs += BLOCK_K * stride_w_k
    # epilogue: bias, routing weight, scatter to the routed slot's row
    offs_m = BLOCK_M * block_id + tl.arange(0, BLOCK_M)
    offs_y_n = BLOCK_N * pid_n + tl.arange(0, BLOCK_N)
    mask_m = offs_m < M
    mask_n = offs_y_n < N
    bias = tl.load(Bias + expt_id * stride_b_e + offs_y_n, mask=mask_n, other=0.0)
    acc = acc + bias[None, :]
    gammas = tl.load(Gammas + start_m + offs_m, mask=mask_m, other=0.0)
    acc = acc * gammas[:, None]
    dst_idx = tl.load(ScatterIndx + start_m + offs_m, mask=mask_m, other=-1)
    mask_m = mask_m & (dst_idx != -1)
    YPtrs = Y + dst_idx.to(tl.int64)[:, None] * stride_y_m + offs_y_n[None, :] * stride_y_n
    tl.store(YPtrs, acc.to(Y.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])


def make_inputs(T: int, E: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """T tokens routed to N_EXPTS_ACT distinct experts each (softmaxed top-k weights); the routed slots sorted by
    expert as triton_kernels' routing does: GatherIndx / ScatterIndx the slot (token * N_EXPTS_ACT + j) of each
    sorted row, Gammas its weight, ExptHist / ExptOffs each expert's row count and first row, ExptData its tiles
    (``block << 16 | expert``) padded with -1 to the grid's worst case."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    x = (torch.randn((T, K), generator=g) * 0.5).to(torch.float16)
    w = (torch.randn((E, K, N), generator=g) * K ** -0.5).to(torch.float16)
    bias = torch.randn((E, N), generator=g)
    logits = torch.randn((T, E), generator=g)
    top, expt = torch.topk(logits, N_EXPTS_ACT, dim=1)
    gates = torch.softmax(top, dim=1)
    flat = expt.reshape(-1)
    order = torch.sort(flat, stable=True).indices.to(torch.int32)
    hist = torch.bincount(flat, minlength=E).to(torch.int32)
    offs = (torch.cumsum(hist, 0) - hist).to(torch.int32)
    tiles = [(b << 16) | e for e in range(E) for b in range(-(-int(hist[e]) // BLOCK_M))]
    grid_m = -(-T * N_EXPTS_ACT // BLOCK_M) + E
    data = torch.full((grid_m,), -1, dtype=torch.int32)
    data[:len(tiles)] = torch.tensor(tiles, dtype=torch.int32)
    host = {"x": x, "w": w, "bias": bias, "gammas": gates.reshape(-1)[order.long()].contiguous(),
            "gather": order, "scatter": order.clone(), "hist": hist, "offs": offs, "data": data}
    out = {k: v.to(device) for k, v in host.items()}
    out["T"] = T
    return out


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Y [T * N_EXPTS_ACT, N]: row token * N_EXPTS_ACT + j is the token's j-th expert's output times its weight."""
    import torch
    x, w, data = inputs["x"], inputs["w"], inputs["data"]
    E, K, N = w.shape
    y = torch.zeros((inputs["T"] * N_EXPTS_ACT, N), device=x.device, dtype=torch.float16)
    BLOCK_N, BLOCK_K = config.get("BLOCK_N", 128), config.get("BLOCK_K", 64)
    grid_m, grid_n = data.numel(), triton.cdiv(N, BLOCK_N)
    _matmul_ogs[(grid_m * grid_n,)](
        y, y.stride(0), 1, x, x.stride(0), 1, w, w.stride(0), w.stride(1), 1, inputs["bias"], inputs["bias"].stride(0),
        inputs["gammas"], N, K, inputs["gather"], inputs["scatter"], inputs["hist"], inputs["offs"], data, grid_m,
        grid_n, N_EXPTS_ACT=N_EXPTS_ACT, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
        GROUP_M=config.get("GROUP_M", 8), EVEN_K=K % BLOCK_K == 0, num_warps=config.get("num_warps", 4),
        num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, bias = inputs["x"].float(), inputs["w"].float(), inputs["bias"]
    rows = inputs["gather"].long()
    y = torch.zeros((inputs["T"] * N_EXPTS_ACT, w.shape[2]), device=x.device)
    hist, offs = inputs["hist"].tolist(), inputs["offs"].tolist()
    for e, (n, o) in enumerate(zip(hist, offs)):
        r = rows[o:o + n]
        y[inputs["scatter"][o:o + n].long()] = (x[r // N_EXPTS_ACT] @ w[e] + bias[e]) * inputs["gammas"][o:o + n, None]
    return y


def flops(T: int, E: int, N: int, K: int) -> float:
    return 2.0 * T * N_EXPTS_ACT * N * K
