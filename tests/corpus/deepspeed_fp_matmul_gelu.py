"""DeepSpeed's fp16 linear layer with fused bias and GeLU, ``_fp_matmul`` (microsoft/DeepSpeed
``deepspeed/ops/transformer/inference/triton/triton_matmul_kernel.py``, adapted there from Triton's old
``triton/ops/matmul.py``; launched by ``Fp16Matmul.forward`` in ``.../triton/matmul_ext.py`` with ``GROUP_M=8``,
``ACC_TYPE=tl.float32``, ``BIAS_ADD=1``, ``ACTIVATION="gelu"``; ``gelu_functor`` from ``.../triton/gelu.py``).

The constructs: a **descending K loop** ``for k in range(K, 0, -BLOCK_K * SPLIT_K)`` (a negative constexpr step;
the induction variable counts the K elements left and feeds the masks ``rk < k`` of the ``EVEN_K=False`` branch);
``@triton.heuristics`` for ``EVEN_K`` (here False: K = 4100 is chosen not a multiple of 32 so the masked,
k-dependent branch is the one compiled); ``@triton.autotune`` with ``prune_configs_by`` (its pruner, which needs the
removed ``triton.ops``, is kept as a definition only); the ``% M`` / ``% N`` wrapped rows under
``tl.max_contiguous(tl.multiple_of(...))`` (no M/N masks on the loads); two pointer carries; a ``dtype``-valued
constexpr ``ACC_TYPE`` for the accumulator; a constexpr string ``ACTIVATION`` if/elif chain selecting an
``@triton.jit`` helper (``gelu_functor``: erf GeLU); bias added after the loop; a constexpr ``SPLIT_K == 1`` choice
between ``tl.store`` and ``tl.atomic_add``. Nothing in the kernel is changed. Shape: 8192 tokens, 4100 -> 4096
features, fp16; the first autotune config (128 x 256 x 32, 8 warps, 3 stages)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

AUTOTUNE_TOP_K = 10
SKIP_AUTOTUNE = False
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fp_matmul",
    "signature": {"A": "*fp16", "B": "*fp16", "C": "*fp16", "M": "i32", "N": "i32", "K": "i32", "bias": "*fp16",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr", "CACHE_M": "i32", "CACHE_N": "i32",
                  "CACHE_K": "i32"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 32,
                   "GROUP_M": 8, "SPLIT_K": 1, "EVEN_K": False, "ACC_TYPE": tl.float32, "BIAS_ADD": 1,
                   "ACTIVATION": "gelu"},
    "num_warps": 8, "num_stages": 3,
    # K = 4100 and stride_am = K are not multiples of 16
    "divisibility": ["M", "N", "stride_bk", "stride_cm", "CACHE_M", "CACHE_N", "CACHE_K"]}
PROBLEM: dict[str, int] = {"M": 8192, "N": 4096, "K": 4100}
SMALL: dict[str, int] = {"M": 200, "N": 300, "K": 100}


@triton.jit
def gelu_functor(x):
    # Using approximation introduces greater parity errors.
    # return tl.sigmoid(1.702 * x) * x
    return x * 0.5 * (1.0 + tl.math.erf(x / 1.41421356237))


def _fp16_matmul_prune_config(configs, named_args, skip_autotune=SKIP_AUTOTUNE):
    if skip_autotune:
        configs = [configs[0]]
    else:
        configs = triton.ops.matmul_perf_model.early_config_prune(configs, named_args)
    return configs


@triton.autotune(
    configs=[
        # basic configs for compute-bound matmuls
        triton.Config({
            'BLOCK_M': 128,
            'BLOCK_N': 256,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=3, num_warps=8),
        triton.Config({
            'BLOCK_M': 256,
            'BLOCK_N': 128,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=3, num_warps=8),
        triton.Config({
            'BLOCK_M': 256,
            'BLOCK_N': 64,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=4, num_warps=4),
        triton.Config({
            'BLOCK_M': 64,
            'BLOCK_N': 256,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=4, num_warps=4),
        triton.Config({
            'BLOCK_M': 128,
            'BLOCK_N': 128,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=4, num_warps=4),
        triton.Config({
            'BLOCK_M': 128,
            'BLOCK_N': 64,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=4, num_warps=4),
        triton.Config({
            'BLOCK_M': 64,
            'BLOCK_N': 128,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=4, num_warps=4),
        triton.Config({
            'BLOCK_M': 128,
            'BLOCK_N': 32,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=4, num_warps=4),
        triton.Config({
            'BLOCK_M': 64,
            'BLOCK_N': 32,
            'BLOCK_K': 32,
            'SPLIT_K': 1
        }, num_stages=5, num_warps=2),
    ],
    key=['CACHE_M', 'CACHE_N', 'CACHE_K'],
    prune_configs_by={
        'early_config_prune': _fp16_matmul_prune_config,
        'perf_model': None,
        'top_k': AUTOTUNE_TOP_K
    },
)
@triton.heuristics({
    'EVEN_K': lambda args: args['K'] % (args['BLOCK_K'] * args['SPLIT_K']) == 0,
})
@triton.jit
def _fp_matmul(
    A,
    B,
    C,
    M,
    N,
    K,
    bias,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    CACHE_M,
    CACHE_N,
    CACHE_K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    SPLIT_K: tl.constexpr,
    EVEN_K: tl.constexpr,
    ACC_TYPE: tl.constexpr,
    BIAS_ADD: tl.constexpr,
    ACTIVATION: tl.constexpr,
):
    # matrix multiplication
    pid = tl.program_id(0)
    pid_z = tl.program_id(1)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    # do matrix multiplication
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    rk = pid_z * BLOCK_K + tl.arange(0, BLOCK_K)
    # pointers
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K * SPLIT_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.)
            b = tl.load(B, mask=rk[:, None] < k, other=0.)
        acc += tl.dot(a, b)
        A += BLOCK_K * SPLIT_K * stride_ak
        B += BLOCK_K * SPLIT_K * stride_bk
    # bias addition
    if BIAS_ADD:
        bias_offset = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        bias_ptr = bias + bias_offset
        b = tl.load(bias_ptr, mask=bias_offset < N)
        acc = acc + b[None, :]
    # activation
    if ACTIVATION == "relu":
        acc = tl.where(acc >= 0, acc, 0)
    elif ACTIVATION == "leaky_relu":
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    elif ACTIVATION == "gelu":
        #acc = tl.sigmoid(1.702 * acc) * acc
        acc = gelu_functor(acc)
    elif ACTIVATION == "sigmoid":
        acc = tl.sigmoid(acc)  # sigmoid
    acc = acc.to(C.dtype.element_ty)
    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    C = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    # handles write-back with reduction-splitting
    if SPLIT_K == 1:
        tl.store(C, acc, mask=mask)
    else:
        tl.atomic_add(C, acc, mask=mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [M, K], B [K, N] (row-major, as ``Fp16Matmul`` takes the weight), bias [N], all fp16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    b = (torch.randn((K, N), device=device, generator=g) / K ** 0.5).half()
    bias = torch.randn((N,), device=device, generator=g).half()
    return {"a": a, "b": b, "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """gelu(A @ B + bias) fp16 [M, N], as ``Fp16Matmul.forward(A, B, bias=bias, activation="gelu")``."""
    import torch
    A, B, bias = inputs["a"], inputs["b"], inputs["bias"]
    activation = "gelu"
    _cache_stride = 32
    M, K = A.shape
    _, N = B.shape
    C = torch.empty((M, N), device=A.device, dtype=A.dtype)
    ACC_TYPE = triton.language.float32 if A.dtype in [torch.float16, torch.bfloat16, torch.float32
                                                      ] else triton.language.int32
    grid = lambda META: (triton.cdiv(M, META['BLOCK_M']) * triton.cdiv(N, META['BLOCK_N']), META['SPLIT_K'])
    _fp_matmul[grid](A, B, C, M, N, K, bias,
                     A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0), C.stride(1),
                     M // _cache_stride, N // _cache_stride, K // _cache_stride,
                     GROUP_M=8, ACC_TYPE=ACC_TYPE, BIAS_ADD=(0 if bias is None else 1), ACTIVATION=activation)
    return C


def reference(inputs: dict[str, Any]) -> Any:
    """Exact-erf GeLU of A @ B + bias, in fp64."""
    import torch
    x = inputs["a"].double() @ inputs["b"].double() + inputs["bias"].double()
    return x * 0.5 * (1.0 + torch.erf(x / 2 ** 0.5))


def flops(M: int, N: int, K: int) -> float:
    """2 * M * N * K."""
    return 2.0 * M * N * K
