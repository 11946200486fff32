"""bitsandbytes' Linear4bit forward with ``compress_statistics=True`` (NF4 weights whose absmax is itself
quantised: "double quantisation") fused into one GEMM, in the style of bitsandbytes' Triton backend
(bitsandbytes/backends/triton/kernels_4bit.py: ``dequant_4bit_body_util`` and the nested ``dequantize_blockwise`` of
the absmax, rewritten here to run inside a tl.dot K loop): W [N, K] quantised in flattened blocks of 64 elements, two
codes a byte (the first element in the HIGH nibble), stored [N, K // 2] uint8; each block's absmax stored as a uint8
code into a 256-entry signed dynamic map ``code2``, one fp32 ``absmax2`` per 256 blocks and one fp32 ``offset`` (the
mean subtracted before the second quantisation). The constructs, in the K loop and an @triton.jit helper: the byte
tile's flattened block index (``byte_offset // 32``, bitsandbytes' PAIRED_QUANT_BLOCK), three dependent gather loads
per byte (the absmax code, ``tl.load(code2_ptr + q)``, ``tl.load(absmax2_ptr + blk // 256)``; all with
``eviction_policy="evict_last"``) and a fused multiply-add with the offset loaded before the loop; the two NF4
nibbles looked up in the 16-entry table by pointer (``tl.load(nf4_ptr + (b >> 4))``, ``tl.load(nf4_ptr + (b &
0xF))``), scaled, merged with ``tl.interleave`` and cast to fp16; X [M, K] fp16, ``tl.dot(x, tl.trans(w), acc)``;
M, N and the K tail (K a multiple of 64, not of BLOCK_K) masked; fp16 out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"x_ptr": "*fp16", "w_ptr": "*u8", "absmax_q_ptr": "*u8", "code2_ptr": "*fp32",
                  "absmax2_ptr": "*fp32", "offset_ptr": "*fp32", "nf4_ptr": "*fp32", "out_ptr": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32", "stride_xm": "i32", "stride_om": "i32"},
    "constexprs": {"QUANT_BLOCK": 64, "DQ_BLOCK": 256, "BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 128},
    "num_warps": 4, "num_stages": 3, "divisibility": ["N", "K", "stride_xm", "stride_om"]}
PROBLEM: dict[str, int] = {"M": 2048, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 70, "N": 150, "K": 320}      # ragged M and N, a K tail of 64

NF4_CODE = (-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
            -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
            0.24611230611801147, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941, 0.7229568362236023,
            1.0)


@triton.jit
def dequant_nested_absmax(abs_offsets, mask, absmax_q_ptr, code2_ptr, absmax2_ptr, offset, DQ_BLOCK: tl.constexpr):
    """absmax of each flattened 64-block: code2[q] * absmax2[block // DQ_BLOCK] + offset."""
    q = tl.load(absmax_q_ptr + abs_offsets, mask=mask, other=0, eviction_policy="evict_last")
    c = tl.load(code2_ptr + q, eviction_policy="evict_last")
    a2 = tl.load(absmax2_ptr + abs_offsets // DQ_BLOCK, mask=mask, other=0.0, eviction_policy="evict_last")
    return c * a2 + offset


@triton.jit
def bnb_nf4_dq_gemm(x_ptr, w_ptr, absmax_q_ptr, code2_ptr, absmax2_ptr, offset_ptr, nf4_ptr, out_ptr, M, N, K,
                    stride_xm, stride_om, QUANT_BLOCK: tl.constexpr, DQ_BLOCK: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    PAIRED_QUANT_BLOCK: tl.constexpr = QUANT_BLOCK // 2
    PAIRED_BLOCK_K: tl.constexpr = BLOCK_K // 2
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kp = tl.arange(0, PAIRED_BLOCK_K)
    mask_m = offs_m < M
    mask_n = offs_n < N
    row_bytes = offs_n.to(tl.int64) * (K // 2)                 # W's flattened byte offset of each row
    offset = tl.load(offset_ptr)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        mask_k = offs_k < k_remaining
        x = tl.load(x_ptr + offs_m[:, None] * stride_xm + (k * BLOCK_K + offs_k)[None, :],
                    mask=mask_m[:, None] & mask_k[None, :], other=0.0)
        byte_offs = row_bytes[:, None] + k * PAIRED_BLOCK_K + offs_kp[None, :]
        wmask = mask_n[:, None] & (offs_kp[None, :] < k_remaining // 2)
        b = tl.load(w_ptr + byte_offs, mask=wmask, other=0)
        absmax = dequant_nested_absmax(byte_offs // PAIRED_QUANT_BLOCK, wmask, absmax_q_ptr, code2_ptr, absmax2_ptr,
                                       offset, DQ_BLOCK)
        higher = tl.load(nf4_ptr + (b >> 4), eviction_policy="evict_last") * absmax
        lower = tl.load(nf4_ptr + (b & 0xF), eviction_policy="evict_last") * absmax
        w = tl.interleave(higher, lower).to(tl.float16)      # [BLOCK_N, BLOCK_K]
        acc = tl.dot(x, tl.trans(w), acc)
    tl.store(out_ptr + offs_m[:, None] * stride_om + offs_n[None, :], acc.to(tl.float16),
             mask=mask_m[:, None] & mask_n[None, :])


def _dynamic_map(device: str) -> Any:
    """A signed 256-entry map in [-1, 1], dense near 0 (bitsandbytes' dynamic map's shape, not its exact values)."""
    import torch
    t = torch.linspace(-1.0, 1.0, 256, device=device, dtype=torch.float64)
    return (t.sign() * t.abs() ** 2).to(torch.float32)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Random NF4 codes; per-64-block absmax in [0.5, 1.5) / sqrt(K) double-quantised as bitsandbytes does."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    codes = torch.randint(0, 16, (N, K), device=device, generator=g, dtype=torch.int32)
    flat = codes.reshape(-1)
    packed = ((flat[0::2] << 4) | flat[1::2]).to(torch.uint8).reshape(N, K // 2).contiguous()
    nblocks = N * K // 64
    absmax = (torch.rand(nblocks, device=device, generator=g) + 0.5) / K ** 0.5
    offset = absmax.mean()
    centred = absmax - offset
    pad = (-nblocks) % 256
    c2 = torch.nn.functional.pad(centred, (0, pad)).reshape(-1, 256)
    absmax2 = c2.abs().amax(dim=1).clamp_min(1e-12)
    code2 = _dynamic_map(device)
    normed = (c2 / absmax2[:, None]).reshape(-1)[:nblocks]
    q = torch.empty(nblocks, dtype=torch.uint8, device=device)
    for s in range(0, nblocks, 1 << 16):                      # nearest code, in chunks
        q[s:s + (1 << 16)] = (normed[s:s + (1 << 16), None] - code2[None, :]).abs().argmin(dim=1).to(torch.uint8)
    x = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    return {"x": x, "codes": codes, "packed": packed, "absmax_q": q, "code2": code2, "absmax2": absmax2.float(),
            "offset": offset.reshape(1).float(), "nf4": torch.tensor(NF4_CODE, device=device, dtype=torch.float32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out = x @ dequant(W).T, fp16 [M, N]."""
    import torch
    x, packed = inputs["x"], inputs["packed"]
    M, K = x.shape
    N = packed.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 128))
    bnb_nf4_dq_gemm[grid](x, packed, inputs["absmax_q"], inputs["code2"], inputs["absmax2"], inputs["offset"],
                          inputs["nf4"], out, M, N, K, x.stride(0), out.stride(0), QUANT_BLOCK=64, DQ_BLOCK=256,
                          BLOCK_M=64, BLOCK_N=128, BLOCK_K=128, num_warps=config.get("num_warps", 4),
                          num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    codes = inputs["codes"]
    N, K = codes.shape
    q = inputs["absmax_q"].long()
    blk = torch.arange(q.numel(), device=q.device)
    absmax = (inputs["code2"].double()[q] * inputs["absmax2"].double()[blk // 256] + inputs["offset"].double())
    w = inputs["nf4"].double()[codes.long()] * absmax.repeat_interleave(64).reshape(N, K)
    return inputs["x"].double() @ w.to(torch.float16).double().T


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
