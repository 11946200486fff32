"""Single-pass FlashAttention backward (FA3's algorithm) for Hopper (sm_90) and Blackwell (sm_100), fp16.

One CTA owns a BLOCK_N block of K and V of one (batch, head) and loops over all BLOCK_M blocks of Q. Per
iteration: five GEMMs and one exponential,

    S^T  = K Q^T                          P^T = exp2(S^T * sm_scale * log2(e) - lse2)
    dP^T = V dO^T                         dS^T = P^T * (dP^T - delta)
    dV  += P^T dO      dK += dS^T Q       dQ_i += sm_scale * dS K    (tl.atomic_add into fp32 global memory)

with dK scaled by sm_scale once after the loop. Every CTA of a (batch, head) adds into the same dQ rows,
hence the atomics; dQ is converted to fp16 by the launcher.

Conventions shared with ``kernels/fa3.py``: q, k, v, o, do are contiguous [B, H, N, D] fp16, viewed as
[B*H*N, D] by the TMA descriptors; ``lse2`` is the forward's log2-domain logsumexp of the scaled scores,
``lse2 = logsumexp(sm_scale * q @ k^T, -1) / ln(2)`` ([B, H, N] fp32, what fa3.forward returns), and
``delta = rowsum(do * o)`` ([B, H, N] fp32, computed by ``_attn_bwd_preprocess``).

Importing this file does no GPU or torch work: torch is imported inside the functions that need it.
Run ``python kernels/fa_bwd.py`` on a machine with a GPU to check it against torch autograd and time it.
"""
from __future__ import annotations

import math
import sys
from typing import Any

import triton
import triton.language as tl

# Specialisation used for offline extraction (see the repository's conventions for TWILL_SPEC): the main
# kernel, with Q/dO read in BLOCK_M-row blocks and K/V/dK/dV in BLOCK_N-row blocks of [B*H*N, D] views.
# BLOCK_M=64, BLOCK_N=128 are FA3's Hopper tiles for D=128; with 8 warps ptxas spills about 192 bytes
# on sm_90 (BLOCK_N=64 does not spill but doubles the dQ atomics and the Q/dO reloads).
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_bwd",
    "signature": {
        "desc_q": "tensordesc<fp16[64, 128]>",
        "desc_k": "tensordesc<fp16[128, 128]>",
        "desc_v": "tensordesc<fp16[128, 128]>",
        "desc_do": "tensordesc<fp16[64, 128]>",
        "desc_dk": "tensordesc<fp16[128, 128]>",
        "desc_dv": "tensordesc<fp16[128, 128]>",
        "DQ": "*fp32",
        "LSE": "*fp32",
        "Delta": "*fp32",
        "sm_scale": "fp32",
        "N_CTX": "i32",
        "HEAD_DIM": "constexpr",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
    },
    "constexprs": {"HEAD_DIM": 128, "BLOCK_M": 64, "BLOCK_N": 128},
    "num_warps": 8,
    "num_stages": 2,
    "divisibility": ["DQ", "LSE", "Delta", "N_CTX"],
    "arch": {},
}
# sm_100: with BLOCK_M=64, BLOCK_N=128 the accumulators and MMA operands that Triton 3.6 puts in tensor
# memory need more than its 512 columns (it does not alias them), and the kernel compiles to a bare `trap`.
# BLOCK_M=32 fits. The override repeats the whole signature and constexprs, so that replacing or merging
# these keys gives the same result.
TWILL_SPEC["arch"]["b200"] = {
    "signature": dict(TWILL_SPEC["signature"], desc_q="tensordesc<fp16[32, 128]>",
                      desc_do="tensordesc<fp16[32, 128]>"),
    "constexprs": dict(TWILL_SPEC["constexprs"], BLOCK_M=32),
}

PROBLEM: dict[str, int] = {"B": 4, "H": 32, "N": 4096, "D": 128}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 512, "D": 128}

_PRE_BLOCK_M = 128  # rows per program of the delta preprocessing kernel


