"""FlashAttention forward for Hopper (sm_90) and Blackwell (sm_100): TMA descriptors, fp16, online softmax.

Written after Triton's tutorial ``06-fused-attention.py`` (the non-causal stage of ``_attn_fwd``): one CTA
owns a BLOCK_M x HEAD_DIM tile of Q and loops over the K/V blocks of its (batch, head), keeping the running
row max ``m_i``, running row sum ``l_i`` and output accumulator ``acc`` in registers. Scores are scaled by
``sm_scale * log2(e)`` so the softmax uses ``exp2``. The kernel also stores the log2-domain logsumexp of
each row, ``M = m_i + log2(l_i)``, i.e. ``M = logsumexp(sm_scale * q @ k^T) / ln(2)``, which the backward
pass (``kernels/fa_bwd.py``) uses with the same convention.

Importing this file does no GPU or torch work: torch is imported inside the functions that need it.
Run ``python kernels/fa3.py`` on a machine with a GPU to check it against torch and time it.
"""
from __future__ import annotations

import math
import sys
from typing import Any

import triton
import triton.language as tl

# Specialisation used for offline extraction (see the repository's conventions for TWILL_SPEC).
# Q/K/V/O are [B*H*N, D] fp16 tensors read through host-side TMA descriptors.
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_fwd",
    "signature": {
        "sm_scale": "fp32",
        "M": "*fp32",
        "Z": "i32",
        "H": "i32",
        "desc_q": "tensordesc<fp16[128, 128]>",
        "desc_k": "tensordesc<fp16[128, 128]>",
        "desc_v": "tensordesc<fp16[128, 128]>",
        "desc_o": "tensordesc<fp16[128, 128]>",
        "N_CTX": "i32",
        "HEAD_DIM": "constexpr",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
    },
    "constexprs": {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 128},
    "num_warps": 8,
    "num_stages": 3,
    "divisibility": ["M", "N_CTX"],
    "arch": {},
}

PROBLEM: dict[str, int] = {"B": 4, "H": 32, "N": 4096, "D": 128}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 512, "D": 128}


