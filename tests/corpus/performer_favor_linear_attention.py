"""Performer FAVOR+ non-causal linear attention (lucidrains/performer-pytorch ``softmax_kernel`` + ``linear_attention``,
as its Triton ports fuse it): the first of the two kernels, the key-side state. One program per batch * head computes
``KV = phi(K)^T V`` [M, D] and ``ksum = sum_n phi(K)_n`` [M] over the whole sequence; the second kernel (not here)
reads them for ``out = phi(Q) KV / (phi(Q) . ksum)``.

phi is performer-pytorch's positive random features for the keys: with k scaled by D^-1/4 (``data_normalizer``),
``phi(k) = exp(k @ W - ||k||^2 / 2 - max) / sqrt(M)``, W [D, M] the (orthogonal) random projection, and ``max``
the stabiliser performer-pytorch takes over **all** keys of the (batch, head) (``torch.amax(data_dash, dim=(-1,
-2))``: a constant that cancels between KV and ksum). A one-pass kernel cannot know it before the loop, so it keeps
it **online**, as flash attention keeps its row max: a running scalar max over the block's [BLOCK_N, M] features,
KV and ksum rescaled by ``exp(m_old - m_new)`` when it grows; what it stores is exactly performer-pytorch's (the
``+ eps`` of ``ratio * (exp(...) + eps)`` is left out: it does not survive the rescaling and is 1e-4 of a term).

The constructs: the projection W [D, M] = [64, 128] loaded **once before the loop** (a loop-invariant tl.dot
operand); per step of BLOCK_N = 64 tokens the K and V tiles with the sequence tail masked; ``tl.dot(k, W)`` [64,
128] fp32; the squared norm ``tl.sum(k * k, 1)``; the masked tile max reduced to a **scalar** carried across
iterations; ``phi`` cast to fp16 and ``tl.dot(tl.trans(phi), v)`` (a **transposed register operand**: the M x
BLOCK_N x D product accumulates [128, 64] fp32); ``ksum`` += ``tl.sum(phi, 0)``; after the loop both stored fp32.
fp16 K / V / W, D = 64, M = 128 features. Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

D, M, BLOCK_N = 64, 128, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "favor_kv_state_kernel",
    "signature": {"k_ptr": "*fp16", "v_ptr": "*fp16", "w_ptr": "*fp16", "kv_ptr": "*fp32", "ksum_ptr": "*fp32",
                  "N": "i32", "stride_kb": "i32", "stride_kn": "i32", "stride_vb": "i32", "stride_vn": "i32",
                  "data_normalizer": "fp32", "ratio": "fp32"},
    "constexprs": {"D": D, "M": M, "BLOCK_N": BLOCK_N},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["k_ptr", "v_ptr", "w_ptr", "kv_ptr", "ksum_ptr", "stride_kb", "stride_kn", "stride_vb",
                     "stride_vn"]}
PROBLEM: dict[str, int] = {"B": 8, "H": 16, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 200}      # 3 blocks of 64 and a masked tail


@triton.jit
def favor_kv_state_kernel(
    k_ptr, v_ptr, w_ptr, kv_ptr, ksum_ptr,
    N, stride_kb, stride_kn, stride_vb, stride_vn,
    data_normalizer, ratio,
    D: tl.constexpr, M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_bh = tl.program_id(0)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    offs_m = tl.arange(0, M)

    # the random projection, loop-invariant: W [D, M]
    w = tl.load(w_ptr + offs_d[:, None] * M + offs_m[None, :])

    k_base = k_ptr + pid_bh.to(tl.int64) * stride_kb
    v_base = v_ptr + pid_bh.to(tl.int64) * stride_vb

    m_i = float("-inf")
    acc_kv = tl.zeros([M, D], dtype=tl.float32)
    acc_ks = tl.zeros([M], dtype=tl.float32)
    for start_n in range(0, N, BLOCK_N):
        n = start_n + offs_n
        n_mask = n < N
        k = tl.load(k_base + n[:, None] * stride_kn + offs_d[None, :], mask=n_mask[:, None], other=0.0)
        v = tl.load(v_base + n[:, None] * stride_vn + offs_d[None, :], mask=n_mask[:, None], other=0.0)
        k = (k.to(tl.float32) * data_normalizer).to(k_ptr.dtype.element_ty)
        # data_dash = (k * normalizer) @ W ; diag = ||k * normalizer||^2 / 2
        data_dash = tl.dot(k, w)
        kf = k.to(tl.float32)
        diag = tl.sum(kf * kf, 1) * 0.5
        x = data_dash - diag[:, None]
        x = tl.where(n_mask[:, None], x, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(tl.max(x, 1), 0))
        alpha = tl.exp(m_i - m_new)
        phi = tl.exp(x - m_new) * ratio
        acc_kv = acc_kv * alpha
        acc_kv += tl.dot(tl.trans(phi.to(v.dtype)), v)
        acc_ks = acc_ks * alpha + tl.sum(phi, 0)
        m_i = m_new

    kv_base = kv_ptr + pid_bh.to(tl.int64) * (M * D)
    tl.store(kv_base + offs_m[:, None] * D + offs_d[None, :], acc_kv)
    tl.store(ksum_ptr + pid_bh.to(tl.int64) * M + offs_m, acc_ks)


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """K, V [B * H, N, D] fp16; W [D, M] fp16: performer-pytorch's ``gaussian_orthogonal_random_matrix`` (blocks of
    D orthogonal rows, each row rescaled to a chi(D) norm), transposed to [D, M]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    k = torch.randn((B * H, N, D), device=device, generator=g).half()
    v = torch.randn((B * H, N, D), device=device, generator=g).half()
    blocks = []
    for _ in range(M // D):
        qm, _ = torch.linalg.qr(torch.randn((D, D), device=device, generator=g).double())
        blocks.append(qm.T)
    proj = torch.cat(blocks, 0)                                   # [M, D], orthogonal rows per block
    norms = torch.randn((M, D), device=device, generator=g).double().norm(dim=1)
    proj = proj * norms[:, None]
    return {"k": k, "v": v, "w": proj.T.contiguous().half()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[KV flattened ([B*H, M, D]), ksum flattened ([B*H, M])], fp32."""
    import torch
    k, v, w = inputs["k"], inputs["v"], inputs["w"]
    BH, N, _ = k.shape
    kv = torch.empty((BH, M, D), device=k.device, dtype=torch.float32)
    ksum = torch.empty((BH, M), device=k.device, dtype=torch.float32)
    favor_kv_state_kernel[(BH,)](k, v, w, kv, ksum, N, k.stride(0), k.stride(1), v.stride(0), v.stride(1),
                                 D ** -0.25, M ** -0.5, D=D, M=M, BLOCK_N=BLOCK_N,
                                 num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return torch.cat([kv.flatten(), ksum.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    """performer-pytorch's ``softmax_kernel(k, is_query=False)`` (eps 0) and the key side of ``linear_attention``,
    in double; K scaled by D^-1/4 and rounded to fp16 first, as the kernel feeds the tensor core."""
    import torch
    k = (inputs["k"].float() * D ** -0.25).half().double()
    v, w = inputs["v"].double(), inputs["w"].double()
    data_dash = k @ w                                             # [BH, N, M]
    diag = (k * k).sum(-1, keepdim=True) * 0.5
    x = data_dash - diag
    mx = x.amax(dim=(-1, -2), keepdim=True)
    phi = torch.exp(x - mx) / math.sqrt(M)
    kv = phi.transpose(-1, -2) @ v                                # [BH, M, D]
    ksum = phi.sum(-2)                                            # [BH, M]
    return torch.cat([kv.flatten(), ksum.flatten()])


def flops(B: int, H: int, N: int) -> float:
    return 4.0 * B * H * N * D * M
