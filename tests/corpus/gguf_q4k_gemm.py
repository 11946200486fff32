"""A GGUF ``Q4_K`` weight-only GEMM (llama.cpp's ``block_q4_K`` / ``dequantize_row_q4_K`` ported into a Triton matmul,
the way GGUF-serving Triton paths write it): the weights stay in llama.cpp's **array-of-structs byte layout**, one
144-byte super-block per 256 weights of an output row (``half d; half dmin; uint8 scales[12]; uint8 qs[128]``), and
are dequantised inside the K loop.

The constructs: one ``*u8`` weight operand read as bytes; per K step (BLOCK_K = 64 = one pair of 32-weight
sub-blocks, so four steps per super-block) the super-block's **fp16 ``d`` / ``dmin`` rebuilt from two bytes each**
(``lo | hi << 8`` to uint16, then ``.to(tl.float16, bitcast=True)``); the sub-block's **6-bit scale and min unpacked
from the packed 12-byte array** (``get_scale_min_k4``: ``q[j] & 63`` for j < 4, else ``(q[j+4] & 0xF) | ((q[j-4] >> 6)
<< 4)``, chosen by ``tl.where`` on the sub-block index, three byte gathers); the 4-bit quants read as a [BLOCK_K,
BLOCK_N] byte gather (column n's super-block at ``n * stride_wn + sb * 144``), low nibble for the first 32 rows of the
step, high nibble for the next 32; ``w = d * sc * q - dmin * m`` in fp32, cast to fp16, ``tl.dot`` with the fp16
activations; grouped program ids, M masked. fp16 activations and output, fp32 accumulator, 64 x 64 x 64 tiles,
4 warps, 3 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

QK_K, BLOCK_BYTES = 256, 144
BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M = 64, 64, 64, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "q4k_gemm_kernel",
    "signature": {"a_ptr": "*fp16", "w_ptr": "*u8", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_wn": "i32", "stride_cm": "i32"},
    "constexprs": {"QK_K": QK_K, "BLOCK_BYTES": BLOCK_BYTES, "BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N,
                   "BLOCK_K": BLOCK_K, "GROUP_M": GROUP_M},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "w_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_wn", "stride_cm"]}
# a 7B model's MLP up-projection in a prefill batch of 2048 tokens
PROBLEM: dict[str, int] = {"M": 2048, "N": 11008, "K": 4096}
SMALL: dict[str, int] = {"M": 50, "N": 128, "K": 512}


@triton.jit
def q4k_gemm_kernel(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm,
                    QK_K: tl.constexpr, BLOCK_BYTES: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None].to(tl.int64) * stride_am + offs_k[None, :]
    a_mask = offs_m[:, None] < M
    w_rows = w_ptr + offs_n[None, :].to(tl.int64) * stride_wn          # [1, BLOCK_N]: each output row's bytes
    half = offs_k // 32                                               # 0: low nibbles, 1: high nibbles
    q_off = (offs_k % 32)[:, None]
    q_shift = (half * 4)[:, None].to(tl.uint8)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        sb = k // QK_K
        pair = (k % QK_K) // 64
        blk = w_rows + sb * BLOCK_BYTES
        # the super-block's two fp16 scales, little-endian bytes 0-1 and 2-3
        d_lo = tl.load(blk).to(tl.uint16)
        d_hi = tl.load(blk + 1).to(tl.uint16)
        d = (d_lo | (d_hi << 8)).to(tl.float16, bitcast=True).to(tl.float32)
        m_lo = tl.load(blk + 2).to(tl.uint16)
        m_hi = tl.load(blk + 3).to(tl.uint16)
        dmin = (m_lo | (m_hi << 8)).to(tl.float16, bitcast=True).to(tl.float32)
        # get_scale_min_k4: the sub-block's 6-bit scale and min from scales[12] (bytes 4..15)
        j = (2 * pair + half)[:, None]
        s_j = tl.load(blk + 4 + j).to(tl.int32)
        s_j4 = tl.load(blk + 4 + (j + 4)).to(tl.int32)
        s_jm4 = tl.load(blk + 4 + (j ^ 4)).to(tl.int32)
        sc = tl.where(j < 4, s_j & 63, (s_j4 & 0xF) | ((s_jm4 >> 6) << 4))
        mn = tl.where(j < 4, s_j4 & 63, (s_j4 >> 4) | ((s_j >> 6) << 4))
        # the 4-bit quants: 32 bytes per sub-block pair
        qb = tl.load(blk + 16 + pair * 32 + q_off)
        q = ((qb >> q_shift) & 0xF).to(tl.float32)
        w = (d * sc.to(tl.float32) * q - dmin * mn.to(tl.float32)).to(tl.float16)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        acc += tl.dot(a, w)
        a_ptrs += BLOCK_K

    c_ptrs = c_ptr + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :]
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, acc.to(tl.float16), mask=c_mask)


def _dequant(wq: Any, N: int, K: int) -> Any:
    """llama.cpp's dequantize_row_q4_K on the [N, K / 256 * 144] byte array, in fp32, rounded to fp16 as the kernel
    rounds its tile."""
    import torch
    blocks = wq.view(N, K // QK_K, BLOCK_BYTES)
    d = blocks[..., 0:2].contiguous().view(torch.float16).float()          # [N, nsb, 1]
    dmin = blocks[..., 2:4].contiguous().view(torch.float16).float()
    s = blocks[..., 4:16].to(torch.int32)
    sc = torch.empty(N, K // QK_K, 8, dtype=torch.int32, device=wq.device)
    mn = torch.empty_like(sc)
    for jj in range(8):
        if jj < 4:
            sc[..., jj] = s[..., jj] & 63
            mn[..., jj] = s[..., jj + 4] & 63
        else:
            sc[..., jj] = (s[..., jj + 4] & 0xF) | ((s[..., jj - 4] >> 6) << 4)
            mn[..., jj] = (s[..., jj + 4] >> 4) | ((s[..., jj] >> 6) << 4)
    qs = blocks[..., 16:].to(torch.int32).view(N, K // QK_K, 4, 32)
    q = torch.stack([qs & 0xF, qs >> 4], dim=3).reshape(N, K // QK_K, 8, 32).float()
    w = d[..., None] * sc[..., None].float() * q - dmin[..., None] * mn[..., None].float()
    return w.reshape(N, K).half()


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K] fp16; weights [N, K] as Q4_K super-blocks: random quants and packed 6-bit scales / mins (all bytes
    random), d ~ U(0.5, 1.5) / 512 and dmin ~ U(0, 1) / 512 as fp16, laid out 144 bytes per super-block."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    nsb = K // QK_K
    a = torch.randn((M, K), device=device, generator=g).half()
    d = ((torch.rand((N, nsb, 1), device=device, generator=g) + 0.5) / 512).half()
    dmin = (torch.rand((N, nsb, 1), device=device, generator=g) / 512).half()
    body = torch.randint(0, 256, (N, nsb, 140), device=device, generator=g, dtype=torch.int32).to(torch.uint8)
    blocks = torch.cat([d.view(torch.uint8), dmin.view(torch.uint8), body], dim=2)
    return {"a": a, "wq": blocks.reshape(N, nsb * BLOCK_BYTES).contiguous(), "N": N}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    a, wq, N = inputs["a"], inputs["wq"], inputs["N"]
    M, K = a.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    q4k_gemm_kernel[grid](a, wq, c, M, N, K, a.stride(0), wq.stride(0), c.stride(0), QK_K=QK_K,
                          BLOCK_BYTES=BLOCK_BYTES, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=GROUP_M,
                          num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    a, wq, N = inputs["a"], inputs["wq"], inputs["N"]
    w = _dequant(wq, N, a.shape[1])
    return a.float() @ w.float().t()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
