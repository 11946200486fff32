"""K-means assignment: each point's nearest centroid, in the style of the Triton k-means kernels of vector-search and
clustering libraries (flash-kmeans, torchpq-style): a block of points stays in registers while the loop walks the
centroids in blocks; the squared distance ``||c||^2 - 2 x . c`` (the points' norm does not change the argmin) from a
``tl.dot`` of the points with the transposed centroid tile and a precomputed norm vector broadcast with
``tl.expand_dims``; the block's nearest by ``tl.min`` and ``tl.argmin`` along the centroid axis (two reductions of
the same tile, one returning an index); the running best distance and index started with ``tl.zeros_like`` /
``tl.full`` and updated with ``tl.where`` (strictly smaller, so the first centroid wins a tie, as ``torch.argmin``);
the centroid count masked (``other=float("inf")`` on the norms, so a padded column never wins). fp16 points and
centroids, fp32 norms and distances, int32 indices. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"x_ptr": "*fp16", "c_ptr": "*fp16", "cnorm_ptr": "*fp32", "out_idx_ptr": "*i32",
                  "out_dist_ptr": "*fp32", "N": "i32", "K": "i32", "stride_x": "i32", "stride_c": "i32"},
    "constexprs": {"D": 128, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["N", "K", "stride_x", "stride_c"]}
PROBLEM: dict[str, int] = {"N": 262144, "K": 4096, "D": 128}
SMALL: dict[str, int] = {"N": 300, "K": 200, "D": 128}


@triton.jit
def kmeans_assign_kernel(x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c,
                         D: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    offs_n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    n_mask = offs_n < N
    x = tl.load(x_ptr + tl.expand_dims(offs_n, 1) * stride_x + tl.expand_dims(offs_d, 0),
                mask=tl.expand_dims(n_mask, 1), other=0.0)
    best_dist = tl.full((BLOCK_N,), float("inf"), tl.float32)
    best_idx = tl.zeros_like(offs_n)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        k_mask = offs_k < K
        c = tl.load(c_ptr + tl.expand_dims(offs_k, 1) * stride_c + tl.expand_dims(offs_d, 0),
                    mask=tl.expand_dims(k_mask, 1), other=0.0)
        cn = tl.load(cnorm_ptr + offs_k, mask=k_mask, other=float("inf"))
        xc = tl.dot(x, tl.trans(c))
        dist = tl.expand_dims(cn, 0) - 2.0 * xc
        blk_min = tl.min(dist, axis=1)
        blk_arg = tl.argmin(dist, axis=1) + k0
        better = blk_min < best_dist
        best_dist = tl.where(better, blk_min, best_dist)
        best_idx = tl.where(better, blk_arg, best_idx)
    tl.store(out_idx_ptr + offs_n, best_idx, mask=n_mask)
    tl.store(out_dist_ptr + offs_n, best_dist, mask=n_mask)


def make_inputs(N: int, K: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Points [N, D] and centroids [K, D] fp16 (centroids drawn among the points plus noise, so distances are close
    and the argmin is not trivial), the centroids' squared norms fp32 [K]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((N, D), device=device, generator=g).half()
    pick = torch.randint(0, N, (K,), device=device, generator=g)
    c = (x[pick].float() + 0.5 * torch.randn((K, D), device=device, generator=g)).half()
    return {"x": x, "c": c, "cnorm": c.float().pow(2).sum(1)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(nearest centroid i32 [N], its ``||c||^2 - 2 x . c`` fp32 [N])."""
    import torch
    x, c = inputs["x"], inputs["c"]
    N, D = x.shape
    K = c.shape[0]
    idx = torch.full((N,), -1, device=x.device, dtype=torch.int32)
    dist = torch.full((N,), float("nan"), device=x.device, dtype=torch.float32)
    kmeans_assign_kernel[(triton.cdiv(N, 128),)](x, c, inputs["cnorm"], idx, dist, N, K, x.stride(0), c.stride(0),
                                                 D=D, BLOCK_N=128, BLOCK_K=64, num_warps=config.get("num_warps", 4),
                                                 num_stages=config.get("num_stages", 3))
    return idx, dist


def reference(inputs: dict[str, Any]) -> Any:
    """float32 distances in blocks of points; the index of the nearest (first on a tie), as fp32 for the compare.
    A near tie the fp16 products split differently may pick another centroid at a distance within rounding: the
    distance is compared as well."""
    import torch
    x, c, cn = inputs["x"], inputs["c"], inputs["cnorm"]
    idx = torch.empty((x.shape[0],), device=x.device, dtype=torch.int64)
    dist = torch.empty((x.shape[0],), device=x.device, dtype=torch.float32)
    for i in range(0, x.shape[0], 16384):
        d = cn[None, :] - 2.0 * (x[i:i + 16384].float() @ c.float().t())
        dist[i:i + 16384], idx[i:i + 16384] = d.min(dim=1)
    return idx.to(torch.int32), dist


def flops(N: int, K: int, D: int) -> float:
    """The distance GEMM's multiply-adds."""
    return 2.0 * N * K * D