@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    # delta[row] = sum_d o[row, d] * do[row, d], for BLOCK_M rows of one (batch, head).
    off_hz = tl.program_id(1).to(tl.int64)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    offs = (off_hz * N_CTX + offs_m)[:, None] * HEAD_DIM + offs_d[None, :]
    o = tl.load(O + offs).to(tl.float32)
    do = tl.load(DO + offs).to(tl.float32)
    tl.store(Delta + off_hz * N_CTX + offs_m, tl.sum(o * do, axis=1))


@triton.jit
def _attn_bwd(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    dtype: tl.constexpr = tl.float16
    pid_n = tl.program_id(0)
    off_hz = tl.program_id(1)
    # Row offset of this (batch, head) in the flattened [B*H*N, D] views.
    offset_y = off_hz * N_CTX
    kv_y = offset_y + pid_n * BLOCK_N
    k = desc_k.load([kv_y, 0])
    v = desc_v.load([kv_y, 0])
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1 / ln(2): lse2 is in base 2
    offs_m = tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    row0 = off_hz.to(tl.int64) * N_CTX
    lse_base = LSE + row0
    delta_base = Delta + row0
    dq_base = DQ + row0 * HEAD_DIM
    dq_offs = offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    for start_m in tl.range(0, N_CTX, BLOCK_M):
        q = desc_q.load([offset_y + start_m, 0])
        m = tl.load(lse_base + start_m + offs_m)
        sT = tl.dot(k, q.T)
        pT = tl.math.exp2(sT * qk_scale - m[None, :])
        do = desc_do.load([offset_y + start_m, 0])
        dv = tl.dot(pT.to(dtype), do, dv)
        Di = tl.load(delta_base + start_m + offs_m)
        dpT = tl.dot(v, do.T)
        dsT = (pT * (dpT - Di[None, :])).to(dtype)
        dk = tl.dot(dsT, q, dk)
        dq = tl.dot(dsT.T, k)
        tl.atomic_add(dq_base + start_m * HEAD_DIM + dq_offs, dq * sm_scale, sem="relaxed")
    desc_dk.store([kv_y, 0], (dk * sm_scale).to(dtype))
    desc_dv.store([kv_y, 0], dv.to(dtype))


def default_config(arch: str | None = None) -> dict[str, int]:
    """Launch configuration of TWILL_SPEC (with the arch's overrides), e.g. ``{"BLOCK_M": 64, ...}``."""
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


def _scores(q: Any, k: Any, scale: float) -> Any:
    import torch
    return torch.matmul(q.float(), k.float().transpose(-1, -2)) * scale


def make_inputs(B: int, H: int, N: int, D: int = 128, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Random fp16 q, k, v, do [B, H, N, D]; the forward's o (fp16) and lse2 (fp32 [B, H, N]) from torch."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v, do = (torch.randn((B, H, N, D), device=device, dtype=torch.float16, generator=g) for _ in range(4))
    scale = 1.0 / math.sqrt(D)
    o = torch.empty_like(q)
    lse2 = torch.empty((B, H, N), device=device, dtype=torch.float32)
    for b in range(B):  # one batch at a time: the score matrix is H*N*N floats
        s = _scores(q[b], k[b], scale)
        lse = torch.logsumexp(s, dim=-1)
        o[b] = torch.matmul(torch.exp(s - lse[..., None]), v[b].float()).to(q.dtype)
        lse2[b] = lse / math.log(2.0)
    return {"q": q, "k": k, "v": v, "o": o, "do": do, "lse2": lse2, "sm_scale": scale}


def launch(inputs: dict[str, Any], **config: int) -> tuple[Any, Any, Any]:
    """Run the preprocessing and backward kernels; return (dq, dk, dv), fp16 [B, H, N, D] each."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    cfg = dict(default_config(_device_arch()), **config)
    q, k, v, o, do = (inputs[n] for n in ("q", "k", "v", "o", "do"))
    B, H, N, D = q.shape
    bm, bn = cfg["BLOCK_M"], cfg["BLOCK_N"]
    if N % bm or N % bn or N % _PRE_BLOCK_M:
        raise ValueError(f"fa_bwd: expected N divisible by BLOCK_M={bm}, BLOCK_N={bn} and {_PRE_BLOCK_M}, "
                         f"found N={N}")
    if any(t.shape != q.shape or not t.is_contiguous() for t in (k, v, o, do)) or not q.is_contiguous():
        raise ValueError("fa_bwd: expected contiguous q, k, v, o, do of one shape [B, H, N, D]")
    lse2 = inputs["lse2"].contiguous()
    delta = torch.empty((B, H, N), device=q.device, dtype=torch.float32)
    _attn_bwd_preprocess[(N // _PRE_BLOCK_M, B * H)](o, do, delta, N, HEAD_DIM=D, BLOCK_M=_PRE_BLOCK_M)
    dq = torch.zeros((B, H, N, D), device=q.device, dtype=torch.float32)
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    rows = B * H * N

    def desc(t: Any, block_rows: int) -> Any:
        return TensorDescriptor(t, [rows, D], [D, 1], [block_rows, D])

    grid = (N // bn, B * H, 1)
    _attn_bwd[grid](desc(q, bm), desc(k, bn), desc(v, bn), desc(do, bm), desc(dk, bn), desc(dv, bn),
                    dq, lse2, delta, inputs["sm_scale"], N, HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn,
                    num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
    return dq.to(q.dtype), dk, dv


def reference(inputs: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(dq, dk, dv) of softmax(sm_scale * q k^T) v for the cotangent do, by float32 autograd, one batch at a time."""
    import torch
    scale = inputs["sm_scale"]
    grads = []
    for b in range(inputs["q"].shape[0]):
        q, k, v = (inputs[n][b].float().requires_grad_() for n in ("q", "k", "v"))
        out = torch.matmul(torch.softmax(_scores(q, k, scale), dim=-1), v)
        grads.append(torch.autograd.grad(out, (q, k, v), inputs["do"][b].float()))
    return tuple(torch.stack([g[i] for g in grads]) for i in range(3))


def flops(B: int, H: int, N: int, D: int = 128) -> float:
    """Floating-point operations of the backward: five GEMMs of 2*N*N*D per (batch, head)."""
    return 10.0 * B * H * N * N * D


def _rel_err(x: Any, ref: Any) -> float:
    return ((x.float() - ref.float()).norm() / ref.float().norm()).item()


def main() -> int:
    """Check against torch autograd on SMALL and PROBLEM, then time PROBLEM with do_bench."""
    try:
        import torch
    except ImportError:
        print("fa_bwd: needs torch and a CUDA GPU (the kernel itself compiles offline without them)")
        return 2
    if not torch.cuda.is_available():
        print("fa_bwd: needs a CUDA GPU")
        return 2
    cfg = default_config(_device_arch())
    print(f"fa_bwd: {torch.cuda.get_device_name()} config {cfg}")
    ok = True
    for name, size in (("SMALL", SMALL), ("PROBLEM", PROBLEM)):
        inp = make_inputs(**size)
        errs = [_rel_err(x, r) for x, r in zip(launch(inp), reference(inp))]
        good = max(errs) < 1e-2
        ok &= good
        print(f"  {name} {size}: rel. error dq {errs[0]:.2e} dk {errs[1]:.2e} dv {errs[2]:.2e} -> "
              f"{'PASS' if good else 'FAIL'}")
        del inp
        torch.cuda.empty_cache()
    inp = make_inputs(**PROBLEM)
    ms = triton.testing.do_bench(lambda: launch(inp))
    print(f"  PROBLEM {PROBLEM}: {ms:.4f} ms, {flops(**PROBLEM) / ms * 1e-9:.1f} TFLOP/s "
          f"(includes the delta preprocessing, dQ zeroing and fp16 conversion)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
