"""A W4A16 GEMM whose 4-bit weights are NF4 codes looked up in a 16-entry table with ``tl.gather`` inside the dot loop,
as newer bitsandbytes-style / QLoRA Triton kernels write the lookup (the table loaded once before the loop, the codes
gathered as a flat index tensor and reshaped back): X [M, K] fp16 by pointer, W [K / 2, N] uint8 holding two codes
along K (low nibble the even row), the nibbles split with ``&`` / ``>>``, interleaved along K with ``tl.join`` +
``tl.permute`` + ``tl.reshape``, one fp16 absmax scale per column per BLOCK_K rows; rows and columns masked. Nothing
here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "nf4_lut_gather_gemm",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*u8", "lut_ptr": "*fp32", "s_ptr": "*fp16", "y_ptr": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["x_ptr", "w_ptr", "s_ptr", "y_ptr", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 200, "N": 328, "K": 512}     # M and N ragged (masked); K a multiple of BLOCK_K


@triton.jit
def nf4_lut_gather_gemm(x_ptr, w_ptr, lut_ptr, s_ptr, y_ptr, M, N, K, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kp = tl.arange(0, BLOCK_K // 2)
    m_mask = offs_m < M
    n_mask = offs_n < N
    lut = tl.load(lut_ptr + tl.arange(0, 16))
    x_ptrs = x_ptr + offs_m[:, None] * K + offs_k[None, :]
    w_ptrs = w_ptr + offs_kp[:, None] * N + offs_n[None, :]
    s_ptrs = s_ptr + offs_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        x = tl.load(x_ptrs, mask=m_mask[:, None], other=0.0)
        packed = tl.load(w_ptrs, mask=n_mask[None, :], other=0)
        codes = tl.join(packed & 0xF, packed >> 4)                    # [BLOCK_K / 2, BLOCK_N, 2]
        codes = tl.reshape(tl.permute(codes, (0, 2, 1)), (BLOCK_K, BLOCK_N))
        w = tl.gather(lut, tl.reshape(codes.to(tl.int32), (BLOCK_K * BLOCK_N,)), 0)
        scale = tl.load(s_ptrs, mask=n_mask, other=0.0).to(tl.float32)
        w = (tl.reshape(w, (BLOCK_K, BLOCK_N)) * scale[None, :]).to(tl.float16)
        acc = tl.dot(x, w, acc)
        x_ptrs += BLOCK_K
        w_ptrs += (BLOCK_K // 2) * N
        s_ptrs += N
    y_ptrs = y_ptr + offs_m[:, None] * N + offs_n[None, :]
    tl.store(y_ptrs, acc.to(tl.float16), mask=m_mask[:, None] & n_mask[None, :])


NF4 = [-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
       -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
       0.24611230611801147, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0]


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K] fp16; codes [K, N] in 0..15 packed two along K into w [K / 2, N]; scales [K / 64, N] fp16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    codes = torch.randint(0, 16, (K, N), device=device, generator=g, dtype=torch.int32)
    w = (codes[0::2] | (codes[1::2] << 4)).to(torch.uint8)
    return {"x": torch.randn((M, K), device=device, dtype=torch.float16, generator=g), "codes": codes, "w": w,
            "lut": torch.tensor(NF4, device=device, dtype=torch.float32),
            "s": (torch.rand((K // 64, N), device=device, generator=g) / K ** 0.5).to(torch.float16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    x, w = inputs["x"], inputs["w"]
    M, K = x.shape
    N = w.shape[1]
    y = torch.empty((M, N), device=x.device, dtype=torch.float16)
    nf4_lut_gather_gemm[(triton.cdiv(M, 64), triton.cdiv(N, 128))](
        x, w, inputs["lut"], inputs["s"], y, M, N, K, BLOCK_M=64, BLOCK_N=128, BLOCK_K=64,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    """Y = X @ (lut[codes] * scale of the code's 64-row group), in fp32."""
    s = inputs["s"].float().repeat_interleave(64, dim=0)
    w = (inputs["lut"][inputs["codes"].long()] * s).half().float()
    return inputs["x"].float() @ w


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
