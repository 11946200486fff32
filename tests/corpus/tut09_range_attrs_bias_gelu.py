"""Triton tutorial 09's persistent pointer GEMM (09-persistent-matmul.py ``matmul_kernel_persistent``) with the loop
attributes current public GEMMs put on ``tl.range`` (the tutorial's ``flatten=FLATTEN`` knob, False where it warp-
specialises on Hopper; triton_kernels' persistent matmul's ``num_stages=`` and ``disallow_acc_multi_buffer=`` on its
loops) and a Linear layer's fused epilogue (bias, then GELU). The constructs: the tile loop
``tl.range(start_pid, num_tiles, NUM_SMS, flatten=FLATTEN)`` with FLATTEN = False (the nest kept as written: the K
loop inside, not fused into one loop as persistent_gemm's flatten=True), the K loop
``tl.range(0, k_tiles, num_stages=NUM_STAGES, disallow_acc_multi_buffer=DISALLOW_ACC_MULTI_BUFFER)`` (both
constexprs: 4 stages, a single accumulator buffer), the tutorial's duplicated tile counter ``tile_id_c`` (its
Blackwell pipelining workaround), ``tl.where(offs < M, offs, 0)`` wrapped offsets hinted with
``tl.max_contiguous(tl.multiple_of(...))`` inside the tile loop, K-tail masks, and after each tile's K loop a bias
row ``[BLOCK_SIZE_N]`` loaded and added in fp32 and ``ACTIVATION == "gelu"`` (a string constexpr) choosing a
@triton.jit GELU helper (the tanh approximation written with ``tl.sigmoid``: 0.5 * (1 + tanh(z)) = sigmoid(2 z),
so no libdevice). fp16 in, fp32 accumulate, fp16 out; 128 x 128 x 64 tiles, GROUP_SIZE_M 8, 8 warps as the
tutorial's Hopper config. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_SMS = 132        # an H100's / H200's, what the host uses off the GPU (the interpreter, dry runs)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_kernel_persistent_bias_act",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "bias_ptr": "*fp32",
                  "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128,
                   "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "NUM_SMS": NUM_SMS, "NUM_STAGES": 4,
                   "DISALLOW_ACC_MULTI_BUFFER": True, "FLATTEN": False, "ACTIVATION": "gelu"},
    "num_warps": 8, "num_stages": 4,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "bias_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 8192, "N": 8192, "K": 4096}
SMALL: dict[str, int] = {"M": 400, "N": 328, "K": 200}    # partial tiles in M and N, a K tail of 8


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def gelu(x):
    # tanh approximation: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), as x * sigmoid(2 z)
    k0: tl.constexpr = 1.5957691216057308  # 2 * sqrt(2 / pi)
    return x * tl.sigmoid(k0 * (x + 0.044715 * x * x * x))


@triton.jit
def matmul_kernel_persistent_bias_act(a_ptr, b_ptr, c_ptr, bias_ptr,  #
                                      M, N, K,  #
                                      stride_am, stride_ak,  #
                                      stride_bk, stride_bn,  #
                                      stride_cm, stride_cn,  #
                                      BLOCK_SIZE_M: tl.constexpr,  #
                                      BLOCK_SIZE_N: tl.constexpr,  #
                                      BLOCK_SIZE_K: tl.constexpr,  #
                                      GROUP_SIZE_M: tl.constexpr,  #
                                      NUM_SMS: tl.constexpr,  #
                                      NUM_STAGES: tl.constexpr,  #
                                      DISALLOW_ACC_MULTI_BUFFER: tl.constexpr,  #
                                      FLATTEN: tl.constexpr,  #
                                      ACTIVATION: tl.constexpr,  #
                                      ):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n

    # NOTE: There is currently a bug in blackwell pipelining that means it can't handle a value being
    # used in both the prologue and epilogue, so we duplicate the counters as a work-around.
    tile_id_c = start_pid - NUM_SMS

    offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n

    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=FLATTEN):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS)
        start_m = pid_m * BLOCK_SIZE_M
        start_n = pid_n * BLOCK_SIZE_N
        offs_am = start_m + tl.arange(0, BLOCK_SIZE_M)
        offs_bn = start_n + tl.arange(0, BLOCK_SIZE_N)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_SIZE_M), BLOCK_SIZE_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_SIZE_N), BLOCK_SIZE_N)

        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in tl.range(0, k_tiles, num_stages=NUM_STAGES, disallow_acc_multi_buffer=DISALLOW_ACC_MULTI_BUFFER):
            offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
            b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

            a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_SIZE_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)

        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        # the Linear layer's epilogue: bias, then the activation, in fp32
        bias = tl.load(bias_ptr + offs_cn, mask=offs_cn < N, other=0.0)
        accumulator = accumulator + bias[None, :]
        if ACTIVATION == "gelu":
            accumulator = gelu(accumulator)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        c = accumulator.to(tl.float16)
        tl.store(c_ptrs, c, mask=c_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    b = (torch.randn((K, N), device=device, generator=g) / K ** 0.5).half()
    bias = torch.randn((N,), device=device, generator=g) * 0.5
    return {"a": a, "b": b, "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """gelu_tanh(a @ b + bias), fp16 [M, N], from min(NUM_SMS, tiles) programs as the tutorial launches them."""
    import torch
    a, b, bias = inputs["a"], inputs["b"], inputs["bias"]
    assert a.shape[1] == b.shape[0], "Incompatible dimensions"
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    BM, BN, BK = config.get("BLOCK_SIZE_M", 128), config.get("BLOCK_SIZE_N", 128), config.get("BLOCK_SIZE_K", 64)
    grid = (min(NUM_SMS, triton.cdiv(M, BM) * triton.cdiv(N, BN)),)
    matmul_kernel_persistent_bias_act[grid](
        a, b, c, bias,  #
        M, N, K,  #
        a.stride(0), a.stride(1),  #
        b.stride(0), b.stride(1),  #
        c.stride(0), c.stride(1),  #
        BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8, NUM_SMS=NUM_SMS,  #
        NUM_STAGES=config.get("NUM_STAGES", 4), DISALLOW_ACC_MULTI_BUFFER=True, FLATTEN=False,  #
        ACTIVATION="gelu", num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 4))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["a"].double() @ inputs["b"].double() + inputs["bias"].double()
    return torch.nn.functional.gelu(x, approximate="tanh")


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
