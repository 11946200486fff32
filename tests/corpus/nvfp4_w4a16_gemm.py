"""An NVFP4 weight-only GEMM (W4A16) that dequantises in software inside the K loop, in the style of the NVFP4
emulation / Marlin-FP4 paths of vLLM and torchao (rewritten here): W [N, K] stored as NVIDIA's NVFP4 -- two e2m1
values a byte packed ALONG K ([N, K // 2] uint8, the even K element in the low nibble), one e4m3 block scale per 16
K values ([N, K // 16], passed as uint8 and turned back into fp8 with ``.to(tl.float8e4nv, bitcast=True)``, then
fp32) and one fp32 per-tensor global scale loaded before the loop. The constructs, all in the K loop: the packed
byte split by ``& 0xF`` / ``>> 4``, the nibbles put back in K order by ``tl.join`` + ``reshape``, widened to uint16
and shifted into fp16's sign / exponent / mantissa fields (``(c & 0x8) << 12 | (c & 0x7) << 9``, bitcast to fp16)
and multiplied by 2**14 to fix the exponent bias (which also maps e2m1's subnormal 0b001 to 0.5 exactly); the
[BLOCK_N, BLOCK_K] tile reshaped to [BLOCK_N, BLOCK_K // 16, 16] to take the [BLOCK_N, BLOCK_K // 16, 1] block
scales times the global scale, reshaped back, cast to fp16 and used as ``tl.dot(a, tl.trans(w), acc)``; A's rows,
W's rows and the K tail masked (three masks, the packed and the scale tiles with their own K bounds); a GROUP_M
swizzled grid. fp16 activations and output, fp32 accumulation. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "w_ptr": "*u8", "ws_ptr": "*u8", "gs_ptr": "*fp32", "c_ptr": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_wn": "i32", "stride_wsn": "i32",
                  "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["K", "stride_am", "stride_wn", "stride_wsn", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 72, "N": 200, "K": 352}      # ragged M, N and a K tail of 96


@triton.jit
def nvfp4_w4a16_gemm(a_ptr, w_ptr, ws_ptr, gs_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_wsn, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
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
    offs_ks = tl.arange(0, BLOCK_K // 16)
    mask_m = offs_m < M
    mask_n = offs_n < N
    global_scale = tl.load(gs_ptr)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k0 = k * BLOCK_K
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k0 + offs_k)[None, :],
                    mask=mask_m[:, None] & ((k0 + offs_k)[None, :] < K), other=0.0)
        kp = k0 // 2 + offs_kp
        packed = tl.load(w_ptr + offs_n[:, None] * stride_wn + kp[None, :],
                         mask=mask_n[:, None] & (kp[None, :] < K // 2), other=0)
        ks = k0 // 16 + offs_ks
        s_raw = tl.load(ws_ptr + offs_n[:, None] * stride_wsn + ks[None, :],
                        mask=mask_n[:, None] & (ks[None, :] < K // 16), other=0)
        lo = packed & 0xF
        hi = packed >> 4
        codes = tl.join(lo, hi).reshape(BLOCK_N, BLOCK_K).to(tl.uint16)
        bits = ((codes & 0x8) << 12) | ((codes & 0x7) << 9)
        w = bits.to(tl.float16, bitcast=True) * 16384.0                     # 2 ** (15 - 1): e2m1 -> fp16 bias
        scale = s_raw.to(tl.float8e4nv, bitcast=True).to(tl.float32) * global_scale
        w = tl.reshape(w.to(tl.float32), (BLOCK_N, BLOCK_K // 16, 16)) * scale[:, :, None]
        w = tl.reshape(w, (BLOCK_N, BLOCK_K)).to(tl.float16)
        acc = tl.dot(a, tl.trans(w), acc)
    c = acc.to(tl.float16)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], c, mask=mask_m[:, None] & mask_n[None, :])


_E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K] fp16; codes [N, K] e2m1 packed along K into [N, K // 2] bytes; e4m3 block scales [N, K // 16]
    as bytes; a global scale chosen so that the weights are O(1 / sqrt(K))."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    codes = torch.randint(0, 16, (N, K), device=device, generator=g, dtype=torch.int32)
    packed = (codes[:, 0::2] | (codes[:, 1::2] << 4)).to(torch.uint8).contiguous()
    scales = (torch.rand((N, K // 16), device=device, generator=g) * 3.5 + 0.25).to(torch.float8_e4m3fn)
    gs = torch.tensor([0.25 / K ** 0.5], device=device, dtype=torch.float32)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    return {"a": a, "codes": codes, "packed": packed, "scales": scales, "scales_u8": scales.view(torch.uint8),
            "gs": gs}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ dequant(W).T, fp16 [M, N]."""
    import torch
    a, packed, s = inputs["a"], inputs["packed"], inputs["scales_u8"]
    M, K = a.shape
    N = packed.shape[0]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
    nvfp4_w4a16_gemm[grid](a, packed, s, inputs["gs"], c, M, N, K, a.stride(0), packed.stride(0), s.stride(0),
                           c.stride(0), BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, GROUP_M=8,
                           num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    codes = inputs["codes"]
    lut = torch.tensor(_E2M1, dtype=torch.float64, device=codes.device)
    w = lut[codes.long()]
    s = inputs["scales"].to(torch.float64).repeat_interleave(16, dim=1) * inputs["gs"].double()
    w16 = (w * s).to(torch.float16).double()                  # the kernel feeds the dot fp16 weights
    return inputs["a"].double() @ w16.T


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
