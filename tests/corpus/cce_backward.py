"""Apple's Cut Cross-Entropy backward (ml-cross-entropy, cut_cross_entropy/cce_backward.py ``_cce_backward_kernel``
with its ``_mm_backward`` and ``_block_is_filtered`` helpers and tl_utils.py's ``tl_lock_add``): per (BLOCK_B rows,
BLOCK_V vocabulary) tile the logits are recomputed (a K loop over D, ``accum = tl.dot(e, c, accum)``, rows gathered
through Valids), softcapped, turned into the softmax gradient with the saved LSE (``tl.exp(accum - lse[:, None])``,
minus one at the target: ``tl.where(is_target, -1.0, 0.0)``), a tile whose every |gradient| is below filter_eps
returns early (``tl.reduce(check_val < filter_eps, None, tl_and_reduce_fn)``, an and-reduction over the whole tile),
scaled by dOut and the softcap's derivative, cast to the embeddings' dtype, and then TWO more loops over D
(``_mm_backward``): dE[rows] += d_accum @ C[cols] and dC[cols] += d_accum^T @ E[rows], each D-block's partial added
under a spin lock per (row block, D block) (``while tl.atomic_cas(lock, 0, 1) == 1: pass`` -- a while loop inside
each of those for loops -- a load/add/store with ``eviction_policy="evict_last"``, ``tl.atomic_xchg(lock, 0)``).
The gradients accumulate in fp32 (CCE's accum_e_fp32 / accum_c_fp32 path), the Kahan, bias, vocab-ordering, dLSE and
shift branches are constexpr-off (their pointers None). Config {BLOCK_B 128, BLOCK_V 128, BLOCK_D 32,
MM_BACK_BLOCK_D 64, 8 warps, 3 stages}. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice as tl_libdevice

SOFTCAP = 30.0
FILTER_EPS = 2.0 ** -12
# the Triton 3.6 interpreter computes bf16 dots wrongly (raw bits); check.py sets "float16" for its CPU check only
ELEM_DTYPE = "bfloat16"
BLOCK_B, BLOCK_V, BLOCK_D, MM_BACK_BLOCK_D = 128, 128, 32, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_cce_backward_kernel",
    "signature": {"E": "*bf16", "C": "*bf16", "Bias": "constexpr", "LSE": "*fp32", "dOut": "*fp32",
                  "grad_scale": "fp32", "dLSE": "constexpr", "Valids": "*i64", "VocabOrdering": "constexpr",
                  "softcap": "fp32", "Targets": "*i64", "dE": "*fp32", "dEC": "constexpr", "dELocks": "*i32",
                  "dC": "*fp32", "dCC": "constexpr", "dCLocks": "*i32", "dBias": "constexpr",
                  "B": "i32", "D": "i32", "V": "i32", "BMax": "i32", "n_de_locks_0": "i32", "n_de_locks_1": "i32",
                  "n_dc_locks_0": "i32", "n_dc_locks_1": "i32", "stride_eb": "i32", "stride_ed": "constexpr",
                  "stride_cv": "i32", "stride_cd": "constexpr", "stride_biasv": "constexpr",
                  "stride_vb": "constexpr", "filter_eps": "fp32", "shift": "i32", "B_BIN": "i32"},
    "constexprs": {"Bias": None, "dLSE": None, "VocabOrdering": None, "dEC": None, "dCC": None, "dBias": None,
                   "stride_ed": 1, "stride_cd": 1, "stride_biasv": 1, "stride_vb": 1,
                   "BLOCK_B": BLOCK_B, "BLOCK_V": BLOCK_V, "BLOCK_D": BLOCK_D, "MM_BACK_BLOCK_D": MM_BACK_BLOCK_D,
                   "GROUP_B": 8, "EVEN_D": True, "MM_BACK_EVEN_D": True, "ITEM_DO": False, "HAS_BIAS": False,
                   "HAS_VALIDS": True, "HAS_VOCAB_ORDERING": False, "FILTER_E_GRAD": True, "FILTER_C_GRAD": True,
                   "HAS_TARGETS": True, "HAS_SOFTCAP": True, "HAS_DLSE": False, "HAS_SHIFT": False,
                   "KAHAN_E": False, "KAHAN_C": False, "COMPUTE_DC": True, "COMPUTE_DE": True,
                   "COMPUTE_DBIAS": False},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["D", "stride_eb", "stride_cv", "shift", "B_BIN"]}
PROBLEM: dict[str, int] = {"T": 4096, "V": 32000, "D": 4096}
SMALL: dict[str, int] = {"T": 150, "V": 300, "D": 128}      # 2 row blocks x 3 vocabulary blocks, 2 MM_BACK D blocks


@triton.jit
def tl_and_reduce_fn(a, b):
    return a & b


@triton.jit
def tl_tanh(a):
    return tl_libdevice.tanh(a)


@triton.jit
def tl_softcapping(v, softcap):
    return tl_tanh(v / softcap) * softcap


@triton.jit
def tl_softcapping_grad(dv, v, softcap):
    v = v / softcap
    return dv * (1 - v * v)


@triton.jit
def tl_lock_add(ptrs, v, mask, lock_ptr):
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass

    cur_v = tl.load(ptrs, mask=mask, other=0.0, eviction_policy="evict_last")
    new_v = v + cur_v
    tl.store(ptrs, new_v, mask=mask, eviction_policy="evict_last")

    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def _mm_backward(
    do,
    da_ptrs,
    partial_mask_a,
    da_lock_ptr,
    n_locks,
    b_ptrs,
    partial_mask_b,
    stride_ad,
    stride_bd,
    D,
    BLOCK_D: tl.constexpr,
    EVEN_D: tl.constexpr,
):
    d_inds = tl.arange(0, BLOCK_D)[None, :].to(tl.int64)

    b_ptrs = b_ptrs + d_inds * stride_bd
    da_ptrs = da_ptrs + d_inds * stride_ad

    for d in range(0, tl.cdiv(D, BLOCK_D)):
        if EVEN_D:
            mask = partial_mask_b
        else:
            mask = partial_mask_b & (d_inds < (D - d * BLOCK_D))

        b = tl.load(b_ptrs, mask=mask, other=0.0)

        da_i = tl.dot(do, b).to(da_ptrs.dtype.element_ty)

        if EVEN_D:
            mask = partial_mask_a
        else:
            mask = partial_mask_a & (d_inds < (D - d * BLOCK_D))

        lock_offset = d // tl.cdiv(D, BLOCK_D * n_locks)
        this_da_lock_ptr = da_lock_ptr + lock_offset

        tl_lock_add(da_ptrs, da_i, mask, this_da_lock_ptr)

        b_ptrs += BLOCK_D * stride_bd
        da_ptrs += BLOCK_D * stride_ad


@triton.jit
def _block_is_filtered(check_val, filter_eps):
    return tl.reduce(check_val < filter_eps, None, tl_and_reduce_fn)


@triton.jit
def _cce_backward_kernel(
    E,
    C,
    Bias,
    LSE,
    dOut,
    grad_scale,
    dLSE,
    Valids,
    VocabOrdering,
    softcap,
    Targets,
    dE,
    dEC,
    dELocks,
    dC,
    dCC,
    dCLocks,
    dBias,
    B,
    D,
    V,
    BMax,
    n_de_locks_0,
    n_de_locks_1,
    n_dc_locks_0,
    n_dc_locks_1,
    stride_eb,
    stride_ed,
    stride_cv,
    stride_cd,
    stride_biasv,
    stride_vb,
    filter_eps,
    shift,
    B_BIN,
    BLOCK_B: tl.constexpr,
    BLOCK_V: tl.constexpr,
    BLOCK_D: tl.constexpr,
    MM_BACK_BLOCK_D: tl.constexpr,
    GROUP_B: tl.constexpr,
    EVEN_D: tl.constexpr,
    MM_BACK_EVEN_D: tl.constexpr,
    ITEM_DO: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    HAS_VALIDS: tl.constexpr,
    HAS_VOCAB_ORDERING: tl.constexpr,
    FILTER_E_GRAD: tl.constexpr,
    FILTER_C_GRAD: tl.constexpr,
    HAS_TARGETS: tl.constexpr,
    HAS_SOFTCAP: tl.constexpr,
    HAS_DLSE: tl.constexpr,
    HAS_SHIFT: tl.constexpr,
    KAHAN_E: tl.constexpr,
    KAHAN_C: tl.constexpr,
    COMPUTE_DC: tl.constexpr,
    COMPUTE_DE: tl.constexpr,
    COMPUTE_DBIAS: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_b_chunks = tl.cdiv(B, BLOCK_B)
    num_v_chunks = tl.cdiv(V, BLOCK_V)
    num_v_in_group = GROUP_B * num_v_chunks
    group_id = pid // num_v_in_group
    first_pid_b = group_id * GROUP_B
    group_size_b = min(num_b_chunks - first_pid_b, GROUP_B)
    pid_b = (first_pid_b + ((pid % num_v_in_group) % group_size_b)).to(tl.int64)
    pid_v = ((pid % num_v_in_group) // group_size_b).to(tl.int64)

    offs_b = (pid_b * BLOCK_B + tl.arange(0, BLOCK_B)).to(tl.int64)
    if HAS_VALIDS:
        offs_b = tl.load(Valids + stride_vb * offs_b, mask=offs_b < B, other=BMax).to(tl.int64)

    offs_v = (pid_v * BLOCK_V + tl.arange(0, BLOCK_V)).to(tl.int64)
    if HAS_VOCAB_ORDERING:
        offs_v = tl.load(VocabOrdering + offs_v, mask=offs_v < V, other=V).to(tl.int64)

    offs_d = tl.arange(0, BLOCK_D).to(tl.int64)
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

        accum = tl.dot(e, c, accum)

        e_ptrs += BLOCK_D * stride_ed
        c_ptrs += BLOCK_D * stride_cd

    tl.debug_barrier()

    if HAS_BIAS:
        bias = tl.load(Bias + offs_v * stride_biasv, mask=offs_v < V, other=0.0)
        bias = bias.to(dtype=accum.dtype)
        accum += bias[None, :]

    if HAS_SOFTCAP:
        accum = tl_softcapping(accum, softcap)

    if HAS_VALIDS:
        direct_offs_b = (pid_b * BLOCK_B + tl.arange(0, BLOCK_B)).to(tl.int64)
        lse = tl.load(LSE + direct_offs_b, mask=direct_offs_b < B, other=float("inf"))
    else:
        lse = tl.load(LSE + offs_b, mask=offs_b < B, other=float("inf"))

    d_accum = tl.exp(accum - lse[:, None])
    d_accum = tl.where(offs_v[None, :] < V, d_accum, 0.0)

    if HAS_TARGETS:
        if HAS_SHIFT:
            target_offs_b = offs_b + shift
        else:
            target_offs_b = offs_b

        targets = tl.load(Targets + target_offs_b, mask=target_offs_b < BMax, other=V + 1)
        is_target = targets[:, None] == offs_v[None, :]
        d_accum += tl.where(is_target, -1.0, 0.0)
    else:
        is_target = None

    should_skip = False
    if (FILTER_E_GRAD and COMPUTE_DE) and (FILTER_C_GRAD and COMPUTE_DC):
        if _block_is_filtered(tl.abs(d_accum), filter_eps):
            return
    elif (FILTER_E_GRAD and COMPUTE_DE) or (FILTER_C_GRAD and COMPUTE_DC):
        should_skip = _block_is_filtered(tl.abs(d_accum), filter_eps)

    if ITEM_DO:
        d_out = tl.load(dOut)
    else:
        if HAS_SHIFT:
            d_out_offs_b = offs_b + shift
        else:
            d_out_offs_b = offs_b

        d_out = tl.load(dOut + d_out_offs_b, mask=d_out_offs_b < BMax, other=0.0)[:, None]

    d_out = grad_scale * d_out

    if HAS_DLSE:
        if HAS_SHIFT:
            d_lse_offs_b = offs_b + shift
        else:
            d_lse_offs_b = offs_b

        d_lse = tl.load(dLSE + d_lse_offs_b, mask=d_lse_offs_b < BMax, other=0.0)[:, None]
        d_accum *= d_out + d_lse
        d_accum += tl.where(is_target, d_lse, 0.0)
    else:
        d_accum = d_accum * d_out

    if HAS_SOFTCAP:
        d_accum = tl_softcapping_grad(d_accum, accum, softcap)

    if COMPUTE_DBIAS:
        tl.atomic_add(dBias + offs_v * stride_biasv, tl.sum(d_accum, 0), mask=offs_v < V)

    d_accum = d_accum.to(e_ptrs.dtype.element_ty)

    if COMPUTE_DE:
        if FILTER_E_GRAD:
            should_skip_e = should_skip
        else:
            should_skip_e = False

        if not should_skip_e:
            lock_offset = (pid_b // tl.cdiv(B, BLOCK_B * n_de_locks_0)) * n_de_locks_1

            _mm_backward(
                d_accum,
                dE + (offs_b[:, None] * stride_eb),
                offs_b[:, None] < BMax,
                dELocks + lock_offset,
                n_de_locks_1,
                C + offs_v[:, None] * stride_cv,
                offs_v[:, None] < V,
                stride_ed,
                stride_cd,
                D,
                MM_BACK_BLOCK_D,
                MM_BACK_EVEN_D,
            )

    if COMPUTE_DC:
        if FILTER_C_GRAD:
            should_skip_c = should_skip
        else:
            should_skip_c = False

        if not should_skip_c:
            lock_offset = (pid_v // tl.cdiv(V, BLOCK_V * n_dc_locks_0)) * n_dc_locks_1

            _mm_backward(
                tl.trans(d_accum),
                dC + (offs_v[:, None] * stride_cv),
                offs_v[:, None] < V,
                dCLocks + lock_offset,
                n_dc_locks_1,
                E + (offs_b[:, None] * stride_eb),
                offs_b[:, None] < BMax,
                stride_cd,
                stride_ed,
                D,
                MM_BACK_BLOCK_D,
                MM_BACK_EVEN_D,
            )


def _b_bin(b: int) -> int:
    return 1024 if b >= 1024 else (128 if b <= 128 else 512)


def make_inputs(T: int, V: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """e [T, D], c [V, D] (ELEM_DTYPE); targets [T] int64 with about one in eight ignored (-100); valids: the kept
    rows (int64); lse: the forward's fp32 LSE of the valid rows (computed here in fp32 from the same operands);
    d_out: the per-token loss gradient (reduction "none"), fp32 [T]. All built here: a launch is capturable."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    dt = getattr(torch, ELEM_DTYPE)
    e = (torch.randn((T, D), device=device, generator=g) * 2.0).to(dt)
    c = (torch.randn((V, D), device=device, generator=g) / D ** 0.5).to(dt)
    targets = torch.randint(0, V, (T,), device=device, generator=g)
    targets[torch.rand((T,), device=device, generator=g) < 0.125] = -100
    valids = (targets != -100).nonzero().squeeze(1).to(torch.int64)
    d_out = torch.rand((T,), device=device, generator=g) + 0.5
    lse = torch.cat([torch.logsumexp(_softcap(e[valids[i:i + 512]].float() @ c.float().T), dim=1)
                     for i in range(0, valids.numel(), 512)])
    return {"e": e, "c": c, "targets": targets, "valids": valids, "lse": lse, "d_out": d_out}


