"""Apple's Cut Cross-Entropy LSE forward (ml-cross-entropy, cut_cross_entropy/cce_lse_forward.py
``_cce_lse_forward_kernel`` with tl_utils.py's ``tl_softcapping`` / ``tl_logaddexp``): the log-sum-exp over the
vocabulary of softcap(E[valids] @ C^T) without materialising the logits. One program per (BLOCK_B rows, BLOCK_V
vocabulary entries) tile in GROUP_B-grouped order; the rows are gathered through ``Valids`` (the tokens whose label is
not ignored: ``offs_b = tl.load(Valids + ..., other=BMax)``), the K loop over the hidden size D is a bf16
``tl.dot(e, c, accum, input_precision=DOT_PRECISION)`` with C read K-major (``offs_d[:, None] * stride_cd``); after it a
``tl.debug_barrier()``, the Gemma-2 softcap (libdevice tanh), the tile's own LSE over its BLOCK_V columns, and the
merge into the row's running LSE under a spin lock (``while tl.atomic_cas(lock, 0, 1) == 1: pass``, a
load/``tl_logaddexp``/store with ``eviction_policy="evict_last"``, ``tl.atomic_xchg(lock, 0)``): V / BLOCK_V programs
write each row. HAS_BIAS and HAS_LA are off (their pointers None, as CCE passes them). Config {BLOCK_B 128,
BLOCK_V 256, BLOCK_D 32, 8 warps, 3 stages}. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice as tl_libdevice

SOFTCAP = 30.0
# the Triton 3.6 interpreter computes bf16 dots wrongly (raw bits); check.py sets "float16" for its CPU check only
ELEM_DTYPE = "bfloat16"
BLOCK_B, BLOCK_V, BLOCK_D = 128, 256, 32
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_cce_lse_forward_kernel",
    "signature": {"E": "*bf16", "C": "*bf16", "Bias": "constexpr", "LSE": "*fp32", "LA": "constexpr",
                  "Locks": "*u32", "Valids": "*i64", "softcap": "fp32", "B": "i32", "V": "i32", "D": "i32",
                  "BMax": "i32", "stride_eb": "i32", "stride_ed": "constexpr", "stride_cv": "i32",
                  "stride_cd": "constexpr", "stride_biasv": "constexpr", "stride_lse_b": "constexpr",
                  "stride_vb": "constexpr", "num_locks": "i32", "B_BIN": "i32"},
    "constexprs": {"Bias": None, "LA": None, "stride_ed": 1, "stride_cd": 1, "stride_biasv": 1, "stride_lse_b": 1,
                   "stride_vb": 1, "HAS_BIAS": False, "HAS_VALIDS": True, "BLOCK_B": BLOCK_B, "BLOCK_V": BLOCK_V,
                   "BLOCK_D": BLOCK_D, "GROUP_B": 8, "EVEN_D": True, "HAS_SOFTCAP": True, "HAS_LA": False,
                   "DOT_PRECISION": "ieee"},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["D", "stride_eb", "stride_cv", "B_BIN"]}
# T tokens (BMax rows of E), about 7/8 of them valid (B = len(Valids)); V the vocabulary, D the hidden size
PROBLEM: dict[str, int] = {"T": 8192, "V": 32000, "D": 4096}
SMALL: dict[str, int] = {"T": 150, "V": 700, "D": 64}      # 2 row blocks x 3 vocabulary blocks, partial both


@triton.jit
def tl_tanh(a):
    return tl_libdevice.tanh(a)


@triton.jit
def tl_log1p(a):
    return tl_libdevice.log1p(a)


@triton.jit
def tl_softcapping(v, softcap):
    return tl_tanh(v / softcap) * softcap


@triton.jit
def tl_logaddexp(a, b):
    minx = tl.minimum(a, b)
    mx = tl.maximum(a, b)
    return tl_log1p(tl.exp(minx - mx)) + mx


@triton.jit
def _cce_lse_forward_kernel(
    E,
    C,
    Bias,
    LSE,
    LA,
    Locks,
    Valids,
    softcap,
    B,
    V,
    D,
    BMax,
    stride_eb,
    stride_ed,
    stride_cv,
    stride_cd,
    stride_biasv,
    stride_lse_b,
    stride_vb,
    num_locks,
    # Meta-parameters
    B_BIN,
    HAS_BIAS: tl.constexpr,
    HAS_VALIDS: tl.constexpr,
    BLOCK_B: tl.constexpr,
    BLOCK_V: tl.constexpr,
    BLOCK_D: tl.constexpr,  #
    GROUP_B: tl.constexpr,  #
    EVEN_D: tl.constexpr,
    HAS_SOFTCAP: tl.constexpr,
    HAS_LA: tl.constexpr,
    DOT_PRECISION: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_b = tl.cdiv(B, BLOCK_B)
    num_pid_v = tl.cdiv(V, BLOCK_V)
    num_pid_in_group = GROUP_B * num_pid_v
    group_id = pid // num_pid_in_group
    first_pid_b = group_id * GROUP_B
    group_size_b = min(num_pid_b - first_pid_b, GROUP_B)
    pid_b = first_pid_b + ((pid % num_pid_in_group) % group_size_b)
    pid_v = (pid % num_pid_in_group) // group_size_b

    offs_b = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    if HAS_VALIDS:
        offs_b = tl.load(Valids + stride_vb * offs_b, mask=offs_b < B, other=BMax)

    offs_v = pid_v * BLOCK_V + tl.arange(0, BLOCK_V)
    offs_d = tl.arange(0, BLOCK_D)
    e_ptrs = E + (offs_b[:, None] * stride_eb + offs_d[None, :] * stride_ed)
    c_ptrs = C + (offs_v[None, :] * stride_cv + offs_d[:, None] * stride_cd)

    accum = tl.zeros((BLOCK_B, BLOCK_V), dtype=tl.float32)
    for d in range(0, tl.cdiv(D, BLOCK_D)):
        e_mask = offs_b[:, None] < BMax
        if not EVEN_D:
            e_mask = e_mask & (offs_d[None, :] < (D - d * BLOCK_D))

        e = tl.load(e_ptrs, mask=e_mask, other=0.0)

        c_mask = offs_v[None, :] < V
        if not EVEN_D:
            c_mask = c_mask & (offs_d[:, None] < (D - d * BLOCK_D))

        c = tl.load(c_ptrs, mask=c_mask, other=0.0)

        accum = tl.dot(e, c, accum, input_precision=DOT_PRECISION)

        e_ptrs += BLOCK_D * stride_ed
        c_ptrs += BLOCK_D * stride_cd

    tl.debug_barrier()

    if HAS_BIAS:
        bias = tl.load(Bias + offs_v * stride_biasv, mask=offs_v < V, other=0.0)
        bias = bias.to(dtype=accum.dtype)
        accum += bias[None, :]

    logits = tl.where(offs_v[None, :] < V, accum, -float("inf"))
    if HAS_SOFTCAP:
        logits = tl_softcapping(logits, softcap)

    if HAS_LA:
        this_avg_logit = tl.sum(logits, 0) / B
        tl.atomic_add(LA + offs_v, this_avg_logit, mask=offs_v < V)

    this_mx = tl.max(logits, axis=1)
    e = tl.exp(logits - this_mx[:, None])
    this_lse = this_mx + tl.log(tl.sum(e, axis=1))

    offs_b = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    o_mask = offs_b < B

    lse_ptrs = LSE + (stride_lse_b * offs_b)

    this_locks = Locks + (pid_b // tl.cdiv(B, BLOCK_B * num_locks))
    while tl.atomic_cas(this_locks, 0, 1) == 1:
        pass

    lse = tl.load(lse_ptrs, mask=o_mask, other=0.0, eviction_policy="evict_last")
    lse = tl_logaddexp(lse, this_lse)
    tl.store(lse_ptrs, lse, mask=o_mask, eviction_policy="evict_last")

    tl.debug_barrier()
    tl.atomic_xchg(this_locks, 0)


def _b_bin(b: int) -> int:
    return 1024 if b >= 1024 else (128 if b <= 128 else 512)


def make_inputs(T: int, V: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """e: the last hidden states [T, D] bf16; c: the classifier [V, D] bf16; valids: the rows whose label is not
    ignored (int64, sorted; about one in eight ignored), built here so that a launch is capturable."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    dt = getattr(torch, ELEM_DTYPE)
    e = (torch.randn((T, D), device=device, generator=g) * 2.0).to(dt)
    c = (torch.randn((V, D), device=device, generator=g) / D ** 0.5).to(dt)
    keep = torch.rand((T,), device=device, generator=g) >= 0.125
    valids = keep.nonzero().squeeze(1).to(torch.int64)
    return {"e": e, "c": c, "valids": valids}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The LSE of each valid row's softcapped logits, fp32 [B] (B = len(valids))."""
    import torch
    e, c, valids = inputs["e"], inputs["c"], inputs["valids"]
    B = valids.numel()
    V, D = c.shape
    lse = e.new_full((B,), -float("inf"), dtype=torch.float32)
    locks = e.new_full((triton.cdiv(B, 128),), 0, dtype=torch.uint32)
    grid = (triton.cdiv(B, BLOCK_B) * triton.cdiv(V, BLOCK_V),)
    _cce_lse_forward_kernel[grid](
        e, c, None, lse, None, locks, valids, SOFTCAP, B, V, D, e.size(0), e.stride(0), e.stride(1),
        c.stride(0), c.stride(1), 1, lse.stride(0), valids.stride(0), num_locks=locks.size(0), B_BIN=_b_bin(B),
        HAS_BIAS=False, HAS_VALIDS=True, BLOCK_B=BLOCK_B, BLOCK_V=BLOCK_V, BLOCK_D=BLOCK_D, GROUP_B=8,
        EVEN_D=D % BLOCK_D == 0, HAS_SOFTCAP=True, HAS_LA=False, DOT_PRECISION="ieee",
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return lse


def reference(inputs: dict[str, Any]) -> Any:
    """logsumexp(softcap(E[valids] @ C^T)) in fp32, 512 rows at a time (a 512 x V block of logits at most)."""
    import torch
    e, c, valids = inputs["e"], inputs["c"].float(), inputs["valids"]
    out = []
    for i in range(0, valids.numel(), 512):
        z = e[valids[i:i + 512]].float() @ c.T
        z = torch.tanh(z / SOFTCAP) * SOFTCAP
        out.append(torch.logsumexp(z, dim=1))
    return torch.cat(out)


def flops(T: int, V: int, D: int) -> float:
    return 2.0 * T * 7 / 8 * V * D