@triton.jit
def _attn_fwd(sm_scale, M, Z, H, desc_q, desc_k, desc_v, desc_o, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    dtype: tl.constexpr = tl.float16
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    # Row offset of this (batch, head) in the flattened [B*H*N, D] views.
    offset_y = off_hz * N_CTX
    qo_offset_y = offset_y + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1 / ln(2): softmax in base 2
    q = desc_q.load([qo_offset_y, 0])
    offsetkv_y = offset_y
    for start_n in tl.range(0, N_CTX, BLOCK_N):
        k = desc_k.load([offsetkv_y, 0]).T
        qk = tl.dot(q, k)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_ij = tl.sum(p, 1)
        acc = acc * alpha[:, None]
        p = p.to(dtype)
        v = desc_v.load([offsetkv_y, 0])
        acc = tl.dot(p, v, acc)
        l_i = l_i * alpha + l_ij
        m_i = m_ij
        offsetkv_y += BLOCK_N
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    desc_o.store([qo_offset_y, 0], acc.to(dtype))


def default_config(arch: str | None = None) -> dict[str, int]:
    """Launch configuration of TWILL_SPEC (with the arch's overrides), e.g. ``{"BLOCK_M": 128, ...}``."""
    spec = dict(TWILL_SPEC, **TWILL_SPEC["arch"].get(arch or "", {}))
    c = spec["constexprs"]
    return {"BLOCK_M": c["BLOCK_M"], "BLOCK_N": c["BLOCK_N"], "num_warps": spec["num_warps"],
            "num_stages": spec["num_stages"]}


def _device_arch() -> str | None:
    """The TWILL_SPEC arch key of the current GPU ("b200" for sm_100 and newer), None without a GPU."""
    import torch
    if not torch.cuda.is_available():
        return None
    return "b200" if torch.cuda.get_device_capability()[0] >= 10 else "h100"


def make_inputs(B: int, H: int, N: int, D: int = 128, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Random fp16 q, k, v of shape [B, H, N, D] and ``sm_scale = 1/sqrt(D)``."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((B, H, N, D), device=device, dtype=torch.float16, generator=g) for _ in range(3))
    return {"q": q, "k": k, "v": v, "sm_scale": 1.0 / math.sqrt(D)}


def forward(inputs: dict[str, Any], **config: int) -> tuple[Any, Any]:
    """Run the kernel; return ``(o, lse2)``: o [B, H, N, D] fp16 and lse2 [B, H, N] fp32 (log2 domain)."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    cfg = dict(default_config(_device_arch()), **config)
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N, D = q.shape
    bm, bn = cfg["BLOCK_M"], cfg["BLOCK_N"]
    if N % bm or N % bn:
        raise ValueError(f"fa3: expected N divisible by BLOCK_M={bm} and BLOCK_N={bn}, found N={N}")
    if k.shape != q.shape or v.shape != q.shape or not all(t.is_contiguous() for t in (q, k, v)):
        raise ValueError(f"fa3: expected contiguous q, k, v of one shape, found {q.shape} {k.shape} {v.shape}")
    o = torch.empty_like(q)
    lse2 = torch.empty((B, H, N), device=q.device, dtype=torch.float32)
    rows = B * H * N
    desc_q = TensorDescriptor(q, [rows, D], [D, 1], [bm, D])
    desc_k = TensorDescriptor(k, [rows, D], [D, 1], [bn, D])
    desc_v = TensorDescriptor(v, [rows, D], [D, 1], [bn, D])
    desc_o = TensorDescriptor(o, [rows, D], [D, 1], [bm, D])
    grid = (N // bm, B * H, 1)
    _attn_fwd[grid](inputs["sm_scale"], lse2, B, H, desc_q, desc_k, desc_v, desc_o, N,
                    HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn, num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
    return o, lse2


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Run the kernel and return the attention output o [B, H, N, D] fp16."""
    return forward(inputs, **config)[0]


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(sm_scale * q k^T) v in float32, one batch at a time (bounded memory); fp32 [B, H, N, D]."""
    import torch
    q, k, v, scale = inputs["q"], inputs["k"], inputs["v"], inputs["sm_scale"]
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    for b in range(q.shape[0]):
        s = torch.matmul(q[b].float(), k[b].float().transpose(-1, -2)) * scale
        out[b] = torch.matmul(torch.softmax(s, dim=-1), v[b].float())
    return out


def reference_lse2(inputs: dict[str, Any]) -> Any:
    """log2-domain logsumexp of the scaled scores, fp32 [B, H, N] (what the kernel stores in M)."""
    import torch
    q, k, scale = inputs["q"], inputs["k"], inputs["sm_scale"]
    out = torch.empty(q.shape[:3], device=q.device, dtype=torch.float32)
    for b in range(q.shape[0]):
        s = torch.matmul(q[b].float(), k[b].float().transpose(-1, -2)) * scale
        out[b] = torch.logsumexp(s, dim=-1) / math.log(2.0)
    return out


def flops(B: int, H: int, N: int, D: int = 128) -> float:
    """Floating-point operations of the non-causal forward: two GEMMs of 2*N*N*D per (batch, head)."""
    return 4.0 * B * H * N * N * D


def _rel_err(x: Any, ref: Any) -> float:
    return ((x.float() - ref.float()).norm() / ref.float().norm()).item()


def main() -> int:
    """Check against torch on SMALL and PROBLEM, then time PROBLEM with do_bench."""
    try:
        import torch
    except ImportError:
        print("fa3: needs torch and a CUDA GPU (the kernel itself compiles offline without them)")
        return 2
    if not torch.cuda.is_available():
        print("fa3: needs a CUDA GPU")
        return 2
    cfg = default_config(_device_arch())
    print(f"fa3: {torch.cuda.get_device_name()} config {cfg}")
    ok = True
    for name, size in (("SMALL", SMALL), ("PROBLEM", PROBLEM)):
        inp = make_inputs(**size)
        o, lse2 = forward(inp)
        e_o, e_m = _rel_err(o, reference(inp)), _rel_err(lse2, reference_lse2(inp))
        good = e_o < 1e-2 and e_m < 1e-4
        ok &= good
        print(f"  {name} {size}: rel. error o {e_o:.2e}, lse {e_m:.2e} -> {'PASS' if good else 'FAIL'}")
    inp = make_inputs(**PROBLEM)
    ms = triton.testing.do_bench(lambda: launch(inp))
    print(f"  PROBLEM {PROBLEM}: {ms:.4f} ms, {flops(**PROBLEM) / ms * 1e-9:.1f} TFLOP/s")
    return 0 if ok else 1



# The problem `twill profile` traces (smaller than PROBLEM, so Proton's buffer holds every record).
PROFILE_PROBLEM: dict[str, int] = {"B": 1, "H": 4, "N": 4096, "D": 128}


def loop_iterations(B: int, H: int, N: int, D: int = 128) -> int:
    """Main-loop iterations per CTA: one per BLOCK_N keys (for counting lost Proton records)."""
    return N // default_config(None)["BLOCK_N"]


if __name__ == "__main__":
    sys.exit(main())
