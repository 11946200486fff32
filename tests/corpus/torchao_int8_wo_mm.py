"""An int8 weight-only GEMM in the style of torchao's Triton int8 kernels (torchao/kernel/intmm_triton.py,
`scaled_matmul_kernel_with_block_pointers`, "based on triton.ops.matmul"), adapted to weight-only quantisation as
torchao's / gpt-fast's Int8WeightOnly linear computes it (`F.linear(x, w_int8.to(x.dtype)) * scales`): bf16
activations A [M, K]; the int8 weight stored [N, K] and passed transposed (B = w.t(): stride_bk == 1, K-major B);
B converted to bf16 inside the K loop before `tl.dot`; the per-output-channel bf16 scale applied after the loop.
Constructs as torchao writes them: `pid` re-ordered with GROUP_M (`group_size = min(...)`), the row/column offsets
hinted `tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)`, a K loop counting down
(`for k in range(K, 0, -BLOCK_K)`), an `EVEN_K` constexpr choosing unmasked loads, `ACC_TYPE: tl.constexpr` with a
default, the epilogue as Inductor writes a fused suffix (`xindex = idx_n + (N * idx_m)`, `tl.broadcast_to`, the
scale loaded with `eviction_policy="evict_last"`, the fp32 product stored to a bf16 pointer). The module-level
config list is torchao's (itertools.product over block sizes); the launch, like torchao's `int_scaled_matmul_kernel`,
passes a chosen `triton.Config`'s num_warps / num_stages / num_ctas / kwargs and `EVEN_K=(K % 2 == 0)` as torchao
does (so K must be a multiple of BLOCK_K at every size here). Config 128 x 128 x 64, GROUP_M 8, 8 warps, 4 stages."""
from __future__ import annotations

import itertools
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "int8_weight_only_matmul_kernel",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*i8", "c_ptr": "*bf16", "s2_ptr": "*bf16",
                  "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "constexpr", "stride_bn": "i32",
                  "stride_cm": "i32", "stride_cn": "constexpr", "stride_s2n": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "stride_s2n": 1,
                   "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "EVEN_K": True,
                   "ACC_TYPE": "fp32"},
    "num_warps": 8, "num_stages": 4,
    "divisibility": ["N", "K", "stride_am", "stride_bn", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 1024, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 77, "N": 176, "K": 192}

# TORCHINDUCTOR_MAX_AUTOTUNE_GEMM_SEARCH_SPACE=EXHAUSTIVE to enable exhaustive option
int8_mm_kernel_configs = sum(
    [
        # "BLOCK_M", "BLOCK_N", "BLOCK_K", "num_stages", "num_warps"
        [
            (i, j, k, 1, 1),
            (i, j, k, 1, 2),
            (i, j, k, 2, 2),
            (i, j, k, 1, 4),
            (i, j, k, 2, 4),
            (i, j, k, 3, 4),
            (i, j, k, 4, 4),
            (i, j, k, 1, 8),
            (i, j, k, 2, 8),
            (i, j, k, 3, 8),
            (i, j, k, 4, 8),
            (i, j, k, 5, 8),
            (i, j, k, 6, 8),
            (i, j, k, 7, 8),
            (i, j, k, 8, 8),
        ]
        for (i, j, k) in itertools.product([32, 64, 128, 256], repeat=3)
    ],
    [],
)

int8_mm_kernel_configs = [
    triton.Config(
        {"BLOCK_M": i, "BLOCK_N": j, "BLOCK_K": k, "GROUP_M": 8},
        num_stages=s,
        num_warps=w,
    )
    for (i, j, k, s, w) in int8_mm_kernel_configs
]


@triton.jit
def int8_weight_only_matmul_kernel(
    # Pointers to matrices
    a_ptr,
    b_ptr,
    c_ptr,
    s2_ptr,
    # Matrix dimensions
    M,
    N,
    K,
    # The stride variables represent how much to increase the ptr by when moving by 1
    # element in a particular dimension. E.g. `stride_am` is how much to increase `a_ptr`
    # by to get the element one row down (A has M rows).
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    stride_s2n,
    # Meta-parameters
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    EVEN_K: tl.constexpr,
    ACC_TYPE: tl.constexpr = tl.float32,
):
    # based on triton.ops.matmul
    pid = tl.program_id(0)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N

    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    A = a_ptr + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = b_ptr + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.0)
            b = tl.load(B, mask=rk[:, None] < k, other=0)
        # weight-only: the int8 tile is converted to the activation dtype before the dot
        acc += tl.dot(a, b.to(a.dtype))
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk

    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)

    # inductor generates a suffix
    xindex = idx_n + (N * idx_m)
    tmp0 = tl.load(
        s2_ptr + (tl.broadcast_to(idx_n * stride_s2n, mask.shape)),
        mask,
        eviction_policy="evict_last",
    )
    tl.store(c_ptr + (tl.broadcast_to(xindex, mask.shape)), acc * tmp0, mask)


def int8_weight_only_matmul(a, b, scales2, c, config):
    M, K = a.shape
    K, N = b.shape
    grid = lambda META: (
        triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),
    )
    int8_weight_only_matmul_kernel[grid](
        a,
        b,
        c,
        scales2,
        M,
        N,
        K,  #
        a.stride(0),
        a.stride(1),  #
        b.stride(0),
        b.stride(1),  #
        c.stride(0),
        c.stride(1),
        scales2.stride(0),
        num_warps=config.num_warps,
        num_stages=config.num_stages,
        num_ctas=config.num_ctas,
        EVEN_K=(K % 2 == 0),
        **config.kwargs,
    )
    return c


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).to(torch.bfloat16)
    w = torch.randn((N, K), device=device, generator=g)
    # torchao's per-channel symmetric int8 weight quantisation
    scales = w.abs().amax(dim=1).clamp(min=1e-5) / 127.0
    w_int8 = torch.clamp(torch.round(w / scales[:, None]), -128, 127).to(torch.int8)
    return {"x": x, "w_int8": w_int8, "scales": (scales / K ** 0.5).to(torch.bfloat16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y = (x @ w_int8.t().to(bf16)) * scales, bf16 [M, N]; the config as torchao's get_best_config_fn would hand
    it over (a triton.Config)."""
    import torch
    x, w_int8, scales = inputs["x"], inputs["w_int8"], inputs["scales"]
    b = w_int8.t()                       # [K, N], stride (1, K)
    M, K = x.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=x.device, dtype=scales.dtype)
    best_config = triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8},
                                num_stages=config.get("num_stages", 4), num_warps=config.get("num_warps", 8))
    return int8_weight_only_matmul(x, b, scales, c, best_config)


def reference(inputs: dict[str, Any]) -> Any:
    x, w, s = inputs["x"].double(), inputs["w_int8"].double(), inputs["scales"].double()
    return (x @ w.t()) * s[None, :]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
