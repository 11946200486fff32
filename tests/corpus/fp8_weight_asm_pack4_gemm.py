"""A W8A16 GEMM whose FP8 (e4m3) weights arrive as raw bytes and are widened to fp16 in the dot loop by
``tl.inline_asm_elementwise(..., pack=4)``: one 32-bit register holds four weight bytes, two
``cvt.rn.f16x2.e4m3x2`` write four halves, as serving kernels write a fast FP8 upcast where the language has no
uint8-to-fp8 bitcast they trust; X [M, K] fp16 through a device-side TMA descriptor, W [K, N] uint8 by masked pointer
loads, one fp32 scale per output column applied after the loop; rows and columns ragged. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "fp8_weight_asm_pack4_gemm",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*u8", "s_ptr": "*fp32", "y_ptr": "*fp16", "M": "i32", "N": "i32",
                  "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["x_ptr", "w_ptr", "s_ptr", "y_ptr", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 200, "N": 336, "K": 512}     # M (descriptor zero fill) and N (masks) ragged


@triton.jit
def _e4m3x4_to_f16(w):
    # four bytes in, four halves out: the low byte of each 16-bit half becomes the low fp16 of its f16x2
    return tl.inline_asm_elementwise(
        "{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }",
        "=r,=r,r", [w], dtype=tl.float16, is_pure=True, pack=4)


@triton.jit
def fp8_weight_asm_pack4_gemm(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    n_mask = offs_n < N
    w_ptrs = w_ptr + offs_k[:, None] * N + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        x = x_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        wq = tl.load(w_ptrs, mask=n_mask[None, :], other=0)
        acc = tl.dot(x, _e4m3x4_to_f16(wq), acc)
        w_ptrs += BLOCK_K * N
    scale = tl.load(s_ptr + offs_n, mask=n_mask, other=0.0)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    y_ptrs = y_ptr + offs_m[:, None] * N + offs_n[None, :]
    tl.store(y_ptrs, (acc * scale[None, :]).to(tl.float16), mask=(offs_m < M)[:, None] & n_mask[None, :])


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K] fp16; w [K, N] e4m3 held as its bytes (uint8); a per-column scale around 1 / sqrt(K)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    w8 = torch.randn((K, N), device=device, generator=g).to(torch.float8_e4m3fn)
    return {"x": torch.randn((M, K), device=device, dtype=torch.float16, generator=g), "w8": w8,
            "w": w8.view(torch.uint8),
            "s": torch.rand((N,), device=device, generator=g) / K ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Y = (X @ fp16(W)) * s (Triton needs a global scratch allocator for the descriptor the kernel makes)."""
    import torch
    x, w = inputs["x"], inputs["w"]
    M, K = x.shape
    N = w.shape[1]
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=x.device, dtype=torch.int8))
    y = torch.empty((M, N), device=x.device, dtype=torch.float16)
    fp8_weight_asm_pack4_gemm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](
        x, w, inputs["s"], y, M, N, K, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    return (inputs["x"].float() @ inputs["w8"].float()) * inputs["s"][None, :]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
