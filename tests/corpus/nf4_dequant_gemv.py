"""bitsandbytes-style NF4 4-bit weight-only GEMV (bitsandbytes/backends/triton/kernels_4bit.py idioms): W [N, K]
quantised row-major in flattened blocks of QUANT_BLOCK = 64 elements, packed two codes per uint8 (first element in
the high nibble), one fp32 absmax per flattened block (``offsets // QUANT_BLOCK``), the 16-entry NF4 code table
gathered with ``tl.load(quant_ptr + code)`` per nibble (``eviction_policy="evict_last"``), the two halves merged
with ``tl.interleave``; y = W x looped over K in BLOCK_K steps with a multiply and ``tl.sum`` (no ``tl.dot``),
ragged K / N masks. fp16 x and y."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

QUANT_BLOCK = 64
NF4_CODE = [-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
            -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
            0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
            0.7229568362236023, 1.0]
TWILL_SPEC: dict[str, Any] = {
    "kernel": "nf4_gemv_kernel",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*u8", "absmax_ptr": "*fp32", "quant_ptr": "*fp32", "y_ptr": "*fp16",
                  "N": "i32", "K": "i32", "stride_wn": "i32"},
    "constexprs": {"QUANT_BLOCK": QUANT_BLOCK, "BLOCK_N": 32, "BLOCK_K": 256},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["x_ptr", "w_ptr", "absmax_ptr", "quant_ptr", "y_ptr", "N", "K", "stride_wn"]}
PROBLEM: dict[str, int] = {"N": 14336, "K": 4096}
SMALL: dict[str, int] = {"N": 77, "K": 330}


@triton.jit
def dequant_nf4_body_util(a, offsets, quant_ptr, absmax_ptr, n_elems, QUANT_BLOCK: tl.constexpr):
    """a: packed bytes [BLOCK_N, BLOCK_K // 2]; offsets: flattened element index of each output [BLOCK_N, BLOCK_K]."""
    mask = offsets < n_elems
    higher = a >> 4
    lower = a & 0xF
    abs_offsets = offsets // QUANT_BLOCK
    absmax = tl.load(absmax_ptr + abs_offsets, mask=mask, other=1.0, eviction_policy="evict_last")
    mul_high = tl.load(quant_ptr + higher, eviction_policy="evict_last")
    mul_low = tl.load(quant_ptr + lower, eviction_policy="evict_last")
    out_dq = tl.interleave(mul_high, mul_low)
    out_dq = out_dq * absmax
    return out_dq


@triton.jit
def nf4_gemv_kernel(x_ptr, w_ptr, absmax_ptr, quant_ptr, y_ptr, N, K, stride_wn, QUANT_BLOCK: tl.constexpr,
                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(axis=0)
    PAIRED_BLOCK_K: tl.constexpr = BLOCK_K // 2

    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_n = offs_n < N
    offs_kp = tl.arange(0, PAIRED_BLOCK_K)
    offs_k = tl.arange(0, BLOCK_K)
    n_elems = N * K
    row_start = offs_n.to(tl.int64) * K

    w_ptrs = w_ptr + offs_n[:, None].to(tl.int64) * stride_wn + offs_kp[None, :]
    x_ptrs = x_ptr + offs_k

    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        mask_kp = offs_kp < k_remaining // 2
        a = tl.load(w_ptrs, mask=mask_n[:, None] & mask_kp[None, :], other=0)
        mask_k = offs_k < k_remaining
        offsets = row_start[:, None] + k * BLOCK_K + offs_k[None, :]
        offsets = tl.where(mask_n[:, None] & mask_k[None, :], offsets, n_elems)
        w = dequant_nf4_body_util(a, offsets, quant_ptr, absmax_ptr, n_elems, QUANT_BLOCK)
        x = tl.load(x_ptrs, mask=mask_k, other=0.0).to(tl.float32)
        acc += tl.sum(w * x[None, :], axis=1)
        w_ptrs += PAIRED_BLOCK_K
        x_ptrs += BLOCK_K

    tl.store(y_ptr + offs_n, acc.to(y_ptr.dtype.element_ty), mask=mask_n)


def quantize_nf4(w, code):
    """bitsandbytes quantize_4bit(quant_type='nf4', blocksize=64) on the flattened weight."""
    import torch
    flat = w.float().flatten()
    pad = (-flat.numel()) % QUANT_BLOCK
    blocks = torch.nn.functional.pad(flat, (0, pad)).view(-1, QUANT_BLOCK)
    absmax = blocks.abs().amax(1).clamp_min(1e-8)
    normed = (blocks / absmax[:, None]).flatten()[:flat.numel()]
    mid = (code[1:] + code[:-1]) / 2
    q = torch.bucketize(normed, mid).to(torch.uint8)     # nearest code
    packed = (q[0::2] << 4) | q[1::2]
    return packed.view(w.shape[0], w.shape[1] // 2), absmax


def make_inputs(N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    code = torch.tensor(NF4_CODE, dtype=torch.float32, device=device)
    w = torch.randn((N, K), device=device, generator=g) * 0.02
    packed, absmax = quantize_nf4(w, code)
    return {"x": torch.randn((K,), device=device, generator=g).half(), "w_packed": packed.contiguous(),
            "absmax": absmax.contiguous(), "code": code}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y = dequant_nf4(W) @ x: fp16 [N]."""
    import torch
    x, wp, absmax, code = inputs["x"], inputs["w_packed"], inputs["absmax"], inputs["code"]
    N = wp.shape[0]
    K = x.shape[0]
    y = torch.empty((N,), device=x.device, dtype=x.dtype)
    grid = lambda META: (triton.cdiv(N, META["BLOCK_N"]),)
    nf4_gemv_kernel[grid](x, wp, absmax, code, y, N, K, wp.stride(0), QUANT_BLOCK=QUANT_BLOCK, BLOCK_N=32,
                          BLOCK_K=256, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    wp, absmax, code = inputs["w_packed"], inputs["absmax"], inputs["code"]
    N = wp.shape[0]
    q = torch.stack([wp >> 4, wp & 0xF], -1).view(N, -1).long()
    K = q.shape[1]
    scale = absmax.repeat_interleave(QUANT_BLOCK)[:N * K].view(N, K)
    w = code[q] * scale
    return w @ inputs["x"].float()


def flops(N: int, K: int) -> float:
    return 2.0 * N * K
