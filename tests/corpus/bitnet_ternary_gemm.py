"""A BitNet b1.58-style W1.58A8 GEMM (the ternary linear of BitNet / 1bitLLM inference ports written in Triton):
ternary weights {-1, 0, +1} stored two bits each, four per int8 byte along K (code w + 1 in bits 2j..2j+1 for row
4i + j), a per-tensor weight scale; activations quantised to int8 per token (absmax, a per-row fp32 scale);
``tl.dot`` int8 x int8 -> int32 and a dequantising epilogue ``acc * x_scale[:, None] / w_scale`` to bf16... here fp16
(the CPU interpreter computes bf16 wrongly elsewhere; the epilogue is the same).

The constructs, as GPTQ-derived Triton kernels unpack sub-byte weights: the packed row read once per unpacked row
through the pointer tile ``b_ptr + (offs_k[:, None] // 4) * stride_bk + ...`` (each byte's address repeated four
times down the tile), a per-row ``shifter = (offs_k % 4) * 2`` computed before the loop, ``b = (b >> shifter[:, None])
& 0x3`` and ``b = b.to(tl.int8) - 1`` in the K loop; A int8 [M, K]; ``accumulator += tl.dot(a, b,
out_dtype=tl.int32)``; after the loop the int32 tile scaled by the per-token ``x_scale`` and the scalar ``w_scale``
loaded from memory (BitNet's ``weight_scale`` is a one-element tensor); GROUP_SIZE_M swizzle; rows masked on M,
columns on N, K a multiple of BLOCK_SIZE_K (the wrapper asserts).

Specialisation: 128 x 128 x 64 tiles, GROUP_SIZE_M 8, 8 warps, 3 stages; unit inner strides. SMALL: M not a multiple
of the block, N and K multiples of 16 and of BLOCK_SIZE_K. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "bitnet_w2a8_gemm_kernel",
    "signature": {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*fp16", "x_scale_ptr": "*fp32", "w_scale_ptr": "*fp32",
                  "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 8192}
SMALL: dict[str, int] = {"M": 176, "N": 256, "K": 384}


@triton.jit
def bitnet_w2a8_gemm_kernel(
    a_ptr, b_ptr, c_ptr, x_scale_ptr, w_scale_ptr,
    M, N, K,
    stride_am, stride_ak,
    stride_bk, stride_bn,
    stride_cm, stride_cn,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    """
    Compute C = (A @ W) * x_scale / w_scale where
        A is int8 of shape (M, K), one scale per row (token),
        B is int8 of shape (K // 4, N), four 2-bit ternary codes per byte (w + 1),
        C is of shape (M, N).
    """
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)   # (BLOCK_SIZE_M, BLOCK_SIZE_K)
    a_mask = offs_am[:, None] < M
    # b_ptrs is set up such that it repeats elements along the K axis 4 times
    b_ptrs = b_ptr + ((offs_k[:, None] // 4) * stride_bk + offs_bn[None, :] * stride_bn)   # (BLOCK_SIZE_K, BLOCK_SIZE_N)
    b_mask = offs_bn[None, :] < N

    # shifter is used to extract the 2 bits of each element in the 8-bit word from B
    shifter = (offs_k % 4) * 2

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=a_mask, other=0)
        b = tl.load(b_ptrs, mask=b_mask, other=0)   # int8 holding four codes

        # Now we need to unpack b (which is 2-bit values) into 8-bit values in {-1, 0, 1}
        b = (b >> shifter[:, None]) & 0x3
        b = b.to(tl.int8) - 1

        accumulator += tl.dot(a, b, out_dtype=tl.int32)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += (BLOCK_SIZE_K // 4) * stride_bk

    x_scale = tl.load(x_scale_ptr + offs_am, mask=offs_am < M, other=1.0)
    w_scale = tl.load(w_scale_ptr)
    c = accumulator.to(tl.float32) * (x_scale[:, None] / w_scale)
    c = c.to(c_ptr.dtype.element_ty)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def activation_quant(x: Any) -> tuple[Any, Any]:
    """BitNet's per-token absmax int8 quantisation: x_q = round(x * 127 / absmax), x ~ x_q * x_scale, x_scale =
    absmax / 127 (fp32 [M])."""
    import torch
    absmax = x.float().abs().amax(dim=-1, keepdim=True).clamp_(min=1e-5)
    x_q = (x.float() * (127.0 / absmax)).round().clamp_(-128, 127).to(torch.int8)
    return x_q, (absmax / 127.0).squeeze(-1).contiguous()


def weight_quant_pack(w: Any) -> tuple[Any, Any]:
    """BitNet's absmean ternary quantisation of w [K, N] (w ~ w_t / w_scale, w_t in {-1, 0, 1}, w_scale = 1 /
    mean|w|), packed four codes (w_t + 1) per int8 byte along K."""
    import torch
    w_scale = 1.0 / w.float().abs().mean().clamp_(min=1e-5)
    w_t = (w.float() * w_scale).round().clamp_(-1, 1).to(torch.int32)
    codes = (w_t + 1).view(w.shape[0] // 4, 4, w.shape[1])
    packed = codes[:, 0] | (codes[:, 1] << 2) | (codes[:, 2] << 4) | (codes[:, 3] << 6)
    packed = torch.where(packed > 127, packed - 256, packed).to(torch.int8)
    return packed.contiguous(), w_scale.reshape(1).float()


def bitnet_matmul(x_q: Any, x_scale: Any, packed_w: Any, w_scale: Any, num_warps: int = 8,
                  num_stages: int = 3) -> Any:
    import torch
    M, K = x_q.shape
    Kp, N = packed_w.shape
    assert Kp * 4 == K and K % 64 == 0, "K must be a multiple of BLOCK_SIZE_K"
    c = torch.empty((M, N), device=x_q.device, dtype=torch.float16)
    grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)
    bitnet_w2a8_gemm_kernel[grid](
        x_q, packed_w, c, x_scale, w_scale, M, N, K,
        x_q.stride(0), x_q.stride(1), packed_w.stride(0), packed_w.stride(1), c.stride(0), c.stride(1),
        BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
        num_warps=num_warps, num_stages=num_stages)
    return c


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x fp16 [M, K] quantised per token to int8; a latent weight [K, N] quantised to ternary and packed."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).half()
    w = torch.randn((K, N), device=device, generator=g) / K ** 0.5
    x_q, x_scale = activation_quant(x)
    packed_w, w_scale = weight_quant_pack(w)
    return {"x_q": x_q, "x_scale": x_scale, "packed_w": packed_w, "w_scale": w_scale}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    return bitnet_matmul(inputs["x_q"], inputs["x_scale"], inputs["packed_w"], inputs["w_scale"],
                         num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))


def reference(inputs: dict[str, Any]) -> Any:
    """Unpack in torch, the product in float64 (exact: |acc| <= K * 127 < 2^53; CUDA has no int64 matmul, run 93),
    dequantise in float64."""
    import torch
    p = inputs["packed_w"].to(torch.int32) & 0xFF
    Kp, N = p.shape
    w_t = torch.stack([((p >> (2 * j)) & 3) - 1 for j in range(4)], dim=1).reshape(Kp * 4, N)
    acc = inputs["x_q"].double() @ w_t.double()
    return acc.double() * inputs["x_scale"].double()[:, None] / inputs["w_scale"].double()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
