"""Kernl's fused linear layer (kernl/implementations/linear_layer.py ``kernel_fma``, as its ``LinearLayer.forward``
launches it for a BERT FFN up-projection): out = gelu(x @ W^T + bias), W [N, K] row-major read as a K-major
[BLOCK_K, BLOCK_N] tile (``b_k_stride`` = 1), fp16 in and out. The constructs: the ``% M`` / ``% N`` wrapped offsets
under ``tl.max_contiguous(tl.multiple_of(...))`` (no M/N masks on the loads, a mask on the store only); the bias
loaded BEFORE the K loop and added to the zero accumulator, so the dot's accumulator starts from a non-zero
tile; a DESCENDING K loop ``for k in range(K, 0, -BLOCK_K)`` with the K_LOAD_MASK_NEEDED heuristic (True = K is a
multiple of BLOCK_K, the unmasked loads: Kernl's name is inverted); SHOULD_SAVE_ACT_INPUTS storing the
pre-activation tile unmasked through the wrapped offsets; a string constexpr ACTIVATION selecting the epilogue
(``gelu`` through ``tl.extra.cuda.libdevice.erf``); CACHE_KEY_M/N/K, integer arguments the kernel never reads (the
autotuner's key). Config: the first of Kernl's autotune list {BLOCK_M 128, BLOCK_N 256, BLOCK_K 32, SPLIT_K 1,
8 warps, 3 stages}, GROUP_M 8. Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

BLOCK_M, BLOCK_N, BLOCK_K = 128, 256, 32
sqrt2pi = math.sqrt(2.0 / math.pi)
sqrt2 = tl.constexpr(math.sqrt(2.0))
TWILL_SPEC: dict[str, Any] = {
    "kernel": "kernel_fma",
    "signature": {"C": "*fp16", "ACT_INPUTS": "*fp16", "A": "*fp16", "B": "*fp16", "bias": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32", "CACHE_KEY_M": "i32", "CACHE_KEY_N": "i32",
                  "CACHE_KEY_K": "i32", "output_m_stride": "i32", "output_n_stride": "constexpr",
                  "act_inputs_m_stride": "i32", "act_inputs_n_stride": "constexpr", "a_m_stride": "i32",
                  "a_k_stride": "constexpr", "b_n_stride": "i32", "b_k_stride": "constexpr"},
    "constexprs": {"output_n_stride": 1, "act_inputs_n_stride": 1, "a_k_stride": 1, "b_k_stride": 1,
                   "BLOCK_M": BLOCK_M, "GROUP_M": 8, "BLOCK_N": BLOCK_N, "BLOCK_K": BLOCK_K, "SPLIT_K": 1,
                   "K_LOAD_MASK_NEEDED": True, "HAS_BIAS": True, "SHOULD_SAVE_ACT_INPUTS": True,
                   "ACTIVATION": "gelu"},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["N", "K", "CACHE_KEY_K", "output_m_stride", "act_inputs_m_stride", "a_m_stride",
                     "b_n_stride"]}
PROBLEM: dict[str, int] = {"M": 16384, "N": 3072, "K": 768}      # 128 sequences of 128 tokens, BERT-base FFN
SMALL: dict[str, int] = {"M": 200, "N": 320, "K": 96}          # M and N ragged (wrapped offsets), 3 K steps


@triton.jit
def tanh(x):
    """Tanh activation function"""
    return tl.extra.cuda.libdevice.tanh(x)


@triton.jit
def relu(x):
    """Relu activation function"""
    return tl.maximum(0, x)


@triton.jit
def fast_gelu(x):
    """Fast approximation of the gelu function. May slightly decrease accuracy."""
    return 0.5 * x * (1 + tanh(sqrt2pi * (x + 0.044715 * x * x * x)))


@triton.jit
def gelu(x):
    """Gaussian Error Linear Unit (GELU)"""
    return x * 0.5 * (1.0 + tl.extra.cuda.libdevice.erf(x / sqrt2))


@triton.jit
def kernel_fma(
    C,  # Pointers to matrices
    ACT_INPUTS,
    A,
    B,
    bias,
    # Matrix dimensions
    M,
    N,
    K,
    CACHE_KEY_M,
    CACHE_KEY_N,
    CACHE_KEY_K,
    # The stride variables represent how much to increase the ptr by when moving by 1
    # element in a particular dimension.
    output_m_stride,
    output_n_stride,
    act_inputs_m_stride,
    act_inputs_n_stride,
    a_m_stride,
    a_k_stride,
    b_n_stride,
    b_k_stride,
    # Meta-parameters
    BLOCK_M: tl.constexpr,
    GROUP_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    # split k not used, not performant with activation, kept because early_config_prune is expecting it
    SPLIT_K: tl.constexpr,
    K_LOAD_MASK_NEEDED: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    SHOULD_SAVE_ACT_INPUTS: tl.constexpr,
    ACTIVATION: tl.constexpr,
):
    """
    Kernel for computing Out = activation(A x W + C)
    """
    program_idx = tl.program_id(axis=0)

    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_idx = program_idx // width
    group_size = min(grid_m - group_idx * GROUP_M, GROUP_M)
    block_m_idx = group_idx * GROUP_M + (program_idx % group_size)
    block_n_idx = (program_idx % width) // (group_size)

    # now compute the block that each program will go through
    m_offs_untagged = block_m_idx * BLOCK_M + tl.arange(0, BLOCK_M)
    n_offs_untagged = block_n_idx * BLOCK_N + tl.arange(0, BLOCK_N)

    # trick to avoid masking on M and N axis
    m_offs = tl.max_contiguous(tl.multiple_of(m_offs_untagged % M, BLOCK_M), BLOCK_M)
    n_offs = tl.max_contiguous(tl.multiple_of(n_offs_untagged % N, BLOCK_N), BLOCK_N)

    k_range_offs = tl.arange(0, BLOCK_K)

    A = A + (m_offs[:, None] * a_m_stride + k_range_offs[None, :] * a_k_stride)
    B = B + (k_range_offs[:, None] * b_k_stride + n_offs[None, :] * b_n_stride)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)

    if HAS_BIAS:
        bias = tl.load(bias + n_offs, mask=n_offs < N, other=0.0).to(tl.float32)
        acc += bias[None, :]

    for k in range(K, 0, -BLOCK_K):
        if K_LOAD_MASK_NEEDED:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=k_range_offs[None, :] < k, other=0.0)
            b = tl.load(B, mask=k_range_offs[:, None] < k, other=0.0)
        acc += tl.dot(a, b)

        A += BLOCK_K * a_k_stride
        B += BLOCK_K * b_k_stride

    # optional: save the activation inputs
    if SHOULD_SAVE_ACT_INPUTS:
        act_in_ptrs = ACT_INPUTS + m_offs[:, None] * act_inputs_m_stride + n_offs[None, :] * act_inputs_n_stride
        tl.store(act_in_ptrs, acc)

    # optional: fused activation (while the data is in shared memory)
    if ACTIVATION == "tanh":
        acc = tanh(acc)
    if ACTIVATION == "gelu":
        acc = gelu(acc)
    if ACTIVATION == "fast_gelu":
        acc = fast_gelu(acc)
    if ACTIVATION == "relu":
        acc = relu(acc)

    # write back result
    C = C + m_offs[:, None] * output_m_stride + n_offs[None, :] * output_n_stride
    c_ptr_mask = (m_offs < M)[:, None] & (n_offs < N)[None, :]
    tl.store(C, acc, mask=c_ptr_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K], weight [N, K] (nn.Linear's layout), bias [N], all fp16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).half()
    w = (torch.randn((N, K), device=device, generator=g) / K ** 0.5).half()
    b = (torch.randn((N,), device=device, generator=g) * 0.5).half()
    return {"x": x, "weight": w, "bias": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(gelu(x @ W^T + b), the pre-activation x @ W^T + b), both fp16 [M, N], as LinearLayer.forward with
    activation="gelu" and an act_inputs buffer."""
    import torch
    x, weight, bias = inputs["x"], inputs["weight"], inputs["bias"]
    M, K = x.shape
    N, _ = weight.shape
    outputs = torch.empty((M, N), device=x.device, dtype=x.dtype)
    act_inputs = torch.empty_like(outputs)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    kernel_fma[grid](
        outputs, act_inputs, x, weight, bias, M, N, K, M // 32, N // 32, K // 32,
        output_m_stride=outputs.stride(0), output_n_stride=outputs.stride(1),
        act_inputs_m_stride=act_inputs.stride(0), act_inputs_n_stride=act_inputs.stride(1),
        a_m_stride=x.stride(0), a_k_stride=x.stride(1), b_n_stride=weight.stride(0), b_k_stride=weight.stride(1),
        BLOCK_M=BLOCK_M, GROUP_M=8, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, SPLIT_K=1,
        K_LOAD_MASK_NEEDED=K % (BLOCK_K * 1) == 0, HAS_BIAS=True, SHOULD_SAVE_ACT_INPUTS=True, ACTIVATION="gelu",
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return outputs, act_inputs


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    pre = inputs["x"].float() @ inputs["weight"].float().T + inputs["bias"].float()
    return torch.nn.functional.gelu(pre), pre


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
