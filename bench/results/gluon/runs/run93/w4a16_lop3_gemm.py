"""A weight-only int4 GEMM (W4A16) whose nibbles are turned into fp16 by PTX inline assembly, in the style of the
hand-tuned Triton ports of FasterTransformer's / Marlin's dequantisation (``prmt`` + ``lop3`` "magic number" trick
through ``tl.inline_asm_elementwise``), with symmetric per-group scales and an fp16 ``tl.dot``.

Layout: A fp16 [M, K]; the packed weight uint8 [K / 2, N] (byte (i, n) holds W[2i, n] in its low nibble and
W[2i + 1, n] in its high nibble, stored as q + 8 for q in [-8, 7]); scales fp16 [K / GROUP_SIZE, N]; C fp16 [M, N].

The constructs: a GROUP_M swizzle of the 1-D program id; a ``@triton.jit`` helper ``_int4x2_to_f16`` calling
``tl.inline_asm_elementwise`` with two outputs (``dtype=(tl.float16, tl.float16)``, ``pack=4``: four bytes in one
32-bit register, each output four halves in two registers): ``prmt.b32`` spreads the bytes into 16-bit lanes,
``lop3.b32`` ORs the nibble into the exponent of 1024.0 (0x6400), ``sub.f16x2`` / ``fma.rn.f16x2`` remove the bias
(1032.0; x / 16 - 72.0 for the high nibble); ``tl.join(lo, hi).permute(0, 2, 1).reshape(BLOCK_K, BLOCK_N)``
interleaves the two halves back along K; the group's scale row ``(k * BLOCK_K) // GROUP_SIZE`` loaded in the loop;
``acc = tl.dot(a, w, acc)``; rows masked on M and columns on N (K a multiple of BLOCK_K, as the wrapper asserts).

The Triton CPU interpreter cannot run inline assembly (``NotImplementedError: inline_asm not supported in
interpreter mode``): the interpreter check emulated ``create_inline_asm`` bit for bit (the same magic constants on
numpy float16) and compared with ``reference``.

Specialisation: 128 x 128 x 64 tiles, GROUP_SIZE 128, GROUP_M 8, 8 warps, 3 stages. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

GROUP_SIZE = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_w4a16_gemm_kernel",
    "signature": {"a_ptr": "*fp16", "qw_ptr": "*u8", "scales_ptr": "*fp16", "c_ptr": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_qk": "i32", "stride_qn": "constexpr",
                  "stride_sk": "i32", "stride_sn": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_qn": 1, "stride_sn": 1, "stride_cn": 1, "GROUP_SIZE": GROUP_SIZE,
                   "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_qk", "stride_sk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 8192, "K": 4096}
SMALL: dict[str, int] = {"M": 208, "N": 320, "K": 512}


@triton.jit
def _int4x2_to_f16(packed):
    """uint8 (two int4 + 8) -> (low nibble - 8, high nibble - 8) as fp16, four bytes per asm invocation."""
    return tl.inline_asm_elementwise(
        asm="""
        {
        .reg .b32 t0, t1, zero, mask_lo, mask_hi, magic, bias_lo, sixteenth, bias_hi;
        mov.b32 zero, 0;
        mov.b32 mask_lo, 0x000f000f;
        mov.b32 mask_hi, 0x00f000f0;
        mov.b32 magic, 0x64006400;
        mov.b32 bias_lo, 0x64086408;
        mov.b32 sixteenth, 0x2c002c00;
        mov.b32 bias_hi, 0xd480d480;
        prmt.b32 t0, $4, zero, 0x4140;
        prmt.b32 t1, $4, zero, 0x4342;
        lop3.b32 $0, t0, mask_lo, magic, 0xea;
        lop3.b32 $1, t1, mask_lo, magic, 0xea;
        lop3.b32 $2, t0, mask_hi, magic, 0xea;
        lop3.b32 $3, t1, mask_hi, magic, 0xea;
        sub.f16x2 $0, $0, bias_lo;
        sub.f16x2 $1, $1, bias_lo;
        fma.rn.f16x2 $2, $2, sixteenth, bias_hi;
        fma.rn.f16x2 $3, $3, sixteenth, bias_hi;
        }
        """,
        constraints="=r,=r,=r,=r,r",
        args=[packed],
        dtype=(tl.float16, tl.float16),
        is_pure=True,
        pack=4,
    )


@triton.jit
def _w4a16_gemm_kernel(
    a_ptr, qw_ptr, scales_ptr, c_ptr,
    M, N, K,
    stride_am, stride_ak,
    stride_qk, stride_qn,
    stride_sk, stride_sn,
    stride_cm, stride_cn,
    GROUP_SIZE: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kp = tl.arange(0, BLOCK_K // 2)

    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    qw_ptrs = qw_ptr + offs_kp[:, None] * stride_qk + offs_n[None, :] * stride_qn
    s_ptrs = scales_ptr + offs_n * stride_sn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_m[:, None] < M, other=0.0)
        qw = tl.load(qw_ptrs, mask=offs_n[None, :] < N, other=0)
        scale = tl.load(s_ptrs + ((k * BLOCK_K) // GROUP_SIZE) * stride_sk, mask=offs_n < N, other=0.0)

        w_lo, w_hi = _int4x2_to_f16(qw)
        w = tl.join(w_lo, w_hi).permute(0, 2, 1).reshape(BLOCK_K, BLOCK_N)
        w = w * scale[None, :]

        acc = tl.dot(a, w, acc)
        a_ptrs += BLOCK_K * stride_ak
        qw_ptrs += (BLOCK_K // 2) * stride_qk

    c = acc.to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def w4a16_matmul(a: Any, qweight: Any, scales: Any, group_size: int = GROUP_SIZE, num_warps: int = 8,
                 num_stages: int = 3) -> Any:
    """C fp16 [M, N] = a @ dequant(qweight, scales)."""
    import torch
    M, K = a.shape
    Kp, N = qweight.shape
    assert Kp * 2 == K and K % 64 == 0 and K % group_size == 0 and scales.shape == (K // group_size, N)
    BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M = 128, 128, 64, 8
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    _w4a16_gemm_kernel[grid](
        a, qweight, scales, c, M, N, K,
        a.stride(0), a.stride(1), qweight.stride(0), qweight.stride(1), scales.stride(0), scales.stride(1),
        c.stride(0), c.stride(1),
        GROUP_SIZE=group_size, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=GROUP_M,
        num_warps=num_warps, num_stages=num_stages)
    return c


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a fp16 [M, K]; int4 weights q in [-8, 7] packed two per byte along K (q + 8, low nibble = even k); scales fp16
    [K / 128, N] of order 1 / sqrt(K) times the group's spread."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    q = torch.randint(-8, 8, (K, N), device=device, generator=g, dtype=torch.int32)
    u = (q + 8).to(torch.uint8)
    qweight = (u[0::2] | (u[1::2] << 4)).contiguous()
    scales = (torch.rand((K // GROUP_SIZE, N), device=device, generator=g) * 0.5 + 0.75) / (4.0 * K ** 0.5)
    return {"a": a, "qweight": qweight, "scales": scales.half(), "q": q.to(torch.int8)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    return w4a16_matmul(inputs["a"], inputs["qweight"], inputs["scales"],
                        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))


def reference(inputs: dict[str, Any]) -> Any:
    """a @ (q * scale of q's group) in float64, q unpacked from the packed bytes."""
    import torch
    qw = inputs["qweight"].to(torch.int32)
    K = qw.shape[0] * 2
    q = torch.empty((K, qw.shape[1]), dtype=torch.float64, device=qw.device)
    q[0::2] = ((qw & 0xF) - 8).double()
    q[1::2] = ((qw >> 4) - 8).double()
    w = q * inputs["scales"].double().repeat_interleave(GROUP_SIZE, dim=0)
    # the kernel rounds w to fp16 before the dot, as the reference does
    w = w.half().double()
    return inputs["a"].double() @ w


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
