"""vLLM's batch-invariant persistent GEMM, ``matmul_kernel_persistent`` (vllm-project/vllm
vllm/model_executor/layers/batch_invariant.py, with its ``_compute_pid`` helper and ``_matmul_launch_metadata``), as
``addmm_batch_invariant(bias, x, weight.t())`` -> ``matmul_persistent(a, b, bias)`` launches it when batch-invariant
mode overrides ``aten::addmm`` (a ``nn.Linear`` with bias on SM80 / XPU): **B is the transposed view of an
nn.Linear weight** (``weight.t()``: stride_bk = 1, stride_bn = K, so the [BLOCK_K, BLOCK_N] tile of B is gathered
column-major through pointer arithmetic), bf16 in, fp32 accumulation, bf16 out, bias fused in the epilogue.

The constructs: ``@triton.jit(launch_metadata=...)`` (a host-side helper naming the launch's FLOPs); a persistent
``tl.range(start_pid, num_tiles, NUM_SMS, flatten=True)`` tile loop around the K loop ``for ki in range(k_tiles)``;
the helper ``_compute_pid`` (@triton.jit, GROUP_SIZE_M swizzle with ``min``) called twice, once for the tile read and
once for ``tile_id_c``, a second tile counter carried across the outer loop that names the tile the epilogue stores;
row / column offsets clamped with ``tl.where(offs < M, offs, 0)`` and hinted with ``tl.max_contiguous(
tl.multiple_of(...))``; constexpr branches ``if A_LARGE`` / ``B_LARGE`` / ``C_LARGE`` (int64 offsets; False here) and
``if A_LARGE or B_LARGE`` inside the K loop; K-tail masks written as ``offs_k_for_mask < K - ki * BLOCK_SIZE_K``
(``other=0.0``); ``HAS_BIAS`` (True): a masked bias row converted to fp32 and broadcast-added to the accumulator;
the store's dtype from ``c_ptr.dtype.element_ty``. The bf16 launch config (128 x 128 x 64, GROUP 8, 8 warps, 3
stages) and NUM_SMS = 132 (an H100 / H200). The unit strides (stride_ak, stride_bk, stride_cn) are the 1s Triton's
launcher specialises on, declared constexpr in TWILL_SPEC.

Port notes: ``matmul_persistent``'s body is the launch (the ``_NUM_SMS`` global replaced by the constant);
``vllm.triton_utils`` replaced by plain triton imports. Nothing here is imported by twill."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import triton
import triton.language as tl

NUM_SMS = 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_kernel_persistent",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "bias_ptr": "*bf16", "M": "i32",
                  "N": "i32", "K": "i32", "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "constexpr",
                  "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128,
                   "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "NUM_SMS": NUM_SMS, "A_LARGE": False, "B_LARGE": False,
                   "C_LARGE": False, "HAS_BIAS": True},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["N", "K", "stride_am", "stride_bn", "stride_cm"]}
# a prefill batch of 2048 tokens through Llama-3-8B's up projection (4096 -> 14336) with a bias
PROBLEM: dict[str, int] = {"M": 2048, "N": 14336, "K": 4096}
SMALL: dict[str, int] = {"M": 200, "N": 272, "K": 176}


def _matmul_launch_metadata(
    grid: Callable[..., Any], kernel: Any, args: dict[str, Any]
) -> dict[str, Any]:
    ret = {}
    m, n, k = args["M"], args["N"], args["K"]
    ret["name"] = f"{kernel.name} [M={m}, N={n}, K={k}]"

    bytes_per_elem = args["c_ptr"].element_size()
    ret[f"flops{bytes_per_elem * 8}"] = 2.0 * m * n * k
    ret["bytes"] = bytes_per_elem * (m * k + n * k + m * n)
    return ret


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit(launch_metadata=_matmul_launch_metadata)
def matmul_kernel_persistent(
    a_ptr,
    b_ptr,
    c_ptr,  #
    bias_ptr,
    M,
    N,
    K,  #
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_SIZE_M: tl.constexpr,  #
    BLOCK_SIZE_N: tl.constexpr,  #
    BLOCK_SIZE_K: tl.constexpr,  #
    GROUP_SIZE_M: tl.constexpr,  #
    NUM_SMS: tl.constexpr,  #
    A_LARGE: tl.constexpr,
    B_LARGE: tl.constexpr,
    C_LARGE: tl.constexpr,
    HAS_BIAS: tl.constexpr,
):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n

    tile_id_c = start_pid - NUM_SMS

    offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n

    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        start_m = pid_m * BLOCK_SIZE_M
        start_n = pid_n * BLOCK_SIZE_N
        offs_am = start_m + tl.arange(0, BLOCK_SIZE_M)
        offs_bn = start_n + tl.arange(0, BLOCK_SIZE_N)
        if A_LARGE:
            offs_am = offs_am.to(tl.int64)
        if B_LARGE:
            offs_bn = offs_bn.to(tl.int64)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_SIZE_M), BLOCK_SIZE_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_SIZE_N), BLOCK_SIZE_N)

        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            if A_LARGE or B_LARGE:
                offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K).to(tl.int64)
            else:
                offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + (
                offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
            )
            b_ptrs = b_ptr + (
                offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
            )

            a = tl.load(
                a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K, other=0.0
            )
            b = tl.load(
                b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_SIZE_K, other=0.0
            )
            accumulator = tl.dot(a, b, accumulator)

        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(
            tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M
        )
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        if C_LARGE:
            offs_cm = offs_cm.to(tl.int64)
            offs_cn = offs_cn.to(tl.int64)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        if HAS_BIAS:
            bias_ptrs = bias_ptr + offs_cn
            bias = tl.load(bias_ptrs, mask=offs_cn < N, other=0.0).to(tl.float32)
            accumulator += bias
        c = accumulator.to(c_ptr.dtype.element_ty)
        tl.store(c_ptrs, c, mask=c_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K] bf16, an nn.Linear weight [N, K] bf16 (scaled 1/sqrt(K)) and its bias [N] bf16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).to(torch.bfloat16)
    weight = (torch.randn((N, K), device=device, generator=g) * K ** -0.5).to(torch.bfloat16)
    bias = torch.randn((N,), device=device, generator=g).to(torch.bfloat16)
    return {"x": x, "weight": weight, "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``addmm_batch_invariant(bias, x, weight.t())``: ``matmul_persistent(a, b, bias)`` with b = weight.t()."""
    import torch
    a, b, bias = inputs["x"], inputs["weight"].t(), inputs["bias"]
    assert a.shape[1] == b.shape[0], "Incompatible dimensions"
    assert a.dtype == b.dtype, "Incompatible dtypes"
    M, K = a.shape
    K, N = b.shape
    dtype = a.dtype
    c = torch.empty((M, N), device=a.device, dtype=dtype)

    def grid(META):
        return (
            min(
                NUM_SMS,
                triton.cdiv(M, META["BLOCK_SIZE_M"])
                * triton.cdiv(N, META["BLOCK_SIZE_N"]),
            ),
        )

    configs = {
        torch.bfloat16: {
            "BLOCK_SIZE_M": 128,
            "BLOCK_SIZE_N": 128,
            "BLOCK_SIZE_K": 64,
            "GROUP_SIZE_M": 8,
            "num_stages": config.get("num_stages", 3),
            "num_warps": config.get("num_warps", 8),
        },
    }
    matmul_kernel_persistent[grid](
        a,
        b,
        c,  #
        bias,
        M,
        N,
        K,  #
        a.stride(0),
        a.stride(1),  #
        b.stride(0),
        b.stride(1),  #
        c.stride(0),
        c.stride(1),  #
        NUM_SMS=NUM_SMS,  #
        A_LARGE=a.numel() > 2**31,
        B_LARGE=b.numel() > 2**31,
        C_LARGE=c.numel() > 2**31,
        HAS_BIAS=bias is not None,
        **configs[dtype],
    )
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """x @ weight^T + bias in fp32."""
    return inputs["x"].float() @ inputs["weight"].float().T + inputs["bias"].float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
