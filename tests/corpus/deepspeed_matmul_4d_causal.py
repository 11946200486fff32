"""DeepSpeed's batched-head score GEMM, ``matmul_4d_kernel`` (microsoft/DeepSpeed
``deepspeed/ops/transformer/inference/triton/triton_matmul_kernel.py``), launched as ``Fp16Matmul._score_4d_matmul``
launches it (``deepspeed/ops/transformer/inference/triton/matmul_ext.py``): Q and K are **strided views of a fused
QKV activation** [B, S, 3 * d_model] (q's head stride = head_size, row stride = 3 * d_model; K read transposed
through its strides, so B's k stride is 1 and its n stride 3 * d_model), out = scores [B, H, S, S] fp16.

The constructs: a 3-D grid (tiles, head, batch) with the grouped (GROUP_SIZE_M) tile order and builtin ``min``;
under the constexpr ``MASK`` (causal) an **early return**: a tile entirely above the diagonal (``(pid_m + 1) *
BLOCK_SIZE_M - 1 < pid_n * BLOCK_SIZE_N``, a runtime if) stores a -inf tile and ``return``s before the K loop;
the K loop (masked loads on M/K and K/N, pointer carries); after it a cast to the output type, a **runtime if on a
float argument** (``if scale > 0: c = c * scale.to(c_ptr.dtype.element_ty)``: a cast of a scalar argument), the
diagonal tile's ``tl.where(offs_cm >= offs_cn, 0, -inf)`` added in fp16; ``@triton.autotune`` with
``prune_configs_by``. Port notes: the pruner takes ``**kwargs`` (Triton 3 passes it the launch's keyword arguments:
upstream's raised TypeError, run 222) and reads the shared memory from torch (``triton.compiler.init_cuda_utils`` is
gone from Triton 3); DeepSpeed's
own wrappers pass ``MASK=False``; this file passes ``MASK=True`` (the kernel's causal path) with the score scale
1/sqrt(head_size) that ``_score_4d_matmul`` takes. ``scale.to(c_ptr.dtype.element_ty)`` is written
``tl.cast(scale, c_ptr.dtype.element_ty)`` (the same op compiled; Triton's interpreter passes a float argument as a
Python float, which has no ``.to``). The -inf entries are returned as -60000 (harness only). Upstream's early-return store has no mask: where S is not a
multiple of BLOCK_SIZE_N it writes -inf past each row's end into the next row (seen in the interpreter at S = 200),
so both sizes here keep S a multiple of 128. Shape:
GPT-2 medium (16 heads of 64, d_model 1024) over 8 sequences of 1024; the 128 x 128 x 32 config (4 warps, 4
stages)."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

AUTOTUNE_TOP_K = 10
SKIP_AUTOTUNE = False
TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_4d_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "CACHE_M": "i32", "CACHE_N": "i32", "CACHE_K": "i32",
                  "stride_ab": "i32", "stride_ah": "i32", "stride_am": "i32", "stride_ak": "constexpr",
                  "stride_bb": "i32", "stride_bh": "i32", "stride_bk": "constexpr", "stride_bn": "i32",
                  "stride_cb": "i32", "stride_ch": "i32", "stride_cm": "i32", "stride_cn": "constexpr",
                  "scale": "fp32"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128,
                   "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "MASK": True},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["M", "N", "K", "CACHE_M", "CACHE_N", "stride_ab", "stride_ah", "stride_am", "stride_bb",
                     "stride_bh", "stride_bn", "stride_cb", "stride_ch", "stride_cm"]}
PROBLEM: dict[str, int] = {"B": 8, "S": 1024, "H": 16, "D": 64}
SMALL: dict[str, int] = {"B": 2, "S": 256, "H": 2, "D": 64}


def matmul_4d_prune_config(configs, named_args, skip_autotune=SKIP_AUTOTUNE, **kwargs):
    import torch
    if skip_autotune:
        configs = [configs[0]]
    else:
        device = torch.cuda.current_device()  #ignore-cuda
        capability = torch.cuda.get_device_capability()  #ignore-cuda
        # BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K, num_warps, num_stages
        dtsize = named_args['a_ptr'].element_size()
        dtype = named_args['a_ptr'].dtype

        # make sure we have enough smem
        pruned_configs = []
        for config in configs:
            kw = config.kwargs
            BLOCK_M, BLOCK_N, BLOCK_K, num_stages = \
                kw['BLOCK_SIZE_M'], kw['BLOCK_SIZE_N'], kw['BLOCK_SIZE_K'], config.num_stages

            max_shared_memory = torch.cuda.get_device_properties(device).shared_memory_per_block_optin
            required_shared_memory = (BLOCK_M + BLOCK_N) * BLOCK_K * num_stages * dtsize
            if required_shared_memory <= max_shared_memory:
                pruned_configs.append(config)
        configs = pruned_configs
    return configs


@triton.autotune(
    configs=[
        triton.Config(
            {
                "BLOCK_SIZE_M": 64,
                "BLOCK_SIZE_N": 64,
                "BLOCK_SIZE_K": 64,
                "GROUP_SIZE_M": 8
            },
            num_stages=1,  # this is mainly for unit test, to minimize the share memory usage
            num_warps=8),
        triton.Config(
            {
                "BLOCK_SIZE_M": 128,
                "BLOCK_SIZE_N": 128,
                "BLOCK_SIZE_K": 32,
                "GROUP_SIZE_M": 8,
            },
            num_stages=4,
            num_warps=4,
        ),
        triton.Config(
            {
                "BLOCK_SIZE_M": 128,
                "BLOCK_SIZE_N": 64,
                "BLOCK_SIZE_K": 32,
                "GROUP_SIZE_M": 8,
            },
            num_stages=4,
            num_warps=4,
        ),
        triton.Config(
            {
                "BLOCK_SIZE_M": 64,
                "BLOCK_SIZE_N": 128,
                "BLOCK_SIZE_K": 32,
                "GROUP_SIZE_M": 8,
            },
            num_stages=4,
            num_warps=4,
        ),
        triton.Config(
            {
                "BLOCK_SIZE_M": 128,
                "BLOCK_SIZE_N": 32,
                "BLOCK_SIZE_K": 32,
                "GROUP_SIZE_M": 8,
            },
            num_stages=4,
            num_warps=4,
        ),
        triton.Config(
            {
                "BLOCK_SIZE_M": 64,
                "BLOCK_SIZE_N": 32,
                "BLOCK_SIZE_K": 32,
                "GROUP_SIZE_M": 8,
            },
            num_stages=5,
            num_warps=2,
        ),
        triton.Config(
            {
                "BLOCK_SIZE_M": 32,
                "BLOCK_SIZE_N": 64,
                "BLOCK_SIZE_K": 32,
                "GROUP_SIZE_M": 8,
            },
            num_stages=5,
            num_warps=2,
        ),
    ],
    key=['CACHE_M', 'CACHE_N', 'CACHE_K'],
    prune_configs_by={
        'early_config_prune': matmul_4d_prune_config,
        'perf_model': None,
        'top_k': AUTOTUNE_TOP_K
    },
)
@triton.jit
def matmul_4d_kernel(
    # Pointers to matrices
    a_ptr,
    b_ptr,
    c_ptr,
    # Matrix dimensions
    M,
    N,
    K,
    CACHE_M,
    CACHE_N,
    CACHE_K,
    stride_ab,
    stride_ah,
    stride_am,
    stride_ak,
    stride_bb,
    stride_bh,
    stride_bk,
    stride_bn,
    stride_cb,
    stride_ch,
    stride_cm,
    stride_cn,
    scale,
    # Meta-parameters
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    MASK: tl.constexpr,
):
    """Kernel for computing the matmul C = A x B.
    A has shape (M, K), B has shape (K, N) and C has shape (M, N)
    """
    pid = tl.program_id(axis=0)
    head = tl.program_id(axis=1)
    batch = tl.program_id(axis=2)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    if MASK:
        if (pid_m + 1) * BLOCK_SIZE_M - 1 < pid_n * BLOCK_SIZE_N:
            c = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=c_ptr.dtype.element_ty) - float("inf")
            offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_ptrs = (c_ptr + batch * stride_cb + head * stride_ch + stride_cm * offs_cm[:, None] +
                      stride_cn * offs_cn[None, :])
            tl.store(c_ptrs, c)
            return

    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = (a_ptr + batch * stride_ab + head * stride_ah +
              (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak))
    b_ptrs = (b_ptr + batch * stride_bb + head * stride_bh +
              (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn))

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        a_mask = (offs_am[:, None] < M) & (offs_k[None, :] + k < K)
        b_mask = (offs_k[:, None] + k < K) & (offs_bn[None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0.)
        b = tl.load(b_ptrs, mask=b_mask, other=0.)
        accumulator += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    c = accumulator.to(c_ptr.dtype.element_ty)
    if scale > 0:
        c = c * tl.cast(scale, c_ptr.dtype.element_ty)  # upstream: scale.to(c_ptr.dtype.element_ty)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    if MASK:
        c += tl.where(offs_cm[:, None] >= offs_cn[None, :], 0, float("-inf"))
    c_ptrs = (c_ptr + batch * stride_cb + head * stride_ch + stride_cm * offs_cm[:, None] +
              stride_cn * offs_cn[None, :])
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def make_inputs(B: int, S: int, H: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """The fused QKV activation [B, S, 3 * H * D] fp16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"qkv": torch.randn((B, S, 3 * H * D), device=device, generator=g).half(), "head_size": D}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """scores [B, H, S, S] (as fp32, -inf written as -60000), as ``_score_4d_matmul(qkv, head_size, None, scale)``
    with ``MASK=True``."""
    import torch
    input, head_size = inputs["qkv"], inputs["head_size"]
    scale = 1.0 / math.sqrt(head_size)
    _cache_stride = 32
    batches = input.shape[0]
    d_model = input.shape[-1] // 3
    num_of_heads = d_model // head_size
    q = input[:, :, :d_model]
    k = input[:, :, d_model:d_model * 2]
    q = q.view(batches, -1, num_of_heads, head_size)
    k = k.view(batches, -1, num_of_heads, head_size)
    B, M, H, K = q.shape
    B, N, H, K = k.shape
    output = torch.empty((B, H, M, N), device=q.device, dtype=q.dtype)
    grid = lambda META: (
        triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),
        H,
        B,
    )
    matmul_4d_kernel[grid](
        q, k, output, M, N, K,
        M // _cache_stride, N // _cache_stride, K // _cache_stride,
        q.stride(0), q.stride(2), q.stride(1), q.stride(3),
        k.stride(0), k.stride(2), k.stride(3), k.stride(1),
        output.stride(0), output.stride(1), output.stride(2), output.stride(3),
        scale=scale,
        MASK=True,
    )
    out = output.float()
    return torch.where(torch.isneginf(out), -60000.0, out)


def reference(inputs: dict[str, Any]) -> Any:
    """q k^T (fp32 accumulate, rounded to fp16, times fp16(scale) in fp16), -60000 above the diagonal."""
    import torch
    qkv, D = inputs["qkv"], inputs["head_size"]
    Bt, S, three_d = qkv.shape
    d = three_d // 3
    H = d // D
    q = qkv[:, :, :d].float().view(Bt, S, H, D).transpose(1, 2)
    k = qkv[:, :, d:2 * d].float().view(Bt, S, H, D).transpose(1, 2)
    s = (q @ k.transpose(2, 3)).half() * torch.tensor(1.0 / math.sqrt(D), device=q.device).half()
    s = s.float()
    causal = torch.ones((S, S), dtype=torch.bool, device=s.device).tril()
    return torch.where(causal, s, torch.tensor(-60000.0, device=s.device))


def flops(B: int, S: int, H: int, D: int) -> float:
    """2 * B * H * S * S * D (the masked tiles, about half, only store)."""
    return 2.0 * B * H * S * S * D