def _softcap(z: Any) -> Any:
    import torch
    return torch.tanh(z / SOFTCAP) * SOFTCAP


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dE fp32 [T, D], dC fp32 [V, D]); the locks and gradients zeroed here, as cce_backward_kernel allocates them."""
    import torch
    e, c, valids = inputs["e"], inputs["c"], inputs["valids"]
    B = valids.numel()
    V, D = c.shape
    de = torch.zeros_like(e, dtype=torch.float32)
    dc = torch.zeros_like(c, dtype=torch.float32)
    nd_locks = triton.cdiv(D, 64)
    de_locks = e.new_zeros((triton.cdiv(B, 128), nd_locks), dtype=torch.int32)
    dc_locks = c.new_zeros((triton.cdiv(V, 128), nd_locks), dtype=torch.int32)
    grid = (triton.cdiv(B, BLOCK_B) * triton.cdiv(V, BLOCK_V),)
    _cce_backward_kernel[grid](
        e, c, None, inputs["lse"], inputs["d_out"], 1.0, None, valids, None, SOFTCAP, inputs["targets"],
        de, None, de_locks, dc, None, dc_locks, None,
        B, D, V, e.size(0), *de_locks.size(), *dc_locks.size(),
        e.stride(0), e.stride(1), c.stride(0), c.stride(1), 1, valids.stride(0), FILTER_EPS, shift=0,
        B_BIN=_b_bin(B), BLOCK_B=BLOCK_B, BLOCK_V=BLOCK_V, BLOCK_D=BLOCK_D, MM_BACK_BLOCK_D=MM_BACK_BLOCK_D,
        GROUP_B=8, EVEN_D=D % BLOCK_D == 0, MM_BACK_EVEN_D=D % MM_BACK_BLOCK_D == 0, ITEM_DO=False,
        HAS_BIAS=False, HAS_VALIDS=True, HAS_VOCAB_ORDERING=False, FILTER_E_GRAD=True, FILTER_C_GRAD=True,
        HAS_TARGETS=True, HAS_SOFTCAP=True, HAS_DLSE=False, HAS_SHIFT=False, KAHAN_E=False, KAHAN_C=False,
        COMPUTE_DC=True, COMPUTE_DE=True, COMPUTE_DBIAS=False,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return de, dc


def reference(inputs: dict[str, Any]) -> Any:
    """The same gradients, 512 valid rows at a time in fp32: G = (softmax(z) - onehot(target)) * d_out *
    (1 - (z / softcap)^2), z = softcap(E C^T); dE[rows] = G C, dC = sum G^T E[rows] (without the filter, which drops
    only tiles whose every entry is below 2^-12)."""
    import torch
    e, c, valids, targets = inputs["e"], inputs["c"].float(), inputs["valids"], inputs["targets"]
    de = torch.zeros(e.shape, dtype=torch.float32, device=e.device)
    dc = torch.zeros(c.shape, dtype=torch.float32, device=e.device)
    for i in range(0, valids.numel(), 512):
        rows = valids[i:i + 512]
        er = e[rows].float()
        z = _softcap(er @ c.T)
        gz = torch.exp(z - inputs["lse"][i:i + 512, None])
        gz[torch.arange(rows.numel(), device=e.device), targets[rows]] -= 1.0
        gz = gz * inputs["d_out"][rows, None] * (1 - (z / SOFTCAP) ** 2)
        gz = gz.to(e.dtype).float()                 # the kernel casts d_accum to the embeddings' dtype
        de[rows] += gz @ c
        dc += gz.T @ er
    return de, dc


def flops(T: int, V: int, D: int) -> float:
    return 3 * 2.0 * T * 7 / 8 * V * D
