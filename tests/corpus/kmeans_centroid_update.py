"""K-means centroid update (the M step) as a fused Triton kernel in the style of the GPU k-means libraries
(fast-pytorch-kmeans' / faiss-style mini-batch update, flash-kmeans' ``centroid_update``): the points arrive in a
padded buffer of fixed-size chunks of CHUNK slots (a streaming / mini-batch k-means keeps its ring of batches so),
``counts[c]`` the number of live points in chunk ``c`` (0 for a chunk not yet filled, fewer than CHUNK for the last
one), ``ids`` every point's assigned cluster from the E step. Each program owns a BLOCK_D block of feature columns of
all K centroids (a [K, BLOCK_D] fp32 accumulator in registers) and one split of the chunks. **A loop nest**: the outer
``for c in range(c0, c1)`` over the split's chunks (a runtime count) **carries the accumulator** (and the [K] cluster
sizes); per chunk ``chunk_count = tl.load(counts + c)`` and ``if chunk_count > 0:`` around the inner loop, a
constant-trip ``for p0 in range(0, CHUNK, BLOCK_P)`` over the chunk's points in blocks of BLOCK_P: the points'
cluster ids (masked by ``p0 + offs_p < chunk_count``, ``other=-1`` so a padded slot matches no cluster) and their
[BLOCK_P, BLOCK_D] fp16 features loaded, ``onehot = (ids[None, :] == tl.arange(0, K)[:, None]).to(tl.float16)`` and
``acc += tl.dot(onehot, x)`` (a [K, BLOCK_P] x [BLOCK_P, BLOCK_D] product: the scatter-add of the points into their
centroids done by the tensor cores) and ``cnt += tl.sum(onehot.to(tl.float32), axis=1)``; after the outer loop the
split's partial sums [K, BLOCK_D] and sizes stored (the sizes by the first column block only). The launcher adds the
splits and divides, keeping the old centroid of an empty cluster. K = 32 clusters, D = 256 fp16 features,
CHUNK = 4096, BLOCK_P = 64, BLOCK_D = 64, 64 splits, 4 warps, 3 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

K_CLUSTERS = 32
BLOCK_P_, BLOCK_D_ = 64, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "kmeans_centroid_update_kernel",
    "signature": {"x_ptr": "*fp16", "ids_ptr": "*i32", "counts_ptr": "*i32", "psum_ptr": "*fp32",
                  "pcnt_ptr": "*fp32", "n_chunks": "i32", "chunks_per_split": "i32", "D": "i32", "stride_x": "i32",
                  "K": "constexpr", "CHUNK": "constexpr", "BLOCK_P": "constexpr", "BLOCK_D": "constexpr"},
    "constexprs": {"K": K_CLUSTERS, "CHUNK": 4096, "BLOCK_P": BLOCK_P_, "BLOCK_D": BLOCK_D_},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["x_ptr", "ids_ptr", "counts_ptr", "psum_ptr", "pcnt_ptr", "D", "stride_x"]}
PROBLEM: dict[str, int] = {"N_CHUNKS": 256, "CHUNK": 4096, "D": 256, "SPLITS": 64}     # 1M point slots
SMALL: dict[str, int] = {"N_CHUNKS": 5, "CHUNK": 4096, "D": 96, "SPLITS": 2}           # D % BLOCK_D, a short split


@triton.jit
def kmeans_centroid_update_kernel(x_ptr, ids_ptr, counts_ptr, psum_ptr, pcnt_ptr, n_chunks, chunks_per_split, D,
                                  stride_x, K: tl.constexpr, CHUNK: tl.constexpr, BLOCK_P: tl.constexpr,
                                  BLOCK_D: tl.constexpr):
    """psum[split, k, d_block] = sum of the live points of the split's chunks assigned to cluster k; pcnt[split, k]
    their number."""
    pid_d = tl.program_id(0)
    split = tl.program_id(1)

    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    mask_d = offs_d < D
    offs_p = tl.arange(0, BLOCK_P)
    offs_k = tl.arange(0, K)

    c0 = split * chunks_per_split
    c1 = tl.minimum(c0 + chunks_per_split, n_chunks)

    acc = tl.zeros([K, BLOCK_D], dtype=tl.float32)
    cnt = tl.zeros([K], dtype=tl.float32)
    for c in range(c0, c1):
        chunk_count = tl.load(counts_ptr + c)
        if chunk_count > 0:
            base = c.to(tl.int64) * CHUNK
            for p0 in range(0, CHUNK, BLOCK_P):
                pidx = p0 + offs_p
                mask_p = pidx < chunk_count
                ids = tl.load(ids_ptr + base + pidx, mask=mask_p, other=-1)
                x_ptrs = x_ptr + (base + pidx)[:, None] * stride_x + offs_d[None, :]
                x = tl.load(x_ptrs, mask=mask_p[:, None] & mask_d[None, :], other=0.0)
                onehot = (ids[None, :] == offs_k[:, None]).to(tl.float16)
                acc += tl.dot(onehot, x)
                cnt += tl.sum(onehot.to(tl.float32), axis=1)

    psum_ptrs = psum_ptr + (split * K + offs_k)[:, None] * D + offs_d[None, :]
    tl.store(psum_ptrs, acc, mask=mask_d[None, :])
    tl.store(pcnt_ptr + split * K + offs_k, cnt, mask=(offs_k < K) & (pid_d == 0))


def make_inputs(N_CHUNKS: int, CHUNK: int, D: int, SPLITS: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """A padded point buffer [N_CHUNKS * CHUNK, D] fp16 (points around K_CLUSTERS centres), each point's cluster id
    int32 (the nearest centre's, one cluster left empty), the live count per chunk (every third chunk empty, one
    chunk half full, the rest full), the old centroids [K, D] fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    n = N_CHUNKS * CHUNK
    centres = torch.randn((K_CLUSTERS, D), device=device, generator=g) * 2
    ids = torch.randint(0, K_CLUSTERS - 1, (n,), device=device, generator=g)      # cluster K - 1 stays empty
    x = (centres[ids] + torch.randn((n, D), device=device, generator=g)).half()
    counts = torch.full((N_CHUNKS,), CHUNK, dtype=torch.int32)
    counts[::3] = 0
    counts[N_CHUNKS // 2] = CHUNK // 2 + 5
    return {"x": x, "ids": ids.to(torch.int32), "counts": counts.to(device),
            "centroids": (centres + 0.1).contiguous(), "splits": SPLITS, "chunk": CHUNK}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(new centroids [K, D] fp32, cluster sizes [K] fp32): the kernel's per-split partials summed, the sums divided
    by the sizes, an empty cluster keeping its old centroid."""
    import torch
    x, ids, counts, old = inputs["x"], inputs["ids"], inputs["counts"], inputs["centroids"]
    splits, chunk = inputs["splits"], inputs["chunk"]
    n_chunks, D = counts.numel(), x.shape[1]
    chunks_per_split = triton.cdiv(n_chunks, splits)
    psum = torch.empty((splits, K_CLUSTERS, D), device=x.device, dtype=torch.float32)
    pcnt = torch.empty((splits, K_CLUSTERS), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(D, BLOCK_D_), splits)
    kmeans_centroid_update_kernel[grid](x, ids, counts, psum, pcnt, n_chunks, chunks_per_split, D, x.stride(0),
                                        K=K_CLUSTERS, CHUNK=chunk, BLOCK_P=BLOCK_P_, BLOCK_D=BLOCK_D_,
                                        num_warps=config.get("num_warps", 4),
                                        num_stages=config.get("num_stages", 3))
    sums, sizes = psum.sum(0), pcnt.sum(0)
    new = torch.where(sizes[:, None] > 0, sums / sizes.clamp(min=1)[:, None], old)
    return new, sizes


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, ids, counts, old, chunk = (inputs[k] for k in ("x", "ids", "counts", "centroids", "chunk"))
    slot = torch.arange(x.shape[0], device=x.device)
    live = slot % chunk < counts.long().repeat_interleave(chunk)
    xl, il = x[live].float(), ids[live].long()
    sums = torch.zeros((K_CLUSTERS, x.shape[1]), device=x.device, dtype=torch.float32).index_add_(0, il, xl)
    sizes = torch.bincount(il, minlength=K_CLUSTERS).float()
    new = torch.where(sizes[:, None] > 0, sums / sizes.clamp(min=1)[:, None], old)
    return new, sizes


def flops(N_CHUNKS: int, CHUNK: int, D: int, SPLITS: int) -> float:
    """The one-hot product over every slot of the non-empty chunks (two of three at the file's counts)."""
    return 2.0 * K_CLUSTERS * (N_CHUNKS - (N_CHUNKS + 2) // 3) * CHUNK * D
